// The record view's script (bundled to dist/webview.js). Says 'ready', then renders what the
// host sends: the toolbar, the findings, the legend, the JSON and the zones. Everything from a
// record is inserted as text (see dom.ts). What the user opened and the scroll position are
// kept with setState, and so is what the host needs to restore the panel after a reload.

import { FINDING_KINDS, type ChildPage, type FindingEntry, type RecordViewModel, type ZoneRow, ACTIONS, type ActionName, type HostMessage, type PersistedRecordView, type RecordViewStrings, type WebviewMessage } from '../core/views/recordViewProtocol';
import { badge, countText, el, format, onScrollSettled, pageFrame, section, setLegend, tableHead } from './dom';
import { JsonView } from './jsonView';
import { RowsQuery, VirtualJsonView } from './virtualJsonView';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: ViewState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

interface ViewState {
  persist?: PersistedRecordView;
  /** Containers the user opened or closed, by pointer. */
  toggled: Array<[string, boolean]>;
  scrollY: number;
}

/** Remembered toggles are capped: state is saved on every scroll, so it must stay small. */
const MAX_TOGGLES = 1000;

const vscode = acquireVsCodeApi();
const saved = (vscode.getState() ?? {}) as Partial<ViewState>;
const toggles = new Map<string, boolean>(Array.isArray(saved.toggled) ? saved.toggled : []);
let persist = saved.persist;
let scrollToRestore = typeof saved.scrollY === 'number' ? saved.scrollY : 0;

let strings: RecordViewStrings | undefined;
let model: RecordViewModel | undefined;
let jsonView: JsonView | undefined;
let virtualView: VirtualJsonView | undefined;
/** The finding the Previous/Next buttons (and F8) are on: its index among all findings. */
let currentFinding = -1;
let findingPosition: HTMLElement | undefined;
let nextRequestId = 1;
const pending = new Map<number, (message: HostMessage) => void>();

function saveState(): void {
  vscode.setState({ persist, toggled: [...toggles].slice(-MAX_TOGGLES), scrollY: Math.round(window.scrollY) });
}

function request(message: (requestId: number) => WebviewMessage): Promise<HostMessage> {
  const requestId = nextRequestId++;
  return new Promise((resolve) => {
    pending.set(requestId, resolve);
    vscode.postMessage(message(requestId));
  });
}

async function fetchChildren(pointer: string, offset: number): Promise<ChildPage> {
  const version = model?.version ?? 0;
  const reply = await request((requestId) => ({ type: 'expand', requestId, version, pointer, offset }));
  if (reply.type === 'children') return reply.page;
  throw new Error(reply.type === 'failed' ? reply.message : 'unexpected reply');
}

async function fetchRows(query: RowsQuery): Promise<Extract<HostMessage, { type: 'rows' }>> {
  const version = model?.version ?? 0;
  const reply = await request((requestId) => ({ type: 'rows', requestId, version, ...query }));
  if (reply.type === 'rows') return reply;
  throw new Error(reply.type === 'failed' ? reply.message : 'unexpected reply');
}

/** Shows the finding at `index` (wrapping around), in the virtual list or in the tree. */
async function goToFinding(index: number): Promise<void> {
  const m = model;
  const s = strings;
  if (!m || !s || m.findingsTotal === 0) return;
  const total = virtualView ? m.findingsTotal : m.findings.length;
  const at = ((index % total) + total) % total;
  currentFinding = at;
  let entry: FindingEntry | undefined;
  if (virtualView) entry = (await virtualView.showFinding(at))?.entry;
  else {
    entry = m.findings[at];
    if (entry) await jsonView?.reveal(entry.path, entry.anchorId);
  }
  if (entry) showPosition(s, at, total, entry);
}

/** "Finding 2 of 6: /steps — …" beside Previous and Next. */
function showPosition(s: RecordViewStrings, at: number, total: number, entry: FindingEntry): void {
  if (findingPosition) findingPosition.textContent = format(s.findingOf, (at + 1).toLocaleString('en-US'), total.toLocaleString('en-US'), `${entry.path || '/'} — ${entry.message}`);
}

/**
 * The finding Previous and Next are on, kept when the same record is shown again with the same
 * findings in other words (its zeros said again from other records): -1 otherwise.
 */
function keptFinding(before: RecordViewModel | undefined, after: RecordViewModel): number {
  if (!before || currentFinding < 0 || before.rows || after.rows || before.title !== after.title) return -1;
  if (before.findings.length !== after.findings.length || before.findings.some((f, i) => f.path !== after.findings[i].path || f.kind !== after.findings[i].kind)) return -1;
  return currentFinding < after.findings.length ? currentFinding : -1;
}

// The page's fixed frame: toolbar, heading, status line, then the record's sections.
const { app, toolbar, heading, status, content } = pageFrame();
const buttons = new Map<ActionName, HTMLButtonElement>();
/** The actions the host says cannot apply to this panel, hidden rather than answering "cannot". */
let unavailable: readonly ActionName[] = [];

function buildToolbar(s: RecordViewStrings): void {
  toolbar.setAttribute('aria-label', s.toolbar);
  if (buttons.size === 0) {
    for (const action of ACTIONS) {
      const button = el('button', `action action-${action}`);
      button.type = 'button';
      button.addEventListener('click', () => void runAction(action, button));
      buttons.set(action, button);
      toolbar.append(button);
    }
    // Arrow keys move along the toolbar, as in VS Code's own; Tab still reaches every button.
    toolbar.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
      const list = [...buttons.values()].filter((b) => !b.hidden);
      const at = list.indexOf(document.activeElement as HTMLButtonElement);
      if (at < 0) return;
      list[(at + (e.key === 'ArrowRight' ? 1 : list.length - 1)) % list.length].focus();
      e.preventDefault();
    });
  }
  for (const [action, button] of buttons) {
    button.textContent = s.actions[action];
    button.hidden = unavailable.includes(action);
  }
}

const busy = new Set<ActionName>();

async function runAction(action: ActionName, button: HTMLButtonElement): Promise<void> {
  // Busy, not disabled: a disabled button would drop the keyboard focus on the floor.
  if (busy.has(action)) return;
  busy.add(action);
  button.setAttribute('aria-disabled', 'true');
  button.setAttribute('aria-busy', 'true');
  status.textContent = '';
  try {
    const reply = await request((requestId) => ({ type: 'action', requestId, action }));
    if (reply.type === 'actionDone' && reply.message) status.textContent = reply.message;
  } finally {
    busy.delete(action);
    button.removeAttribute('aria-disabled');
    button.removeAttribute('aria-busy');
  }
}

/** Where the record came from (its environment and host), from the last render message. */
let origin: string | undefined;

function renderHeading(m: RecordViewModel, s: RecordViewStrings): void {
  heading.replaceChildren();
  heading.append(el('h1', 'title', m.title));
  const sub = el('p', 'subtitle');
  if (m.kindLabel) sub.append(el('span', 'kind', m.kindLabel));
  if (origin) sub.append(el('span', 'origin', origin));
  if (m.root || m.rows) {
    const verdict = el('span', m.valid ? 'verdict verdict-valid' : 'verdict verdict-invalid');
    const icon = el('span', 'badge-icon', m.valid ? '✔' : '✖');
    icon.setAttribute('aria-hidden', 'true');
    verdict.append(icon, el('span', '', m.valid ? s.valid : s.invalid));
    sub.append(verdict);
  }
  heading.append(sub);
}

function renderFindings(m: RecordViewModel, s: RecordViewStrings): HTMLElement {
  const box = section('findings', s.findings);
  const counts = el('ul', 'counts');
  for (const kind of FINDING_KINDS) {
    const item = el('li', `count count-${kind}${m.counts[kind] ? '' : ' count-none'}`);
    item.append(badge(kind), el('span', 'count-n', String(m.counts[kind])));
    counts.append(item);
  }
  box.append(counts);
  if (m.zeroBasis) box.append(el('p', 'zero-basis', m.zeroBasis));
  if (m.findingsTotal === 0) {
    box.append(el('p', 'none', s.noFindings));
    return box;
  }
  const nav = el('div', 'finding-nav');
  const previous = el('button', 'finding-previous', s.previousFinding);
  previous.type = 'button';
  // Before any finding was shown, Previous goes to the last one.
  previous.addEventListener('click', () => void goToFinding(currentFinding < 0 ? -1 : currentFinding - 1));
  const next = el('button', 'finding-next', s.nextFinding);
  next.type = 'button';
  next.addEventListener('click', () => void goToFinding(currentFinding + 1));
  findingPosition = el('span', 'finding-position');
  findingPosition.setAttribute('aria-live', 'polite');
  nav.append(previous, next, findingPosition);
  box.append(nav);
  const list = el('ol', 'finding-list');
  m.findings.forEach((f, i) => list.append(findingItem(f, s, i)));
  box.append(list);
  const more = m.findingsTotal - m.findings.length;
  if (more > 0) box.append(el('p', 'more-findings', countText(s.moreFindings, more)));
  return box;
}

function findingItem(f: FindingEntry, s: RecordViewStrings, index: number): HTMLElement {
  const item = el('li');
  const button = el('button', `finding finding-${f.kind}`);
  button.type = 'button';
  button.title = format(s.goTo, f.field);
  button.append(badge(f.kind), el('code', 'path', f.path || '/'), el('span', 'message', f.message));
  button.addEventListener('click', () => void goToFinding(index));
  item.append(button);
  return item;
}

function renderLegend(m: RecordViewModel, s: RecordViewStrings): HTMLElement {
  const box = section('legend', s.legend);
  const list = el('dl');
  for (const entry of m.legend) {
    const term = el('dt');
    term.append(badge(entry.kind));
    list.append(term, el('dd', '', entry.description));
  }
  box.append(list);
  return box;
}

function renderZones(zones: readonly ZoneRow[], s: RecordViewStrings): HTMLElement {
  const box = section('zones', s.zones);
  if (zones.length === 0) {
    box.append(el('p', 'none', s.noZones));
    return box;
  }
  const table = el('table');
  const body = el('tbody');
  for (const z of zones) {
    const row = el('tr');
    const name = el('th', 'zone-name', z.name);
    name.scope = 'row';
    row.append(name, el('td', 'num', z.range), el('td', 'num', z.time), el('td', 'num', z.calories));
    body.append(row);
  }
  table.append(tableHead(s.zoneColumns, (i) => (i === 0 ? '' : 'num')), body);
  box.append(table);
  return box;
}

function render(m: RecordViewModel, s: RecordViewStrings): void {
  const kept = keptFinding(model, m);
  // Where the reader was, when the same record's findings are said again: the page stays put.
  // The element with the focus, only while this document has it: an iframe keeps its activeElement
  // when the focus goes elsewhere in VS Code (a picker, the tree), and focusing it again on a
  // render would take the focus back from there (and close the picker).
  const focused = document.hasFocus() ? (document.activeElement as HTMLElement | null)?.className : undefined;
  const again = kept >= 0 ? { scrollY: window.scrollY, focused } : undefined;
  model = m;
  strings = s;
  setLegend(m.legend);
  document.title = m.title;
  buildToolbar(s);
  renderHeading(m, s);
  jsonView?.detach();
  jsonView = undefined;
  virtualView?.detach();
  virtualView = undefined;
  currentFinding = -1;
  findingPosition = undefined;
  const parts: HTMLElement[] = [];
  if (m.note) parts.push(el('p', 'note', m.note));
  if (m.rows) {
    parts.push(renderFindings(m, s), renderLegend(m, s));
    const view = new VirtualJsonView({ strings: s, requestRows: fetchRows, stepFinding: (d) => void goToFinding(currentFinding < 0 && d < 0 ? -1 : currentFinding + d) }, m.rows);
    const box = section('json-section', m.records !== undefined ? `${s.json} · ${countText(s.records, m.records)}` : s.json);
    box.append(view.render());
    parts.push(box);
    virtualView = view;
    if (m.zones) parts.push(renderZones(m.zones, s));
  } else if (m.root) {
    parts.push(renderFindings(m, s), renderLegend(m, s));
    const view = new JsonView({
      strings: s,
      fetchChildren,
      toggled: (pointer) => toggles.get(pointer),
      remember: (pointer, open) => {
        toggles.delete(pointer);
        toggles.set(pointer, open);
        saveState();
      },
    });
    const box = section('json-section', s.json);
    box.append(view.render(m.root));
    parts.push(box);
    jsonView = view;
    if (m.zones) parts.push(renderZones(m.zones, s));
  }
  if (again) {
    currentFinding = kept;
    // Set before the section is shown, so the live region does not announce it again.
    showPosition(s, kept, m.findings.length, m.findings[kept]);
  }
  content.replaceChildren(...parts);
  if (again) {
    window.scrollTo(0, again.scrollY);
    // Previous or Next had the focus: the new one takes it.
    if (again.focused === 'finding-previous' || again.focused === 'finding-next') content.querySelector<HTMLElement>(`.${again.focused}`)?.focus();
  }
  app.removeAttribute('aria-busy');
  if (scrollToRestore) {
    window.scrollTo(0, scrollToRestore);
    scrollToRestore = 0;
  }
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (!message || typeof message !== 'object') return;
  switch (message.type) {
    case 'render':
      persist = message.persist;
      origin = typeof message.origin === 'string' ? message.origin : undefined;
      unavailable = Array.isArray(message.unavailable) ? message.unavailable : [];
      render(message.model, message.strings);
      saveState();
      return;
    case 'children':
    case 'rows':
    case 'failed':
    case 'actionDone': {
      const resolve = pending.get(message.requestId);
      pending.delete(message.requestId);
      resolve?.(message);
      if (message.type === 'failed' && strings) status.textContent = message.message;
      return;
    }
  }
});

onScrollSettled(saveState);

vscode.postMessage({ type: 'ready' });
