// Goal 3: the tree model of ten years of all three resources (months, dates, every record's node
// with its label) against JSON.parse of the same data. A tooltip is made when the view asks for
// it, on hover: its cost is measured apart, per tooltip and for all of them at once.

import { RESOURCES, ResourceKind } from '../src/core/resources';
import { RecordTree, buildDateFirstTree, buildResourceTree, tooltipMarkdown } from '../src/core/views';
import { prepareValidator } from '../src/core/validation';
import { Lists, tenYears } from './datasets';
import { Result, pairDetail, round, sideBySide } from './harness';

/** The trees the Records view shows by default: one per resource. */
export function resourceTrees(lists: Lists): RecordTree[] {
  return RESOURCES.map(({ kind }) => buildResourceTree(kind, lists[kind]));
}

/** Every record's tooltip, as the view asks for them on hover; returns their total length. */
export function allTooltips(trees: readonly RecordTree[]): number {
  let length = 0;
  for (const tree of trees) {
    for (const month of tree.months) {
      for (const date of month.dates) {
        for (const group of date.groups) for (const node of group.records) length += tooltipMarkdown(node).length;
      }
    }
    for (const node of tree.undated) length += tooltipMarkdown(node).length;
  }
  return length;
}

export async function treeVsParse(): Promise<Result> {
  const corpus = tenYears();
  prepareValidator();
  const parseAll = () => {
    for (const { kind } of RESOURCES) JSON.parse(corpus.texts[kind]);
  };
  // The model as the Records view builds it on load: months, dates, and every record's node
  // with its label. Tooltips are the view's to ask for, one record at a time on hover.
  const pair = await sideBySide(() => resourceTrees(corpus.lists), parseAll, { runs: 9 });
  const dateFirst = await sideBySide(() => buildDateFirstTree(corpus.lists), parseAll, { runs: 5, warmup: 1 });
  // Every tooltip made at once (each validates its record): what hovering all 15,000 would cost.
  // Fresh trees each time, since a node keeps its validation.
  const everyTooltip = await sideBySide(() => allTooltips(resourceTrees(corpus.lists)), parseAll, { runs: 5, warmup: 1 });
  const trees = resourceTrees(corpus.lists);
  return {
    ratio: pair.ratio,
    goal: 0.5,
    detail: {
      records: corpus.count,
      byKind: Object.fromEntries(RESOURCES.map(({ kind }) => [kind, corpus.lists[kind as ResourceKind].length])),
      months: trees.reduce((n, t) => n + t.months.length, 0),
      jsonBytes: corpus.bytes,
      ...pairDetail(pair, 'tree', 'parse'),
      dateFirstRatio: round(dateFirst.ratio),
      everyTooltipRatio: round(everyTooltip.ratio),
      microsecondsPerTooltip: round(((everyTooltip.aMs - pair.aMs) * 1000) / corpus.count, 2),
    },
  };
}
