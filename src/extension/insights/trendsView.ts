// "Show Trends": charts of the three resources for one human over the Records view's range (or
// one typed in the panel), every page loaded with progress and cancel; a point opens its record.

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { HumanCount, HumanRecords, buildHumanTrends, buildTrends, humanCounts, recordsByHuman } from '../../core/insights';
import { RESOURCES, ResourceKind, resource } from '../../core/resources';
import { InsightsStatus, InsightsWebviewMessage, PersistedInsightsView, TRENDS_VIEW_TYPE, TrendsViewModel } from '../../core/views';
import { rangeText } from '../requests/prompts';
import { customRangeProblem } from '../tree/filters';
import type { InsightsDeps } from './coverageView';
import { InsightsView } from './insightsView';
import { InsightsFilter, LoadedList, filterWords, loadEveryPage } from './loadEveryPage';
import { loadFailure, loadKey } from './loadFailure';
import { currentOrigin, elsewhereStatus, keptFilter, loadWhenBack, restorable, switchBack } from './restore';
import { trendsStrings } from './strings';

export class TrendsView extends InsightsView<LoadedList[]> {
  private lists: LoadedList[] = [];
  /** Each list's records split by human, and the humans' counts over all three: once per load. */
  private byHuman: Array<Map<string, HumanRecords>> = [];
  private humans: HumanCount[] = [];
  private filter: (InsightsFilter & { description: string }) | undefined;
  private humanId: string | undefined;
  private model: TrendsViewModel | undefined;
  private seq = 0;
  /** The environment the data shown came from (the one in use at the last load, or a restored panel's). */
  private origin: Pick<PersistedInsightsView, 'environment' | 'host'> = {};

  constructor(private readonly deps: InsightsDeps) {
    super(deps.extensionUri, () => ({ viewType: TRENDS_VIEW_TYPE, title: vscode.l10n.t('Trends'), bundle: 'trends', bundleCss: true }));
  }

  get currentModel(): TrendsViewModel | undefined {
    return this.model;
  }

  /** Opens (or reuses) the panel over the Records view's range, or `range` when given. */
  async show(range?: { start: string; end: string }, cancellation?: vscode.CancellationToken): Promise<TrendsViewModel | undefined> {
    this.showPanel();
    const tree = this.deps.filters.insightsFilter();
    if (range) {
      const problem = customRangeProblem(range.start, range.end);
      if (problem) throw new HealthDataError('usage', vscode.l10n.t('Range not changed: {0}', problem));
    }
    this.filter = range ? { ...tree, start: range.start, end: range.end, description: `${range.start} – ${range.end}` } : tree;
    return this.load(cancellation);
  }

  /** A trends panel after a reload: its range, source and human again, from where they came (restore.ts). */
  async revive(restored: vscode.WebviewPanel, state: unknown): Promise<TrendsViewModel | undefined> {
    const persisted = restorable(restored, state, this.panel, false);
    if (!persisted) return undefined;
    this.openPanel(restored);
    this.filter = keptFilter(persisted);
    const { start, end } = persisted;
    this.humanId = persisted.humanId;
    const elsewhere = elsewhereStatus(this.deps.session, persisted);
    if (!elsewhere) return this.load();
    const seq = ++this.seq;
    const notLoaded = (status: InsightsStatus) => this.publish({ heading: this.heading(), start, end, humans: [], sections: [], status });
    loadWhenBack(this.deps.session, persisted, () => seq === this.seq && this.panel !== undefined, () => void this.load(), (status) => void notLoaded(status));
    this.setLists([]);
    this.origin = { environment: persisted.environment, host: persisted.host };
    return notLoaded(elsewhere);
  }

  private heading(): string {
    const f = this.filter!;
    const env = this.origin.environment;
    return [f.description, ...filterWords(f), env].filter(Boolean).join(' · ');
  }

  private async load(cancellation?: vscode.CancellationToken): Promise<TrendsViewModel | undefined> {
    const seq = ++this.seq;
    const filter = this.filter!;
    this.origin = currentOrigin(this.deps.session);
    const base = { heading: this.heading(), start: filter.start, end: filter.end, humans: [], sections: [] };
    this.publish({ ...base, status: { state: 'loading', message: vscode.l10n.t('Loading every page of the three resources…') } });
    const key = loadKey(filter.start, filter.end, filter.source, filter.human, this.origin.environment, this.origin.host);
    try {
      const lists = await loadEveryPage(this.deps.session, RESOURCES.map((r) => r.kind), filter, cancellation);
      if (seq !== this.seq) return undefined;
      this.setLists(lists);
      this.complete = { key, data: lists, at: Date.now() };
      if (!this.humans.some((h) => h.humanId === this.humanId)) this.humanId = this.humans[0]?.humanId;
      return this.render();
    } catch (err) {
      if (seq !== this.seq) return undefined;
      const kept = this.complete?.key === key ? this.complete : undefined;
      this.setLists(kept?.data ?? []);
      const status = loadFailure(this.deps.session, err, kept?.at);
      return kept ? this.render(status) : this.publish({ ...base, status });
    }
  }

  private setLists(lists: LoadedList[]): void {
    this.lists = lists;
    this.byHuman = lists.map((l) => recordsByHuman(l.records));
    this.humans = humanCounts(this.byHuman);
  }

  private render(status?: InsightsStatus): TrendsViewModel {
    const filter = this.filter!;
    const humans = this.humans;
    const sections = this.lists.map((list, i) => {
      const def = resource(list.kind);
      // One human's records only; with no human at all (no record has a humanId), every record.
      const human = this.humanId === undefined ? undefined : (this.byHuman[i].get(this.humanId) ?? NO_RECORDS);
      const charts = human ? buildHumanTrends(list.kind, human) : buildTrends(list.kind, list.records);
      const empty = charts.every((c) => c.xs.length === 0);
      const message = empty
        ? vscode.l10n.t('No {0} for this human in this range.', def.label.toLowerCase())
        : list.complete
          ? undefined
          : vscode.l10n.t('Incomplete: paging stopped early.');
      return { kind: list.kind, label: def.label, charts: empty ? [] : charts, message };
    });
    return this.publish({ heading: this.heading(), start: filter.start, end: filter.end, humans, humanId: this.humanId, sections, status });
  }

  private publish(model: TrendsViewModel): TrendsViewModel {
    this.model = model;
    const filter = this.filter;
    const persist = filter && { start: filter.start, end: filter.end, source: filter.source, human: filter.human, description: filter.description, humanId: this.humanId, ...this.origin };
    this.panel?.post({ type: 'trends', model, strings: trendsStrings(), persist });
    return model;
  }

  /** What a message from the webview asks for (the tests send them here as the webview would). */
  handleMessage(message: InsightsWebviewMessage): void {
    switch (message.type) {
      case 'reload':
        if (this.filter) void this.load();
        return;
      case 'switchEnvironment': {
        // A new turn: the restored panel no longer waits for its environment, it loads after the switch.
        const seq = ++this.seq;
        void switchBack(this.deps.session, this.origin.environment).then((switched) => {
          if (switched && seq === this.seq) void this.load();
        });
        return;
      }
      case 'setRange': {
        const problem = customRangeProblem(message.start.trim(), message.end.trim());
        if (problem) {
          this.panel?.post({ type: 'rangeRefused', message: vscode.l10n.t('Range not changed: {0}', problem) });
          return;
        }
        const tree = this.deps.filters.insightsFilter();
        const start = message.start.trim();
        const end = message.end.trim();
        this.filter = { ...tree, start, end, description: rangeText(start, end) };
        void this.load();
        return;
      }
      case 'selectHuman':
        this.humanId = message.humanId;
        if (this.lists.length) this.render();
        return;
      case 'open': {
        const record = this.lists.find((l) => l.kind === message.kind)?.records[message.ref];
        if (record !== undefined) this.deps.recordViews.createOrShow(message.kind as ResourceKind, record);
        return;
      }
      default:
        return;
    }
  }
}

const NO_RECORDS: HumanRecords = { records: [], positions: [] };
