// Time series for "Show Trends": one human's records of one resource as the charts of the
// resource table (`trendCharts`), one series per source and field on a shared time axis. A 0 the
// service sent for a field the source lacks is a marked gap, never a point at 0.

import { epochDayOf, parseTzOffset } from '../dates';
import { ResourceKind, TrendChartDefinition, resource, trendFields } from '../resources';
import { TREND_READERS } from './classifiers.generated';
import type { TrendReader } from './classify';
import { isRecordObject } from './coverage';
import type { TrendChart, TrendSeries } from './reportTypes';
import { isUnusualZero } from '../validation/unusualZero';

export interface HumanCount {
  humanId: string;
  records: number;
}

/** One human's records of a list, in the list's order, with where each sits in the list. */
export interface HumanRecords {
  records: unknown[];
  /** `records[i]` is the list's record number `positions[i]`. */
  positions: number[];
}

/**
 * A list's records split by `humanId` in one pass (records without a string humanId, and
 * non-objects, belong to no one). The trends panel splits each list once per load: the human
 * picker's counts come from it, and the charts of one human are built from that human's records
 * alone, so neither a render nor a change of human reads the other humans' records again.
 */
export function recordsByHuman(records: readonly unknown[]): Map<string, HumanRecords> {
  const groups = new Map<string, HumanRecords>();
  // A list is mostly runs of one human: the previous record's id is compared before the map is asked.
  let lastId: string | undefined;
  let last: HumanRecords | undefined;
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (!isRecordObject(r)) continue;
    const h = r.humanId;
    if (typeof h !== 'string') continue;
    if (h !== lastId || last === undefined) {
      last = groups.get(h);
      if (last === undefined) groups.set(h, (last = { records: [], positions: [] }));
      lastId = h;
    }
    last.records.push(r);
    last.positions.push(i);
  }
  return groups;
}

/** The humans of several lists' splits, most records (over all the lists) first, then by id: the panel's choice of whose trends to draw. */
export function humanCounts(splits: ReadonlyArray<ReadonlyMap<string, HumanRecords>>): HumanCount[] {
  const counts = new Map<string, number>();
  for (const split of splits) for (const [humanId, group] of split) counts.set(humanId, (counts.get(humanId) ?? 0) + group.records.length);
  return [...counts].map(([humanId, n]) => ({ humanId, records: n })).sort((a, b) => b.records - a.records || (a.humanId < b.humanId ? -1 : 1));
}

/** Seconds of a record's place on the axis when it is timestamped (local wall time), or NaN. */
function instantOf(record: Record<string, unknown>): number {
  const ts = record.timestamp;
  if (typeof ts !== 'string') return NaN;
  const t = Date.parse(ts);
  if (Number.isNaN(t)) return NaN;
  // Local wall time: the instant shifted by the reading's offset (UTC without one).
  return Math.floor(t / 1000) + (parseTzOffset(record.tzOffset) ?? 0) * 60;
}

const DAY_SECONDS = 86_400;

/**
 * The charts of `kind` for the records of one human (all records when `humanId` is undefined,
 * which is right for a list of one human), as the message to the webview carries them (plain
 * arrays, null for no point). Records of other humans, non-objects and records without a place
 * in time are left out; a second record of a source at the same x is too.
 */
export function buildTrends(kind: ResourceKind, records: readonly unknown[], humanId?: string): TrendChart[] {
  return buildTrendSeries(kind, records, humanId).map(chartForMessage);
}

/**
 * The charts of one human's records as `recordsByHuman` split them off a list: the same as
 * `buildTrends` of the whole list for that human, refs included (they are places in the whole list).
 */
export function buildHumanTrends(kind: ResourceKind, human: HumanRecords): TrendChart[] {
  return buildTrendSeries(kind, human.records).map((chart) => messageOf(chart, human.positions));
}

/** A chart as `buildTrendSeries` makes it: typed arrays, NaN where a source has no point. */
export interface TrendSeriesData extends Omit<TrendSeries, 'values' | 'refs' | 'gaps'> {
  values: Float64Array;
  refs: Int32Array;
  gaps: Int32Array;
}
export interface TrendChartData extends Omit<TrendChart, 'xs' | 'series'> {
  xs: Float64Array;
  series: TrendSeriesData[];
}

/** The charts of `kind` in typed arrays: each record read once for all charts, no object per record. */
export function buildTrendSeries(kind: ResourceKind, records: readonly unknown[], humanId?: string): TrendChartData[] {
  const def = resource(kind);
  const timestamped = def.datingField === 'timestamp';
  const fields = trendFields(def);
  const axis = axisOf(records, timestamped, humanId, TREND_READERS[kind], fields.length);
  const zeroDefault = new Set(def.zeroDefaultFields);
  return def.trendCharts.map((chart) => chartOf(kind, chart, axis, fields, zeroDefault, timestamped));
}

/** The JSON form of a chart for postMessage: null where there is no point (uPlot's gap). */
export function chartForMessage(chart: TrendChartData): TrendChart {
  return messageOf(chart, undefined);
}

/** `chartForMessage`; with `positions`, a ref r (a record of the list the chart was built from) becomes `positions[r]`. */
function messageOf(chart: TrendChartData, positions: readonly number[] | undefined): TrendChart {
  return {
    ...chart,
    xs: plain(chart.xs),
    series: chart.series.map((s) => ({ ...s, values: withNulls(s.values), refs: positions ? placed(s.refs, positions) : plain(s.refs), gaps: plain(s.gaps) })),
    bands: chart.bands.map(([a, b]) => [a, b]),
  };
}

function plain(a: Float64Array | Int32Array): number[] {
  const out = new Array<number>(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i];
  return out;
}

/** Refs into a human's records as places in the whole list (-1, no point, stays). */
function placed(refs: Int32Array, positions: readonly number[]): number[] {
  const out = new Array<number>(refs.length);
  for (let i = 0; i < refs.length; i++) {
    const r = refs[i];
    out[i] = r < 0 ? r : positions[r];
  }
  return out;
}

function withNulls(a: Float64Array): Array<number | null> {
  const out = new Array<number | null>(a.length);
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    out[i] = v === v ? v : null;
  }
  return out;
}

/** Where each kept record sits: worked out once for all the charts of a resource. */
interface Axis {
  /** Indices into the records of the ones drawn. */
  kept: Int32Array;
  /** Per kept record: its index in `xs`, and its source's index in `sources`. */
  at: Int32Array;
  source: Int32Array;
  /** Per field, then per kept record: its value when a finite number, NaN otherwise. */
  values: Float64Array;
  /** Records given: the distance between two fields' values in `values`. */
  stride: number;
  xs: Float64Array;
  sources: string[];
  perSource: Int32Array;
}

/** Sources found by a compare each before the map is asked. */
const RECENT_SOURCES = 8;

/** A day axis denser than this many days per kept record is placed by a table, else by sorting. */
const DENSE_DAYS_PER_RECORD = 4;

function axisOf(records: readonly unknown[], timestamped: boolean, humanId: string | undefined, read: TrendReader, nFields: number): Axis {
  const kept = new Int32Array(records.length);
  // Days since 1970 for summaries (seconds only for the xs at the end), seconds for readings.
  const keptX = new Float64Array(records.length);
  const keptSource = new Int32Array(records.length);
  const values = new Float64Array(records.length * nFields);
  const sourceIndex = new Map<string, number>();
  /** The raw `source` values of sources 0, 1, … as first met. */
  const recent: unknown[] = [];
  let count = 0;
  let lastName: unknown;
  let lastIndex = -1;
  let lastDate: unknown;
  let lastX = NaN;
  let minX = Infinity;
  let maxX = -Infinity;
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (r === null || typeof r !== 'object' || Array.isArray(r)) continue;
    const record = r as Record<string, unknown>;
    if (humanId !== undefined && record.humanId !== humanId) continue;
    let x: number;
    if (timestamped) x = instantOf(record);
    else {
      const date = record.date;
      if (date !== lastDate) {
        lastDate = date;
        lastX = typeof date === 'string' ? epochDayOf(date) : NaN;
      }
      x = lastX;
    }
    if (!Number.isFinite(x)) continue;
    const s = record.source;
    if (s !== lastName) {
      // The first few sources met are looked for in a short list (a compare each), the rest in the map.
      let index = -1;
      for (let j = 0; j < recent.length; j++) {
        if (recent[j] === s) {
          index = j;
          break;
        }
      }
      if (index < 0) {
        const name = typeof s === 'string' ? s : '(no source)';
        let known = sourceIndex.get(name);
        if (known === undefined) sourceIndex.set(name, (known = sourceIndex.size));
        index = known;
        if (recent.length < RECENT_SOURCES && index === recent.length) recent.push(s);
      }
      lastName = s;
      lastIndex = index;
    }
    read(record, values, count, records.length);
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    keptX[count] = x;
    keptSource[count] = lastIndex;
    kept[count++] = i;
  }
  // Sources by name: renumber the order they were met in.
  const sources = [...sourceIndex.keys()].sort();
  const renumber = new Int32Array(sourceIndex.size);
  for (const [name, index] of sourceIndex) renumber[index] = sources.indexOf(name);
  const at = new Int32Array(count);
  const source = new Int32Array(count);
  const perSource = new Int32Array(sources.length);
  for (let k = 0; k < count; k++) perSource[(source[k] = renumber[keptSource[k]])]++;
  let xs: Float64Array;
  const span = count === 0 ? 0 : maxX - minX + 1;
  if (!timestamped && span <= count * DENSE_DAYS_PER_RECORD + 64) {
    // Days: a table over the span marks the days present; their ranks are the places.
    const slot = new Int32Array(span);
    for (let k = 0; k < count; k++) slot[keptX[k] - minX] = 1;
    let distinct = 0;
    for (let d = 0; d < span; d++) if (slot[d] === 1) slot[d] = distinct++;
    else slot[d] = -1;
    xs = new Float64Array(distinct);
    for (let d = 0; d < span; d++) if (slot[d] >= 0) xs[slot[d]] = (minX + d) * DAY_SECONDS;
    for (let k = 0; k < count; k++) at[k] = slot[keptX[k] - minX];
  } else {
    // The distinct xs, ascending; each record's place found by binary search.
    const sorted = keptX.slice(0, count).sort();
    let distinct = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i];
    xs = sorted.slice(0, distinct);
    for (let k = 0; k < count; k++) {
      const x = keptX[k];
      let lo = 0;
      let hi = distinct - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (xs[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      at[k] = lo;
    }
    if (!timestamped) for (let i = 0; i < distinct; i++) xs[i] *= DAY_SECONDS;
  }
  return { kept: kept.subarray(0, count), at, source, values, stride: records.length, xs, sources, perSource };
}

function chartOf(kind: ResourceKind, chart: TrendChartDefinition, axis: Axis, allFields: readonly string[], zeroDefault: ReadonlySet<string>, timestamped: boolean): TrendChartData {
  const fields = chart.band ? [...chart.fields, ...chart.band] : [...chart.fields];
  const { kept, at, source, values, xs, sources } = axis;
  const n = xs.length;
  const nFields = fields.length;
  const nSources = sources.length;
  const stride = axis.stride;
  // One buffer of values and one of refs for all the chart's series, each series a view of its
  // part (two allocations and fills instead of two per series), filled through one index so
  // every access is to the same two arrays. Source-major: series s * nFields + f.
  const allValues = new Float64Array(nSources * nFields * n).fill(NaN);
  const allRefs = new Int32Array(allValues.length).fill(-1);
  const series: TrendSeriesData[] = [];
  for (const name of sources) {
    for (const field of fields) {
      const from = series.length * n;
      series.push({ source: name, field, band: !chart.fields.includes(field), values: allValues.subarray(from, from + n), refs: allRefs.subarray(from, from + n), gaps: EMPTY, never: true, unusual: false });
    }
  }
  const zeros = new Int32Array(nSources);
  const nonZero = new Int32Array(nSources);
  // A 0 of a zero-default field is a gap wherever it is: its x is listed as the 0 is placed (no
  // scan of the series afterwards), each source in its own part of one buffer, as long as the
  // source has records.
  const gapStart = new Int32Array(nSources);
  for (let si = 1; si < nSources; si++) gapStart[si] = gapStart[si - 1] + axis.perSource[si - 1];
  const lastGap = new Int32Array(nSources);
  for (let f = 0; f < nFields; f++) {
    const field = fields[f];
    const base = allFields.indexOf(field) * stride;
    const defaulted = zeroDefault.has(field);
    const gapX = defaulted ? new Int32Array(kept.length) : EMPTY;
    // A list comes newest first or oldest first: its gaps then need a reverse or nothing, not a sort.
    let ascending = true;
    let descending = true;
    zeros.fill(0);
    nonZero.fill(0);
    lastGap.fill(-1);
    for (let k = 0; k < kept.length; k++) {
      const si = source[k];
      const x = at[k];
      const place = (si * nFields + f) * n + x;
      if (allRefs[place] !== -1) continue; // the first record of a source at this x stands
      const v = values[base + k];
      if (v - v !== 0) continue; // NaN or infinite
      allRefs[place] = kept[k];
      if (v !== 0) {
        allValues[place] = v;
        nonZero[si]++;
        continue;
      }
      zeros[si]++;
      if (!defaulted) {
        allValues[place] = v; // 0 or -0, as sent
        continue;
      }
      // A gap: the value stays NaN.
      const g = gapStart[si] + zeros[si] - 1;
      gapX[g] = x;
      const last = lastGap[si];
      if (last >= 0) {
        if (x < last) ascending = false;
        else descending = false;
      }
      lastGap[si] = x;
    }
    for (let si = 0; si < nSources; si++) {
      const s = series[si * nFields + f];
      s.never = nonZero[si] === 0;
      if (zeros[si] === 0) continue;
      if (defaulted) {
        s.unusual = isUnusualZero(nonZero[si], axis.perSource[si] - 1);
        s.gaps = gapX.subarray(gapStart[si], gapStart[si] + zeros[si]);
        if (ascending) continue;
        if (descending) s.gaps.reverse();
        else s.gaps.sort();
      } else if (s.never) {
        // The 0s of a field the source never provides are defaults too; that is known only now,
        // so they are found by a scan of the series.
        const gaps = new Int32Array(zeros[si]);
        const from = (si * nFields + f) * n;
        for (let x = 0, g = 0; g < gaps.length; x++) {
          if (allValues[from + x] === 0) {
            gaps[g++] = x;
            allValues[from + x] = NaN;
          }
        }
        s.gaps = gaps;
      }
    }
  }
  const bands: Array<[number, number]> = [];
  if (chart.band) {
    for (let i = 0; i < series.length; i++) {
      const s = series[i];
      if (s.field !== chart.band[0]) continue;
      const upper = series.findIndex((u) => u.source === s.source && u.field === chart.band![1]);
      if (upper >= 0 && !s.never && !series[upper].never) bands.push([i, upper]);
    }
  }
  return { id: chart.id, kind, title: chart.title, unit: chart.unit, time: timestamped ? 'instant' : 'day', xs, series, bands };
}

const EMPTY = new Int32Array(0);

/** `2026-11-20` or `2026-11-20 23:30` for an x of a chart. */
export function formatX(x: number, time: TrendChart['time']): string {
  const iso = new Date(x * 1000).toISOString();
  return time === 'day' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}
