// The Records view: three resources (or, grouped by date first, every resource per date) by
// month and date, filtered by a date range and a source. Loading and its concurrency live in
// LoadedRecords, node shapes in nodes.ts, the commands in treeCommands.ts.

import * as vscode from 'vscode';
import { localDateOf } from '../../core/dates';
import { RESOURCES, ResourceKind } from '../../core/resources';
import { RecordNode } from '../../core/views';
import { SANDBOX_ENVIRONMENT, activeEnvironmentName, readRequestSettings } from '../account/environments';
import { SandboxController } from '../account/localSandbox';
import { Session } from '../account/session';
import { DateRange, describeFilters, describeRange, lastDays, shortHumanId } from './filters';
import { TreeItemNodes, TreeItemNode, recordTooltip, treeItem } from './nodes';
import { ListFilter, LoadedRecords } from './loadedRecords';

export const VIEW_ID = 'healthData.records';
export type GroupBy = 'resource' | 'date';

export class RecordsTreeProvider implements vscode.TreeDataProvider<TreeItemNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TreeItemNode | undefined | void>();
  readonly onDidChangeTreeData = this.emitter.event;

  /** The records loaded of a kind changed (undefined: of every kind): what loadedOf answers may differ. */
  get onDidChangeRecords(): vscode.Event<ResourceKind | undefined> {
    return this.store.onDidChange;
  }
  private readonly store: LoadedRecords;
  private readonly nodes: TreeItemNodes;
  private readonly disposables: vscode.Disposable[] = [];
  private view: vscode.TreeView<TreeItemNode> | undefined;
  private mode: GroupBy;
  /** The range follows the defaultDateRange setting until the user picks one. */
  private rangeIsDefault = true;
  private progressShown = false;
  /**
   * The sources and humans of the records loaded just before their filter was set (in this
   * environment). While a filter is on, every loaded record has its value, so its pick list
   * offers these instead: another source or human is one pick away, not two.
   */
  private beforeFilter: { sources?: string[]; humans?: Array<{ humanId: string; records: number }> } = {};

  constructor(
    readonly session: Session,
    private readonly sandbox: SandboxController,
  ) {
    const settings = readRequestSettings();
    this.mode = settings.groupBy;
    this.store = new LoadedRecords(session, { range: lastDays(settings.defaultRangeDays), source: undefined }, () => this.showProgress());
    this.nodes = new TreeItemNodes(this.store);
    this.disposables.push(
      this.emitter,
      this.store,
      this.store.onDidChange(() => this.changed()),
      // The environment, its settings (pageSize, defaultDateRange…) or its secrets changed:
      // drop everything, in-flight loads included, and load again when the view asks.
      session.onDidChange(() => this.resetAll()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('healthData.tree.groupBy')) {
          const groupBy = readRequestSettings().groupBy;
          if (groupBy !== this.mode) void this.applyGroupBy(groupBy);
        }
      }),
    );
    void this.setGroupByContext();
  }

  /** Creates the view and registers the tree's commands. */
  register(): vscode.Disposable[] {
    this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this, showCollapseAll: true, canSelectMany: true });
    this.updateViewText();
    return [this.view];
  }

  get groupBy(): GroupBy {
    return this.mode;
  }

  get dateRange(): DateRange {
    return this.store.currentFilter.range;
  }

  get sourceFilter(): string | undefined {
    return this.store.currentFilter.source;
  }

  get humanFilter(): string | undefined {
    return this.store.currentFilter.human;
  }

  /** The loading state of a resource (for tests and the commands). */
  state(kind: ResourceKind) {
    return this.store.state(kind);
  }

  /**
   * The records of a kind loaded for the current filters (a record view compares a record's
   * zeros with them), the environment and the filters they were loaded with; undefined before
   * a first page came.
   */
  loadedOf(kind: ResourceKind): { records: readonly unknown[]; environment: string | undefined; scope: string } | undefined {
    const state = this.store.state(kind);
    const env = this.session.active?.name;
    if (!state.loaded || env === undefined) return undefined;
    return { records: this.store.shown(kind), environment: env, scope: this.scopeText(env) };
  }

  /** `Local sandbox · the last 30 days (…) · all sources`: the environment and the filters, as the view names them. */
  private scopeText(env: string): string {
    const { range, source, human } = this.store.currentFilter;
    return `${env} · ${describeFilters(range, source, human)}`;
  }

  /** What the view shows above the tree and beside its title (for tests). */
  get viewText(): { message: string | undefined; description: string | undefined } {
    return { message: this.view?.message, description: this.view?.description };
  }

  get selection(): readonly TreeItemNode[] {
    return this.view?.selection ?? [];
  }

  /** The sources the source filter's pick list offers: the loaded records', or while the filter is on, those of the records loaded before it. */
  sourcesSeen(): string[] {
    const loaded = this.store.sources();
    const before = this.sourceFilter === undefined ? undefined : this.beforeFilter.sources;
    return before ? [...new Set([...before, ...loaded])].sort() : loaded;
  }

  /** The humans the human filter's pick list offers, most records first: as `sourcesSeen`, with each one's count in the records it came from. */
  humansSeen(): Array<{ humanId: string; records: number }> {
    const loaded = this.store.humans();
    const before = this.humanFilter === undefined ? undefined : this.beforeFilter.humans;
    return before ? [...before, ...loaded.filter((h) => !before.some((b) => b.humanId === h.humanId))] : loaded;
  }

  /** True when the pick list of `filter` offers what was loaded before the filter was set (its heading says so). */
  offersBeforeFilter(filter: 'source' | 'human'): boolean {
    return filter === 'source' ? this.sourceFilter !== undefined && this.beforeFilter.sources !== undefined : this.humanFilter !== undefined && this.beforeFilter.humans !== undefined;
  }

  /** Resolves once nothing is loading. */
  whenLoaded(): Promise<void> {
    return this.store.settled();
  }

  // ---- TreeDataProvider ----

  async getChildren(element?: TreeItemNode): Promise<TreeItemNode[]> {
    try {
      if (element) {
        if (element.type === 'resource') this.ensureLoading();
        return this.nodes.children(element);
      }
      return await this.roots();
    } catch (err) {
      // Never throw into the view: a failure becomes a node.
      const message = err instanceof Error ? err.message : String(err);
      this.session.log.error(`Records view: ${message}`);
      return [{ type: 'error', id: `error/view/${element?.id ?? 'root'}`, parent: element, kind: undefined, message, incomplete: false }];
    }
  }

  getTreeItem(element: TreeItemNode): vscode.TreeItem {
    return treeItem(element, this.store);
  }

  resolveTreeItem(item: vscode.TreeItem, element: TreeItemNode): vscode.TreeItem {
    if (element.type === 'record' && item.tooltip === undefined) item.tooltip = recordTooltip(element, this.store);
    return item;
  }

  getParent(element: TreeItemNode): TreeItemNode | undefined {
    return element.parent;
  }

  private async roots(): Promise<TreeItemNode[]> {
    const env = this.session.active;
    if (!env) {
      if (activeEnvironmentName() === SANDBOX_ENVIRONMENT && !this.sandbox.running) {
        return [{
          type: 'message',
          id: 'sandboxStopped',
          parent: undefined,
          label: vscode.l10n.t('The local sandbox is not running'),
          tooltip: vscode.l10n.t('Start it to browse its synthetic records.'),
          icon: 'debug-start',
          // Carries an inline Start action where package.json's menus give it one.
          contextValue: 'sandboxStopped',
          command: { command: 'healthData.startSandbox', title: vscode.l10n.t('Start Local Sandbox') },
        }];
      }
      return []; // the welcome view explains what to set up
    }
    if (env.origin !== 'sandbox' && !(await this.session.credentials.has(env.name))) return [];
    this.ensureLoading();
    const credentials = this.credentialsProblem();
    if (credentials) return [credentials];
    return this.mode === 'date' ? this.nodes.dateFirstRoots() : RESOURCES.map((r) => this.nodes.resourceRoot(r.kind));
  }

  /**
   * One node, instead of the same 401 under every resource, when the service refused the
   * credentials for all of them: what happened, what to do, and the whole message on hover.
   */
  private credentialsProblem(): TreeItemNode | undefined {
    const states = RESOURCES.map((r) => this.store.state(r.kind));
    if (!states.every((s) => s.error?.credentials && !s.loading)) return undefined;
    const env = this.session.active?.name ?? '';
    const message = states[0].error?.message ?? '';
    return {
      type: 'message',
      id: 'credentialsRejected',
      parent: undefined,
      label: vscode.l10n.t('The service did not accept the credentials of "{0}"', env),
      description: vscode.l10n.t('Set Client Credentials to enter them again'),
      tooltip: vscode.l10n.t('{0}\n\nCheck the client id and client secret (Health Data: Set Client Credentials), or the user access token if one is set; then Retry.', message),
      icon: 'error',
      // Carries inline Set Credentials and Retry actions (package.json menus).
      contextValue: 'credentialsRejected',
      command: { command: 'healthData.setCredentials', title: vscode.l10n.t('Set Client Credentials'), arguments: [{ environment: env }] },
    };
  }

  /** Starts the first load of each resource that has none yet (the view asked to see it). */
  private ensureLoading(): void {
    for (const { kind } of RESOURCES) if (this.store.idle(kind)) void this.store.refresh(kind);
  }

  // ---- What the commands do ----

  /** Loads every resource's first page again; what is shown stays until the answers arrive. */
  async refresh(): Promise<void> {
    const range = this.store.currentFilter.range;
    if (range.days !== undefined && lastDays(range.days).end !== range.end) {
      // "Last N days" moved with the calendar: a new range, not the old one again.
      this.store.reset({ ...this.store.currentFilter, range: lastDays(range.days) });
    }
    if (!this.session.active) return;
    await Promise.all(RESOURCES.map((r) => this.store.refresh(r.kind)));
  }

  async refreshKind(kind: ResourceKind): Promise<void> {
    await this.store.refresh(kind);
  }

  /** The next page of one resource, or of every resource that has more. */
  async loadMore(kind?: ResourceKind): Promise<void> {
    const kinds = kind ? [kind] : RESOURCES.map((r) => r.kind).filter((k) => this.store.state(k).hasMore);
    await Promise.all(kinds.map((k) => this.store.loadMore(k)));
  }

  /** Loads again what failed: a next page that failed is asked for again, anything else refreshed. */
  async retry(kind?: ResourceKind): Promise<void> {
    const kinds = kind ? [kind] : RESOURCES.map((r) => r.kind).filter((k) => this.store.state(k).error || this.store.state(k).incomplete);
    await Promise.all(
      kinds.map((k) => {
        const state = this.store.state(k);
        return state.error?.during === 'more' && state.loaded ? this.store.loadMore(k) : this.store.refresh(k);
      }),
    );
  }

  async setDateRange(range: DateRange): Promise<void> {
    this.rangeIsDefault = false;
    await this.reload({ ...this.store.currentFilter, range });
  }

  async setSource(source: string | undefined): Promise<void> {
    await this.reload({ ...this.store.currentFilter, source: source || undefined });
  }

  async setHuman(human: string | undefined): Promise<void> {
    await this.reload({ ...this.store.currentFilter, human: human || undefined });
  }

  async setGroupBy(groupBy: GroupBy): Promise<void> {
    await this.applyGroupBy(groupBy);
    await vscode.workspace.getConfiguration('healthData').update('tree.groupBy', groupBy, vscode.ConfigurationTarget.Global);
  }

  /**
   * Shows a record in the tree, selected: its resource is loaded first, and a record the
   * current filter or pages do not bring is added to the tree so it can be shown.
   */
  async reveal(kind: ResourceKind, record: unknown): Promise<void> {
    if (!this.session.active) return;
    this.ensureLoading();
    await this.store.settled(kind);
    this.store.pin(kind, record);
    const node = this.findRecordNode(kind, record);
    if (!node || !this.view) return;
    await this.view.reveal(node, { select: true, focus: false, expand: true });
  }

  /** The view node of a record, with its parents, in the current grouping. */
  findRecordNode(kind: ResourceKind, record: unknown): TreeItemNode | undefined {
    const id = record && typeof record === 'object' ? (record as { id?: unknown }).id : undefined;
    const date = localDateOf(record, kind);
    const scope = this.mode === 'date' ? 'all' : kind;
    const model = this.mode === 'date' ? this.store.dateFirst() : this.store.resourceModel(kind);
    const root = this.mode === 'date' ? undefined : this.nodes.resourceRoot(kind);
    const matches = (n: RecordNode) => n.kind === kind && (id !== undefined ? n.id === String(id) : n.record === record);
    if (date === undefined) {
      const found = model.undated.find(matches);
      return found ? this.nodes.recordNode(scope, found, this.nodes.undatedNode(scope, model.undated, root)) : undefined;
    }
    const month = model.months.find((m) => m.month === date.slice(0, 7));
    const day = month?.dates.find((d) => d.date === date);
    const found = day?.groups.find((g) => g.kind === kind)?.records.find(matches);
    if (!month || !day || !found) return undefined;
    const monthNode = this.nodes.monthNode(scope, month, root);
    const dateNode = this.nodes.children(monthNode).find((n) => n.type === 'date' && n.date === day)!;
    return this.nodes.recordNode(scope, found, dateNode);
  }

  // ---- Internals ----

  private async reload(filter: ListFilter): Promise<void> {
    const current = this.store.currentFilter;
    // A filter set where there was none: what its pick list offered until now is kept for it.
    if (current.source === undefined && filter.source !== undefined) this.beforeFilter.sources = nonEmpty(this.store.sources()) ?? this.beforeFilter.sources;
    if (current.human === undefined && filter.human !== undefined) this.beforeFilter.humans = nonEmpty(this.store.humans()) ?? this.beforeFilter.humans;
    this.store.reset(filter);
    this.updateViewText();
    if (!this.session.active) return;
    await Promise.all(RESOURCES.map((r) => this.store.refresh(r.kind)));
  }

  private resetAll(): void {
    // Another environment (or its settings or secrets): its sources and humans are not known yet.
    this.beforeFilter = {};
    const filter = this.store.currentFilter;
    const range = this.rangeIsDefault ? lastDays(readRequestSettings().defaultRangeDays) : filter.range;
    this.store.reset({ ...filter, range });
    this.updateViewText();
  }

  private async applyGroupBy(groupBy: GroupBy): Promise<void> {
    if (groupBy === this.mode) return;
    this.mode = groupBy;
    this.emitter.fire();
    await this.setGroupByContext();
  }

  private setGroupByContext(): Thenable<unknown> {
    return vscode.commands.executeCommand('setContext', 'healthData.groupBy', this.mode);
  }

  private changed(): void {
    this.updateViewText();
    this.emitter.fire();
  }

  /**
   * The filters where a user looks: the view's message (always shown above the tree, even when
   * VS Code hides the view's own header) names the environment, the range with its dates and the
   * source (and the human, when one is chosen); the description repeats them briefly; context
   * keys switch the toolbar's filter icon and the Clear commands.
   */
  private updateViewText(): void {
    const { range, source, human } = this.store.currentFilter;
    void vscode.commands.executeCommand('setContext', 'healthData.sourceFiltered', source !== undefined);
    void vscode.commands.executeCommand('setContext', 'healthData.humanFiltered', human !== undefined);
    if (!this.view) return;
    const env = this.session.active?.name ?? activeEnvironmentName();
    const sourceText = source ? vscode.l10n.t('source: {0}', source) : vscode.l10n.t('all sources');
    const short = [describeRange(range), sourceText];
    if (human !== undefined) short.push(vscode.l10n.t('human: {0}', shortHumanId(human)));
    this.view.description = short.join(' · ');
    const stale = RESOURCES.filter((r) => this.store.state(r.kind).stale).map((r) => r.label);
    const parts = [vscode.l10n.t('Showing {0}', this.scopeText(env))];
    if (stale.length) parts.push(vscode.l10n.t('Refresh failed for {0}: showing older data.', stale.join(', ')));
    this.view.message = this.session.active ? parts.join(' — ') : undefined;
  }

  /** One progress indicator on the view while any load runs. */
  private showProgress(): void {
    if (this.progressShown) return;
    this.progressShown = true;
    void vscode.window.withProgress({ location: { viewId: VIEW_ID } }, () =>
      this.store.settled().finally(() => {
        this.progressShown = false;
      }),
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function nonEmpty<T>(values: T[]): T[] | undefined {
  return values.length ? values : undefined;
}
