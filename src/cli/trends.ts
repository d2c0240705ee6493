// `health-data trends`: the charts of "Show Trends" from the command line, from the same core
// (buildHumanTrends): one human's records of a resource over every page, per chart and source a
// line of blocks over the range and its figures, a value the source defaulted to 0 marked as a gap
// (never drawn as a 0); or, with --json, the series themselves for a script to plot.

import { inertJson } from '../core/reports';
import { HumanCount, TrendChart, TrendSeries, buildHumanTrends, formatX, humanCounts, recordsByHuman } from '../core/insights';
import type { ResourceDefinition } from '../core/resources';
import { formatNumber } from '../core/views';
import type { Connection } from './connection';
import { Output, paint, printable } from './output';
import { emptyListHint } from './records';

export interface TrendsFlags {
  from?: string;
  to?: string;
  source?: string;
  human?: string;
  json?: boolean;
}

/** The JSON form: each chart's days (or local times) as text, null where a source has no value, its gaps as days. */
export interface TrendsJson {
  resource: string;
  from: string | null;
  to: string | null;
  human: string | null;
  /** The humans of the records, most records first (the one drawn is `human`). */
  humans: HumanCount[];
  records: number;
  charts: Array<{
    id: string;
    title: string;
    unit: string;
    time: TrendChart['time'];
    xs: string[];
    series: Array<{ source: string; field: string; band: boolean; never: boolean; unusual: boolean; values: Array<number | null>; gaps: string[] }>;
  }>;
}

/** Columns of a series' line of blocks at most (fewer when the chart has fewer x). */
const LINE_COLUMNS = 60;
const BLOCKS = '▁▂▃▄▅▆▇█';
/** A column with no value of the source. */
const NOTHING = '·';
/** A column with only values the source defaulted to 0 (gaps). */
const GAP = '×';

/** Trends over the service, for the dates checkInsightFlags (coverage.ts) made of `flags`. */
export async function trendsCommand(conn: Connection, o: Output, def: ResourceDefinition, { from, to }: { from?: string; to?: string }, flags: TrendsFlags, signal?: AbortSignal): Promise<number> {
  let fetched = 0;
  const humanId = flags.human?.trim();
  const query = { startDate: from, endDate: to, source: flags.source?.trim(), humanId, all: true };
  const result = await conn.client.list(def.kind, query, {
    signal,
    onPage: (records, page) => {
      fetched += records.length;
      o.progress(`${def.label}: ${fetched} records, ${page} page${page === 1 ? '' : 's'}…`);
    },
  });
  o.progress('');
  const split = recordsByHuman(result.records);
  const humans = humanCounts([split]);
  // The human asked for, else the one with the most records (as the trends panel starts).
  const shown = humanId ?? humans[0]?.humanId;
  const group = shown === undefined ? undefined : split.get(shown);
  const charts = group === undefined ? [] : buildHumanTrends(def.kind, group);
  const records = group?.records.length ?? 0;
  if (flags.json) {
    o.out(inertJson(JSON.stringify(trendsJson(def, from, to, group === undefined ? null : (shown ?? null), humans, records, charts), null, 2)));
  } else {
    printTrends(o, def, { from, to, human: group === undefined ? undefined : shown, humans, records, chosen: humanId === undefined, total: result.records.length }, charts);
  }
  if (group === undefined && result.records.length > 0 && !flags.json) {
    // Records, but none of anyone: the charts are one human's.
    const n = result.records.length;
    o.err(paint(o, 'yellow', `${n === 1 ? 'The record has no humanId' : `None of the ${n} records has a humanId`}: trends are drawn for one human's records (the coverage counts them all: health-data coverage ${def.cliName}).`));
  }
  if (result.records.length === 0 && !flags.json) {
    const hint = await emptyListHint(conn, def, query, signal);
    if (hint) o.err(paint(o, 'yellow', hint));
  }
  if (!result.complete) o.err(paint(o, 'yellow', 'The list is incomplete: paging stopped early, so the charts cover part of the range.'));
  return 0;
}

export function trendsJson(def: ResourceDefinition, from: string | undefined, to: string | undefined, human: string | null, humans: HumanCount[], records: number, charts: readonly TrendChart[]): TrendsJson {
  return {
    resource: def.cliName,
    from: from ?? null,
    to: to ?? null,
    human,
    humans,
    records,
    charts: charts.map((c) => {
      const xs = c.xs.map((x) => formatX(x, c.time));
      return {
        id: c.id,
        title: c.title,
        unit: c.unit,
        time: c.time,
        xs,
        series: c.series.map((s) => ({ source: s.source, field: s.field, band: s.band, never: s.never, unusual: s.unusual, values: s.values, gaps: s.gaps.map((g) => xs[g]) })),
      };
    }),
  };
}

interface Heading {
  from?: string;
  to?: string;
  human?: string;
  humans: readonly HumanCount[];
  records: number;
  /** The human was not asked for: the one with the most records was taken. */
  chosen: boolean;
  /** Records the query gave, of anyone. */
  total: number;
}

function printTrends(o: Output, def: ResourceDefinition, h: Heading, charts: readonly TrendChart[]): void {
  const range = h.from && h.to ? `${h.from} – ${h.to}` : 'all dates';
  if (h.human === undefined) {
    const n = h.total;
    o.out(paint(o, 'bold', `${def.label}: ${n === 0 ? 'no records' : `${n} record${n === 1 ? '' : 's'} of no human`}, ${range}`));
    return;
  }
  o.out(paint(o, 'bold', `${def.label} of human ${printable(h.human, 40)}: ${h.records} record${h.records === 1 ? '' : 's'}, ${range}`));
  if (h.chosen && h.humans.length > 1) o.out(`The human with the most records of ${h.humans.length}; --human ID for another (the others: ${h.humans.slice(1, 4).map((x) => printable(x.humanId, 40)).join(', ')}${h.humans.length > 4 ? ', …' : ''}).`);
  for (const chart of charts) {
    o.out();
    printChart(o, chart);
  }
  o.out();
  o.out(`Each line spans the chart's range, from ${BLOCKS[0]} (the field's lowest value in the chart, from any source) to ${BLOCKS[BLOCKS.length - 1]} (its highest); ${NOTHING} no value from the source; ${GAP} only zeros the source sent in place of a value (a field it does not provide, or a day without it): gaps, never drawn as 0.`);
}

function printChart(o: Output, chart: TrendChart): void {
  const xs = chart.xs;
  o.out(paint(o, 'bold', `${chart.title}, in ${chart.unit}${xs.length ? `: ${formatX(xs[0], chart.time)} – ${formatX(xs[xs.length - 1], chart.time)}` : ''}`));
  if (xs.length === 0 || chart.series.length === 0) {
    o.out('  No values in this range.');
    return;
  }
  // Each field on its own scale, shared by the sources that send it (so two sources of the same
  // field compare; a resting heart rate is not flattened by the day's maximum).
  const scales = new Map<string, { low: number; high: number }>();
  for (const s of chart.series) {
    const scale = scales.get(s.field) ?? { low: Infinity, high: -Infinity };
    for (const v of s.values) if (v !== null) [scale.low, scale.high] = [Math.min(scale.low, v), Math.max(scale.high, v)];
    scales.set(s.field, scale);
  }
  const columns = Math.min(LINE_COLUMNS, xs.length);
  // The field named only where a chart has several (heart rate: resting, average, the band's).
  const several = new Set(chart.series.map((s) => s.field)).size > 1;
  const labels = chart.series.map((s) => (several ? `${s.source} ${s.field}` : s.source));
  const width = Math.max(...labels.map((l) => printable(l, 40).length));
  chart.series.forEach((s, i) => {
    const label = printable(labels[i], 40).padEnd(width);
    const { low, high } = scales.get(s.field)!;
    o.out(`  ${label}  ${line(o, s, xs, columns, low, high)}  ${figures(o, s, xs, chart)}`);
  });
}

/** The series over `columns` equal spans of the chart's time: each the mean of its values as a block, or a mark. */
function line(o: Pick<Output, 'color'>, s: TrendSeries, xs: readonly number[], columns: number, low: number, high: number): string {
  const first = xs[0];
  const span = xs[xs.length - 1] - first;
  const column = (i: number) => (span === 0 ? 0 : Math.min(columns - 1, Math.floor(((xs[i] - first) / span) * columns)));
  const sum = new Float64Array(columns);
  const count = new Int32Array(columns);
  const gaps = new Int32Array(columns);
  s.values.forEach((v, i) => {
    if (v === null) return;
    sum[column(i)] += v;
    count[column(i)]++;
  });
  for (const g of s.gaps) gaps[column(g)]++;
  let out = '';
  for (let c = 0; c < columns; c++) {
    // An unusual 0 (a device not worn?) in a warning's colour on a terminal, as the validation reports mark it.
    if (count[c] === 0) out += gaps[c] ? (s.unusual ? paint(o, 'yellow', GAP) : GAP) : NOTHING;
    else {
      const mean = sum[c] / count[c];
      const step = high === low ? BLOCKS.length - 1 : Math.round(((mean - low) / (high - low)) * (BLOCKS.length - 1));
      out += BLOCKS[step];
    }
  }
  return out;
}

/** What the line shows in words: how many values, their lowest, middle and highest, and the gaps. */
function figures(o: Pick<Output, 'color'>, s: TrendSeries, xs: readonly number[], chart: TrendChart): string {
  const at = (i: number) => formatX(xs[i], chart.time);
  const what = chart.time === 'day' ? 'day' : 'reading';
  const values: Array<{ v: number; i: number }> = [];
  s.values.forEach((v, i) => v !== null && values.push({ v, i }));
  const gaps = s.gaps.length;
  if (values.length === 0) {
    if (s.never && gaps) return `never sends ${s.field}: 0 on ${gaps === 1 ? `its one ${what}` : `all its ${gaps} ${what}s`} here (the source does not provide it; gaps, not 0)`;
    return `no ${s.field} here`;
  }
  const sorted = [...values].sort((a, b) => a.v - b.v);
  const lowest = sorted[0];
  const highest = sorted[sorted.length - 1];
  // The middle value; of an even count, the mean of the two middle ones.
  const half = sorted.length >> 1;
  const middle = sorted.length % 2 === 1 ? sorted[half].v : (sorted[half - 1].v + sorted[half].v) / 2;
  const parts = [`${values.length} ${what}${values.length === 1 ? '' : 's'}`, `lowest ${formatNumber(lowest.v)} (${at(lowest.i)})`, `median ${formatNumber(middle)}`, `highest ${formatNumber(highest.v)} (${at(highest.i)})`];
  if (gaps) {
    const days = s.gaps.slice(0, 3).map(at).join(', ') + (gaps > 3 ? ', …' : '');
    parts.push(s.unusual ? paint(o, 'yellow', `${gaps} unusual 0${gaps === 1 ? '' : 's'} (${days}): a device not worn? (gaps, not 0)`) : `${gaps} 0${gaps === 1 ? '' : 's'} the source sends for no value (${days}; gaps, not 0)`);
  }
  return parts.join(' · ');
}
