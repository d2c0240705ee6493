// One record in a webview panel: renders the core's RecordView model, answers the webview's
// requests (open a closed container, the four actions) and keeps what a reload needs in the
// webview's state. Which panel shows which record is RecordViews' business. Loaded with the first
// panel (dist/recordPanel.js, scripts/lazyBundles.mjs), never at activation.

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { ZeroTally, estimateSize, ListOptions, RecordView, RecordViewModel, emptyRecordViewModel, titleOf, ActionName, HostMessage, PersistedRecordView, RecordSource, parseWebviewMessage } from '../../core/views';
import { ResourceKind, resource } from '../../core/resources';
import { Finding, payloadRecords, validate, validatePayload } from '../../core/validation';
import { openAsJsonDocument } from '../shared/documents';
import { errorAndWarningWords } from '../shared/findingCounts';
import { errorMessage, showError } from '../shared/showError';
import { SANDBOX_ENVIRONMENT } from '../account/environments';
import { WebviewShell } from '../shared/webviewShell';
import { OriginProblem, PanelHost, PayloadOrigin, hostOf, originOf, originProblem, sourceOf } from './recordOrigin';
import { markText, recordViewStrings } from './strings';
import { ZerosSaid, zerosFromLoaded } from './zeroBasis';

/** Records up to this size (estimated JSON bytes) are kept in the webview's state for a reload. */
const PERSIST_LIMIT = 512 * 1024;

/** The sizes of the last messages posted to a webview, for the tests: windows, never the whole. */
export interface PostedMessage {
  readonly type: HostMessage['type'];
  readonly bytes: number;
}

const POSTED_KEPT = 200;

export class RecordPanel implements vscode.Disposable {
  private view: RecordView | undefined;
  private model: RecordViewModel;
  private version = 0;
  private readonly shell: WebviewShell;
  private readonly postedLog: PostedMessage[] = [];
  /** The validator's findings of the record shown (before its zeros were compared), for recordsChanged. */
  private validated: readonly Finding[] | undefined;

  constructor(
    private readonly host: PanelHost,
    readonly panel: vscode.WebviewPanel,
    readonly key: string,
    private kind: ResourceKind | undefined,
    private source: RecordSource,
    private record: unknown,
    note?: string,
    /** The exchange that produced the record (kept across a reload). */
    private exchangeId?: string,
    /** Set when a whole payload (a list, or any JSON) was opened rather than a record. */
    private readonly payload?: PayloadOrigin,
  ) {
    if (record !== undefined && !payload) this.exchangeId = host.producerOf(kind, record) ?? exchangeId;
    this.model = this.buildModel(note);
    panel.title = this.model.title;
    this.shell = new WebviewShell(panel, {
      extensionUri: host.extensionUri,
      script: 'webview.js',
      styles: ['recordView.css'],
      title: vscode.l10n.t('Health Data record'),
      receive: (raw) => this.receive(raw),
      closed: () => host.closed(this),
    });
  }

  get title(): string {
    return this.model.title;
  }

  /** The environment and host the record came from (for tests and the heading). */
  get origin(): Pick<RecordSource, 'environment' | 'host'> {
    return { environment: this.source.environment, host: this.source.host };
  }

  /** `From Local sandbox (127.0.0.1:8787)`, or nothing when it is not known. */
  private originText(): string | undefined {
    const { environment, host } = this.source;
    if (environment === undefined) return undefined;
    return host ? vscode.l10n.t('From {0} ({1})', environment, host) : vscode.l10n.t('From {0}', environment);
  }

  get recordKind(): ResourceKind | undefined {
    return this.kind;
  }

  get currentRecord(): unknown {
    return this.record;
  }

  /** How many loads of the webview said 'ready' (its script ran under the CSP); for tests. */
  get readyCount(): number {
    return this.shell.readyCount;
  }

  /** The exchange whose reply held the record, for "Show Request" (tests read it). */
  get producedBy(): string | undefined {
    return this.exchangeId;
  }

  /** The model last rendered (for tests). */
  get currentModel(): RecordViewModel {
    return this.model;
  }

  /** The last messages posted to the webview, by type and size (for tests). */
  get posted(): readonly PostedMessage[] {
    return this.postedLog;
  }

  /** The view's answer to a request for rows, as the webview would get it (for tests). */
  rowsFor(request: Parameters<RecordView['answerRows']>[0]): ReturnType<RecordView['answerRows']> {
    return this.view?.answerRows(request);
  }

  /** Shows this record (new data for the same record, or its first data) and brings the panel up. */
  show(record: unknown, reveal = true, origin?: Pick<RecordSource, 'environment' | 'host'>): void {
    this.record = record;
    this.source = { ...this.source, ...(this.payload ? {} : sourceOf(this.kind, record)), ...origin };
    if (!this.payload) this.exchangeId = this.host.producerOf(this.kind, record) ?? this.exchangeId;
    this.render();
    if (reveal) this.panel.reveal(undefined, false);
  }

  private buildModel(note?: string): RecordViewModel {
    const options = { version: ++this.version, markText: markText() };
    this.validated = undefined;
    if (this.record === undefined) {
      this.view = undefined;
      const title = this.panel.title || titleOf(undefined, this.kind);
      return emptyRecordViewModel(title, this.kind, note ?? vscode.l10n.t('No record to show.'), options);
    }
    const list = this.payload ? this.listModel(this.record) : undefined;
    if (list) {
      this.kind ??= list.kind;
      const zeroBasis = list.findings.some((f) => f.kind === 'zero') ? vscode.l10n.t('Each 0 compared with the other records of its source in this list.') : undefined;
      this.view = new RecordView(this.record, this.kind, list.findings, { ...options, list: list.list, zeroBasis });
      return this.view.model;
    }
    const result = validate(this.record, this.kind);
    this.kind ??= result.kind;
    this.validated = result.findings;
    const zeros = this.compareZeros(result.findings);
    this.view = new RecordView(this.record, this.kind, zeros.findings, { ...options, zeroBasis: zeros.basis });
    return this.view.model;
  }

  /**
   * The Records view's records of `kind` (undefined: of every kind) changed: when that changes
   * what this record's zeros are compared with, the view says them again. A large record (a
   * virtual list) keeps its view: its zeros were said when it opened.
   */
  recordsChanged(kind: ResourceKind | undefined): void {
    if (this.payload || this.validated === undefined || this.model.rows || (kind !== undefined && kind !== this.kind)) return;
    if (this.model.counts.zero === 0) return;
    if (this.compareZeros(this.validated).basis !== this.model.zeroBasis) this.render();
  }

  /**
   * The record's zeros compared with its source's other records in the Records view, when the
   * record comes from the environment those were loaded from (never for a file or a payload),
   * and the sentence that says what they were compared with.
   */
  private compareZeros(findings: readonly Finding[]): ZerosSaid {
    const kind = this.kind;
    if (kind === undefined || this.payload) return { findings };
    return zerosFromLoaded(this.record, kind, findings, this.source.environment, this.host.recordsToCompare(kind));
  }

  /**
   * A payload that is a list (an array, or `{"data": [...]}`): every record validated, the
   * findings at their pointers in the payload, each record named by its title. Undefined for one record.
   */
  private listModel(payload: unknown): { kind: ResourceKind | undefined; findings: Finding[]; list: ListOptions } | undefined {
    const results = validatePayload(payload, this.kind);
    const first = results[0];
    const isList = Array.isArray(payload) || (first !== undefined && first.index !== undefined);
    if (!isList) return undefined;
    const findings: Finding[] = [];
    const kinds = new Set<ResourceKind | undefined>();
    // Each record's zeros said from the list's other records of its source.
    const records = payloadRecords(payload);
    const zeros = new ZeroTally();
    results.forEach((r, i) => zeros.add(r.kind, records[i]));
    for (const [i, r] of results.entries()) {
      kinds.add(r.kind);
      for (const f of zeros.explain(r.kind, records[i], r.findings)) findings.push({ kind: f.kind, path: r.pointer + f.path, message: f.message });
    }
    const pointer = Array.isArray(payload) || first === undefined ? '' : first.pointer.slice(0, first.pointer.lastIndexOf('/'));
    const kind = kinds.size === 1 ? [...kinds][0] : undefined;
    const count = results.length;
    const title = vscode.l10n.t('{0} · {1} records', this.payload?.name ?? '', count.toLocaleString('en-US'));
    return { kind, findings, list: { pointer, count, title, labelOf: (i, value) => titleOf(value, results[i]?.kind) } };
  }

  /** Validates the record again and sends the new model (if the webview is there to take it). */
  render(note?: string): void {
    this.model = this.buildModel(note);
    this.panel.title = this.model.title;
    if (this.shell.ready) this.postRender();
  }

  private postRender(): void {
    void this.post({ type: 'render', model: this.model, strings: recordViewStrings(), persist: this.persisted(), origin: this.originText(), unavailable: this.unavailableActions });
  }

  private persisted(): PersistedRecordView {
    const small = this.record !== undefined && estimateSize(this.record, PERSIST_LIMIT) <= PERSIST_LIMIT;
    return { kind: this.kind, key: this.key, title: this.model.title, source: this.source, record: small ? this.record : undefined, exchangeId: this.exchangeId, payload: this.payload?.name };
  }

  private post(message: HostMessage): Thenable<boolean> {
    this.postedLog.push({ type: message.type, bytes: JSON.stringify(message).length });
    if (this.postedLog.length > POSTED_KEPT) this.postedLog.shift();
    return this.shell.post(message);
  }

  private receive(raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.host.session.log.warn('record view: ignored a message of unexpected shape from the webview');
      return;
    }
    switch (message.type) {
      case 'ready':
        this.shell.markReady();
        this.postRender();
        return;
      case 'expand': {
        const page = message.version === this.model.version ? this.view?.childPage(message.pointer, message.offset) : undefined;
        if (page) void this.post({ type: 'children', requestId: message.requestId, page });
        else void this.post({ type: 'failed', requestId: message.requestId, message: vscode.l10n.t('The record changed; this part is no longer there.') });
        return;
      }
      case 'rows': {
        const answer = message.version === this.model.version ? this.view?.answerRows(message) : undefined;
        if (answer) void this.post({ type: 'rows', requestId: message.requestId, ...answer });
        else void this.post({ type: 'failed', requestId: message.requestId, message: vscode.l10n.t('The record changed; this part is no longer there.') });
        return;
      }
      case 'action':
        void this.act(message.action).then(
          (text) => this.post({ type: 'actionDone', requestId: message.requestId, ok: true, message: text }),
          (err: unknown) => this.post({ type: 'actionDone', requestId: message.requestId, ok: false, message: errorMessage(this.host.session, err) }),
        );
        return;
    }
  }

  /** Runs one action; resolves with what to tell the user in the view's status line. */
  private async act(action: ActionName): Promise<string | undefined> {
    switch (action) {
      case 'copyJson':
        if (this.record === undefined) throw new HealthDataError('usage', vscode.l10n.t('No record to copy.'));
        await vscode.env.clipboard.writeText(JSON.stringify(this.record, null, 2) ?? 'null');
        return vscode.l10n.t('Record JSON copied to the clipboard.');
      case 'openAsJson':
        if (this.record === undefined) throw new HealthDataError('usage', vscode.l10n.t('No record to open.'));
        await openAsJsonDocument(this.record);
        return undefined;
      case 'validate':
        return this.validateAgain();
      case 'refetch':
        return this.refetch(true);
      case 'showRequest':
        if (this.exchangeId === undefined) {
          throw new HealthDataError('usage', vscode.l10n.t('No request is known for this record: it was opened from a file, or its request has left the history.'));
        }
        await vscode.commands.executeCommand('healthData.showExchange', { exchangeId: this.exchangeId });
        return undefined;
    }
  }

  /** Validates the record again (the Validate button); what the status line says of it. */
  validateAgain(): string {
    this.render();
    return this.summary();
  }

  /** `Validated: 1 error, 2 zero, 1 deprecated.`: the kinds found, each counted; or that there is none. */
  private summary(): string {
    const c = this.model.counts;
    const parts = errorAndWarningWords(c);
    if (c.zero > 0) parts.push(vscode.l10n.t('{0} zero', c.zero));
    if (c.deprecated > 0) parts.push(vscode.l10n.t('{0} deprecated', c.deprecated));
    if (c.unknown > 0) parts.push(vscode.l10n.t('{0} unknown', c.unknown));
    return parts.length === 0 ? vscode.l10n.t('Validated: no findings.') : vscode.l10n.t('Validated: {0}.', parts.join(', '));
  }

  /** Why the environment in use is not the one the record came from, if it is not. */
  private originProblem(): OriginProblem | undefined {
    return originProblem(this.host.session, this.source);
  }

  /**
   * Settles where Re-fetch goes when the record's environment is not the one in use: switch to
   * it, start the sandbox it came from, or fetch from the one in use, as the person chooses.
   * Returns false when they cancel.
   */
  private async chooseOrigin(problem: OriginProblem): Promise<boolean> {
    const { environment = '', host = '' } = this.source;
    const session = this.host.session;
    const here = problem.active?.name;
    const fromActive = here ? vscode.l10n.t('Fetch from {0}', problem.type === 'moved' ? problem.host : here) : undefined;
    let text: string;
    const actions: string[] = [];
    let switchTo: string | undefined;
    let startSandbox: string | undefined;
    if (problem.type === 'inactive') {
      text = vscode.l10n.t('This record came from {0} ({1}), but {2} is in use.', environment, host, here ?? vscode.l10n.t('no environment'));
      switchTo = vscode.l10n.t('Switch to {0} and Fetch', environment);
      actions.push(switchTo);
    } else if (problem.type === 'gone' && environment === SANDBOX_ENVIRONMENT) {
      text = vscode.l10n.t('This record came from the local sandbox, which is not running.');
      startSandbox = vscode.l10n.t('Start Local Sandbox and Fetch');
      actions.push(startSandbox);
    } else if (problem.type === 'gone') {
      text = vscode.l10n.t('This record came from {0} ({1}), which no longer exists.', environment, host);
    } else {
      text = vscode.l10n.t('This record came from {0} at {1}; {0} now points at {2}.', environment, host, problem.host);
    }
    if (fromActive) actions.push(fromActive);
    const answer = await vscode.window.showWarningMessage(text, { modal: true, detail: vscode.l10n.t('Re-fetch never asks another service without saying so.') }, ...actions);
    if (answer === undefined) return false;
    if (answer === switchTo) await session.switchTo(environment);
    else if (answer === startSandbox) await vscode.commands.executeCommand('healthData.startSandbox');
    // Whichever it was, the record now comes from the environment in use.
    this.source = { ...this.source, ...originOf(session.active) };
    return true;
  }

  /**
   * Fetches the record again from the environment it came from and shows it; when that is not
   * the one in use, asks first (`loud`) or only says so in the view (a restore after a reload).
   * Errors are shown (`loud`) or only noted in the view, and thrown for the caller.
   */
  /** Re-fetch needs a kind and an id, a date or a latest endpoint; Show Request a request still kept. */
  get unavailableActions(): ActionName[] {
    const { id, date } = this.source;
    const canFetch = this.kind !== undefined && (id !== undefined || date !== undefined || resource(this.kind).latestPath !== undefined);
    return [...(canFetch ? [] : ['refetch' as const]), ...(this.exchangeId === undefined ? ['showRequest' as const] : [])];
  }

  async refetch(loud: boolean): Promise<string | undefined> {
    const session = this.host.session;
    const kind = this.kind;
    if (!kind) throw new HealthDataError('usage', vscode.l10n.t('The kind of this record is not known, so it cannot be fetched again.'));
    const def = resource(kind);
    const { id, date } = this.source;
    if (id === undefined && date === undefined && !def.latestPath) {
      throw new HealthDataError('usage', vscode.l10n.t('This record has no id to fetch it again by.'));
    }
    const problem = this.originProblem();
    if (problem) {
      if (!loud) {
        const note = vscode.l10n.t('Not fetched: this record came from {0}, which is not the environment in use. Re-fetch asks where to fetch it from.', this.source.environment ?? '');
        if (this.record === undefined) this.render(note);
        return note;
      }
      if (!(await this.chooseOrigin(problem))) return vscode.l10n.t('Not fetched.');
      if (this.shell.disposed) return undefined;
    }
    const dropped = vscode.l10n.t('The environment changed while the record was fetched; its answer was dropped.');
    let generation: number | undefined;
    try {
      const connection = await session.connection();
      generation = connection.generation;
      const fetched = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Fetching {0} again…', this.model.title), cancellable: true },
        async (_progress, token) => {
          const abort = new AbortController();
          const listener = token.onCancellationRequested(() => abort.abort());
          try {
            const key = id ?? date;
            const signal = abort.signal;
            return key !== undefined ? await connection.client.getRecord(kind, key, { signal }) : await connection.client.getLatest(kind, { signal });
          } finally {
            listener.dispose();
          }
        },
      );
      if (this.shell.disposed) return undefined;
      // The answer belongs to an environment no longer active: never show it as this one's.
      if (!session.isCurrent(generation)) return dropped;
      if (!fetched || typeof fetched !== 'object' || Array.isArray(fetched)) {
        throw new HealthDataError('schema', vscode.l10n.t('The service answered with something that is not a record.'));
      }
      this.show(fetched, false, originOf(connection.environment));
      return vscode.l10n.t('Fetched again from {0} ({1}).', connection.environment.name, hostOf(connection.environment.baseUrl));
    } catch (err) {
      // A change of environment disposes the client, which aborts the call: not a failure.
      if (generation !== undefined && !session.isCurrent(generation)) return dropped;
      if (err instanceof HealthDataError && err.kind === 'cancelled') return undefined;
      if (loud) void showError(session, err, vscode.l10n.t('Could not fetch {0} again', this.model.title));
      else if (this.record === undefined) this.render(vscode.l10n.t('Could not fetch the record again: {0}', errorMessage(session, err)));
      throw err;
    }
  }

  dispose(): void {
    this.shell.dispose();
  }
}
