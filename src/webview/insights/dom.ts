// DOM helpers of the insights webviews: elements with text content only (never HTML parsed from
// a string, so no record string can become markup), the host's strings, and messages.

import type { InsightsStrings, InsightsWebviewMessage, PersistedInsightsView } from '../../core/views/insightsProtocol';
import { format } from '../dom';

interface VsCodeApi {
  postMessage(message: unknown): void;
  setState(state: { persist?: PersistedInsightsView }): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function post(message: InsightsWebviewMessage): void {
  api.postMessage(message);
}

/** Keeps what the panel shows (resource, range, source, environment) for a restore after a reload. */
export function keep(persist: PersistedInsightsView | undefined): void {
  if (persist) api.setState({ persist });
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

let strings: InsightsStrings = {};

export function setStrings(next: InsightsStrings): void {
  strings = next;
}

/** The host's translation of `key`, `{0}`… filled in. */
export function t(key: string, ...args: Array<string | number>): string {
  return format(strings[key] ?? key, ...args);
}

/** As t, for a sentence about `count` things: the host's `key.one` when there is one of them. */
export function tn(key: string, count: number, ...args: Array<string | number>): string {
  return format((count === 1 ? strings[`${key}.one`] : undefined) ?? strings[key] ?? key, ...args);
}

export function button(text: string, onClick: () => void, className = 'button'): HTMLButtonElement {
  const b = el('button', className, text);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

/**
 * The status line: loading, failed or cancelled, read out by screen readers; for a restored panel
 * whose environment is not in use, with the button that switches back to it.
 */
export function statusLine(status: { state: string; message: string; switchBack?: string } | undefined): HTMLElement {
  const p = el('p', `status status-${status?.state ?? 'none'}`, status?.message ?? '');
  p.setAttribute('role', 'status');
  if (status?.switchBack === undefined) return p;
  const line = el('div', 'status-line');
  line.append(p, button(status.switchBack, () => post({ type: 'switchEnvironment' }), 'button status-action'));
  return line;
}
