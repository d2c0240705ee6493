// Field coverage of a set of records of one resource: which fields each source really sends
// (non-zero, zero, null, absent, and a verdict), the days two sources report for one human, and
// notes (readings without tzOffset, units, fields outside the schema, deprecated fields).

import { calendarDateAt, digitsDateNumber, formatDateNumber, isCalendarDate, localDateNumberOf, localDateOf } from '../dates';
import { ResourceKind, resource } from '../resources';
import { schemaFor } from '../validation';
import { CLASSIFIERS } from './classifiers.generated';
import { classifyByName } from './classify';
import type { CoverageNote, CoverageReport, FieldCoverage, Overlap, SourceCoverage, ValueClass, Verdict } from './reportTypes';
import { isUnusualZero } from '../validation/unusualZero';

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

/** The fields the schema marks deprecated (`userId`), which a source may still send. */
export function deprecatedFields(kind: ResourceKind): ReadonlySet<string> {
  const props = schemaFor(kind).properties ?? {};
  return new Set(Object.keys(props).filter((f) => props[f].deprecated));
}

const hasOwn = Object.prototype.hasOwnProperty;

/** The fields the schema types as numbers: their values other than 0 and null are "non-zero"; other fields' are "sent". */
export function numericFields(kind: ResourceKind): ReadonlySet<string> {
  const props = schemaFor(kind).properties ?? {};
  return new Set(Object.keys(props).filter((f) => props[f].type === 'number' || props[f].type === 'integer'));
}

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

/** provided: on every record, and not 0 or null; never: 0, null or absent on every record; else sometimes. */
export function verdictOf(c: Pick<FieldCoverage, 'nonZero' | 'zero' | 'null' | 'absent'>): Verdict {
  if (c.nonZero === 0) return 'never';
  return c.zero === 0 && c.null === 0 && c.absent === 0 ? 'provided' : 'sometimes';
}

interface SourceTally {
  source: string | null;
  records: number;
  /** The days of each human's records (null: records without a humanId), as day keys. */
  byHuman: Map<string | null, DayKeys>;
  lastHuman: string | null | undefined;
  lastDays: DayKeys | undefined;
  undated: number;
  /** Per schema field: nonZero, zero, null counts (absent = records − the three). */
  counts: Int32Array;
  /** Per schema field: records that carry it when it is deprecated. */
  deprecated: Int32Array;
  noTzOffset: number;
  units: Map<string, number>;
  unknown: Map<string, number>;
  /**
   * Per numeric field (CoverageState.zeroFields), the day keys of its first UNUSUAL_ZERO_DAYS dated
   * zeros, and how many dated zeros it had: the days a 0 that stands out falls on, known only
   * once every record is counted.
   */
  zeroDays: Int32Array;
  zeroDated: Int32Array;
}

/** Days kept per source and numeric field for the note of zeros that stand out (19 in 20 of the others send the field: few of them). */
export const UNUSUAL_ZERO_DAYS = 64;

function newTally(source: string | null, nFields: number, nNumeric: number): SourceTally {
  return {
    source,
    records: 0,
    byHuman: new Map(),
    lastHuman: undefined,
    lastDays: undefined,
    undated: 0,
    counts: new Int32Array(nFields * 3),
    deprecated: new Int32Array(nFields),
    noTzOffset: 0,
    units: new Map(),
    unknown: new Map(),
    zeroDays: new Int32Array(nNumeric * UNUSUAL_ZERO_DAYS),
    zeroDated: new Int32Array(nNumeric),
  };
}

/** Keeps the day of a dated 0 of numeric field `k` (the first UNUSUAL_ZERO_DAYS of them), counting it either way. */
function keepZeroDay(t: SourceTally, k: number, day: number): void {
  const n = t.zeroDated[k]++;
  if (n < UNUSUAL_ZERO_DAYS) t.zeroDays[k * UNUSUAL_ZERO_DAYS + n] = day;
}

/**
 * The days of one human's records of one source, as they come (a repeat of the day before left
 * out): a number per record instead of a string in a set, sorted and made distinct at the end.
 * A day key is YYYYMMDD for a date written YYYY-MM-DD (so keys and texts sort alike), and -1 − i
 * for the i-th other text a reading's local date can be (a year beyond 9999 or before 0).
 */
interface DayKeys {
  keys: Int32Array;
  length: number;
}

function addDay(days: DayKeys, key: number): void {
  const n = days.length;
  if (n > 0 && days.keys[n - 1] === key) return;
  if (n === days.keys.length) {
    const grown = new Int32Array(n * 2);
    grown.set(days.keys);
    days.keys = grown;
  }
  days.keys[n] = key;
  days.length = n + 1;
}

/** The distinct keys of `days`, ascending. */
function distinctDays(days: DayKeys): Int32Array {
  const sorted = days.keys.subarray(0, days.length).sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) if (distinct === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i];
  return sorted.subarray(0, distinct);
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
  const counter = new CoverageCounter(kind);
  counter.add(records);
  return counter.report(options);
}

/** Adds a run of `count` readings of one unit to the tally's units (when the run ends). */
function countUnitRun(tally: SourceTally | undefined, unit: unknown, count: number): void {
  if (tally && count) tally.units.set(unitName(unit), (tally.units.get(unitName(unit)) ?? 0) + count);
}

/** A note's unit count per tally: the unit of a run of readings, counted when the run ends. */
interface UnitRun {
  unit: unknown;
  count: number;
  tally: SourceTally | undefined;
}

/**
 * Coverage counted as records come, in lists of any length one after another (a file read in
 * chunks): memory holds the counts and a day key per record, never the records. `report` gives
 * what computeCoverage gives for all the lists at once.
 */
export class CoverageCounter {
  // The state is a plain object of one literal's shape, read by module functions: a class's own
  // fields would give each counter a hidden class that dies with it, and the optimised counting
  // loop with that class (measured: 1.5–1.85 × the time of one function when a full collection
  // came between two reports, as between two loads of a panel).
  private readonly state: CoverageState;

  constructor(kind: ResourceKind) {
    this.state = newCoverageState(kind);
  }

  /** Counts `records` (items that are no objects are counted in a note and in no source). */
  add(records: readonly unknown[]): void {
    addRecords(this.state, records);
  }

  /** The report of every record counted, once they are all added (it sorts the days in place). */
  report(options: CoverageOptions = {}): CoverageReport {
    return reportOf(this.state, options);
  }
}

interface CoverageState {
  kind: ResourceKind;
  fields: readonly string[];
  fieldIndex: Map<string, number>;
  isDeprecated: boolean[];
  timestamped: boolean;
  /** for…in lists inherited enumerable keys too: only when Object.prototype has some (it never should). */
  inherited: boolean;
  /** A named read finds a field on the prototype too: where Object.prototype has one, each record is counted by hasOwnProperty. */
  namedReads: boolean;
  tallies: Map<string | null, SourceTally>;
  notRecords: number;
  given: number;
  reported: boolean;
  lastSource: string | null | undefined;
  tally: SourceTally;
  unitRun: UnitRun;
  /** Local dates that are not YYYY-MM-DD, each with its day key −1 − index. */
  otherDates: string[];
  otherIndex: Map<string, number>;
  /** The schema's numeric fields, as indices into `fields`; and their zero counts before a record is classified. */
  zeroFields: Int32Array;
  zeroBefore: Int32Array;
}

function newCoverageState(kind: ResourceKind): CoverageState {
  const fields = schemaFields(kind);
  const deprecated = deprecatedFields(kind);
  let inherited = false;
  for (const key in {}) inherited = key !== undefined;
  const numeric = numericFields(kind);
  const zeroFields = fields.flatMap((f, i) => (numeric.has(f) ? [i] : []));
  return {
    kind,
    fields,
    fieldIndex: new Map(fields.map((f, i) => [f, i])),
    isDeprecated: fields.map((f) => deprecated.has(f)),
    timestamped: resource(kind).datingField === 'timestamp',
    inherited,
    namedReads: !fields.some((f) => f in Object.prototype),
    tallies: new Map(),
    notRecords: 0,
    given: 0,
    reported: false,
    lastSource: undefined,
    tally: newTally(null, fields.length, zeroFields.length),
    unitRun: { unit: undefined, count: 0, tally: undefined },
    otherDates: [],
    otherIndex: new Map(),
    zeroFields: Int32Array.from(zeroFields),
    zeroBefore: new Int32Array(zeroFields.length),
  };
}

function addRecords(state: CoverageState, records: readonly unknown[]): void {
  if (state.reported) throw new Error('coverage: records added after the report');
  // The loop works on locals, written back at the end: a call may count a million records.
  const { kind, fields, fieldIndex, isDeprecated, timestamped, inherited, namedReads, tallies, otherDates, otherIndex, unitRun, zeroFields, zeroBefore } = state;
  const nFields = fields.length;
  const nNumeric = zeroFields.length;
  const classify = CLASSIFIERS[kind];
  let notRecords = state.notRecords;
  let lastSource = state.lastSource;
  let t = state.tally;
  let lastUnit = unitRun.unit;
  let lastUnitCount = unitRun.count;
  let unitTally = unitRun.tally;
  const flushUnit = (): void => {
    countUnitRun(unitTally, lastUnit, lastUnitCount);
    lastUnitCount = 0;
  };
  for (let r = 0; r < records.length; r++) {
    const record = records[r];
    if (!isRecordObject(record)) {
      notRecords++;
      continue;
    }
    const source = sourceKey(record);
    if (source !== lastSource || lastSource === undefined) {
      let found = tallies.get(source);
      if (!found) tallies.set(source, (found = newTally(source, nFields, nNumeric)));
      t = found;
      lastSource = source;
    }
    t.records++;
    // Which numeric fields are 0 is read off the counts the classifier adds to.
    const counts = t.counts;
    for (let k = 0; k < nNumeric; k++) zeroBefore[k] = counts[zeroFields[k] * 3 + 1];
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
    let day: number;
    if (timestamped) {
      day = localDateNumberOf(record);
      if (day === -1) day = NaN;
      else if (day === -2) {
        // A local date of a year beyond 9999 or before 0 (`+010000-01`): a key of its own.
        const date = localDateOf(record, kind)!;
        let id = otherIndex.get(date);
        if (id === undefined) otherIndex.set(date, (id = otherDates.push(date) - 1));
        day = -1 - id;
      }
    } else {
      const d = record.date;
      if (typeof d !== 'string' || d.length !== 10) day = NaN;
      else {
        // A real calendar date is its own key; years before 100 are judged by isCalendarDate.
        day = calendarDateAt(d);
        if (day < 0) day = isCalendarDate(d) ? digitsDateNumber(d) : NaN;
      }
    }
    if (day !== day) {
      t.undated++;
      continue;
    }
    const h = record.humanId;
    const human = typeof h === 'string' ? h : null;
    if (human !== t.lastHuman || t.lastDays === undefined) {
      let days = t.byHuman.get(human);
      if (!days) t.byHuman.set(human, (days = { keys: new Int32Array(16), length: 0 }));
      t.lastHuman = human;
      t.lastDays = days;
    }
    addDay(t.lastDays, day);
    for (let k = 0; k < nNumeric; k++) if (counts[zeroFields[k] * 3 + 1] !== zeroBefore[k]) keepZeroDay(t, k, day);
  }
  state.given += records.length;
  state.notRecords = notRecords;
  state.lastSource = lastSource;
  state.tally = t;
  unitRun.unit = lastUnit;
  unitRun.count = lastUnitCount;
  unitRun.tally = unitTally;
}

function reportOf(state: CoverageState, options: CoverageOptions): CoverageReport {
  if (state.reported) throw new Error('coverage: reported twice');
  state.reported = true;
  const { kind, fields, tallies, otherDates, notRecords, unitRun } = state;
  const def = resource(kind);
  countUnitRun(unitRun.tally, unitRun.unit, unitRun.count);
  unitRun.count = 0;

  // A key's text, and the order of texts: numbers compare as their texts do unless other texts were met.
  const textOf = (key: number): string => (key >= 0 ? formatDateNumber(key) : otherDates[-1 - key]);
  const before = (a: number, b: number): boolean => (otherDates.length === 0 ? a < b : textOf(a) < textOf(b));

  // Per source, its distinct days of every human; per human, (day, source) pairs for the overlaps.
  const ordered = [...tallies.values()].sort(bySource);
  const nTallies = ordered.length;
  const perHuman = new Map<string, Int32Array[]>();
  let firstSeen: number | undefined;
  let lastSeen: number | undefined;
  const dayRange = ordered.map((t, ti) => {
    const lists: Int32Array[] = [];
    let all = 0;
    for (const [human, days] of t.byHuman) {
      const distinct = distinctDays(days);
      lists.push(distinct);
      all += distinct.length;
      if (human === null) continue;
      let perSource = perHuman.get(human);
      if (!perSource) perHuman.set(human, (perSource = new Array<Int32Array>(nTallies)));
      perSource[ti] = distinct;
    }
    const merged = new Int32Array(all);
    let at = 0;
    for (const list of lists) {
      merged.set(list, at);
      at += list.length;
    }
    const distinct = lists.length === 1 ? lists[0] : distinctDays({ keys: merged, length: all });
    // Ascending keys: the ends are the first and last day, unless other texts reorder them.
    let first: number | undefined = distinct.length ? distinct[0] : undefined;
    let last: number | undefined = distinct.length ? distinct[distinct.length - 1] : undefined;
    if (otherDates.length) {
      for (const k of distinct) {
        if (before(k, first!)) first = k;
        if (before(last!, k)) last = k;
      }
    }
    if (first !== undefined && (firstSeen === undefined || before(first, firstSeen))) firstSeen = first;
    if (last !== undefined && (lastSeen === undefined || before(lastSeen, last))) lastSeen = last;
    return { days: distinct.length, first, last };
  });

  // Overlaps: per human, the days that more than one source has.
  const overlaps: Overlap[] = [];
  const overlap = (day: number, humanId: string, tallyIndices: readonly number[]): void => {
    const names = tallyIndices.map((ti) => ordered[ti].source ?? '(no source)');
    overlaps.push({ date: textOf(day), humanId, sources: names.sort() });
  };
  for (const [humanId, perSource] of perHuman) {
    const lists: Int32Array[] = [];
    const owners: number[] = [];
    perSource.forEach((list, ti) => {
      lists.push(list);
      owners.push(ti);
    });
    if (lists.length < 2) continue;
    if (lists.length <= MERGED_SOURCES) mergeOverlaps(lists, owners, (day, which) => overlap(day, humanId, which));
    else sortOverlaps(lists, owners, otherDates.length, (day, which) => overlap(day, humanId, which));
  }
  overlaps.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.humanId < b.humanId ? -1 : a.humanId > b.humanId ? 1 : 0));

  const sources: SourceCoverage[] = ordered.map((t, ti) => {
    const { days, first, last } = dayRange[ti];
    return {
      source: t.source,
      records: t.records,
      days,
      firstDate: first === undefined ? null : textOf(first),
      lastDate: last === undefined ? null : textOf(last),
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
    from: options.from ?? (firstSeen === undefined ? null : textOf(firstSeen)),
    to: options.to ?? (lastSeen === undefined ? null : textOf(lastSeen)),
    records: state.given,
    sources,
    overlaps,
    notes: notesOf(kind, ordered, notRecords, fields, state.zeroFields, textOf, before),
  };
}

/** Up to this many sources of one human, their days are merged; more, sorted together. */
const MERGED_SOURCES = 8;

type OnOverlap = (day: number, tallyIndices: number[]) => void;

/** The days of more than one of `lists` (ascending, distinct), walking them side by side. */
function mergeOverlaps(lists: readonly Int32Array[], owners: readonly number[], on: OnOverlap): void {
  const heads = new Int32Array(lists.length);
  for (;;) {
    let day = Infinity;
    for (let l = 0; l < lists.length; l++) if (heads[l] < lists[l].length && lists[l][heads[l]] < day) day = lists[l][heads[l]];
    if (day === Infinity) return;
    let found = 0;
    let which: number[] | undefined;
    let firstOwner = -1;
    for (let l = 0; l < lists.length; l++) {
      if (heads[l] >= lists[l].length || lists[l][heads[l]] !== day) continue;
      heads[l]++;
      if (++found === 1) firstOwner = owners[l];
      else (which ??= [firstOwner]).push(owners[l]);
    }
    if (which) on(day, which);
  }
}

/**
 * The same for many sources: every (day, source) as one whole number, (day key + shift) × 2^b +
 * source with 2^b above the number of sources (exact in a double, and taken apart by a division
 * by a power of two), all sorted, so a day's sources are side by side.
 */
function sortOverlaps(lists: readonly Int32Array[], owners: readonly number[], shift: number, on: OnOverlap): void {
  let scale = 1;
  while (scale <= owners[owners.length - 1]) scale *= 2;
  let n = 0;
  for (const list of lists) n += list.length;
  const pairs = new Float64Array(n);
  n = 0;
  lists.forEach((list, l) => {
    for (let i = 0; i < list.length; i++) pairs[n++] = (list[i] + shift) * scale + owners[l];
  });
  pairs.sort();
  for (let i = 0; i < n; ) {
    const key = Math.floor(pairs[i] / scale);
    let j = i + 1;
    while (j < n && Math.floor(pairs[j] / scale) === key) j++;
    if (j - i > 1) {
      const which: number[] = [];
      for (let k = i; k < j; k++) which.push(pairs[k] - key * scale);
      on(key - shift, which);
    }
    i = j;
  }
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

function notesOf(
  kind: ResourceKind,
  tallies: readonly SourceTally[],
  notRecords: number,
  fields: readonly string[],
  zeroFields: Int32Array,
  textOf: (day: number) => string,
  before: (a: number, b: number) => boolean,
): CoverageNote[] {
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
    if (t.source !== null) {
      const note = unusualZerosNote(t, fields, zeroFields, textOf, before);
      if (note) notes.push(note);
    }
  }
  return notes;
}

/** Days listed in the words of an unusualZeros note (all of them are in its `dates`). */
const DAYS_SAID = 5;

/**
 * The note of a source's zeros that stand out: fields the source sends as another number on 19
 * in 20 of its other records or more (isUnusualZero, as the Problems panel and the record view
 * judge a 0), with the days those zeros fall on, each with its fields: a day the device was not
 * worn shows as one day with several fields.
 */
function unusualZerosNote(t: SourceTally, fields: readonly string[], zeroFields: Int32Array, textOf: (day: number) => string, before: (a: number, b: number) => boolean): CoverageNote | undefined {
  const items: Array<{ name: string; count: number }> = [];
  const fieldsOfDay = new Map<number, string[]>();
  let complete = true;
  for (let k = 0; k < zeroFields.length; k++) {
    const i = zeroFields[k];
    const zero = t.counts[i * 3 + 1];
    if (zero === 0 || !isUnusualZero(t.counts[i * 3], t.records - 1)) continue;
    items.push({ name: fields[i], count: zero });
    const dated = t.zeroDated[k];
    if (dated > UNUSUAL_ZERO_DAYS) complete = false;
    for (let j = 0; j < Math.min(dated, UNUSUAL_ZERO_DAYS); j++) {
      const day = t.zeroDays[k * UNUSUAL_ZERO_DAYS + j];
      const those = fieldsOfDay.get(day);
      if (those === undefined) fieldsOfDay.set(day, [fields[i]]);
      else if (!those.includes(fields[i])) those.push(fields[i]);
    }
  }
  if (items.length === 0) return undefined;
  const days = [...fieldsOfDay.keys()].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  const said = days.slice(0, DAYS_SAID).map((d) => `${textOf(d)} (${fieldsOfDay.get(d)!.join(', ')})`);
  const more = days.length > DAYS_SAID ? `, and ${days.length - DAYS_SAID} more` : '';
  const onDays = days.length === 0 ? 'on records without a day' : `on ${complete ? '' : 'at least '}${plural(days.length, 'day', 'days')}: ${said.join(', ')}${more}`;
  return {
    kind: 'unusualZeros',
    source: t.source,
    count: days.length,
    items,
    dates: days.map(textOf),
    message: `${t.source}: unusual 0 ${onDays}; the source sends ${items.length === 1 ? 'this field' : 'these fields'} as another number on 19 in 20 of its other records or more`,
  };
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
