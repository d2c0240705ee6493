// "Show Data Coverage": one panel with the coverage matrix of a resource over every record of
// the Records view's range and source (all pages loaded, with progress and cancel); a cell
// lists its records, and each opens in the record view.

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { cellRecords, computeCoverage } from '../../core/insights';
import { RESOURCES, ResourceKind, resource } from '../../core/resources';
import { COVERAGE_VIEW_TYPE, CoverageViewModel, InsightsWebviewMessage, recordTitle, shortId, textField } from '../../core/views';
import type { Session } from '../account/session';
import type { RecordViews } from '../recordView/recordViews';
import { errorMessage } from '../shared/showError';
import { InsightsPanel } from './insightsPanel';
import { InsightsFilter, loadEveryPage } from './loadEveryPage';
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

export class CoverageView implements vscode.Disposable {
  private panel: InsightsPanel | undefined;
  private kind: ResourceKind = 'activity';
  private records: unknown[] = [];
  private model: CoverageViewModel | undefined;
  private seq = 0;

  constructor(private readonly deps: InsightsDeps) {}

  /** The model last posted (for tests). */
  get currentModel(): CoverageViewModel | undefined {
    return this.model;
  }

  get currentPanel(): InsightsPanel | undefined {
    return this.panel;
  }

  /** Opens (or reuses) the panel for `kind` and loads it; resolves with the model shown. */
  async show(kind: ResourceKind, cancellation?: vscode.CancellationToken): Promise<CoverageViewModel | undefined> {
    if (!this.panel || this.panel.isDisposed) {
      this.panel = new InsightsPanel({
        extensionUri: this.deps.extensionUri,
        viewType: COVERAGE_VIEW_TYPE,
        title: vscode.l10n.t('Data Coverage'),
        bundle: 'coverage',
        bundleCss: false,
        onMessage: (m) => this.handleMessage(m),
      });
      this.panel.onDidClose(() => (this.panel = undefined));
    } else {
      this.panel.reveal();
    }
    return this.load(kind, cancellation);
  }

  private async load(kind: ResourceKind, cancellation?: vscode.CancellationToken): Promise<CoverageViewModel | undefined> {
    const seq = ++this.seq;
    this.kind = kind;
    const filter = this.deps.filters.insightsFilter();
    const def = resource(kind);
    const env = this.deps.session.active?.name;
    const heading = [def.label, filter.description, filter.source ? vscode.l10n.t('source {0}', filter.source) : undefined, env].filter(Boolean).join(' · ');
    const base = { kind, kinds: RESOURCES.map((r) => ({ kind: r.kind, label: r.label })), heading, zeroDefaultFields: [...def.zeroDefaultFields] };
    this.publish({ ...base, status: { state: 'loading', message: vscode.l10n.t('Loading every page of {0}…', def.label.toLowerCase()) } });
    try {
      const [list] = await loadEveryPage(this.deps.session, [kind], filter, cancellation);
      if (seq !== this.seq) return undefined;
      this.records = list.records;
      const report = computeCoverage(kind, list.records, { from: filter.start, to: filter.end });
      const incomplete = list.complete ? undefined : vscode.l10n.t('paging stopped early, so the counts cover part of the range');
      return this.publish({ ...base, report, incomplete });
    } catch (err) {
      if (seq !== this.seq) return undefined;
      this.records = [];
      const cancelled = err instanceof HealthDataError && err.kind === 'cancelled';
      const message = cancelled ? vscode.l10n.t('Loading was cancelled. Reload to try again.') : vscode.l10n.t('Loading failed: {0}', errorMessage(this.deps.session, err));
      if (!cancelled) this.deps.session.log.warn(message);
      return this.publish({ ...base, status: { state: cancelled ? 'cancelled' : 'error', message } });
    }
  }

  private publish(model: CoverageViewModel): CoverageViewModel {
    this.model = model;
    this.panel?.post({ type: 'coverage', model, strings: coverageStrings() });
    return model;
  }

  /** What a message from the webview asks for (the tests send them here as the webview would). */
  handleMessage(message: InsightsWebviewMessage): void {
    switch (message.type) {
      case 'reload':
        void this.load(this.kind);
        return;
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

  dispose(): void {
    this.panel?.dispose();
  }
}

/** `Activity 2026-11-20 · fitbit · 6a8e84feff…`: the record's title and the start of its id. */
export function labelOf(kind: ResourceKind, record: unknown): string {
  const id = shortId(textField(record, 'id'));
  return id ? `${recordTitle(record, kind)} · ${id}` : recordTitle(record, kind);
}
