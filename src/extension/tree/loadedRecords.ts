// What the tree shows, per resource: the records loaded so far and how their loading went. Each
// load is numbered and has its own AbortController; an answer is applied only while it is still
// the newest load of its resource and the session's generation has not moved, so a superseded
// refresh or an answer from the previous environment never reaches the tree.
// Whatever order the service pages in, the newest records of the range come first: a service
// that pages oldest first is read from its last page backwards (the count it sends says where
// that is), or, when it sends no count, the whole range is read at once.

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { RESOURCES, ResourceKind } from '../../core/resources';
import { HealthDataClient, ListResult } from '../../core/service';
import { RecordTree, ZeroTally, buildDateFirstTree, buildResourceTree, dateSpanOf, listOrderOf } from '../../core/views';
import { DataSpan, findDataSpan } from './dataSpan';
import { readRequestSettings } from '../account/environments';
import { errorMessage } from '../shared/showError';
import { Session } from '../account/session';
import { DateRange } from './filters';

export interface ListFilter {
  readonly range: DateRange;
  readonly source: string | undefined;
  /** One human's records (the service's `humanId` parameter), or every human's. */
  readonly human?: string;
}

export type LoadMode = 'refresh' | 'more';

export interface ResourceState {
  readonly kind: ResourceKind;
  /** Records from the service for the current filter, deduplicated by id, newest pages first. */
  records: unknown[];
  /** Records revealed from elsewhere that the current filter does not bring; shown too. */
  pinned: unknown[];
  /**
   * Offset of the next page in the service's list: the page after the last one read (newest
   * first), or the page before the first one read (a service that pages oldest first).
   */
  nextOffset: number;
  /** How the service's list runs: 'backward' when it pages oldest first and is read from its end. */
  direction: 'forward' | 'backward';
  total: number | undefined;
  hasMore: boolean;
  /** The oldest date loaded while more records remain: days from it back may be incomplete. */
  loadedFrom: string | undefined;
  /** For an empty result: where the service's records are without the date filter. */
  span: DataSpan | undefined;
  /** A first page arrived for the current filter and environment. */
  loaded: boolean;
  loading: LoadMode | undefined;
  /** `credentials`: the service refused the client id, secret or access token (401/403 on the token). */
  error: { message: string; during: LoadMode; credentials: boolean } | undefined;
  /** The records shown are older than a refresh that failed. */
  stale: boolean;
  /** Why the list is known to lack records the service counted, if it is. */
  incomplete: string | undefined;
}

/** What a load brought, ready to apply. */
interface LoadAnswer {
  /** Newest first, as far as the pages tell. */
  records: unknown[];
  total: number | undefined;
  nextOffset: number;
  direction: 'forward' | 'backward';
  more: boolean;
  span?: DataSpan;
}

interface PendingLoad {
  readonly seq: number;
  readonly mode: LoadMode;
  readonly abort: AbortController;
  promise: Promise<void>;
}

const idOf = (record: unknown): string | undefined => {
  const id = record && typeof record === 'object' ? (record as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
};

function emptyState(kind: ResourceKind): ResourceState {
  return {
    kind, records: [], pinned: [], nextOffset: 0, direction: 'forward', total: undefined, hasMore: false, loadedFrom: undefined, span: undefined,
    loaded: false, loading: undefined, error: undefined, stale: false, incomplete: undefined,
  };
}

export class LoadedRecords implements vscode.Disposable {
  private readonly states = new Map<ResourceKind, ResourceState>(RESOURCES.map((r) => [r.kind, emptyState(r.kind)]));
  private readonly pending = new Map<ResourceKind, PendingLoad>();
  private readonly ids = new Map<ResourceKind, Set<string>>();
  private seq = 0;
  /** Models are built once per change of the records, not per getChildren call. */
  private readonly resourceModels = new Map<ResourceKind, RecordTree>();
  private dateFirstModel: RecordTree | undefined;
  /** Each kind's records counted by source and field, so a record's 0 can be said from the others (built on first use). */
  private readonly zeroTallies = new Map<ResourceKind, ZeroTally>();
  private readonly changeEmitter = new vscode.EventEmitter<ResourceKind | undefined>();
  /** A resource's state changed (undefined: all of them). */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly session: Session,
    private filter: ListFilter,
    /** Wraps each load, to show progress. */
    private readonly track: (work: Promise<void>) => void,
  ) {}

  get currentFilter(): ListFilter {
    return this.filter;
  }

  state(kind: ResourceKind): Readonly<ResourceState> {
    return this.states.get(kind)!;
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Service records plus pinned ones, without repeats. */
  shown(kind: ResourceKind): unknown[] {
    const s = this.state(kind);
    return s.pinned.length ? [...s.records, ...s.pinned] : s.records;
  }

  /** The records shown of a kind counted by source and field: what a record's zeros are said from. */
  zeroTally(kind: ResourceKind): ZeroTally {
    let tally = this.zeroTallies.get(kind);
    if (!tally) {
      tally = new ZeroTally('loaded');
      for (const record of this.shown(kind)) tally.add(kind, record);
      this.zeroTallies.set(kind, tally);
    }
    return tally;
  }

  resourceModel(kind: ResourceKind): RecordTree {
    let model = this.resourceModels.get(kind);
    if (!model) this.resourceModels.set(kind, (model = buildResourceTree(kind, this.shown(kind))));
    return model;
  }

  dateFirst(): RecordTree {
    if (!this.dateFirstModel) {
      const lists: Partial<Record<ResourceKind, unknown[]>> = {};
      for (const { kind } of RESOURCES) lists[kind] = this.shown(kind);
      this.dateFirstModel = buildDateFirstTree(lists);
    }
    return this.dateFirstModel;
  }

  /** Sources seen in the loaded records, for the source filter's pick list. */
  sources(): string[] {
    const seen = new Set<string>();
    for (const { kind } of RESOURCES) {
      for (const r of this.shown(kind)) {
        const s = r && typeof r === 'object' ? (r as { source?: unknown }).source : undefined;
        if (typeof s === 'string' && s) seen.add(s);
      }
    }
    return [...seen].sort();
  }

  /**
   * Humans seen in the loaded records with how many records each, most first: the human filter's
   * pick list. The count of `humanCounts` (core/insights), done here: importing the insights core
   * would put 16 KB of it into the activation bundle, which loads the insights on first use.
   */
  humans(): Array<{ humanId: string; records: number }> {
    const counts = new Map<string, number>();
    for (const { kind } of RESOURCES) {
      for (const r of this.shown(kind)) {
        const h = r && typeof r === 'object' ? (r as { humanId?: unknown }).humanId : undefined;
        if (typeof h === 'string' && h) counts.set(h, (counts.get(h) ?? 0) + 1);
      }
    }
    return [...counts].map(([humanId, records]) => ({ humanId, records })).sort((a, b) => b.records - a.records || (a.humanId < b.humanId ? -1 : 1));
  }

  /** True when `kind` never started loading for the current filter and environment. */
  idle(kind: ResourceKind): boolean {
    const s = this.state(kind);
    return !s.loaded && !s.loading && !s.error;
  }

  /**
   * Forgets everything (in-flight loads are aborted and their answers dropped). With a new
   * filter, the next load uses it. Records already shown are gone: they belong to another
   * environment or another filter.
   */
  reset(filter?: ListFilter): void {
    if (filter) this.filter = filter;
    this.abortAll();
    for (const { kind } of RESOURCES) {
      this.states.set(kind, emptyState(kind));
      this.ids.set(kind, new Set());
    }
    this.modelsChanged(undefined);
  }

  /** Loads the first page again; records shown stay until the answer replaces them. */
  refresh(kind: ResourceKind): Promise<void> {
    return this.start(kind, 'refresh');
  }

  /** The next page; joins a load already running for the resource. */
  loadMore(kind: ResourceKind): Promise<void> {
    const running = this.pending.get(kind);
    if (running) return this.settled(kind);
    const s = this.state(kind);
    if (!s.loaded || !s.hasMore) return Promise.resolve();
    return this.start(kind, 'more');
  }

  /** Keeps a record in the tree although the current filter or page does not bring it. */
  pin(kind: ResourceKind, record: unknown): void {
    const id = idOf(record);
    if (id !== undefined && this.ids.get(kind)?.has(id)) return;
    const s = this.states.get(kind)!;
    if (id !== undefined && s.pinned.some((r) => idOf(r) === id)) return;
    s.pinned.push(record);
    this.modelsChanged(kind);
  }

  /** Resolves once no load of `kind` (or of any resource) is running. */
  async settled(kind?: ResourceKind): Promise<void> {
    for (;;) {
      const running = kind ? this.pending.get(kind) : [...this.pending.values()][0];
      if (!running) return;
      await running.promise;
    }
  }

  private start(kind: ResourceKind, mode: LoadMode): Promise<void> {
    this.pending.get(kind)?.abort.abort();
    const load: PendingLoad = { seq: ++this.seq, mode, abort: new AbortController(), promise: Promise.resolve() };
    this.pending.set(kind, load);
    const s = this.states.get(kind)!;
    s.loading = mode;
    this.changeEmitter.fire(kind);
    load.promise = this.run(kind, load);
    this.track(load.promise);
    return this.settled(kind);
  }

  private isLatest(kind: ResourceKind, load: PendingLoad): boolean {
    return this.pending.get(kind) === load;
  }

  private async run(kind: ResourceKind, load: PendingLoad): Promise<void> {
    const generation = this.session.generation;
    const s = this.states.get(kind)!;
    const current = () => this.isLatest(kind, load) && this.session.isCurrent(generation);
    try {
      const connection = await this.session.connection();
      if (!current() || !this.session.isCurrent(connection.generation)) return;
      const { signal } = load.abort;
      const answer = load.mode === 'more' ? await this.nextPage(connection.client, kind, s, signal) : await this.firstPage(connection.client, kind, signal);
      if (!current()) return;
      this.apply(kind, load.mode, answer);
    } catch (err) {
      if (!current() || load.abort.signal.aborted) return;
      if (err instanceof HealthDataError && err.kind === 'cancelled') return;
      const message = errorMessage(this.session, err);
      this.session.log.warn(`Loading ${kind} failed: ${message}`);
      s.error = { message, during: load.mode, credentials: err instanceof HealthDataError && err.kind === 'auth' };
      // A failed refresh leaves what was shown: marked stale, never silently current.
      if (load.mode === 'refresh' && s.loaded) s.stale = true;
    } finally {
      if (this.isLatest(kind, load)) {
        this.pending.delete(kind);
        s.loading = undefined;
        this.changeEmitter.fire(kind);
      }
    }
  }

  private page(client: HealthDataClient, kind: ResourceKind, offset: number, limit: number, signal: AbortSignal): Promise<ListResult> {
    const { range, source, human } = this.filter;
    return client.list(kind, { startDate: range.start, endDate: range.end, source, humanId: human, limit, ...(offset ? { offset } : {}), all: false }, { signal });
  }

  /**
   * The first page of the range, newest records first. A page that runs oldest first, with more
   * pages after it, is put aside: the last page (where the count says it is) is read instead, and
   * Load More walks back from there. Without a count the whole range is read, its size being
   * bounded by the range. An empty range learns where the records are instead.
   */
  private async firstPage(client: HealthDataClient, kind: ResourceKind, signal: AbortSignal): Promise<LoadAnswer> {
    const { pageSize } = readRequestSettings();
    const first = await this.page(client, kind, 0, pageSize, signal);
    const received = first.records.length + first.duplicatesDropped;
    if (first.records.length === 0 && first.complete) {
      const span = await findDataSpan(client, kind, this.filter, signal).catch((err: unknown) => {
        if (signal.aborted) throw err;
        this.session.log.debug(`Where the ${kind} records are could not be learnt: ${errorMessage(this.session, err)}`);
        return undefined;
      });
      return { records: [], total: first.total, nextOffset: 0, direction: 'forward', more: false, span };
    }
    if (first.complete || listOrderOf(first.records, kind) !== 'oldestFirst') {
      return { records: first.records, total: first.total, nextOffset: Math.min(received, pageSize), direction: 'forward', more: !first.complete };
    }
    if (first.total === undefined) {
      const { range, source, human } = this.filter;
      this.session.log.info(`${kind}: the service pages oldest first and sends no count: reading the whole range ${range.start} – ${range.end}.`);
      const all = await client.list(kind, { startDate: range.start, endDate: range.end, source, humanId: human, limit: pageSize, all: true }, { signal });
      return { records: [...all.records].reverse(), total: all.total, nextOffset: 0, direction: 'forward', more: false };
    }
    const tail = Math.max(0, first.total - pageSize);
    const last = await this.page(client, kind, tail, pageSize, signal);
    // When the last page reaches into the first, the two are the whole list.
    const records = tail <= received ? [...last.records, ...first.records] : last.records;
    return { records: [...records].reverse(), total: first.total, nextOffset: tail <= received ? 0 : tail, direction: 'backward', more: tail > received };
  }

  /** The page after the last one read, or, read backwards, the page before the first one read. */
  private async nextPage(client: HealthDataClient, kind: ResourceKind, s: ResourceState, signal: AbortSignal): Promise<LoadAnswer> {
    const { pageSize } = readRequestSettings();
    if (s.direction === 'backward') {
      const from = Math.max(0, s.nextOffset - pageSize);
      const page = await this.page(client, kind, from, s.nextOffset - from, signal);
      return { records: [...page.records].reverse(), total: page.total ?? s.total, nextOffset: from, direction: 'backward', more: from > 0 };
    }
    const page = await this.page(client, kind, s.nextOffset, pageSize, signal);
    // Offsets count the service's list, not our deduplicated one: the next page starts one page
    // on. A page longer than asked (records of the previous page repeated) still moves one page;
    // a shorter one (the service caps `limit`) moves by what came.
    const received = page.records.length + page.duplicatesDropped;
    return { records: page.records, total: page.total ?? s.total, nextOffset: s.nextOffset + Math.min(received, pageSize), direction: 'forward', more: !page.complete };
  }

  private apply(kind: ResourceKind, mode: LoadMode, answer: LoadAnswer): void {
    const { records, total, more } = answer;
    const s = this.states.get(kind)!;
    let ids = this.ids.get(kind)!;
    if (mode === 'refresh') {
      ids = new Set();
      this.ids.set(kind, ids);
      s.records = [];
    }
    let fresh = 0;
    for (const record of records) {
      const id = idOf(record);
      if (id !== undefined) {
        if (ids.has(id)) continue;
        ids.add(id);
      }
      s.records.push(record);
      fresh++;
    }
    if (s.pinned.length) s.pinned = s.pinned.filter((r) => !ids.has(idOf(r) ?? ''));
    s.nextOffset = answer.nextOffset;
    s.direction = answer.direction;
    s.total = total;
    s.span = answer.span;
    s.loaded = true;
    s.error = undefined;
    s.stale = false;
    s.incomplete = undefined;
    // A page with nothing new cannot advance the list: stop offering more, and say so if the
    // service counted records that never arrived.
    s.hasMore = more && fresh > 0;
    s.loadedFrom = s.hasMore ? dateSpanOf(s.records, kind)?.oldest : undefined;
    if (mode === 'more' && records.length > 0 && fresh === 0) {
      s.incomplete = vscode.l10n.t('The service sent the same records again instead of the next page.');
    } else if (!s.hasMore && s.total !== undefined && s.records.length < s.total) {
      s.incomplete = vscode.l10n.t('The service counted {0} records but sent {1}.', s.total, s.records.length);
    }
    this.modelsChanged(kind);
  }

  private modelsChanged(kind: ResourceKind | undefined): void {
    if (kind) this.resourceModels.delete(kind);
    else this.resourceModels.clear();
    if (kind) this.zeroTallies.delete(kind);
    else this.zeroTallies.clear();
    this.dateFirstModel = undefined;
    this.changeEmitter.fire(kind);
  }

  private abortAll(): void {
    for (const load of this.pending.values()) load.abort.abort();
    this.pending.clear();
  }

  dispose(): void {
    this.abortAll();
    this.changeEmitter.dispose();
  }
}
