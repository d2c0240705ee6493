// The sandbox's data: generating ten years for one human against JSON.parse of the same records
// as text, what a recorded dataset would cost to load instead. Moved here from a unit test, which
// never checks time.

import { generateDataset } from '../src/sandbox/data';
import { Result, pairDetail, sideBySide } from './harness';

const TODAY = '2026-03-01';
const TEN_YEARS = 3650;
/** The unit test this replaces allowed 1 s (about 30 parses here); ten parses keeps the sandbox start well under it. */
export const DATASET_GOAL = 10;

export async function datasetVsParse(): Promise<Result> {
  const generate = () => generateDataset({ seed: 'bench', today: TODAY, days: TEN_YEARS, humans: 1 });
  const sample = generate();
  const text = JSON.stringify(sample);
  const records = sample.activity.length + sample.heartRate.length + sample.bodyFat.length;
  const pair = await sideBySide(generate, () => JSON.parse(text), { runs: 5, warmup: 1, turns: 1 });
  return { ratio: pair.ratio, goal: DATASET_GOAL, detail: { records, jsonBytes: text.length, ...pairDetail(pair, 'generate', 'parse') } };
}
