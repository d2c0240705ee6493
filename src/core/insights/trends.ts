// Time series for "Show Trends": one human's records of one resource as the charts of the
// resource table (`trendCharts`), one series per source and field on a shared time axis. A 0 the
// service sent for a field the source lacks is a marked gap, never a point at 0.

import { parseTzOffset } from '../dates';
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
function xOf(record: Record<string, unknown>, timestamped: boolean, dayCache: Map<string, number>): number {
  if (!timestamped) {
    const date = record.date;
    if (typeof date !== 'string') return NaN;
    let x = dayCache.get(date);
    if (x === undefined) {
      x = /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T00:00:00Z`) / 1000 : NaN;
      dayCache.set(date, x);
    }
    return x;
  }
  const ts = record.timestamp;
  if (typeof ts !== 'string') return NaN;
  const t = Date.parse(ts);
  if (Number.isNaN(t)) return NaN;
  // Local wall time: the instant shifted by the reading's offset (UTC without one).
  return Math.floor(t / 1000) + (parseTzOffset(record.tzOffset) ?? 0) * 60;
}

/**
 * The charts of `kind` for the records of one human (all records when `humanId` is undefined,
 * which is right for a list of one human). Records of other humans, non-objects and records
 * without a place in time are left out; a second record of a source at the same x is too.
 */
export function buildTrends(kind: ResourceKind, records: readonly unknown[], humanId?: string): TrendChart[] {
  const def = resource(kind);
  const timestamped = def.datingField === 'timestamp';
  const dayCache = new Map<string, number>();
  const kept: number[] = [];
  const keptX: number[] = [];
  const sourceNames = new Set<string>();
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (!isRecordObject(r)) continue;
    if (humanId !== undefined && r.humanId !== humanId) continue;
    const x = xOf(r, timestamped, dayCache);
    if (!Number.isFinite(x)) continue;
    kept.push(i);
    keptX.push(x);
    sourceNames.add(sourceKey(r) ?? '(no source)');
  }
  const xs = [...new Set(keptX)].sort((a, b) => a - b);
  const position = new Map<number, number>();
  for (let i = 0; i < xs.length; i++) position.set(xs[i], i);
  const sources = [...sourceNames].sort();
  const zeroDefault = new Set(def.zeroDefaultFields);
  return def.trendCharts.map((chart) => chartOf(kind, chart, records, kept, keptX, xs, position, sources, zeroDefault, timestamped));
}

function chartOf(
  kind: ResourceKind,
  chart: TrendChartDefinition,
  records: readonly unknown[],
  kept: readonly number[],
  keptX: readonly number[],
  xs: readonly number[],
  position: ReadonlyMap<number, number>,
  sources: readonly string[],
  zeroDefault: ReadonlySet<string>,
  timestamped: boolean,
): TrendChart {
  const fields = chart.band ? [...chart.fields, ...chart.band] : [...chart.fields];
  const n = xs.length;
  const series: TrendSeries[] = [];
  const slot = new Map<string, TrendSeries>();
  for (const source of sources) {
    for (const field of fields) {
      const s: TrendSeries = { source, field, band: !chart.fields.includes(field), values: new Array<number | null>(n).fill(null), refs: new Array<number>(n).fill(-1), gaps: [], never: true };
      series.push(s);
      slot.set(`${source}\u0000${field}`, s);
    }
  }
  for (let k = 0; k < kept.length; k++) {
    const index = kept[k];
    const r = records[index] as Record<string, unknown>;
    const at = position.get(keptX[k])!;
    const source = sourceKey(r) ?? '(no source)';
    for (const field of fields) {
      const s = slot.get(`${source}\u0000${field}`)!;
      if (s.refs[at] !== -1) continue; // the first record of a source at this x stands
      const v = r[field];
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      s.refs[at] = index;
      if (v === 0) {
        // A 0 of a zero-default field is the service's default, not a measurement.
        s.gaps.push(at);
        if (zeroDefault.has(field)) continue;
      } else s.never = false;
      s.values[at] = v;
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
  return { id: chart.id, kind, title: chart.title, unit: chart.unit, time: timestamped ? 'instant' : 'day', xs: [...xs], series, bands };
}

/** `2026-11-20` or `2026-11-20 23:30` for an x of a chart. */
export function formatX(x: number, time: TrendChart['time']): string {
  const iso = new Date(x * 1000).toISOString();
  return time === 'day' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}
