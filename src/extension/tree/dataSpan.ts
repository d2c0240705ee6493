// Where a resource's records are, learnt cheaply for an empty result: the first and last record
// of the list without a date filter (limit 1 each, the last found by the count the service sends),
// so an empty range can say "the newest is dated …" and offer to go there.

import { HealthDataClient } from '../../core/service';
import { ResourceKind } from '../../core/resources';
import { dateSpanOf } from '../../core/views';

export interface DataSpan {
  /** Records the service has for the filter without dates; undefined when it did not count them. */
  readonly count: number | undefined;
  /** The oldest and newest dates seen at the two ends of the list; undefined when it is empty. */
  readonly oldest: string | undefined;
  readonly newest: string | undefined;
}

/** The two ends of the list of `kind` from `source` and of `human` (any when undefined), any date. */
export async function findDataSpan(client: HealthDataClient, kind: ResourceKind, filter: { readonly source?: string; readonly human?: string }, signal: AbortSignal): Promise<DataSpan> {
  const { source, human: humanId } = filter;
  const first = await client.list(kind, { source, humanId, limit: 1, all: false }, { signal });
  if (first.records.length === 0) return { count: first.total ?? 0, oldest: undefined, newest: undefined };
  const ends = [...first.records];
  if (first.total !== undefined && first.total > 1) {
    const last = await client.list(kind, { source, humanId, limit: 1, offset: first.total - 1, all: false }, { signal });
    ends.push(...last.records);
  }
  const span = dateSpanOf(ends, kind);
  return { count: first.total, oldest: span?.oldest, newest: span?.newest };
}
