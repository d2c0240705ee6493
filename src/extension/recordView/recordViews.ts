// The open record panels: one per record (kind and id, or the content's hash for a record
// without an id), reused when the same record opens again, and restored after a reload by
// the webview panel serializer from what each webview kept with setState.

import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { textField, PersistedRecordView, RECORD_VIEW_TYPE, RecordSource } from '../../core/views';
import { ResourceKind, isResourceKind } from '../../core/resources';
import type { Session } from '../account/session';
import type { RecordPanel } from './recordPanel';
import { LoadedRecordsOfKind, LoadedRecordsSource, PanelHost, PayloadOrigin, originOf, sourceOf } from './recordOrigin';
import { webviewOptions } from '../shared/webviewShell';

export interface OpenPanelInfo {
  readonly key: string;
  readonly title: string;
  readonly kind: ResourceKind | undefined;
  readonly visible: boolean;
  readonly active: boolean;
}

/** The panel key of a record: `activity/<id>`, or `activity#<hash>` when it has no id. */
export function panelKey(kind: ResourceKind | undefined, record: unknown): string {
  const id = textField(record, 'id');
  if (id !== undefined) return `${kind ?? 'record'}/${id}`;
  const hash = createHash('sha256').update(JSON.stringify(record) ?? 'undefined').digest('hex').slice(0, 16);
  return `${kind ?? 'record'}#${hash}`;
}

/** What a revived panel's webview state holds, checked field by field. */
function persistedOf(state: unknown): PersistedRecordView | undefined {
  const persist = state && typeof state === 'object' ? (state as { persist?: unknown }).persist : undefined;
  if (!persist || typeof persist !== 'object') return undefined;
  const p = persist as Record<string, unknown>;
  if (typeof p.key !== 'string' || typeof p.title !== 'string') return undefined;
  if (p.kind !== undefined && !isResourceKind(p.kind)) return undefined;
  const s = (p.source && typeof p.source === 'object' ? p.source : {}) as Record<string, unknown>;
  let source: RecordSource = {
    id: typeof s.id === 'string' ? s.id : undefined,
    date: typeof s.date === 'string' ? s.date : undefined,
  };
  // Where it came from: a panel kept before panels knew it has neither, and asks nothing.
  if (typeof s.environment === 'string') source = { ...source, environment: s.environment, host: typeof s.host === 'string' ? s.host : undefined };
  const payload = typeof p.payload === 'string' ? p.payload : undefined;
  // A payload may be a list; a record is an object.
  const record = p.record && typeof p.record === 'object' && (payload !== undefined || !Array.isArray(p.record)) ? p.record : undefined;
  const exchangeId = typeof p.exchangeId === 'string' ? p.exchangeId : undefined;
  return { kind: p.kind as ResourceKind | undefined, key: p.key, title: p.title, source, record, exchangeId, payload };
}

/** The panel's code, required with the first panel: the build puts it in dist/recordPanel.js. */
function panelClass(): typeof RecordPanel {
  return (require('./recordPanel') as typeof import('./recordPanel')).RecordPanel;
}

export class RecordViews implements PanelHost, vscode.Disposable {
  private readonly open = new Map<string, RecordPanel>();

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly session: Session,
    /** Which exchange produced a record (the request history); none when there is no history. */
    private readonly requests?: { producerOf(kind: ResourceKind | undefined, record: unknown): string | undefined },
    /** The Records view's loaded records, which a record's zeros are compared with. */
    private readonly loaded?: LoadedRecordsSource,
  ) {
    // A panel opened before the Records view loaded (or before it loaded more, or changed its
    // filters) says its zeros again from what it holds now.
    this.loadedChange = this.onDidChangeLoaded((kind) => {
      for (const panel of this.open.values()) panel.recordsChanged(kind);
    });
  }

  private readonly loadedChange: vscode.Disposable;

  producerOf(kind: ResourceKind | undefined, record: unknown): string | undefined {
    return this.requests?.producerOf(kind, record);
  }

  recordsToCompare(kind: ResourceKind): LoadedRecordsOfKind | undefined {
    return this.loaded?.of(kind);
  }

  /** The Records view's records of a kind (undefined: of every kind) changed; never fires without a Records view. */
  onDidChangeLoaded(listener: (kind: ResourceKind | undefined) => void): vscode.Disposable {
    return this.loaded?.onDidChange(listener) ?? new vscode.Disposable(() => undefined);
  }

  /** Registers the serializer that restores panels after a reload; nothing else runs until used. */
  register(): vscode.Disposable[] {
    return [
      vscode.window.registerWebviewPanelSerializer(RECORD_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state) => this.revive(panel, state),
      }),
    ];
  }

  /**
   * Shows the record in its panel, creating the panel the first time. `from`: the environment the
   * record came from when that is not the one in use (a reply kept in the history).
   */
  createOrShow(kind: ResourceKind | undefined, record: unknown, source?: RecordSource, from?: Pick<RecordSource, 'environment' | 'host'>): RecordPanel {
    const key = panelKey(kind, record);
    const existing = this.open.get(key);
    // A record is opened from the environment in use, unless said otherwise: the panel says so, and Re-fetch goes there.
    const origin = from ?? originOf(this.session.active);
    if (existing) {
      existing.show(record, true, origin);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      RECORD_VIEW_TYPE,
      vscode.l10n.t('Record'),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      webviewOptions(this.extensionUri),
    );
    const view = new (panelClass())(this, panel, key, kind, { ...(source ?? sourceOf(kind, record)), ...origin }, record);
    this.open.set(key, view);
    return view;
  }

  /**
   * Shows a whole payload as it is (a list of records, a wrapped list, or one record of any
   * size) in its own panel, keyed by where it came from (`key`: a file's URI), and validates it.
   */
  openPayload(payload: unknown, origin: PayloadOrigin & { readonly key: string }): RecordPanel {
    const key = `payload:${origin.key}`;
    const existing = this.open.get(key);
    if (existing) {
      existing.show(payload, true);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(RECORD_VIEW_TYPE, origin.name, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, webviewOptions(this.extensionUri));
    const view = new (panelClass())(this, panel, key, undefined, {}, payload, undefined, undefined, { name: origin.name });
    this.open.set(key, view);
    return view;
  }

  /** Brings back a panel VS Code restored after a reload, from its webview's state. */
  revive(panel: vscode.WebviewPanel, state: unknown): void {
    const persisted = persistedOf(state);
    if (!persisted || this.open.has(persisted.key)) {
      // Nothing usable was kept (or the record is open already): a blank panel helps no one.
      panel.dispose();
      return;
    }
    panel.title = persisted.title;
    if (persisted.payload !== undefined) {
      // A payload is not fetched from anywhere: a large one was not kept, and is opened again by hand.
      const gone = persisted.record === undefined ? vscode.l10n.t('{0} was too large to keep across a reload: open it in the record view again.', persisted.payload) : undefined;
      const view = new (panelClass())(this, panel, persisted.key, persisted.kind, persisted.source, persisted.record, gone, persisted.exchangeId, { name: persisted.payload });
      this.open.set(persisted.key, view);
      return;
    }
    const note = persisted.record === undefined ? vscode.l10n.t('Fetching the record again…') : undefined;
    const view = new (panelClass())(this, panel, persisted.key, persisted.kind, persisted.source, persisted.record, note, persisted.exchangeId);
    this.open.set(persisted.key, view);
    // A large record was not kept in the state: fetch it again, quietly (the view says how it went).
    if (persisted.record === undefined) view.refetch(false).catch(() => undefined);
  }

  closed(panel: { readonly key: string }): void {
    if (this.open.get(panel.key) === panel) this.open.delete(panel.key);
  }

  get(key: string): RecordPanel | undefined {
    return this.open.get(key);
  }

  /** The open panels, for the integration tests. */
  panels(): OpenPanelInfo[] {
    return [...this.open.values()].map((p) => ({
      key: p.key,
      title: p.panel.title,
      kind: p.recordKind,
      visible: p.panel.visible,
      active: p.panel.active,
    }));
  }

  /** Closes every record panel. */
  closeAll(): void {
    for (const panel of [...this.open.values()]) panel.dispose();
  }

  /** Leaves the panels open: on a reload VS Code keeps them to be restored by the serializer. */
  dispose(): void {
    this.loadedChange.dispose();
    this.open.clear();
  }
}
