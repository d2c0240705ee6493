// Insights: coverage of 100,000 records against JSON.parse of them (goal 0.3), and the trend
// series of ten years of a human with three activity sources against JSON.parse of those
// records (goal 0.1): the panels must cost little next to reading the data at all.

import { buildTrendSeries, chartForMessage, computeCoverage, recordsByHuman } from '../src/core/insights';
import { RESOURCES } from '../src/core/resources';
import { generateDataset } from '../src/sandbox/data';
import { SEED, TEN_YEARS, TODAY, records } from './datasets';
import { Result, pairDetail, round, sideBySide } from './harness';

export async function coverageVsParse(): Promise<Result> {
  const corpus = records(100_000);
  let sources = 0;
  const coverAll = () => {
    sources = 0;
    for (const { kind } of RESOURCES) sources += computeCoverage(kind, corpus.lists[kind]).sources.length;
  };
  const parseAll = () => {
    for (const { kind } of RESOURCES) JSON.parse(corpus.texts[kind]);
  };
  const pair = await sideBySide(coverAll, parseAll);
  return { ratio: pair.ratio, goal: 0.3, detail: { records: corpus.count, jsonBytes: corpus.bytes, sources, ...pairDetail(pair, 'coverage', 'parse') } };
}

export async function trendsVsParse(): Promise<Result> {
  // The step counter's human: the step counter, the band some days, the phone some days.
  const dataset = generateDataset({ seed: SEED, today: TODAY, days: TEN_YEARS, humans: 3 });
  const human = dataset.humans[2];
  const text = JSON.stringify(dataset.activity.filter((r) => r.humanId === human));
  const list = JSON.parse(text) as unknown[];
  let points = 0;
  // The series the charts are drawn from: typed arrays, each record read once for all charts. The
  // panel hands over one human's records, split off the list once per load (recordsByHuman), as
  // `list` is here; the split is measured on its own below.
  const series = () => {
    points = 0;
    for (const chart of buildTrendSeries('activity', list)) points += chart.xs.length * chart.series.length;
  };
  const parse = () => JSON.parse(text);
  // 31 pairs, not 11: a call of the series takes well under a millisecond, so one preemption by
  // another process on a shared machine moves a pair's ratio by half or more; the median of 31
  // pairs stands still where that of 11 did not. What is compared is unchanged.
  const pair = await sideBySide(series, parse, { runs: 31, turns: 5 });
  // Not in the ratio, reported beside it: turning them into the panel's JSON message (plain
  // arrays, null for no point), which postMessage then serializes.
  const charts = buildTrendSeries('activity', list);
  const message = await sideBySide(() => charts.map(chartForMessage), parse, { runs: 7, turns: 5 });
  // Not in the ratio either: the split by human that the panel makes once per load (and takes the
  // human picker's counts from), not once per chart or per change of human.
  let grouped = 0;
  const split = await sideBySide(() => (grouped = recordsByHuman(list).get(human)?.records.length ?? 0), parse, { runs: 11, turns: 5 });
  if (grouped !== list.length) throw new Error(`the split kept ${grouped} of ${list.length} records`);
  const sources = new Set(list.map((r) => (r as { source: string }).source)).size;
  return {
    ratio: pair.ratio,
    goal: 0.1,
    detail: { records: list.length, sources, days: TEN_YEARS, points, jsonBytes: text.length, ...pairDetail(pair, 'series', 'parse'), messageMs: round(message.aMs, 2), messageVsParse: round(message.ratio, 3), splitMs: round(split.aMs, 2), splitVsParse: round(split.ratio, 3) },
  };
}
