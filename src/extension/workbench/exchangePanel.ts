// One exchange in a webview panel: renders the core's exchange view model (the body validated
// with the record view's findings), answers the webview's actions, and comes back after a
// reload from the history. Panels are keyed by exchange id: opening one again shows its panel.
// Loaded with the first panel (dist/exchangePanel.js, scripts/lazyBundles.mjs), never at activation.

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { ExchangeActionName, ExchangeHostMessage, ExchangeViewModel, buildExchangeView, parseExchangeWebviewMessage } from '../../core/views';
import { checkClientTokenReply, validate } from '../../core/validation';
import { HistoryEntry, draftFromExchange } from '../../core/workbench';
import type { ResourceKind } from '../../core/resources';
import { openAsJsonDocument } from '../shared/documents';
import { errorMessage } from '../shared/showError';
import { markText } from '../recordView/strings';
import { WebviewShell } from '../shared/webviewShell';
import type { Session } from '../account/session';
import type { LoadedRecordsOfKind } from '../recordView/recordOrigin';
import { zerosFromLoaded } from '../recordView/zeroBasis';

export interface ExchangePanelHost {
  readonly extensionUri: vscode.Uri;
  readonly session: Session;
  closed(panel: ExchangePanel): void;
  /** Opens a record of the body in the record view. */
  openRecord(entry: HistoryEntry, record: unknown): void;
  /** Opens the whole body (a list, or one record) in the record view. */
  openPayload(entry: HistoryEntry, payload: unknown, name: string): void;
  /** The name the exchange is saved under, if it is saved. */
  savedName(exchangeId: string): string | undefined;
  /** The Records view's records of a kind, which a single record's zeros are compared with. */
  recordsToCompare(kind: ResourceKind): LoadedRecordsOfKind | undefined;
}

export class ExchangePanel implements vscode.Disposable {
  private model: ExchangeViewModel;
  private records: unknown[];
  private version = 0;
  private readonly shell: WebviewShell;

  constructor(
    private readonly host: ExchangePanelHost,
    readonly panel: vscode.WebviewPanel,
    private readonly entry: HistoryEntry,
  ) {
    ({ model: this.model, records: this.records } = this.build());
    panel.title = this.panelTitle();
    this.shell = new WebviewShell(panel, {
      extensionUri: host.extensionUri,
      script: 'exchangeView.js',
      styles: ['recordView.css', 'exchangeView.css'],
      title: vscode.l10n.t('Health Data exchange'),
      receive: (raw) => this.receive(raw),
      closed: () => host.closed(this),
    });
  }

  get exchangeId(): string {
    return this.entry.id;
  }

  /** For tests: the model last rendered, and how many loads of the webview said 'ready'. */
  get currentModel(): ExchangeViewModel {
    return this.model;
  }

  get readyCount(): number {
    return this.shell.readyCount;
  }

  show(): void {
    this.panel.reveal(undefined, false);
  }

  private build(): { model: ExchangeViewModel; records: unknown[] } {
    return buildExchangeView(this.entry, {
      version: ++this.version,
      markText: markText(),
      check: (record, kind) => validate(record, kind),
      checkTokenReply: checkClientTokenReply,
      resendable: draftFromExchange(this.entry) !== undefined,
      // A record fetched by id or date: its zeros said from the Records view's records, as the record view says them.
      compareZeros: (record, kind, findings) => zerosFromLoaded(record, kind, findings, this.entry.environment, this.host.recordsToCompare(kind)),
    });
  }

  /**
   * The Records view's records of `kind` (undefined: of every kind) changed: a single record's
   * reply says its zeros again when that changes what they are compared with.
   */
  recordsChanged(kind: ResourceKind | undefined): void {
    const body = this.model.body;
    if (body.type !== 'record' || body.record.counts.zero === 0 || (kind !== undefined && kind !== this.entry.resource)) return;
    const next = this.build();
    if (next.model.body.type === 'record' && next.model.body.zeroBasis === body.zeroBasis) return;
    ({ model: this.model, records: this.records } = next);
    this.render();
  }

  private panelTitle(): string {
    const status = this.entry.status !== undefined ? String(this.entry.status) : vscode.l10n.t('failed');
    const path = this.model.title.replace(/^\w+ /, '').replace(/ · .*$/, '');
    const last = path.split('?')[0].split('/').filter(Boolean).slice(-2).join('/');
    return `${this.entry.method} ${last} · ${status}`;
  }

  private post(message: ExchangeHostMessage): Thenable<boolean> {
    return this.shell.post(message);
  }

  private render(): void {
    if (!this.shell.ready) return;
    // The view's words come with its first render (dist/exchangeStrings.js), not with activation.
    const strings = (require('./strings') as typeof import('./strings')).exchangeViewStrings();
    void this.post({ type: 'render', model: this.model, strings, persist: { exchangeId: this.entry.id } });
  }

  private receive(raw: unknown): void {
    const message = parseExchangeWebviewMessage(raw);
    if (!message) {
      this.host.session.log.warn('exchange view: ignored a message of unexpected shape from the webview');
      return;
    }
    if (message.type === 'ready') {
      this.shell.markReady();
      this.render();
      return;
    }
    void this.act(message.action, message.index).then(
      (text) => this.post({ type: 'actionDone', requestId: message.requestId, ok: true, message: text }),
      (err: unknown) => this.post({ type: 'actionDone', requestId: message.requestId, ok: false, message: errorMessage(this.host.session, err) }),
    );
  }

  /** The reply's body, parsed when it is JSON; throws when there is none. */
  private body(): { body: string; json?: { value: unknown } } {
    const body = this.entry.responseBody;
    if (body === undefined || body === '') throw new HealthDataError('usage', vscode.l10n.t('This exchange has no body.'));
    try {
      return { body, json: { value: JSON.parse(body) as unknown } };
    } catch {
      return { body };
    }
  }

  /** Runs one action; resolves with what to tell the user in the view's status line. */
  async act(action: ExchangeActionName, index?: number): Promise<string | undefined> {
    switch (action) {
      case 'openRecord': {
        const record = index === undefined ? undefined : this.records[index];
        if (record === undefined) throw new HealthDataError('usage', vscode.l10n.t('That record is not in this reply.'));
        this.host.openRecord(this.entry, record);
        return undefined;
      }
      case 'openBody': {
        const { body, json } = this.body();
        if (!json) {
          const doc = await vscode.workspace.openTextDocument({ content: body, language: 'plaintext' });
          await vscode.window.showTextDocument(doc, { preview: false });
          return undefined;
        }
        await openAsJsonDocument(json.value);
        return undefined;
      }
      case 'openInRecordView': {
        const { json } = this.body();
        if (!json) throw new HealthDataError('usage', vscode.l10n.t('The body of this exchange is not JSON; Open Body shows it as text.'));
        this.host.openPayload(this.entry, json.value, this.model.title);
        return undefined;
      }
      case 'copyUrl':
        await vscode.env.clipboard.writeText(this.entry.url);
        return vscode.l10n.t('URL copied to the clipboard (credentials redacted).');
      case 'editAndResend':
        await vscode.commands.executeCommand('healthData.editAndResend', { exchangeId: this.entry.id });
        return undefined;
      case 'copyAsCode':
        // The command asks the language and the token's way, copies, and says so itself.
        await vscode.commands.executeCommand('healthData.copyAsCode', { exchangeId: this.entry.id });
        return undefined;
      case 'saveRequest': {
        // Asks the name (the present one when it is saved already) and says what is wrong itself.
        const saved = await vscode.commands.executeCommand<boolean | undefined>('healthData.saveRequest', { exchangeId: this.entry.id });
        const name = saved ? this.host.savedName(this.entry.id) : undefined;
        return name === undefined ? undefined : vscode.l10n.t('Saved as "{0}", under Saved in the History view.', name);
      }
    }
  }

  dispose(): void {
    this.shell.dispose();
  }
}
