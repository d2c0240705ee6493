// The only way the webviews (record view, exchange view) make DOM: elements with text content, never HTML
// parsed from a string, so a record's strings can never become markup or script.

import type { Counted, FindingKind, LegendEntry } from '../core/views/recordViewProtocol';

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A count in words: the singular for one, the number grouped as the user's locale writes it. */
export function countText(words: Counted, n: number, ...rest: Array<string | number>): string {
  return format(n === 1 ? words.one : words.other, n.toLocaleString(), ...rest);
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

/** The validator's marks on a line of JSON: a badge and the message, each as text. */
export function appendMarks(line: HTMLElement, marks: ReadonlyArray<{ readonly kind: FindingKind; readonly message: string }> | undefined): void {
  for (const m of marks ?? []) {
    const mark = el('span', `mark mark-${m.kind}`);
    mark.append(badge(m.kind), el('span', 'mark-message', m.message));
    line.append(mark);
  }
}

/** Calls `save` once scrolling has paused for 200 ms: a view keeps its scroll position cheaply. */
export function onScrollSettled(save: () => void): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  window.addEventListener('scroll', () => {
    clearTimeout(timer);
    timer = setTimeout(save, 200);
  });
}

/** The page's fixed frame: a toolbar, a heading, a status line read out politely, the content. */
export function pageFrame(): { app: HTMLElement; toolbar: HTMLElement; heading: HTMLElement; status: HTMLElement; content: HTMLElement } {
  const app = document.getElementById('app') ?? document.body;
  const toolbar = el('div', 'toolbar');
  toolbar.setAttribute('role', 'toolbar');
  const heading = el('header', 'heading');
  const status = el('p', 'status');
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  const content = el('div', 'content');
  app.append(toolbar, heading, status, content);
  return { app, toolbar, heading, status, content };
}

/** A section with its heading, labelled by it for screen readers. */
/** A table's head: a row of column headers, each cell's class from `classOf` (its place). */
export function tableHead(names: readonly string[], classOf: (i: number) => string = () => ''): HTMLTableSectionElement {
  const row = el('tr');
  names.forEach((name, i) => {
    const th = el('th', classOf(i), name);
    th.scope = 'col';
    row.append(th);
  });
  const thead = el('thead');
  thead.append(row);
  return thead;
}

export function section(className: string, title: string): HTMLElement {
  const box = el('section', className);
  const id = `h-${className}`;
  const h2 = el('h2', '', title);
  h2.id = id;
  box.setAttribute('aria-labelledby', id);
  box.append(h2);
  return box;
}
