// The tree of records by month and date, apart from any TreeDataProvider: the extension shows
// it, the benchmarks measure it. Building it is linear and cheap; a record's findings and
// tooltip are computed only when someone asks (the tree asks when a date is expanded).

import { localDateOf, monthOf } from '../dates';
import { cutText, headlineOf, shortText } from './labels';
import { RESOURCES, ResourceKind, resource } from '../resources';
import { Finding, FindingKind, ValidationResult, validate } from '../validation';

export interface RecordNode {
  readonly type: 'record';
  readonly kind: ResourceKind;
  readonly record: unknown;
  readonly id: string | undefined;
  /** The local date the record belongs to. */
  readonly date: string | undefined;
  /** Unique among the tree's nodes; stable across refreshes for the same record. */
  readonly key: string;
  /** "fitbit · 12,224 steps". */
  readonly label: string;
  /** Local time for readings (several a day), empty for daily summaries. */
  readonly description: string;
}

export interface KindGroup {
  readonly kind: ResourceKind;
  readonly records: RecordNode[];
}

export interface DateNode {
  readonly type: 'date';
  readonly date: string;
  readonly key: string;
  /** One resource's records, or (grouped by date first) every resource's, each kind apart. */
  readonly groups: KindGroup[];
}

export interface MonthNode {
  readonly type: 'month';
  readonly month: string;
  readonly key: string;
  readonly label: string;
  readonly dates: DateNode[];
}

export interface RecordTree {
  /** Newest month first; within a month, newest date first. */
  readonly months: MonthNode[];
  /** Records without a usable date: shown apart, never dropped. */
  readonly undated: RecordNode[];
  readonly count: number;
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function monthLabel(month: string): string {
  const m = Number(month.slice(5, 7));
  return `${MONTH_NAMES[m - 1] ?? month} ${month.slice(0, 4)}`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTH_ABBREVIATIONS = MONTH_NAMES.map((name) => name.slice(0, 3));

/** "Fri 20 Nov" for 2026-11-20: the month and year are on the parent node already. */
export function dateLabel(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTH_ABBREVIATIONS[d.getUTCMonth()]}`;
}

const TIME_OF_DAY = /T(\d{2}:\d{2})/;

/** `08:05` of `2026-11-20T08:05:00-05:00`: read in place when the timestamp has the usual shape. */
function timeOfDay(ts: string): string {
  if (ts.indexOf('T') === 10 && ts.charCodeAt(13) === 58 && isDigits(ts, 11, 13) && isDigits(ts, 14, 16)) return ts.slice(11, 16);
  return TIME_OF_DAY.exec(ts)?.[1] ?? '';
}

function isDigits(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

const labelOf = (source: string | undefined, headline: string | undefined): string =>
  `${source !== undefined ? shortText(source, 30) : '(no source)'} · ${headline ?? 'no value'}`;

/**
 * The node's label once the other records of its source are known: `notProvided` says whether
 * the source is known not to provide a field, and a 0 of such a headline field gives way to
 * another number (headlineOf). The node's own label when its headline field is not 0.
 */
export function recordLabel(node: RecordNode, notProvided: (field: string) => boolean): string {
  const { headline } = resource(node.kind);
  const record = node.record;
  if (headline.instead === undefined || record === null || typeof record !== 'object' || (record as Record<string, unknown>)[headline.field] !== 0) return node.label;
  const source = (record as Record<string, unknown>).source;
  return labelOf(typeof source === 'string' ? source : undefined, headlineOf(record, node.kind, notProvided));
}

/** Makes the node for one record. `index` keeps keys unique for records without an id. */
export function recordNode(kind: ResourceKind, record: unknown, index: number): RecordNode {
  // Fields read once each, directly: this runs for every record of every list.
  const fields = record !== null && typeof record === 'object' && !Array.isArray(record) ? (record as Record<string, unknown>) : undefined;
  const id = typeof fields?.id === 'string' ? fields.id : undefined;
  const source = typeof fields?.source === 'string' ? fields.source : undefined;
  const date = localDateOf(record, kind);
  const label = labelOf(source, headlineOf(record, kind));
  let description = '';
  if (resource(kind).datingField === 'timestamp') {
    // The local time as written in the timestamp (it carries the reading's own offset).
    const ts = fields?.timestamp;
    if (typeof ts === 'string') description = timeOfDay(ts);
  }
  return { type: 'record', kind, record, id, date, key: `${kind}/${id ?? `#${index}`}`, label, description };
}

/** Records of one resource, by month and date. */
export function buildResourceTree(kind: ResourceKind, records: readonly unknown[]): RecordTree {
  return buildTree(RESOURCES.filter((r) => r.kind === kind).map((r) => [r.kind, records] as const));
}

/** Records of every resource, by month and date; each date holds that day's records of all kinds. */
export function buildDateFirstTree(lists: Partial<Record<ResourceKind, readonly unknown[]>>): RecordTree {
  return buildTree(RESOURCES.filter((r) => lists[r.kind]).map((r) => [r.kind, lists[r.kind]!] as const));
}

function buildTree(lists: ReadonlyArray<readonly [ResourceKind, readonly unknown[]]>): RecordTree {
  // date -> that date's groups, filled in one pass. Lists come in the table's order, so each
  // date's groups do too, and a date's group of the current kind is always its last.
  const byDate = new Map<string, KindGroup[]>();
  const undated: RecordNode[] = [];
  let count = 0;
  for (const [kind, records] of lists) {
    // The service lists newest first: a record mostly shares its date with the one before.
    let lastDate: string | undefined;
    let lastGroup: RecordNode[] = [];
    for (let i = 0; i < records.length; i++) {
      const node = recordNode(kind, records[i], i);
      count++;
      const date = node.date;
      if (date === undefined) {
        undated.push(node);
        continue;
      }
      if (date === lastDate) {
        lastGroup.push(node);
        continue;
      }
      lastDate = date;
      // Arrays start as literals: an empty one grows room for 17 on its first push, which most
      // of these (one summary a day) would never use.
      const groups = byDate.get(date);
      const group = groups?.[groups.length - 1];
      if (group?.kind === kind) {
        lastGroup = group.records;
        lastGroup.push(node);
      } else {
        lastGroup = [node];
        if (groups) groups.push({ kind, records: lastGroup });
        else byDate.set(date, [{ kind, records: lastGroup }]);
      }
    }
  }
  const dates = [...byDate.keys()];
  // Newest first, as the service sends them: then there is nothing to sort.
  if (!isDescending(dates)) dates.sort().reverse();
  const months: MonthNode[] = [];
  let current: MonthNode | undefined;
  for (const date of dates) {
    const month = monthOf(date);
    if (!current || current.month !== month) {
      current = { type: 'month', month, key: `month/${month}`, label: monthLabel(month), dates: [] };
      months.push(current);
    }
    current.dates.push({ type: 'date', date, key: `date/${date}`, groups: byDate.get(date)! });
  }
  return { months, undated, count };
}

/** Each value before the one after it, strictly: distinct keys sorted newest first. */
function isDescending(values: readonly string[]): boolean {
  for (let i = 1; i < values.length; i++) if (!(values[i] < values[i - 1])) return false;
  return true;
}

const validations = new WeakMap<RecordNode, ValidationResult>();

/** The record's validation, computed once per node on first use. */
export function validationOf(node: RecordNode): ValidationResult {
  let result = validations.get(node);
  if (!result) {
    result = validate(node.record, node.kind);
    validations.set(node, result);
  }
  return result;
}

/**
 * What a record's icon says: errors, warnings, notes (zeros, deprecated or unknown fields: worth
 * a look, nothing wrong), or clean, which means no finding of any kind.
 */
export type RecordStatus = 'error' | 'warning' | 'notes' | 'clean';

export function statusOf(node: RecordNode): RecordStatus {
  const { findings } = validationOf(node);
  if (findings.length === 0) return 'clean';
  if (findings.some((f) => f.kind === 'error')) return 'error';
  if (findings.some((f) => f.kind === 'warning')) return 'warning';
  return 'notes';
}

const KIND_WORDS: Record<FindingKind, [string, string]> = {
  error: ['error', 'errors'],
  warning: ['warning', 'warnings'],
  zero: ['zero field', 'zero fields'],
  deprecated: ['deprecated field', 'deprecated fields'],
  unknown: ['unknown field', 'unknown fields'],
};

/** "5 zero fields, 1 deprecated field", or "no findings": the findings counted in words. */
export function findingsInWords(findings: readonly Finding[]): string {
  const counts = countByKind(findings);
  const parts = (Object.keys(counts) as FindingKind[]).filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${KIND_WORDS[k][counts[k] === 1 ? 0 : 1]}`);
  return parts.length ? parts.join(', ') : 'no findings';
}

export function countByKind(findings: readonly Finding[]): Record<FindingKind, number> {
  const counts: Record<FindingKind, number> = { error: 0, warning: 0, zero: 0, deprecated: 0, unknown: 0 };
  for (const f of findings) counts[f.kind]++;
  return counts;
}

/** The ASCII characters Markdown could read as syntax, by character code. */
const MARKDOWN_SYNTAX = new Uint8Array(128);
for (const c of '\\`*_{}[]()#+-.!|<>&~') MARKDOWN_SYNTAX[c.charCodeAt(0)] = 1;

/**
 * Escapes text for Markdown so a payload's strings cannot add links, images or HTML; line
 * breaks become spaces. One pass over the text: a tooltip escapes a dozen strings.
 */
export function escapeMarkdown(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && MARKDOWN_SYNTAX[c] === 1) {
      out += `${text.slice(from, i)}\\${text[i]}`;
      from = i + 1;
    } else if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      // '\n', '\r\n', or a lone '\r' (Markdown breaks the line there too)
      out += `${text.slice(from, i > from && text.charCodeAt(i - 1) === 13 ? i - 1 : i)} `;
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/** How the tooltip marks a field's finding: the record view's symbol and word, never colour alone. */
const TOOLTIP_MARKS: Record<FindingKind, string> = {
  error: '✖ error',
  warning: '⚠ warning',
  zero: '0 zero',
  deprecated: '⊘ deprecated',
  unknown: '? unknown',
};

/**
 * The tooltip of a record as Markdown: key fields, each marked with its findings as the record
 * view marks them (a zero, a deprecated field struck through), then the findings counted by kind.
 */
export function tooltipMarkdown(node: RecordNode, findings: readonly Finding[] = validationOf(node).findings): string {
  const def = resource(node.kind);
  const fields = (node.record && typeof node.record === 'object' ? node.record : {}) as Record<string, unknown>;
  const lines = [`**${escapeMarkdown(def.singular)}** ${escapeMarkdown(node.date ?? '(no date)')}`, ''];
  const byField = new Map<string, Finding[]>();
  for (const f of findings) {
    // Only a field's own findings: a zone's are counted below, not pinned on `zones`.
    if (f.path.indexOf('/', 1) !== -1 || f.path === '') continue;
    const name = f.path.slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
    const list = byField.get(name);
    if (list) list.push(f);
    else byField.set(name, [f]);
  }
  const keyFields = ['id', 'source', 'humanId', 'userId', ...def.keyFields, 'createdAt', 'updatedAt'];
  for (const name of keyFields) {
    if (!(name in fields)) continue;
    const value = fields[name];
    const text = typeof value === 'string' ? shortText(value, 60) : value !== null && typeof value === 'object' ? (Array.isArray(value) ? `[…] ${value.length} items` : '{…}') : String(value);
    const own = byField.get(name) ?? [];
    const deprecated = own.some((f) => f.kind === 'deprecated');
    const shownName = deprecated ? `~~${escapeMarkdown(name)}~~` : escapeMarkdown(name);
    // The most serious finding of the field, cut short: the record view lists them all.
    const first = own[0];
    const marks = first ? ` — ${TOOLTIP_MARKS[first.kind]}: ${escapeMarkdown(cutText(first.message, 90))}${own.length > 1 ? ` (+${own.length - 1})` : ''}` : '';
    lines.push(`- ${shownName}: ${escapeMarkdown(text)}${marks}`);
  }
  lines.push('', `Findings: ${findings.length ? findingsInWords(findings) : 'none'}`);
  return lines.join('\n');
}
