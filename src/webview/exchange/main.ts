// The exchange view's script (bundled to dist/exchangeView.js). Says 'ready', then renders what
// the host sends: the request, the reply's status and headers, the attempts, and the body as its
// validated records or as text. Every value is set as text (see ../dom.ts); the host is asked
// for every action, and what the view shows is kept with setState for a reload.

import { FINDING_KINDS, EXCHANGE_ACTIONS, TIMING_PHASES, msFigure, type AttemptRow, type BodyRecordRow, type ExchangeActionName, type ExchangeHostMessage, type ExchangeViewModel, type ExchangeViewStrings, type ExchangeWebviewMessage, type FindingCounts, type PersistedExchangeView } from '../../core/views/exchangeViewProtocol';
import { badge, countText, el, format, onScrollSettled, pageFrame, section, setLegend, tableHead } from '../dom';

interface VsCodeApi {
  postMessage(message: ExchangeWebviewMessage): void;
  getState(): unknown;
  setState(state: { persist?: PersistedExchangeView; scrollY: number }): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const saved = (vscode.getState() ?? {}) as { persist?: PersistedExchangeView; scrollY?: number };
let persist = saved.persist;
let scrollToRestore = typeof saved.scrollY === 'number' ? saved.scrollY : 0;
let nextRequestId = 1;
const pending = new Map<number, (ok: boolean, message?: string) => void>();

const saveState = (): void => vscode.setState({ persist, scrollY: Math.round(window.scrollY) });

const { app, toolbar, heading, status, content } = pageFrame();

function act(action: ExchangeActionName, button: HTMLButtonElement, index?: number): void {
  if (button.getAttribute('aria-busy') === 'true') return;
  button.setAttribute('aria-busy', 'true');
  status.textContent = '';
  const requestId = nextRequestId++;
  pending.set(requestId, (_ok, message) => {
    button.removeAttribute('aria-busy');
    if (message) status.textContent = message;
  });
  vscode.postMessage(index === undefined ? { type: 'action', requestId, action } : { type: 'action', requestId, action, index });
}

function button(text: string, className: string, onClick: (b: HTMLButtonElement) => void): HTMLButtonElement {
  const b = el('button', className, text);
  b.type = 'button';
  b.addEventListener('click', () => onClick(b));
  return b;
}

function buildToolbar(m: ExchangeViewModel, s: ExchangeViewStrings): void {
  toolbar.setAttribute('aria-label', s.toolbar);
  toolbar.replaceChildren(
    ...EXCHANGE_ACTIONS.filter((a) => a !== 'editAndResend' || m.resendable).map((a) => button(s.actions[a], `action action-${a}`, (b) => act(a, b))),
  );
}

/** A two-column table of names and values (headers), every cell text. */
function pairs(rows: ReadonlyArray<readonly [string, string]>, s: ExchangeViewStrings, className = 'headers'): HTMLElement {
  if (rows.length === 0) return el('p', 'none', s.none);
  const table = el('table', className);
  const body = el('tbody');
  for (const [name, value] of rows) {
    const tr = el('tr');
    const th = el('th', 'header-name', name);
    th.scope = 'row';
    tr.append(th, el('td', 'header-value', value));
    body.append(tr);
  }
  table.append(body);
  return table;
}

/** The counts of each kind of finding; `presentOnly`: the kinds a record has, not a row of zeros. */
function countsList(counts: FindingCounts, presentOnly = false): HTMLElement {
  const list = el('ul', 'counts');
  for (const kind of FINDING_KINDS) {
    if (presentOnly && !counts[kind]) continue;
    const item = el('li', `count count-${kind}${counts[kind] ? '' : ' count-none'}`);
    item.append(badge(kind), el('span', 'count-n', String(counts[kind])));
    list.append(item);
  }
  return list;
}

function verdict(valid: boolean, s: ExchangeViewStrings): HTMLElement {
  const v = el('span', valid ? 'verdict verdict-valid' : 'verdict verdict-invalid');
  const icon = el('span', 'badge-icon', valid ? '✔' : '✖');
  icon.setAttribute('aria-hidden', 'true');
  v.append(icon, el('span', '', valid ? s.valid : s.invalid));
  return v;
}

function findingsOf(row: BodyRecordRow, s: ExchangeViewStrings): HTMLElement {
  if (row.findingsTotal === 0) return el('p', 'none', s.noFindings);
  const list = el('ol', 'finding-list');
  for (const f of row.findings) {
    const item = el('li', `finding finding-${f.kind}`);
    item.append(badge(f.kind), el('code', 'path', f.path || '/'), el('span', 'message', f.message));
    list.append(item);
  }
  const box = el('div');
  box.append(list);
  if (row.findingsTotal > row.findings.length) box.append(el('p', 'more-findings', countText(s.moreFindings, row.findingsTotal - row.findings.length)));
  return box;
}

function recordRow(row: BodyRecordRow, s: ExchangeViewStrings, openable: boolean): HTMLElement {
  const item = el('li', `body-record ${row.valid ? 'record-valid' : 'record-invalid'}`);
  const head = el('div', 'record-head');
  // Numbered from 0, as the record's place in its list, the Problems panel and the CLI number it.
  const index = el('span', 'record-index', `#${row.index}`);
  index.title = format(s.recordIndex, row.index);
  head.append(index, el('span', 'record-title', row.title), verdict(row.valid, s), countsList(row.counts, true));
  if (openable) head.append(button(s.openRecord, 'action action-openRecord', (b) => act('openRecord', b, row.index)));
  item.append(head);
  if (row.findingsTotal > 0) {
    const details = el('details', 'record-findings');
    details.append(el('summary', '', `${s.findings} (${row.findingsTotal})`), findingsOf(row, s));
    item.append(details);
  }
  return item;
}

function renderBody(m: ExchangeViewModel, s: ExchangeViewStrings): HTMLElement {
  const box = section('body', s.body);
  const body = m.body;
  if (m.bodyCutBytes) box.append(el('p', 'note', format(s.bodyCut, m.bodyCutBytes)));
  if (body.type === 'none') {
    box.append(el('p', 'none', s.noBody));
    return box;
  }
  if (body.type === 'records') {
    const sub = el('p', 'records-summary');
    sub.append(el('span', 'kind', countText(s.records, body.records.length, body.wrapper)));
    sub.append(el('span', body.invalid ? 'verdict verdict-invalid' : 'verdict verdict-valid', body.invalid ? format(s.invalidRecords, body.invalid) : s.allValid));
    box.append(sub, countsList(body.counts));
    if (body.records.length === 0) box.append(el('p', 'none', s.noRecords));
    const list = el('ol', 'body-records');
    for (const row of body.records) list.append(recordRow(row, s, true));
    box.append(list);
  } else if (body.type === 'record') {
    const list = el('ol', 'body-records');
    const row = recordRow(body.record, s, m.method === 'GET');
    const details = row.querySelector('details');
    if (details) details.open = true;
    list.append(row);
    box.append(list);
    // What the record's zeros were compared with (the Records view's records), or why not.
    if (body.zeroBasis) box.append(el('p', 'zero-basis', body.zeroBasis));
  } else if (body.problem) {
    box.append(el('p', 'note', format(s.notJson, body.problem)));
  }
  const text = el('details', 'body-text');
  text.open = body.type === 'text';
  const pre = el('pre', 'raw', body.text);
  pre.tabIndex = 0;
  text.append(el('summary', '', s.bodyText), pre);
  if (body.textCut) text.append(el('p', 'note', format(s.bodyShownCut, body.text.length)));
  box.append(text);
  return box;
}

/**
 * Where the last attempt's time went: a row per phase with a bar placed on the attempt's
 * time (a waterfall, as browsers' network panels draw it) and its ms as text; each phase's name
 * says what it is on hover. The bars are drawn, the numbers are the data: a reader gets both.
 * Undefined when the last attempt has no phases (kept before they were measured, or it never got
 * a connection).
 */
function renderTiming(m: ExchangeViewModel, s: ExchangeViewStrings): HTMLElement | undefined {
  const last: AttemptRow | undefined = m.attempts[m.attempts.length - 1];
  const t = last?.timings;
  if (!t) return undefined;
  const phases: Array<{ phase: (typeof TIMING_PHASES)[number]; ms: number; startMs: number }> = [];
  let at = 0;
  for (const phase of TIMING_PHASES) {
    const ms = t[phase];
    if (ms === undefined) continue;
    phases.push({ phase, ms, startMs: at });
    at += ms;
  }
  if (phases.length === 0) return undefined;
  // The scale: the attempt's time, or the phases' sum when rounding made that larger.
  const scale = Math.max(last.durationMs, at, 0.1);
  const box = section('timing', s.timing);
  const where = t.remote ?? '?';
  const connection = format(t.reused ? s.reusedConnection : s.newConnection, t.tlsProtocol ? `${where} (${t.tlsProtocol})` : where);
  box.append(el('p', 'timing-connection', connection));
  if (m.attempts.length > 1) box.append(el('p', 'note', format(s.timingOfAttempt, m.attempts.length)));
  const table = el('table', 'timing-table');
  const thead = tableHead(s.timingColumns, (i) => (i === 2 ? 'num' : ''));
  const tbody = el('tbody');
  for (const p of phases) {
    const tr = el('tr', `timing-row phase-${p.phase}`);
    const th = el('th', 'timing-phase', s.phases[p.phase]);
    th.scope = 'row';
    th.title = s.phaseHints[p.phase];
    const lane = el('td', 'timing-lane');
    const track = el('span', 'timing-track');
    const bar = el('span', 'timing-bar');
    // Set through the CSSOM, which the view's policy allows (no style attribute in markup).
    bar.style.left = `${Math.min(100, (p.startMs / scale) * 100)}%`;
    bar.style.width = `${Math.min(100, (p.ms / scale) * 100)}%`;
    bar.setAttribute('aria-hidden', 'true');
    track.append(bar);
    lane.append(track);
    tr.append(th, lane, el('td', 'num', format(s.ms, msFigure(p.ms))));
    tbody.append(tr);
  }
  const foot = el('tfoot');
  const total = el('tr');
  const cell = el('td', 'timing-total', format(s.attemptTook, msFigure(last.durationMs)));
  cell.colSpan = 3;
  total.append(cell);
  foot.append(total);
  table.append(thead, tbody, foot);
  box.append(table);
  return box;
}

function render(m: ExchangeViewModel, s: ExchangeViewStrings): void {
  setLegend(m.legend);
  document.title = m.title;
  buildToolbar(m, s);
  heading.replaceChildren();
  const h1 = el('h1', 'title');
  h1.append(el('span', `method method-${m.method.toLowerCase()}`, m.method), el('span', 'url', m.url));
  const line = el('p', `subtitle outcome-${m.outcome}`);
  const statusText = m.status !== undefined ? `${m.status} ${m.statusText ?? ''}`.trim() : s.failed;
  const facts: Array<[string, string]> = [
    [s.summary[0], statusText],
    [s.summary[1], format(s.ms, m.durationMs)],
  ];
  // The wait for the service, at a glance; the Timing section below has every phase.
  const firstByte = m.attempts[m.attempts.length - 1]?.timings?.firstByteMs;
  if (firstByte !== undefined) facts[1][1] += ` (${format(s.firstByte, msFigure(firstByte))})`;
  if (m.bodyBytes !== undefined) facts.push([s.summary[2], format(s.bytes, m.bodyBytes)]);
  if (m.requestId) facts.push([s.summary[3], m.requestId]);
  if (m.environment) facts.push([s.summary[4], m.environment]);
  for (const [name, value] of facts) {
    const fact = el('span', 'fact');
    fact.append(el('span', 'fact-name', `${name}: `), el('span', 'fact-value', value));
    line.append(fact);
  }
  heading.append(h1, line, el('p', 'started', m.startedAt));
  if (m.error) heading.append(el('p', 'error-message', `${m.error.kind}: ${m.error.message}`));

  const request = section('request', s.request);
  request.append(el('h3', '', s.requestHeaders), pairs(m.requestHeaders, s));
  if (m.requestBody !== undefined) request.append(el('h3', '', s.requestBody), el('pre', 'raw', m.requestBody));

  const response = section('response', s.response);
  response.append(el('h3', '', s.keyHeaders), pairs(m.keyHeaders, s, 'headers key-headers'));
  const all = el('details', 'all-headers');
  all.append(el('summary', '', format(s.allHeaders, m.responseHeaders.length)), pairs(m.responseHeaders, s));
  response.append(all);

  const attempts = section('attempts', s.attempts);
  const table = el('table', 'attempt-table');
  const thead = tableHead(s.attemptColumns);
  const tbody = el('tbody');
  for (const a of m.attempts) {
    const tr = el('tr', a.retryReason ? 'attempt-retried' : '');
    const why = a.retryReason ? format(s.retriedBecause, a.retryReason, a.waitMs ?? 0) : '';
    // Each attempt's wait for the service, when it got that far (a 503 that was slow to come, too).
    const firstByte = a.timings?.firstByteMs;
    tr.append(
      el('td', 'num', String(a.n)),
      el('td', '', a.startedAt),
      el('td', 'num', format(s.ms, a.durationMs)),
      el('td', 'num attempt-first-byte', firstByte !== undefined ? format(s.ms, msFigure(firstByte)) : '—'),
      el('td', '', a.status !== undefined ? String(a.status) : a.error ?? '—'),
      el('td', '', why),
    );
    tbody.append(tr);
  }
  table.append(thead, tbody);
  attempts.append(table);

  const sections = [renderBody(m, s), response];
  const timing = renderTiming(m, s);
  if (timing) sections.push(timing);
  content.replaceChildren(...sections, attempts, request);
  app.removeAttribute('aria-busy');
  if (scrollToRestore) {
    window.scrollTo(0, scrollToRestore);
    scrollToRestore = 0;
  }
}

window.addEventListener('message', (event: MessageEvent<ExchangeHostMessage>) => {
  const message = event.data;
  if (!message || typeof message !== 'object') return;
  if (message.type === 'render') {
    persist = message.persist;
    render(message.model, message.strings);
    saveState();
  } else if (message.type === 'actionDone') {
    const done = pending.get(message.requestId);
    pending.delete(message.requestId);
    done?.(message.ok, message.message);
  }
});

onScrollSettled(saveState);

vscode.postMessage({ type: 'ready' });
