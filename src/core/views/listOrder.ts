// Which way a list's records run by date. Services page newest first or oldest first; the tree
// must show the newest records of a range first either way, so it reads the order of a page.

import { localDateOf } from '../dates';
import type { ResourceKind } from '../resources';

export type ListOrder = 'newestFirst' | 'oldestFirst' | 'unknown';

/**
 * The order of a page by its records' dates: oldest first when its dated records never go back
 * in time and span more than one day; newest first when they never go forward and span more than
 * one day; unknown for a page of one day or of mixed order.
 */
export function listOrderOf(records: readonly unknown[], kind: ResourceKind): ListOrder {
  let up = false;
  let down = false;
  let last: string | undefined;
  for (const record of records) {
    const date = localDateOf(record, kind);
    if (date === undefined) continue;
    if (last !== undefined) {
      if (date > last) up = true;
      else if (date < last) down = true;
    }
    last = date;
  }
  if (up === down) return 'unknown';
  return up ? 'oldestFirst' : 'newestFirst';
}

/** The oldest and newest local dates of the records, undefined when none has a usable date. */
export function dateSpanOf(records: readonly unknown[], kind: ResourceKind): { oldest: string; newest: string } | undefined {
  let oldest: string | undefined;
  let newest: string | undefined;
  for (const record of records) {
    const date = localDateOf(record, kind);
    if (date === undefined) continue;
    if (oldest === undefined || date < oldest) oldest = date;
    if (newest === undefined || date > newest) newest = date;
  }
  return oldest === undefined || newest === undefined ? undefined : { oldest, newest };
}
