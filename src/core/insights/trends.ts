// Time series for "Show Trends": one human's records of one resource as the charts of the
// resource table (`trendCharts`), one series per source and field on a shared time axis. A 0 the
// service sent for a field the source lacks is a marked gap, never a point at 0.

import { epochDayOf, parseTzOffset } from '../dates';
import { ResourceKind, TrendChartDefinition, resource } from '../resources';
import { isRecordObject, sourceKey } from './coverage';
import type { TrendChart, TrendSeries } from './reportTypes';

export interface HumanCount {
  humanId: string;
  records: number;
}

/** The humans of a list, most records first: the panel's choice of whose trends to draw. */
export function humansOf(records: readonly unknown[]): HumanCount[] {
  const counts = new Map<string, number>();
  for (const r of records) {
    const h = isRecordObject(r) ? r.humanId : undefined;
    if (typeof h === 'string') counts.set(h, (counts.get(h) ?? 0) + 1);
  }
  return [...counts].map(([humanId, n]) => ({ humanId, records: n })).sort((a, b) => b.records - a.records || (a.humanId < b.humanId ? -1 : 1));
}

/** Seconds of a record's place on the axis, or NaN when it has none. */
function xOf(record: Record<string, unknown>, timestamped: boolean): number {
  if (!timestamped) {
    const date = record.date;
    return typeof date === 'string' ? epochDayOf(date) * DAY_SECONDS : NaN;
  }
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
 * which is right for a list of one human). Records of other humans, non-objects and records
 * without a place in time are left out; a second record of a source at the same x is too.
 */
export function buildTrends(kind: ResourceKind, records: readonly unknown[], humanId?: string): TrendChart[] {
  const def = resource(kind);
  const timestamped = def.datingField === 'timestamp';
  const axis = axisOf(records, timestamped, humanId);
  const zeroDefault = new Set(def.zeroDefaultFields);
  return def.trendCharts.map((chart) => chartOf(kind, chart, records, axis, zeroDefault, timestamped));
}

/** Where each kept record sits: worked out once for all the charts of a resource. */
interface Axis {
  /** Indices into the records of the ones drawn. */
  kept: number[];
  /** Per kept record: its index in `xs`, and its source's index in `sources`. */
  at: Int32Array;
  source: Int32Array;
  xs: number[];
  sources: string[];
}

function axisOf(records: readonly unknown[], timestamped: boolean, humanId: string | undefined): Axis {
  const kept: number[] = [];
  const keptX = new Float64Array(records.length);
  const keptSource = new Int32Array(records.length);
  const sourceIndex = new Map<string, number>();
  let lastName: string | undefined;
  let lastIndex = -1;
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (!isRecordObject(r)) continue;
    if (humanId !== undefined && r.humanId !== humanId) continue;
    const x = xOf(r, timestamped);
    if (!Number.isFinite(x)) continue;
    const name = sourceKey(r) ?? '(no source)';
    if (name !== lastName) {
      let index = sourceIndex.get(name);
      if (index === undefined) sourceIndex.set(name, (index = sourceIndex.size));
      lastName = name;
      lastIndex = index;
    }
    keptX[kept.length] = x;
    keptSource[kept.length] = lastIndex;
    kept.push(i);
  }
  // The distinct xs, ascending; each record's place found by binary search.
  const sorted = keptX.slice(0, kept.length).sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i];
  const unique = sorted.subarray(0, distinct);
  // Sources by name: renumber the order they were met in.
  const sources = [...sourceIndex.keys()].sort();
  const renumber = new Int32Array(sourceIndex.size);
  for (const [name, index] of sourceIndex) renumber[index] = sources.indexOf(name);
  const at = new Int32Array(kept.length);
  const source = new Int32Array(kept.length);
  for (let k = 0; k < kept.length; k++) {
    const x = keptX[k];
    let lo = 0;
    let hi = distinct - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (unique[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    at[k] = lo;
    source[k] = renumber[keptSource[k]];
  }
  return { kept, at, source, xs: Array.from(unique), sources };
}

function chartOf(kind: ResourceKind, chart: TrendChartDefinition, records: readonly unknown[], axis: Axis, zeroDefault: ReadonlySet<string>, timestamped: boolean): TrendChart {
  const fields = chart.band ? [...chart.fields, ...chart.band] : [...chart.fields];
  const { kept, at, source, xs, sources } = axis;
  const n = xs.length;
  const nFields = fields.length;
  // Source-major: the series of source s and field f is series[s * nFields + f].
  const series: TrendSeries[] = [];
  for (const name of sources) {
    for (const field of fields) {
      series.push({ source: name, field, band: !chart.fields.includes(field), values: new Array<number | null>(n).fill(null), refs: new Array<number>(n).fill(-1), gaps: [], never: true });
    }
  }
  for (let f = 0; f < nFields; f++) {
    const field = fields[f];
    const defaulted = zeroDefault.has(field);
    for (let k = 0; k < kept.length; k++) {
      const s = series[source[k] * nFields + f];
      const x = at[k];
      if (s.refs[x] !== -1) continue; // the first record of a source at this x stands
      const index = kept[k];
      const v = (records[index] as Record<string, unknown>)[field];
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      s.refs[x] = index;
      if (v === 0) {
        // A 0 of a zero-default field is the service's default, not a measurement.
        s.gaps.push(x);
        if (defaulted) continue;
      } else s.never = false;
      s.values[x] = v;
    }
  }
  for (const s of series) {
    if (s.never) {
      // Coverage's "never" (0 or nothing on every record): its zeros are defaults too.
      s.values.fill(null);
    } else if (!zeroDefault.has(s.field)) {
      s.gaps = [];
    }
    s.gaps.sort((a, b) => a - b);
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
  return { id: chart.id, kind, title: chart.title, unit: chart.unit, time: timestamped ? 'instant' : 'day', xs: xs.slice(), series, bands };
}

/** `2026-11-20` or `2026-11-20 23:30` for an x of a chart. */
export function formatX(x: number, time: TrendChart['time']): string {
  const iso = new Date(x * 1000).toISOString();
  return time === 'day' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}
