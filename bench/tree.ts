// Goal 3: the tree model of ten years of all three resources (months, dates, records with their
// labels and their tooltips) against JSON.parse of the same data.

import { RESOURCES, ResourceKind } from '../src/core/resources';
import { RecordTree, buildDateFirstTree, buildResourceTree, tooltipMarkdown } from '../src/core/treeModel';
import { prepareValidator } from '../src/core/validator';
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
  // Fresh trees each time: tooltips validate their node once and cache it on the node.
  const pair = await sideBySide(() => allTooltips(resourceTrees(corpus.lists)), parseAll);
  const labelsOnly = await sideBySide(() => resourceTrees(corpus.lists), parseAll, { runs: 5, warmup: 1 });
  const dateFirst = await sideBySide(() => buildDateFirstTree(corpus.lists), parseAll, { runs: 5, warmup: 1 });
  const trees = resourceTrees(corpus.lists);
  return {
    ratio: pair.ratio,
    goal: 0.5,
    detail: {
      records: corpus.count,
      byKind: Object.fromEntries(RESOURCES.map(({ kind }) => [kind, corpus.lists[kind as ResourceKind].length])),
      months: trees.reduce((n, t) => n + t.months.length, 0),
      jsonBytes: corpus.bytes,
      ...pairDetail(pair, 'treeWithTooltips', 'parse'),
      labelsOnlyRatio: round(labelsOnly.ratio),
      dateFirstLabelsOnlyRatio: round(dateFirst.ratio),
    },
  };
}
