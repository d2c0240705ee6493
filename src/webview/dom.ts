// The only way the record view's script makes DOM: elements with text content, never HTML
// parsed from a string, so a record's strings can never become markup or script.

import type { FindingKind, LegendEntry } from '../core/views/recordViewProtocol';

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Fills `{0}` in a translated string the host sent. */
export function format(template: string, ...args: Array<string | number>): string {
  return template.replace(/\{(\d+)\}/g, (match, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : match));
}

/** Symbol and word of each kind of mark, from the legend the host sent. */
let legend = new Map<FindingKind, LegendEntry>();

export function setLegend(entries: readonly LegendEntry[]): void {
  legend = new Map(entries.map((e) => [e.kind, e]));
}

/**
 * A mark's badge: a symbol and a word, so it reads without colour (and in high contrast, where
 * it gets a border); the symbol is hidden from screen readers, which read the word.
 */
export function badge(kind: FindingKind): HTMLSpanElement {
  const entry = legend.get(kind);
  const span = el('span', `badge badge-${kind}`);
  const icon = el('span', 'badge-icon', entry?.icon ?? '•');
  icon.setAttribute('aria-hidden', 'true');
  span.append(icon, el('span', 'badge-word', entry?.word ?? kind));
  return span;
}
