// The records the benchmarks run on, from the sandbox's own generator: fixed seed and date, so
// every run and every machine measures the same data.

import { RESOURCES, ResourceKind } from '../src/core/resources';
import { generateDataset } from '../src/sandbox/data';

export const SEED = 'bench';
export const TODAY = '2026-11-20';
export const TEN_YEARS = 3650;

export type Lists = Record<ResourceKind, unknown[]>;

/** One list per kind, as parsed objects and as the JSON text the service would send. */
export interface Corpus {
  readonly lists: Lists;
  readonly texts: Record<ResourceKind, string>;
  readonly count: number;
  readonly bytes: number;
}

function corpusOf(lists: Lists): Corpus {
  const texts = {} as Record<ResourceKind, string>;
  let count = 0;
  let bytes = 0;
  for (const { kind } of RESOURCES) {
    texts[kind] = JSON.stringify(lists[kind]);
    count += lists[kind].length;
    bytes += Buffer.byteLength(texts[kind]);
  }
  // Parsed back from the text, so the objects have the shapes JSON.parse gives, not the generator's.
  const parsed = {} as Lists;
  for (const { kind } of RESOURCES) parsed[kind] = JSON.parse(texts[kind]) as unknown[];
  return { lists: parsed, texts, count, bytes };
}

/** Ten years of one human: ~3,650 heart rate and activity summaries and ~7,300 body fat readings. */
export function tenYears(): Corpus {
  const dataset = generateDataset({ seed: SEED, today: TODAY, days: TEN_YEARS, humans: 1 });
  return corpusOf({ heartRate: dataset.heartRate, activity: dataset.activity, bodyFat: dataset.bodyFat });
}

/**
 * Exactly `total` records of the three kinds: ten years of ten humans (the three profiles in
 * turn, so their sources' zeros, missing values and offsets all appear), from as many seeds as
 * it takes, each kind cut in proportion.
 */
export function records(total: number): Corpus {
  const pool: Lists = { heartRate: [], activity: [], bodyFat: [] };
  let size = 0;
  for (let round = 0; size < total; round++) {
    const dataset = generateDataset({ seed: round === 0 ? SEED : `${SEED}-${round}`, today: TODAY, days: TEN_YEARS, humans: 10 });
    for (const { kind } of RESOURCES) {
      const list = dataset[kind] as unknown[];
      for (let i = 0; i < list.length; i++) pool[kind].push(list[i]);
      size += list.length;
    }
  }
  const lists = {} as Lists;
  let left = total;
  RESOURCES.forEach(({ kind }, i) => {
    const take = i === RESOURCES.length - 1 ? left : Math.round((pool[kind].length * total) / size);
    lists[kind] = pool[kind].slice(0, take);
    left -= take;
  });
  return corpusOf(lists);
}

/**
 * A heart rate summary whose source sent its intraday samples along: `bytes` of JSON (about) in
 * sourceData. The record view's large record, for the benchmark and the tests alike.
 */
export function recordWithSamples(bytes: number): string {
  const record = generateDataset({ seed: SEED, today: TODAY, days: 1, humans: 1 }).heartRate[0] as unknown as Record<string, unknown>;
  const samples: Array<{ time: string; bpm: number; confidence: number }> = [];
  let size = JSON.stringify(record).length;
  for (let i = 0; size < bytes; i++) {
    const s = i % 86_400;
    const sample = {
      time: `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`,
      bpm: 55 + ((i * 7919) % 90),
      confidence: (i * 31) % 4,
    };
    samples.push(sample);
    size += JSON.stringify(sample).length + 1;
  }
  return JSON.stringify({ ...record, sourceData: { ...(record.sourceData as object), intraday: { interval: '1s', samples } } });
}
