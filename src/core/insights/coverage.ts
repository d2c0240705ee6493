// Field coverage of a set of records of one resource: which fields each source really sends
// (non-zero, zero, null, absent, and a verdict), the days two sources report for one human, and
// notes (readings without tzOffset, units, fields outside the schema, deprecated fields).

import { localDateOf } from '../dates';
import { ResourceKind, resource } from '../resources';
import { schemaFor } from '../validation';
import type { CoverageNote, CoverageReport, FieldCoverage, Overlap, SourceCoverage, ValueClass, Verdict } from './reportTypes';

export const VERDICTS: readonly Verdict[] = ['provided', 'sometimes', 'never'];

export interface CoverageOptions {
  /** The range asked for; without one, the first and last date seen. */
  from?: string;
  to?: string;
}

/** The schema's fields of a kind, in the schema's order. */
export function schemaFields(kind: ResourceKind): readonly string[] {
  let fields = fieldCache.get(kind);
  if (!fields) {
    fields = Object.keys(schemaFor(kind).properties ?? {});
    fieldCache.set(kind, fields);
  }
  return fields;
}
const fieldCache = new Map<ResourceKind, readonly string[]>();

function deprecatedFields(kind: ResourceKind): ReadonlySet<string> {
  const props = schemaFor(kind).properties ?? {};
  return new Set(Object.keys(props).filter((f) => props[f].deprecated));
}

const hasOwn = Object.prototype.hasOwnProperty;

/** The record's `source` as the report keys it: null when it has no string source. */
export function sourceKey(record: unknown): string | null {
  const s = record !== null && typeof record === 'object' ? (record as Record<string, unknown>).source : undefined;
  return typeof s === 'string' ? s : null;
}

export function isRecordObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function classifyValue(record: Record<string, unknown>, field: string): ValueClass {
  if (!hasOwn.call(record, field)) return 'absent';
  const v = record[field];
  if (v === null) return 'null';
  return v === 0 ? 'zero' : 'nonZero';
}

/** provided: non-zero on every record; never: 0, null or absent on every record; else sometimes. */
export function verdictOf(c: Pick<FieldCoverage, 'nonZero' | 'zero' | 'null' | 'absent'>): Verdict {
  if (c.nonZero === 0) return 'never';
  return c.zero === 0 && c.null === 0 && c.absent === 0 ? 'provided' : 'sometimes';
}

interface SourceTally {
  source: string | null;
  records: number;
  dates: Set<string>;
  undated: number;
  /** Per schema field: nonZero, zero, null counts (absent = records − the three). */
  counts: Int32Array;
  noTzOffset: number;
  units: Map<string, number>;
  unknown: Map<string, number>;
  deprecated: Map<string, number>;
}

/**
 * Coverage of records that are all of `kind` (records of another kind count as records of this
 * one: split mixed lists with `splitByKind` first). Items that are not objects are counted in a
 * note and in no source. Never throws on hostile records.
 */
export function computeCoverage(kind: ResourceKind, records: readonly unknown[], options: CoverageOptions = {}): CoverageReport {
  const def = resource(kind);
  const fields = schemaFields(kind);
  const fieldIndex = new Map(fields.map((f, i) => [f, i]));
  const deprecated = deprecatedFields(kind);
  const nFields = fields.length;
  const tallies = new Map<string | null, SourceTally>();
  /** `humanId \u0000 date` → the sources that report it. */
  const days = new Map<string, { date: string; humanId: string; sources: Set<string | null> }>();
  let notRecords = 0;
  let firstSeen: string | undefined;
  let lastSeen: string | undefined;
  const timestamped = def.datingField === 'timestamp';

  for (const record of records) {
    if (!isRecordObject(record)) {
      notRecords++;
      continue;
    }
    const source = sourceKey(record);
    let t = tallies.get(source);
    if (!t) {
      t = { source, records: 0, dates: new Set(), undated: 0, counts: new Int32Array(nFields * 3), noTzOffset: 0, units: new Map(), unknown: new Map(), deprecated: new Map() };
      tallies.set(source, t);
    }
    t.records++;
    const counts = t.counts;
    for (let i = 0; i < nFields; i++) {
      const field = fields[i];
      if (!hasOwn.call(record, field)) continue;
      const v = record[field];
      counts[i * 3 + (v === null ? 2 : v === 0 ? 1 : 0)]++;
      if (deprecated.has(field)) bump(t.deprecated, field);
    }
    for (const key in record) {
      if (hasOwn.call(record, key) && !fieldIndex.has(key)) bump(t.unknown, key);
    }
    // Own keys that for…in skips (a `__proto__` key made by JSON.parse is enumerable, so only
    // non-enumerable ones): none come from JSON, so nothing more to look at.
    if (timestamped) {
      const tz = record.tzOffset;
      if (tz === undefined || tz === null) t.noTzOffset++;
      const unit = record.unit;
      bump(t.units, typeof unit === 'string' ? unit : unit === undefined ? '(none)' : `(${unit === null ? 'null' : typeof unit})`);
    }
    const date = localDateOf(record, kind);
    if (date === undefined) {
      t.undated++;
      continue;
    }
    t.dates.add(date);
    if (firstSeen === undefined || date < firstSeen) firstSeen = date;
    if (lastSeen === undefined || date > lastSeen) lastSeen = date;
    const humanId = record.humanId;
    if (typeof humanId === 'string') {
      const key = `${humanId}\u0000${date}`;
      let day = days.get(key);
      if (!day) {
        day = { date, humanId, sources: new Set() };
        days.set(key, day);
      }
      day.sources.add(source);
    }
  }

  const ordered = [...tallies.values()].sort(bySource);
  const sources: SourceCoverage[] = ordered.map((t) => {
    const sorted = [...t.dates].sort();
    return {
      source: t.source,
      records: t.records,
      days: sorted.length,
      firstDate: sorted[0] ?? null,
      lastDate: sorted[sorted.length - 1] ?? null,
      fields: fields.map((field, i) => {
        const nonZero = t.counts[i * 3];
        const zero = t.counts[i * 3 + 1];
        const nul = t.counts[i * 3 + 2];
        const c = { field, nonZero, zero, null: nul, absent: t.records - nonZero - zero - nul };
        return { ...c, verdict: verdictOf(c) };
      }),
    };
  });

  const overlaps: Overlap[] = [];
  for (const day of days.values()) {
    if (day.sources.size < 2) continue;
    overlaps.push({ date: day.date, humanId: day.humanId, sources: [...day.sources].map((s) => s ?? '(no source)').sort() });
  }
  overlaps.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.humanId < b.humanId ? -1 : a.humanId > b.humanId ? 1 : 0));

  return {
    resource: def.cliName,
    from: options.from ?? firstSeen ?? null,
    to: options.to ?? lastSeen ?? null,
    records: records.length,
    sources,
    overlaps,
    notes: notesOf(kind, ordered, notRecords),
  };
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** Sources by name; records without a source last. */
function bySource(a: { source: string | null }, b: { source: string | null }): number {
  if (a.source === b.source) return 0;
  if (a.source === null) return 1;
  if (b.source === null) return -1;
  return a.source < b.source ? -1 : 1;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
const itemsOf = (map: Map<string, number>): Array<{ name: string; count: number }> =>
  [...map].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1));
const listed = (items: Array<{ name: string; count: number }>): string => items.map((i) => `${i.name} (${i.count})`).join(', ');

function notesOf(kind: ResourceKind, tallies: readonly SourceTally[], notRecords: number): CoverageNote[] {
  const def = resource(kind);
  const notes: CoverageNote[] = [];
  if (notRecords) {
    notes.push({ kind: 'notRecords', source: null, count: notRecords, items: [], message: `${plural(notRecords, 'item is', 'items are')} not a record (not a JSON object) and counted in no source` });
  }
  for (const t of tallies) {
    const who = t.source ?? 'records without a source';
    if (t.undated) {
      notes.push({ kind: 'undated', source: t.source, count: t.undated, items: [], message: `${who}: ${plural(t.undated, 'record has', 'records have')} no usable ${def.datingField}, so no day` });
    }
    if (def.datingField === 'timestamp' && t.noTzOffset) {
      notes.push({ kind: 'noTzOffset', source: t.source, count: t.noTzOffset, items: [], message: `${who}: ${plural(t.noTzOffset, 'reading has', 'readings have')} no tzOffset; dated in UTC` });
    }
    if (def.datingField === 'timestamp' && t.units.size) {
      const items = itemsOf(t.units);
      notes.push({ kind: 'units', source: t.source, count: t.records, items, message: `${who}: unit ${listed(items)}` });
    }
    if (t.unknown.size) {
      const items = itemsOf(t.unknown);
      notes.push({ kind: 'unknownFields', source: t.source, count: items.reduce((n, i) => Math.max(n, i.count), 0), items, message: `${who}: fields the schema does not define: ${listed(items)}` });
    }
    if (t.deprecated.size) {
      const items = itemsOf(t.deprecated);
      notes.push({ kind: 'deprecatedFields', source: t.source, count: items.reduce((n, i) => Math.max(n, i.count), 0), items, message: `${who}: deprecated fields still sent: ${listed(items)}` });
    }
  }
  return notes;
}

/** The records behind one cell, as indices into `records`: those whose field is of `which` class. */
export function cellRecords(records: readonly unknown[], source: string | null, field: string, which: ValueClass): number[] {
  const out: number[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (isRecordObject(r) && sourceKey(r) === source && classifyValue(r, field) === which) out.push(i);
  }
  return out;
}
