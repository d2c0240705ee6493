// The open exchange panels, one per exchange, and the serializer that brings them back after a
// reload from the history (an exchange no longer in the history closes its panel quietly).

import * as vscode from 'vscode';
import { EXCHANGE_VIEW_TYPE, PersistedExchangeView } from '../../core/views';
import { HistoryEntry } from '../../core/workbench';
import { ResourceKind, isResourceKind } from '../../core/resources';
import { hostOf, type LoadedRecordsOfKind } from '../recordView/recordOrigin';
import type { Session } from '../account/session';
import type { RecordViews } from '../recordView/recordViews';
import { webviewOptions } from '../shared/webviewShell';
import type { ExchangePanel, ExchangePanelHost } from './exchangePanel';
import type { ExchangeHistory } from './history';

/** The panel's code, required with the first exchange opened: the build puts it in dist/exchangePanel.js. */
function panelClass(): typeof ExchangePanel {
  return (require('./exchangePanel') as typeof import('./exchangePanel')).ExchangePanel;
}

export class ExchangeViews implements ExchangePanelHost, vscode.Disposable {
  private readonly open = new Map<string, ExchangePanel>();

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly session: Session,
    private readonly history: ExchangeHistory,
    private readonly recordViews: RecordViews,
  ) {
    // A record's reply opened before the Records view loaded (or before it loaded more, or changed
    // its filters) says its zeros again from what the view holds now.
    this.loadedChange = recordViews.onDidChangeLoaded((kind) => {
      for (const panel of this.open.values()) panel.recordsChanged(kind);
    });
  }

  private readonly loadedChange: vscode.Disposable;

  recordsToCompare(kind: ResourceKind): LoadedRecordsOfKind | undefined {
    return this.recordViews.recordsToCompare(kind);
  }

  register(): vscode.Disposable[] {
    return [
      vscode.window.registerWebviewPanelSerializer(EXCHANGE_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state) => this.revive(panel, state),
      }),
    ];
  }

  createOrShow(entry: HistoryEntry): ExchangePanel {
    const existing = this.open.get(entry.id);
    if (existing) {
      existing.show();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(EXCHANGE_VIEW_TYPE, vscode.l10n.t('Exchange'), { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, webviewOptions(this.extensionUri));
    const view = new (panelClass())(this, panel, entry);
    this.open.set(entry.id, view);
    return view;
  }

  revive(panel: vscode.WebviewPanel, state: unknown): void {
    const persist = state && typeof state === 'object' ? ((state as { persist?: Partial<PersistedExchangeView> }).persist ?? {}) : {};
    const entry = typeof persist.exchangeId === 'string' ? this.history.get(persist.exchangeId) : undefined;
    if (!entry || this.open.has(entry.id)) {
      panel.dispose();
      return;
    }
    this.open.set(entry.id, new (panelClass())(this, panel, entry));
  }

  openRecord(entry: HistoryEntry, record: unknown): void {
    // The record came from the environment the request went to, which may no longer be the one in use.
    const from = entry.environment !== undefined ? { environment: entry.environment, host: hostOf(entry.url) } : undefined;
    this.recordViews.createOrShow(isResourceKind(entry.resource) ? entry.resource : undefined, record, undefined, from);
  }

  savedName(exchangeId: string): string | undefined {
    return this.history.get(exchangeId)?.savedAs;
  }

  openPayload(entry: HistoryEntry, payload: unknown, name: string): void {
    this.recordViews.openPayload(payload, { name, key: `exchange:${entry.id}` });
  }

  closed(panel: ExchangePanel): void {
    if (this.open.get(panel.exchangeId) === panel) this.open.delete(panel.exchangeId);
  }

  get(exchangeId: string): ExchangePanel | undefined {
    return this.open.get(exchangeId);
  }

  /** The open panels' exchange ids, for the tests. */
  ids(): string[] {
    return [...this.open.keys()];
  }

  closeAll(): void {
    for (const panel of [...this.open.values()]) panel.dispose();
  }

  dispose(): void {
    this.loadedChange.dispose();
    this.open.clear();
  }
}
