// The generated records indexed once per kind: newest first overall and per human, by id, and by
// (human, date), so serving a page of ten years is a binary search and a slice, not a scan.

import { localDateOf } from '../core/dates';
import { RESOURCES, ResourceKind } from '../core/resources';
import type { RecordBase } from '../core/types';
import type { Dataset } from './data';
import type { RecordFilter } from './query';

/** Records newest first, with the local date of each alongside for binary search. */
interface Run {
  records: RecordBase[];
  dates: string[];
}

interface KindIndex {
  all: Run;
  byHuman: Map<string, Run>;
  byId: Map<string, RecordBase>;
  /** `${humanId}|${date}` → the newest record of that local date. */
  byDay: Map<string, RecordBase>;
}

const EMPTY_RUN: Run = { records: [], dates: [] };
/** Filtered lists kept for the pages that follow the first; the data never changes. */
const CACHE_SIZE = 32;

export class RecordStore {
  private readonly kinds = new Map<ResourceKind, KindIndex>();
  private readonly filtered = new Map<string, RecordBase[]>();

  constructor(readonly dataset: Dataset) {
    for (const def of RESOURCES) this.kinds.set(def.kind, indexKind(dataset[def.kind], def.kind));
  }

  get humans(): readonly string[] {
    return this.dataset.humans;
  }

  /** Every record of `kind` that passes the filter, newest first. */
  list(kind: ResourceKind, filter: RecordFilter): readonly RecordBase[] {
    const key = `${kind}|${filter.humanId ?? ''}|${filter.startDate ?? ''}|${filter.endDate ?? ''}|${filter.source ?? ''}|${filter.updatedSince ?? ''}|${filter.createdSince ?? ''}`;
    const hit = this.filtered.get(key);
    if (hit) return hit;

    const index = this.index(kind);
    const run = filter.humanId === undefined ? index.all : index.byHuman.get(filter.humanId) ?? EMPTY_RUN;
    let from = 0;
    let to = run.records.length;
    if (filter.startDate !== undefined && filter.endDate !== undefined) {
      const { startDate, endDate } = filter;
      from = firstWhere(run.dates, (d) => d <= endDate);
      to = firstWhere(run.dates, (d) => d < startDate);
    }
    let records = run.records.slice(from, to);
    const { source, updatedSince, createdSince } = filter;
    if (source !== undefined || updatedSince !== undefined || createdSince !== undefined) {
      // The generator writes every createdAt/updatedAt with toISOString(), as the filter's
      // bounds are, so text order is time order.
      records = records.filter((r) =>
        (source === undefined || r.source === source) &&
        (updatedSince === undefined || r.updatedAt >= updatedSince) &&
        (createdSince === undefined || r.createdAt >= createdSince));
    }
    if (this.filtered.size >= CACHE_SIZE) this.filtered.delete(this.filtered.keys().next().value as string);
    this.filtered.set(key, records);
    return records;
  }

  byId(kind: ResourceKind, id: string): RecordBase | undefined {
    return this.index(kind).byId.get(id);
  }

  onDate(kind: ResourceKind, humanId: string, date: string): RecordBase | undefined {
    return this.index(kind).byDay.get(`${humanId}|${date}`);
  }

  latest(kind: ResourceKind, humanId: string): RecordBase | undefined {
    return this.index(kind).byHuman.get(humanId)?.records[0];
  }

  private index(kind: ResourceKind): KindIndex {
    const index = this.kinds.get(kind);
    if (!index) throw new Error(`No records indexed for ${kind}`);
    return index;
  }
}

function indexKind(records: readonly RecordBase[], kind: ResourceKind): KindIndex {
  // The generator already emits newest first; the stable sort keeps its order within a date and
  // costs one linear pass on sorted input, so the invariant holds for any dataset.
  const dated = records.map((record) => ({ record, date: localDateOf(record, kind) ?? '' }));
  dated.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  const all: Run = { records: [], dates: [] };
  const byHuman = new Map<string, Run>();
  const byId = new Map<string, RecordBase>();
  const byDay = new Map<string, RecordBase>();
  for (const { record, date } of dated) {
    all.records.push(record);
    all.dates.push(date);
    let run = byHuman.get(record.humanId);
    if (!run) byHuman.set(record.humanId, (run = { records: [], dates: [] }));
    run.records.push(record);
    run.dates.push(date);
    byId.set(record.id, record);
    const day = `${record.humanId}|${date}`;
    if (!byDay.has(day)) byDay.set(day, record);
  }
  return { all, byHuman, byId, byDay };
}

/** The first index where `test` holds, in an array where it fails and then holds throughout. */
function firstWhere(dates: readonly string[], test: (date: string) => boolean): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(dates[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
