// "Show Data Coverage": one panel with the coverage matrix of a resource over every record of
// the Records view's range and source (all pages loaded, with progress and cancel); a cell
// lists its records, and each opens in the record view.

import * as vscode from 'vscode';
import { cellRecords, computeCoverage, deprecatedFields, numericFields } from '../../core/insights';
import { RESOURCES, ResourceKind, resource } from '../../core/resources';
import { COVERAGE_VIEW_TYPE, CoverageViewModel, InsightsStatus, InsightsWebviewMessage, PersistedInsightsView, recordTitle, shortId, textField } from '../../core/views';
import type { Session } from '../account/session';
import type { RecordViews } from '../recordView/recordViews';
import { InsightsView } from './insightsView';
import { InsightsFilter, filterWords, loadEveryPage } from './loadEveryPage';
import { loadFailure, loadKey } from './loadFailure';
import { currentOrigin, elsewhereStatus, keptFilter, loadWhenBack, restorable, switchBack } from './restore';
import { coverageStrings } from './strings';

/** What the insights views read from the Records view: its range and source filter. */
export interface FilterSource {
  insightsFilter(): InsightsFilter & { readonly description: string };
}

export interface InsightsDeps {
  readonly extensionUri: vscode.Uri;
  readonly session: Session;
  readonly filters: FilterSource;
  readonly recordViews: RecordViews;
}

/** A cell lists at most this many records; the rest are counted. */
const MAX_CELL_RECORDS = 200;

export class CoverageView extends InsightsView<{ model: CoverageViewModel; records: unknown[] }> {
  private kind: ResourceKind = 'activity';
  private records: unknown[] = [];
  private model: CoverageViewModel | undefined;
  private seq = 0;
  /** A restored panel keeps its own range and source (not the Records view's) until shown again. */
  private pinned: (InsightsFilter & { description: string }) | undefined;
  /** The range, source and environment of the last load: what the panel keeps for a reload. */
  private persisted: PersistedInsightsView | undefined;

  constructor(private readonly deps: InsightsDeps) {
    super(deps.extensionUri, () => ({ viewType: COVERAGE_VIEW_TYPE, title: vscode.l10n.t('Data Coverage'), bundle: 'coverage', bundleCss: false }));
  }

  /** The model last posted (for tests). */
  get currentModel(): CoverageViewModel | undefined {
    return this.model;
  }

  /** Opens (or reuses) the panel for `kind` and loads it; resolves with the model shown. */
  async show(kind: ResourceKind, cancellation?: vscode.CancellationToken): Promise<CoverageViewModel | undefined> {
    this.showPanel();
    this.pinned = undefined;
    return this.load(kind, cancellation);
  }

  /**
   * Brings back a panel VS Code restored after a reload, from what its webview kept: the same
   * resource, range and source, loaded again from the environment it came from; when that is not
   * the one in use (or is gone), the panel says so and loads nothing until Reload.
   */
  async revive(restored: vscode.WebviewPanel, state: unknown): Promise<CoverageViewModel | undefined> {
    const persisted = restorable(restored, state, this.panel, true);
    if (!persisted?.kind) return undefined;
    this.openPanel(restored);
    this.pinned = keptFilter(persisted);
    const elsewhere = elsewhereStatus(this.deps.session, persisted);
    if (!elsewhere) return this.load(persisted.kind);
    const seq = ++this.seq;
    const kind = persisted.kind;
    const notLoaded = (status: InsightsStatus) => this.publish({ ...this.base(kind, keptFilter(persisted), persisted.environment), status });
    loadWhenBack(this.deps.session, persisted, () => seq === this.seq && this.panel !== undefined, () => void this.load(kind), (status) => void notLoaded(status));
    this.kind = persisted.kind;
    this.records = [];
    this.persisted = persisted;
    return notLoaded(elsewhere);
  }

  private base(kind: ResourceKind, filter: InsightsFilter & { description: string }, env: string | undefined): CoverageViewModel {
    const def = resource(kind);
    const heading = [def.label, filter.description, ...filterWords(filter), env].filter(Boolean).join(' · ');
    return { kind, kinds: RESOURCES.map((r) => ({ kind: r.kind, label: r.label })), heading, zeroDefaultFields: [...def.zeroDefaultFields], deprecatedFields: [...deprecatedFields(kind)], numericFields: [...numericFields(kind)] };
  }

  private async load(kind: ResourceKind, cancellation?: vscode.CancellationToken): Promise<CoverageViewModel | undefined> {
    const seq = ++this.seq;
    this.kind = kind;
    const filter = this.pinned ?? this.deps.filters.insightsFilter();
    const def = resource(kind);
    const origin = currentOrigin(this.deps.session);
    this.persisted = { kind, start: filter.start, end: filter.end, source: filter.source, human: filter.human, description: filter.description, ...origin };
    const base = this.base(kind, filter, origin.environment);
    this.publish({ ...base, status: { state: 'loading', message: vscode.l10n.t('Loading every page of {0}…', def.label.toLowerCase()) } });
    const key = loadKey(kind, filter.start, filter.end, filter.source, filter.human, origin.environment, origin.host);
    try {
      const [list] = await loadEveryPage(this.deps.session, [kind], filter, cancellation);
      if (seq !== this.seq) return undefined;
      this.records = list.records;
      const report = computeCoverage(kind, list.records, { from: filter.start, to: filter.end });
      const incomplete = list.complete ? undefined : vscode.l10n.t('paging stopped early, so the counts cover part of the range');
      const model = this.publish({ ...base, report, incomplete });
      this.complete = { key, data: { model, records: list.records }, at: Date.now() };
      return model;
    } catch (err) {
      if (seq !== this.seq) return undefined;
      const kept = this.complete?.key === key ? this.complete : undefined;
      this.records = kept?.data.records ?? [];
      const status = loadFailure(this.deps.session, err, kept?.at);
      return this.publish({ ...(kept?.data.model ?? base), status });
    }
  }

  private publish(model: CoverageViewModel): CoverageViewModel {
    this.model = model;
    this.panel?.post({ type: 'coverage', model, strings: coverageStrings(), persist: this.persisted });
    return model;
  }

  /** What a message from the webview asks for (the tests send them here as the webview would). */
  handleMessage(message: InsightsWebviewMessage): void {
    switch (message.type) {
      case 'reload':
        void this.load(this.kind);
        return;
      case 'switchEnvironment': {
        // A new turn: the restored panel no longer waits for its environment, it loads after the switch.
        const seq = ++this.seq;
        void switchBack(this.deps.session, this.persisted?.environment).then((switched) => {
          if (switched && seq === this.seq) void this.load(this.kind);
        });
        return;
      }
      case 'selectKind':
        void this.load(message.kind);
        return;
      case 'cell': {
        const refs = cellRecords(this.records, message.source, message.field, message.which);
        const records = refs.slice(0, MAX_CELL_RECORDS).map((ref) => ({ ref, label: labelOf(this.kind, this.records[ref]) }));
        this.panel?.post({ type: 'cellRecords', source: message.source, field: message.field, which: message.which, records, more: refs.length - records.length });
        return;
      }
      case 'open': {
        const record = message.kind === this.kind ? this.records[message.ref] : undefined;
        if (record !== undefined) this.deps.recordViews.createOrShow(this.kind, record);
        return;
      }
      default:
        return;
    }
  }
}

/** `Activity 2026-11-20 · fitbit · 6a8e84feff…`: the record's title and the start of its id. */
export function labelOf(kind: ResourceKind, record: unknown): string {
  const id = shortId(textField(record, 'id'));
  return id ? `${recordTitle(record, kind)} · ${id}` : recordTitle(record, kind);
}
