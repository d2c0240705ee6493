// What "Export Records…" exports, from where it was invoked: a resource, a month or a date of the
// Records view (every record of it in the view's filters, all pages), the selected records, or
// `{kind, start, end, source}` from a script or a test.

import { RESOURCES, ResourceKind, isResourceKind, resource } from '../../core/resources';
import { addDays } from '../../core/dates';
import type { ListQuery } from '../../core/service';
import type { RecordsTreeProvider } from '../tree/recordsTreeProvider';
import type { TreeItemNode } from '../tree/nodes';

export type ExportTarget =
  /** Every record of a list, read page by page. */
  | { readonly type: 'list'; readonly kind: ResourceKind; readonly query: ListQuery; readonly name: string }
  /** Records already at hand (the selection). */
  | { readonly type: 'records'; readonly kind: ResourceKind; readonly records: readonly unknown[]; readonly name: string };

export interface ExportArgs {
  kind?: string;
  start?: string;
  end?: string;
  source?: string;
  humanId?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object';

/** The last day of a `YYYY-MM` month. */
function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return addDays(`${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}-01`, -1);
}

/** The overlap of two date ranges, or undefined when they do not meet. */
function overlap(a: { start: string; end: string }, b: { start: string; end: string }): { start: string; end: string } | undefined {
  const start = a.start > b.start ? a.start : b.start;
  const end = a.end < b.end ? a.end : b.end;
  return start <= end ? { start, end } : undefined;
}

/**
 * The targets of an invocation; `pickKind` chooses the resource where a node spans all of them
 * (grouped by date first). An empty list means there is nothing to export.
 */
export async function exportTargets(
  tree: RecordsTreeProvider,
  clicked: unknown,
  selected: unknown,
  pickKind: () => Promise<ResourceKind | undefined>,
): Promise<ExportTarget[] | undefined> {
  const filter = { range: tree.dateRange, source: tree.sourceFilter, human: tree.humanFilter };
  /** A list's query: the dates, and the source and human when there are any (a blank one is none). */
  const queryOf = (range: { start: string; end: string }, source = filter.source, humanId = filter.human): ListQuery => ({
    startDate: range.start,
    endDate: range.end,
    ...(source ? { source } : {}),
    ...(humanId ? { humanId } : {}),
  });
  const listOf = async (scope: ResourceKind | 'all', range: { start: string; end: string }, label: string): Promise<ExportTarget[] | undefined> => {
    const kind = scope === 'all' ? await pickKind() : scope;
    if (!kind) return undefined;
    return [{ type: 'list', kind, query: queryOf(range), name: `${resource(kind).cliName}-${label}` }];
  };

  // Several records selected: exactly those.
  const nodes = Array.isArray(selected) ? (selected as TreeItemNode[]) : [];
  const records = nodes.filter((n): n is Extract<TreeItemNode, { type: 'record' }> => isObject(n) && n.type === 'record');
  if (records.length > 1) {
    const kinds = [...new Set(records.map((r) => r.node.kind))];
    return kinds.map((kind) => ({
      type: 'records' as const,
      kind,
      records: records.filter((r) => r.node.kind === kind).map((r) => r.node.record),
      name: `${resource(kind).cliName}-selection`,
    }));
  }

  const node = isObject(clicked) ? (clicked as unknown as TreeItemNode) : undefined;
  switch (node?.type) {
    case 'resource':
      return listOf(node.kind, filter.range, `${filter.range.start}-${filter.range.end}`);
    case 'month': {
      const range = overlap(filter.range, { start: `${node.month.month}-01`, end: monthEnd(node.month.month) });
      return range ? listOf(node.scope, range, node.month.month) : [];
    }
    case 'date':
      return listOf(node.scope, { start: node.date.date, end: node.date.date }, node.date.date);
    case 'record':
      return [{ type: 'records', kind: node.node.kind, records: [node.node.record], name: `${resource(node.node.kind).cliName}-record` }];
    default:
      break;
  }
  // `{kind, start, end, source}` from a script, or nothing: a resource in the view's filters.
  const args = (isObject(clicked) ? clicked : {}) as ExportArgs;
  const kind = isResourceKind(args.kind) ? args.kind : RESOURCES.find((r) => r.cliName === args.kind)?.kind ?? (await pickKind());
  if (!kind) return undefined;
  const range = args.start && args.end ? { start: args.start, end: args.end } : filter.range;
  const humanId = (typeof args.humanId === 'string' && args.humanId.trim()) || filter.human;
  return [{ type: 'list', kind, query: queryOf(range, args.source ?? filter.source, humanId), name: `${resource(kind).cliName}-${range.start}-${range.end}` }];
}
