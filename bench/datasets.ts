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
 * Exactly `total` records of the three kinds, from ten years of enough humans (the three
 * profiles in turn: their different sources give zeros, missing values, offsets), each kind cut
 * in proportion.
 */
export function records(total: number): Corpus {
  let humans = 3;
  let dataset = generateDataset({ seed: SEED, today: TODAY, days: TEN_YEARS, humans });
  const size = () => dataset.heartRate.length + dataset.activity.length + dataset.bodyFat.length;
  while (size() < total && humans < 10) {
    humans = Math.min(10, Math.ceil((humans * total) / size()));
    dataset = generateDataset({ seed: SEED, today: TODAY, days: TEN_YEARS, humans });
  }
  if (size() < total) throw new Error(`the generator gives ${size()} records, fewer than ${total}`);
  const lists = {} as Lists;
  let left = total;
  const all = size();
  RESOURCES.forEach(({ kind }, i) => {
    const list = dataset[kind] as unknown[];
    const take = i === RESOURCES.length - 1 ? left : Math.round((list.length * total) / all);
    lists[kind] = list.slice(0, take);
    left -= take;
  });
  return corpusOf(lists);
}
