// Records a caller adds to the generated ones: a test that needs one particular record (a hostile
// one, a source that lacks fields), or `health-data sandbox --records file.json`. They are
// checked, copied as JSON, and merged into each kind's list by their date, so they are listed,
// found by id and, for kinds served by date, by date, exactly like generated records.

import { localDateOf } from '../core/dates';
import { RESOURCES, ResourceKind } from '../core/resources';
import type { RecordBase } from '../core/types';
import type { Dataset } from './data';

/** Records to add, by kind: `{ "heartRate": [...], "activity": [...], "bodyFat": [...] }`. */
export type ExtraRecords = { readonly [K in ResourceKind]?: readonly unknown[] };

const KINDS = RESOURCES.map((r) => r.kind);
/** Far more than a test needs; keeps a mistaken file from eating the memory of the sandbox. */
export const MAX_EXTRA_RECORDS = 100_000;

const describe = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/**
 * The extra records checked and copied through JSON (what the sandbox serves is what JSON can
 * carry; a `__proto__` key stays a plain key). Throws an Error naming the first problem.
 */
export function checkExtraRecords(value: unknown): ExtraRecords {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`extra records must be an object of arrays by kind (${KINDS.join(', ')}), got ${describe(value)}`);
  }
  const out: { [K in ResourceKind]?: unknown[] } = {};
  let total = 0;
  for (const key of Object.keys(value)) {
    if (!(KINDS as string[]).includes(key)) {
      throw new Error(`extra records: unknown kind "${key.slice(0, 40)}" (expected ${KINDS.join(', ')})`);
    }
    const list = (value as Record<string, unknown>)[key];
    if (!Array.isArray(list)) throw new Error(`extra records: ${key} must be an array of records, got ${describe(list)}`);
    total += list.length;
    if (total > MAX_EXTRA_RECORDS) throw new Error(`extra records: more than ${MAX_EXTRA_RECORDS} records`);
    out[key as ResourceKind] = list.map((record, i) => {
      if (record === null || typeof record !== 'object' || Array.isArray(record)) {
        throw new Error(`extra records: ${key}[${i}] must be a JSON object, got ${describe(record)}`);
      }
      let text: string;
      try {
        text = JSON.stringify(record);
      } catch (err) {
        throw new Error(`extra records: ${key}[${i}] cannot be written as JSON: ${err instanceof Error ? err.message : String(err)}`);
      }
      return JSON.parse(text) as unknown;
    });
  }
  return out;
}

/**
 * The dataset with the extra records merged in: each kind's list stays newest first, and an
 * extra record comes before the generated ones of its date, so it is the one served for that
 * date (for its humanId). Records without a usable date go last: listed without a date range,
 * found by id. The dataset given is not changed.
 */
export function mergeExtraRecords(dataset: Dataset, extra: ExtraRecords): Dataset {
  const out: Dataset = { ...dataset };
  for (const kind of KINDS) {
    const added = extra[kind];
    if (!added || added.length === 0) continue;
    (out as unknown as Record<ResourceKind, unknown[]>)[kind] = mergeByDate(kind, added, dataset[kind]);
  }
  return out;
}

function mergeByDate(kind: ResourceKind, added: readonly unknown[], generated: readonly RecordBase[]): unknown[] {
  const dateOf = (record: unknown): string => localDateOf(record, kind) ?? '';
  // Newest first; a stable sort keeps the caller's order within a date.
  const extras = added.map((record) => ({ record, date: dateOf(record) }));
  extras.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  const out: unknown[] = [];
  let next = 0;
  for (const record of generated) {
    const date = dateOf(record);
    while (next < extras.length && extras[next].date >= date) out.push(extras[next++].record);
    out.push(record);
  }
  while (next < extras.length) out.push(extras[next++].record);
  return out;
}
