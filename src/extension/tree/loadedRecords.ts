// What the tree shows, per resource: the records loaded so far and how their loading went. Each
// load is numbered and has its own AbortController; an answer is applied only while it is still
// the newest load of its resource and the session's generation has not moved, so a superseded
// refresh or an answer from the previous environment never reaches the tree.

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { RESOURCES, ResourceKind } from '../../core/resources';
import { RecordTree, buildDateFirstTree, buildResourceTree } from '../../core/views';
import { readRequestSettings } from '../account/environments';
import { errorMessage } from '../shared/showError';
import { Session } from '../account/session';
import { DateRange } from './filters';

export interface ListFilter {
  readonly range: DateRange;
  readonly source: string | undefined;
}

export type LoadMode = 'refresh' | 'more';

export interface ResourceState {
  readonly kind: ResourceKind;
  /** Records from the service for the current filter, deduplicated by id, in list order. */
  records: unknown[];
  /** Records revealed from elsewhere that the current filter does not bring; shown too. */
  pinned: unknown[];
  /** Offset of the next page in the service's list. */
  nextOffset: number;
  total: number | undefined;
  hasMore: boolean;
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

/** One page as the service answered it. */
interface PageAnswer {
  offset: number;
  limit: number;
  records: unknown[];
  /** Records on the page, repeats within it included. */
  received: number;
  total: number | undefined;
  more: boolean;
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
  return { kind, records: [], pinned: [], nextOffset: 0, total: undefined, hasMore: false, loaded: false, loading: undefined, error: undefined, stale: false, incomplete: undefined };
}

export class LoadedRecords implements vscode.Disposable {
  private readonly states = new Map<ResourceKind, ResourceState>(RESOURCES.map((r) => [r.kind, emptyState(r.kind)]));
  private readonly pending = new Map<ResourceKind, PendingLoad>();
  private readonly ids = new Map<ResourceKind, Set<string>>();
  private seq = 0;
  /** Models are built once per change of the records, not per getChildren call. */
  private readonly resourceModels = new Map<ResourceKind, RecordTree>();
  private dateFirstModel: RecordTree | undefined;
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
    const { range, source } = this.filter;
    const s = this.states.get(kind)!;
    const offset = load.mode === 'more' ? s.nextOffset : 0;
    const current = () => this.isLatest(kind, load) && this.session.isCurrent(generation);
    try {
      const connection = await this.session.connection();
      if (!current() || !this.session.isCurrent(connection.generation)) return;
      const { pageSize } = readRequestSettings();
      const result = await connection.client.list(
        kind,
        { startDate: range.start, endDate: range.end, source, limit: pageSize, ...(offset ? { offset } : {}), all: false },
        { signal: load.abort.signal },
      );
      if (!current()) return;
      this.apply(kind, load.mode, {
        offset,
        limit: pageSize,
        records: result.records,
        received: result.records.length + result.duplicatesDropped,
        total: result.total,
        more: !result.complete,
      });
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

  private apply(kind: ResourceKind, mode: LoadMode, page: PageAnswer): void {
    const { offset, limit, records, received, total, more } = page;
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
    // Offsets count the service's list, not our deduplicated one: the next page starts one page
    // on. A page longer than asked (records of the previous page repeated) still moves one page;
    // a shorter one (the service caps `limit`) moves by what came.
    s.nextOffset = offset + Math.min(received, limit);
    s.total = total ?? (mode === 'more' ? s.total : undefined);
    s.loaded = true;
    s.error = undefined;
    s.stale = false;
    s.incomplete = undefined;
    // A page with nothing new cannot advance the list: stop offering more, and say so if the
    // service counted records that never arrived.
    s.hasMore = more && fresh > 0;
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
