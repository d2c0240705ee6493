// The data coverage webview: fields × sources, each cell its counts and a verdict as a word and
// an icon; a count lists its records (each opens in the record view); overlaps and notes.

import type { CoverageNote, CoverageViewModel, FieldCoverage, InsightsHostMessage, Overlap, RecordRef, SourceCoverage, ValueClass, Verdict } from '../../core/views/insightsProtocol';
import { button, el, keep, post, setStrings, statusLine, t, tn } from './dom';

const ICONS: Record<Verdict, string> = { provided: '✓', sometimes: '◐', never: '⊘' };
const CLASSES: readonly ValueClass[] = ['nonZero', 'zero', 'null', 'absent'];
const MAX_OVERLAP_ROWS = 500;

const app = document.getElementById('app')!;
let model: CoverageViewModel | undefined;
let cellPanel: HTMLElement | undefined;
/** `source \0 field` of the fields whose zeros stand out (the unusualZeros notes), marked in their cells. */
let unusualZeros = new Set<string>();
const unusualKey = (source: string | null, field: string): string => `${source ?? ''}\u0000${field}`;

window.addEventListener('message', (event: MessageEvent<InsightsHostMessage>) => {
  const m = event.data;
  if (m.type === 'coverage') {
    keep(m.persist);
    setStrings(m.strings);
    model = m.model;
    render();
  } else if (m.type === 'cellRecords' && cellPanel) {
    showCellRecords(m.source, m.field, m.which, m.records, m.more);
  }
});

function render(): void {
  if (!model) return;
  app.replaceChildren();
  app.setAttribute('aria-busy', String(model.status?.state === 'loading'));
  const header = el('header', 'toolbar');
  header.append(el('h1', undefined, t('title')));
  const kinds = el('div', 'tabs');
  kinds.setAttribute('role', 'group');
  kinds.setAttribute('aria-label', t('resource'));
  for (const k of model.kinds) {
    const b = button(k.label, () => post({ type: 'selectKind', kind: k.kind }), 'tab');
    b.setAttribute('aria-pressed', String(k.kind === model.kind));
    kinds.append(b);
  }
  header.append(kinds, button(t('reload'), () => post({ type: 'reload' })));
  app.append(header, el('p', 'heading', model.heading), statusLine(model.status));
  if (model.incomplete) app.append(el('p', 'status status-error', t('incomplete', model.incomplete)));
  const report = model.report;
  if (!report) return;
  unusualZeros = new Set(report.notes.filter((n) => n.kind === 'unusualZeros').flatMap((n) => n.items.map((i) => unusualKey(n.source, i.name))));
  if (report.sources.length === 0) {
    app.append(el('p', undefined, t('noRecords')));
  } else {
    app.append(sourcesList(report.sources), matrix(report.sources), el('p', 'legend', t('legend')));
    cellPanel = el('section', 'cell-records');
    cellPanel.setAttribute('aria-live', 'polite');
    cellPanel.append(el('p', 'hint', t('cellHint')));
    app.append(cellPanel);
  }
  app.append(overlaps(report.overlaps));
  app.append(notes(report.notes));
}

function sourceName(source: string | null): string {
  return source ?? t('noSource');
}

function sourcesList(sources: SourceCoverage[]): HTMLElement {
  const ul = el('ul', 'sources');
  for (const s of sources) {
    const li = el('li');
    li.append(el('strong', 'source-name', sourceName(s.source)), document.createTextNode(` — ${t('sourceSummary', tn('recordCount', s.records, s.records), tn('dayCount', s.days, s.days), s.firstDate ?? '—', s.lastDate ?? '—')}`));
    ul.append(li);
  }
  return ul;
}

function matrix(sources: SourceCoverage[]): HTMLElement {
  const table = el('table', 'matrix');
  const head = el('tr');
  head.append(el('th', undefined, t('field')));
  for (const s of sources) {
    const th = el('th', 'source-name', sourceName(s.source));
    th.scope = 'col';
    head.append(th);
  }
  table.append(el('thead'), el('tbody'));
  table.tHead!.append(head);
  const zeroDefault = new Set(model!.zeroDefaultFields);
  const deprecated = new Set(model!.deprecatedFields ?? []);
  sources[0].fields.forEach((f, i) => {
    const row = el('tr');
    const th = el('th', 'field', f.field);
    th.scope = 'row';
    if (deprecated.has(f.field)) {
      // In words and a symbol, not by strike-through alone: the name is still what sources send.
      th.classList.add('deprecated');
      const tag = el('span', 'deprecated-tag', `⊘ ${t('deprecated')}`);
      th.title = t('deprecatedField', f.field);
      th.append(' ', tag);
    }
    row.append(th);
    for (const s of sources) row.append(cell(s, s.fields[i], zeroDefault.has(f.field), isNumeric(f.field)));
    table.tBodies[0].append(row);
  });
  return table;
}

/** A count's word: a number's values other than 0 and null are "non-zero", another field's are "sent". */
function classWord(which: ValueClass, numeric: boolean): string {
  return which === 'nonZero' && !numeric ? t('sent') : t(which);
}

function isNumeric(field: string): boolean {
  return model?.numericFields === undefined || model.numericFields.includes(field);
}

function cell(source: SourceCoverage, f: FieldCoverage, zeroDefault: boolean, numeric: boolean): HTMLTableCellElement {
  const td = el('td', `cell verdict-${f.verdict}`);
  td.dataset.source = source.source ?? '';
  td.dataset.field = f.field;
  td.dataset.verdict = f.verdict;
  const verdict = el('span', 'verdict');
  const icon = el('span', 'verdict-icon', ICONS[f.verdict]);
  icon.setAttribute('aria-hidden', 'true');
  verdict.append(icon, el('span', 'verdict-word', t(f.verdict)));
  if (f.verdict === 'never' && zeroDefault) verdict.title = t('neverZeroDefault');
  td.append(verdict);
  const counts = el('span', 'counts');
  for (const which of CLASSES) {
    const n = f[which];
    if (!n) continue;
    const word = classWord(which, numeric);
    const b = button(`${word} ×${n}`, () => post({ type: 'cell', source: source.source, field: f.field, which }), 'count');
    b.dataset.which = which;
    b.setAttribute('aria-label', tn('cellRecords', n, sourceName(source.source), f.field, word, n));
    if (which === 'zero' && unusualZeros.has(unusualKey(source.source, f.field))) markUnusual(b);
    counts.append(b);
  }
  td.append(counts);
  return td;
}

function showCellRecords(source: string | null, field: string, which: ValueClass, records: RecordRef[], more: number): void {
  if (!cellPanel || !model) return;
  const kind = model.kind;
  cellPanel.replaceChildren(el('h2', undefined, tn('cellRecords', records.length + more, sourceName(source), field, classWord(which, isNumeric(field)), records.length + more)));
  const ul = el('ul', 'record-list');
  for (const r of records) {
    const li = el('li');
    const b = button(r.label, () => post({ type: 'open', kind, ref: r.ref }), 'link');
    b.title = t('open');
    li.append(b);
    ul.append(li);
  }
  cellPanel.append(ul);
  if (more) cellPanel.append(el('p', undefined, t('cellMore', more)));
  (ul.querySelector('button') as HTMLButtonElement | null)?.focus();
}

function overlaps(list: readonly Overlap[]): HTMLElement {
  const section = el('section', 'overlaps');
  section.append(el('h2', undefined, t('overlaps')));
  if (list.length === 0) {
    section.append(el('p', undefined, t('noOverlaps')));
    return section;
  }
  const table = el('table');
  const head = el('tr');
  for (const h of ['date', 'human', 'sources']) head.append(el('th', undefined, t(h)));
  table.append(el('thead'), el('tbody'));
  table.tHead!.append(head);
  for (const o of list.slice(0, MAX_OVERLAP_ROWS)) {
    const row = el('tr');
    row.append(el('td', undefined, o.date), el('td', 'mono', o.humanId), el('td', undefined, o.sources.join(' + ')));
    table.tBodies[0].append(row);
  }
  section.append(el('p', undefined, tn('dayCount', list.length, list.length)), table);
  if (list.length > MAX_OVERLAP_ROWS) section.append(el('p', undefined, t('cellMore', list.length - MAX_OVERLAP_ROWS)));
  return section;
}

/** A zero count whose zeros stand out: a warning's mark, and words that say why (not colour alone). */
function markUnusual(b: HTMLElement): void {
  b.classList.add('unusual');
  const mark = el('span', 'unusual-mark', ' ⚠');
  mark.setAttribute('aria-hidden', 'true');
  b.append(mark);
  b.title = t('unusualZero');
  b.setAttribute('aria-label', `${b.getAttribute('aria-label') ?? ''} · ${t('unusualZero')}`);
}

function notes(list: readonly CoverageNote[]): HTMLElement {
  const section = el('section', 'notes');
  section.append(el('h2', undefined, t('notes')));
  if (list.length === 0) section.append(el('p', undefined, t('noNotes')));
  const ul = el('ul');
  for (const n of list) {
    const li = el('li', `note note-${n.kind}`, n.message);
    if (n.kind === 'unusualZeros' && cellPanel) {
      // Each field's zeros listed as a cell's are, each record opening in the record view.
      const counts = el('span', 'counts');
      for (const item of n.items) {
        const b = button(`${item.name}: ${t('zero')} ×${item.count}`, () => post({ type: 'cell', source: n.source, field: item.name, which: 'zero' }), 'count');
        b.setAttribute('aria-label', tn('cellRecords', item.count, sourceName(n.source), item.name, t('zero'), item.count));
        markUnusual(b);
        counts.append(b);
      }
      li.append(counts);
    }
    ul.append(li);
  }
  section.append(ul);
  return section;
}

post({ type: 'ready' });
