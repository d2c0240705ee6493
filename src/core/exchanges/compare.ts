// Compare: two payloads (exchanges' bodies, or a JSON file) made comparable and their difference
// summed up. Normalized means: a list's wrapper taken off, its records ordered by id so that the
// same record lines up on both sides whatever order the service sent, and every record's keys
// in the order of its schema, so a diff editor shows only what really differs.

import { HealthDataError } from '../errors';
import { pointerToken, withoutBom } from '../json';
import { LIST_WRAPPERS, type ResourceKind } from '../resources';
import type { Exchange, ExchangeEndpoint, ListWrapper } from '../service';
import { ObjectShape, detectKind, shapeFor } from '../validation';

export interface NormalizedPayload {
  readonly shape: 'record' | 'list' | 'other';
  /** The kind the records were read as (given, or detected from the first record that shows one). */
  readonly kind?: ResourceKind;
  /** The wrapper a list came in, taken off. */
  readonly wrapper?: ListWrapper;
  readonly value: unknown;
  /** The value as JSON, two-space indented, with a final newline. */
  readonly text: string;
}

export interface CompareSummary {
  readonly identical: boolean;
  /** Records only on the right, only on the left, on both sides but different, on both and equal. */
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
  readonly unchanged: number;
  /** Where paired records differ: a JSON Pointer inside the record, and in how many records. */
  readonly changedPaths: readonly { readonly path: string; readonly records: number }[];
  /** Ids of the records counted above (each list capped at 100). */
  readonly addedIds: readonly string[];
  readonly removedIds: readonly string[];
  readonly changedIds: readonly string[];
}

export interface PayloadComparison {
  readonly left: NormalizedPayload;
  readonly right: NormalizedPayload;
  readonly summary: CompareSummary;
}

const MAX_IDS = 100;

/** JSON text as a value; a clear error naming `what` when it is not JSON. */
export function parsePayloadText(text: string, what: string): unknown {
  if (text.trim() === '') throw new HealthDataError('parse', `${what} is empty.`);
  try {
    return JSON.parse(withoutBom(text)) as unknown;
  } catch (err) {
    throw new HealthDataError('parse', `${what} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The body of an exchange as a value: an exchange without a JSON body cannot be compared. */
export function exchangePayload(exchange: Exchange, what: string): unknown {
  if (exchange.responseBody === undefined) throw new HealthDataError('parse', `${what} has no response body.`);
  return parsePayloadText(exchange.responseBody, `The body of ${what}`);
}

/** Whether two exchanges answer the same question: the same resource, both a list or both one record. */
export function comparableExchanges(a: Exchange, b: Exchange): boolean {
  return a.purpose === 'data' && b.purpose === 'data' && a.resource === b.resource && endpointShape(a.endpoint) === endpointShape(b.endpoint);
}

function endpointShape(endpoint: ExchangeEndpoint): string {
  return endpoint === 'getById' || endpoint === 'getByDate' || endpoint === 'getLatest' ? 'record' : endpoint;
}

export function normalizePayload(payload: unknown, kind?: ResourceKind): NormalizedPayload {
  return withinStack(() => normalized(payload, kind));
}

function normalized(payload: unknown, kind?: ResourceKind): NormalizedPayload {
  const { records, wrapper } = asList(payload);
  if (records) {
    const detected = kind ?? firstKind(records);
    const value = sortById(records.map((r) => normalizeRecord(r, kind ?? detectKind(r) ?? detected)));
    return { shape: 'list', kind: detected, wrapper, value, text: jsonText(value) };
  }
  if (isObject(payload)) {
    const detected = kind ?? detectKind(payload);
    const value = normalizeRecord(payload, detected);
    return { shape: 'record', kind: detected, value, text: jsonText(value) };
  }
  return { shape: 'other', value: payload, text: jsonText(payload) };
}

/** Both sides normalized, their records paired by id, and what differs. */
export function comparePayloads(left: unknown, right: unknown, kind?: ResourceKind): PayloadComparison {
  return withinStack(() => compared(left, right, kind));
}

/** A payload nested deeper than the stack allows is a clear message, not a crash. */
function withinStack<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof RangeError) throw new HealthDataError('parse', 'The payload is nested too deeply to compare.');
    throw err;
  }
}

function compared(left: unknown, right: unknown, kind?: ResourceKind): PayloadComparison {
  const l = normalizePayload(left, kind);
  const r = normalizePayload(right, kind ?? l.kind);
  const leftFinal = kind === undefined && l.kind === undefined && r.kind !== undefined ? normalizePayload(left, r.kind) : l;
  const counts = { added: 0, removed: 0, changed: 0, unchanged: 0 };
  const ids = { added: [] as string[], removed: [] as string[], changed: [] as string[] };
  const paths = new Map<string, number>();
  const changedRecord = (id: string, a: unknown, b: unknown) => {
    const differences = new Set(differencesOf(a, b, ''));
    if (differences.size === 0) {
      counts.unchanged++;
      return;
    }
    counts.changed++;
    keep(ids.changed, id);
    for (const path of differences) paths.set(path, (paths.get(path) ?? 0) + 1);
  };
  if (leftFinal.shape === 'record' && r.shape === 'record') {
    // One record each: compared field by field whatever their ids (two dates, two environments).
    changedRecord(idOf(leftFinal.value, 0), leftFinal.value, r.value);
  } else if (leftFinal.shape === 'other' || r.shape === 'other') {
    changedRecord('', leftFinal.value, r.value);
  } else {
    const a = byId(leftFinal);
    const b = byId(r);
    for (const [id, record] of a) {
      if (b.has(id)) changedRecord(id, record, b.get(id));
      else {
        counts.removed++;
        keep(ids.removed, id);
      }
    }
    for (const id of b.keys()) {
      if (a.has(id)) continue;
      counts.added++;
      keep(ids.added, id);
    }
  }
  const changedPaths = [...paths].map(([path, records]) => ({ path, records })).sort((x, y) => y.records - x.records || (x.path < y.path ? -1 : 1));
  return {
    left: leftFinal,
    right: r,
    summary: {
      identical: counts.added === 0 && counts.removed === 0 && counts.changed === 0,
      ...counts,
      changedPaths,
      addedIds: ids.added,
      removedIds: ids.removed,
      changedIds: ids.changed,
    },
  };
}

/** One line: `2 records changed (/steps in 2, /calories in 1), 1 added, 0 removed, 27 the same`. */
export function compareSummaryText(summary: CompareSummary, shape: NormalizedPayload['shape']): string {
  const paths = summary.changedPaths.slice(0, 6).map((p) => (shape === 'list' ? `${p.path || '(whole record)'} in ${p.records}` : p.path || '(whole value)'));
  const more = summary.changedPaths.length > 6 ? `, ${summary.changedPaths.length - 6} more` : '';
  if (shape !== 'list') {
    if (summary.identical) return 'No differences.';
    const n = summary.changedPaths.length;
    return `${n} field${n === 1 ? '' : 's'} differ: ${paths.join(', ')}${more}.`;
  }
  const total = summary.added + summary.removed + summary.changed + summary.unchanged;
  if (summary.identical) return `No differences (${total} record${total === 1 ? '' : 's'} on each side, compared by id).`;
  const changed = `${summary.changed} record${summary.changed === 1 ? '' : 's'} changed${paths.length ? ` (${paths.join(', ')}${more})` : ''}`;
  return `${changed}, ${summary.added} added, ${summary.removed} removed, ${summary.unchanged} the same.`;
}

function asList(payload: unknown): { records?: unknown[]; wrapper?: ListWrapper } {
  if (Array.isArray(payload)) return { records: payload, wrapper: 'array' };
  if (isObject(payload)) {
    for (const wrapper of LIST_WRAPPERS) if (Array.isArray(payload[wrapper])) return { records: payload[wrapper] as unknown[], wrapper };
  }
  return {};
}

function firstKind(records: readonly unknown[]): ResourceKind | undefined {
  for (const record of records) {
    const kind = detectKind(record);
    if (kind) return kind;
  }
  return undefined;
}

/** A record's keys in its schema's order, fields the schema does not know after them, sorted. */
function normalizeRecord(record: unknown, kind: ResourceKind | undefined): unknown {
  if (!isObject(record) || kind === undefined) return sortedKeys(record);
  return ordered(record, shapeFor(kind));
}

function ordered(record: Record<string, unknown>, shape: ObjectShape): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, info] of shape.fields) {
    if (!Object.prototype.hasOwnProperty.call(record, field)) continue;
    const value = record[field];
    define(out, field, info.items && Array.isArray(value) ? value.map((item) => (isObject(item) ? ordered(item, info.items!) : sortedKeys(item))) : sortedKeys(value));
  }
  for (const key of Object.keys(record).sort()) if (!shape.fields.has(key)) define(out, key, sortedKeys(record[key]));
  return out;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) define(out, key, sortedKeys(value[key]));
  return out;
}

/** A key set as data even when it is `__proto__`. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Records in id order (numbers before strings, as JSON sorts them here); records without an id last, as they came. */
function sortById(records: unknown[]): unknown[] {
  const withId = records.map((record, index) => ({ record, index, id: rawId(record) }));
  return withId
    .sort((a, b) => {
      if (a.id === undefined || b.id === undefined) return a.id === b.id ? a.index - b.index : a.id === undefined ? 1 : -1;
      const x = typeof a.id === 'number' ? `0${String(a.id).padStart(20, '0')}` : `1${a.id}`;
      const y = typeof b.id === 'number' ? `0${String(b.id).padStart(20, '0')}` : `1${b.id}`;
      return x < y ? -1 : x > y ? 1 : a.index - b.index;
    })
    .map((entry) => entry.record);
}

function rawId(record: unknown): string | number | undefined {
  const id = isObject(record) ? record.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** The pairing key of a record: its id (typed, so "1" and 1 stay apart), or its place among those without. */
function idOf(record: unknown, index: number): string {
  const id = rawId(record);
  return id === undefined ? `#${index + 1}` : typeof id === 'number' ? String(id) : id;
}

function byId(payload: NormalizedPayload): Map<string, unknown> {
  const records = payload.shape === 'list' ? (payload.value as unknown[]) : [payload.value];
  const map = new Map<string, unknown>();
  let withoutId = 0;
  for (const record of records) {
    let key = rawId(record) === undefined ? idOf(record, withoutId++) : idOf(record, 0);
    // A repeated id: the second one pairs with the other side's second one.
    for (let n = 2; map.has(key); n++) key = `${idOf(record, 0)} (${n})`;
    map.set(key, record);
  }
  return map;
}

/** JSON Pointers (relative to the values) where two JSON values differ. */
function differencesOf(a: unknown, b: unknown, path: string, out: string[] = []): string[] {
  if (a === b) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) out.push(`${path}/${i}`);
      else differencesOf(a[i], b[i], `${path}/${i}`, out);
    }
    return out;
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const child = `${path}/${pointerToken(key)}`;
      const inA = Object.prototype.hasOwnProperty.call(a, key);
      const inB = Object.prototype.hasOwnProperty.call(b, key);
      if (inA !== inB) out.push(child);
      else differencesOf(a[key], b[key], child, out);
    }
    return out;
  }
  out.push(path);
  return out;
}

function keep(list: string[], id: string): void {
  if (list.length < MAX_IDS) list.push(id);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2) ?? 'null'}\n`;
}
