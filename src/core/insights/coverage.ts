// Field coverage of a set of records of one resource: which fields each source really sends
// (non-zero, zero, null, absent, and a verdict), the days two sources report for one human, and
// notes (readings without tzOffset, units, fields outside the schema, deprecated fields).

import { isCalendarDate, localDateOf } from '../dates';
import { ResourceKind, resource } from '../resources';
import { schemaFor } from '../validation';
import { CLASSIFIERS } from './classifiers.generated';
import { classifyByName } from './classify';
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
  /** The dates of each human's records (null: records without a humanId). */
  byHuman: Map<string | null, Set<string>>;
  lastHuman: string | null | undefined;
  lastDates: Set<string> | undefined;
  undated: number;
  /** Per schema field: nonZero, zero, null counts (absent = records − the three). */
  counts: Int32Array;
  /** Per schema field: records that carry it when it is deprecated. */
  deprecated: Int32Array;
  noTzOffset: number;
  units: Map<string, number>;
  unknown: Map<string, number>;
}

function newTally(source: string | null, nFields: number): SourceTally {
  return { source, records: 0, byHuman: new Map(), lastHuman: undefined, lastDates: undefined, undated: 0, counts: new Int32Array(nFields * 3), deprecated: new Int32Array(nFields), noTzOffset: 0, units: new Map(), unknown: new Map() };
}

/** A unit as a note names it: the text, or what stands there instead. */
function unitName(unit: unknown): string {
  return typeof unit === 'string' ? unit : unit === undefined ? '(none)' : `(${unit === null ? 'null' : typeof unit})`;
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
  const isDeprecated = fields.map((f) => deprecated.has(f));
  const nFields = fields.length;
  const tallies = new Map<string | null, SourceTally>();
  let notRecords = 0;
  const timestamped = def.datingField === 'timestamp';
  let lastSource: string | null | undefined;
  let t = newTally(null, nFields);
  let lastUnit: unknown;
  let lastUnitCount = 0;
  let unitTally: SourceTally | undefined;
  const flushUnit = (): void => {
    if (unitTally && lastUnitCount) unitTally.units.set(unitName(lastUnit), (unitTally.units.get(unitName(lastUnit)) ?? 0) + lastUnitCount);
    lastUnitCount = 0;
  };

  // for…in lists inherited enumerable keys too: only when Object.prototype has some (it never
  // should) is each key checked to be the record's own.
  let inherited = false;
  for (const key in {}) inherited = key !== undefined;
  // A named read finds a field on the prototype too: where Object.prototype has one (it never
  // should), every record is counted by hasOwnProperty.
  const namedReads = !fields.some((f) => f in Object.prototype);
  const classify = CLASSIFIERS[kind];

  for (let r = 0; r < records.length; r++) {
    const record = records[r];
    if (!isRecordObject(record)) {
      notRecords++;
      continue;
    }
    const source = sourceKey(record);
    if (source !== lastSource || lastSource === undefined) {
      let found = tallies.get(source);
      if (!found) tallies.set(source, (found = newTally(source, nFields)));
      t = found;
      lastSource = source;
    }
    t.records++;
    const proto = Object.getPrototypeOf(record);
    const present =
      namedReads && (proto === Object.prototype || proto === null)
        ? classify(record, t.counts, t.deprecated)
        : classifyByName(record, fields, isDeprecated, t.counts, t.deprecated);
    // Keys beyond the schema's fields it has: counted, and only then looked for.
    let keys = 0;
    for (const key in record) if (!inherited || hasOwn.call(record, key)) keys++;
    if (keys !== present) {
      for (const key in record) {
        // An enumerable key inherited from a changed Object.prototype is no field of the record.
        if (inherited && !hasOwn.call(record, key)) continue;
        if (!fieldIndex.has(key)) bump(t.unknown, key);
      }
    }
    if (timestamped) {
      const tz = record.tzOffset;
      if (tz === undefined || tz === null) t.noTzOffset++;
      const unit = record.unit;
      if (unit !== lastUnit || unitTally !== t) {
        flushUnit();
        lastUnit = unit;
        unitTally = t;
      }
      lastUnitCount++;
    }
    let date: string | undefined;
    if (timestamped) date = localDateOf(record, kind);
    else {
      const d = record.date;
      date = typeof d === 'string' && isCalendarDate(d) ? d : undefined;
    }
    if (date === undefined) {
      t.undated++;
      continue;
    }
    const h = record.humanId;
    const human = typeof h === 'string' ? h : null;
    if (human !== t.lastHuman || t.lastDates === undefined) {
      let dates = t.byHuman.get(human);
      if (!dates) t.byHuman.set(human, (dates = new Set()));
      t.lastHuman = human;
      t.lastDates = dates;
    }
    t.lastDates.add(date);
  }
  flushUnit();

  // Overlaps: per human, the sources of each date.
  const perHuman = new Map<string, Map<string, Array<string | null>>>();
  let firstSeen: string | undefined;
  let lastSeen: string | undefined;
  for (const tally of tallies.values()) {
    for (const [human, dates] of tally.byHuman) {
      for (const date of dates) {
        if (firstSeen === undefined || date < firstSeen) firstSeen = date;
        if (lastSeen === undefined || date > lastSeen) lastSeen = date;
      }
      if (human === null) continue;
      let byDate = perHuman.get(human);
      if (!byDate) perHuman.set(human, (byDate = new Map()));
      for (const date of dates) {
        const list = byDate.get(date);
        if (list) list.push(tally.source);
        else byDate.set(date, [tally.source]);
      }
    }
  }
  const overlaps: Overlap[] = [];
  for (const [humanId, byDate] of perHuman) {
    for (const [date, list] of byDate) {
      if (list.length > 1) overlaps.push({ date, humanId, sources: list.map((x) => x ?? '(no source)').sort() });
    }
  }
  overlaps.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.humanId < b.humanId ? -1 : a.humanId > b.humanId ? 1 : 0));

  const ordered = [...tallies.values()].sort(bySource);
  const sources: SourceCoverage[] = ordered.map((t) => {
    const all = new Set<string>();
    for (const dates of t.byHuman.values()) for (const date of dates) all.add(date);
    const sorted = [...all].sort();
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

  return {
    resource: def.cliName,
    from: options.from ?? firstSeen ?? null,
    to: options.to ?? lastSeen ?? null,
    records: records.length,
    sources,
    overlaps,
    notes: notesOf(kind, ordered, notRecords, fields),
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

function notesOf(kind: ResourceKind, tallies: readonly SourceTally[], notRecords: number, fields: readonly string[]): CoverageNote[] {
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
    const deprecatedSent = new Map(fields.map((f, i) => [f, t.deprecated[i]] as [string, number]).filter(([, n]) => n > 0));
    if (deprecatedSent.size) {
      const items = itemsOf(deprecatedSent);
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
