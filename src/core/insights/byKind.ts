// Splits records of several kinds (files hold what they hold) into one list per resource, so
// each gets its own coverage; records whose kind cannot be told are counted, never guessed.

import { RESOURCES, ResourceKind } from '../resources';
import { detectKind } from '../validation';

export interface RecordsByKind {
  /** In the resource table's order; only kinds with records. */
  lists: Array<{ kind: ResourceKind; records: unknown[] }>;
  /** Items of no detectable kind (left out of every list). */
  undetected: number;
}

/** With `kind`, every item is of that kind; without, each record's kind is detected. */
export function splitByKind(records: readonly unknown[], kind?: ResourceKind): RecordsByKind {
  if (kind) return { lists: records.length ? [{ kind, records: [...records] }] : [], undetected: 0 };
  const lists = new Map<ResourceKind, unknown[]>();
  let undetected = 0;
  for (const record of records) {
    const k = detectKind(record);
    if (!k) {
      undetected++;
      continue;
    }
    const list = lists.get(k);
    if (list) list.push(record);
    else lists.set(k, [record]);
  }
  return { lists: RESOURCES.filter((r) => lists.has(r.kind)).map((r) => ({ kind: r.kind, records: lists.get(r.kind)! })), undetected };
}
