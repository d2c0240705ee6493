// Goal 5: the heap the tree model holds beyond the records it shows, against the heap of the
// parsed JSON alone. Measured after full collections, so needs `node --expose-gc`.

import { RESOURCES, ResourceKind } from '../src/core/resources';
import { RecordTree, statusOf } from '../src/core/views';
import { prepareValidator } from '../src/core/validation';
import { tenYears } from './datasets';
import { Result, canCollect, collect, median, round } from './harness';
import { resourceTrees } from './tree';

const RUNS = 5;

function heapUsed(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

function statusAll(trees: readonly RecordTree[]): void {
  for (const tree of trees) {
    for (const month of tree.months) for (const date of month.dates) for (const g of date.groups) for (const n of g.records) statusOf(n);
  }
}

export async function heapVsJson(): Promise<Result> {
  if (!canCollect()) return { ratio: null, goal: 1.5, detail: { note: 'not measured: run node with --expose-gc (npm run bench does)' } };
  const corpus = tenYears();
  prepareValidator();
  const ratios: number[] = [];
  const withStatus: number[] = [];
  const parsedBytes: number[] = [];
  const treeBytes: number[] = [];
  // Held outside the loop and dropped before each round, so nothing of the previous round
  // (a stale stack slot) is still alive when the next one is measured.
  let lists: Record<ResourceKind, unknown[]> | undefined;
  let trees: RecordTree[] | undefined;
  // One warm-up round, so code and lazily built caches (labels, shapes) are not counted.
  for (let run = -1; run < RUNS; run++) {
    lists = undefined;
    trees = undefined;
    const before = heapUsed();
    lists = {} as Record<ResourceKind, unknown[]>;
    for (const { kind } of RESOURCES) lists[kind] = JSON.parse(corpus.texts[kind]) as unknown[];
    const parsed = heapUsed();
    trees = resourceTrees(lists);
    const built = heapUsed();
    // Every record validated, as after expanding every date (the view's status icons).
    statusAll(trees);
    const validated = heapUsed();
    if (run >= 0) {
      ratios.push((built - parsed) / (parsed - before));
      withStatus.push((validated - parsed) / (parsed - before));
      parsedBytes.push(parsed - before);
      treeBytes.push(built - parsed);
    }
  }
  return {
    ratio: median(ratios),
    goal: 1.5,
    detail: {
      records: corpus.count,
      parsedJsonMiB: round(median(parsedBytes) / 2 ** 20, 2),
      treeModelMiB: round(median(treeBytes) / 2 ** 20, 2),
      bytesPerRecord: Math.round(median(treeBytes) / corpus.count),
      runs: RUNS,
      ratios: ratios.map((r) => round(r)),
      withEveryRecordValidatedRatio: round(median(withStatus)),
    },
  };
}
