// The connection to the active environment: one service client per environment and settings,
// a generation number that moves whenever the environment, its settings or its secrets change
// (answers from an older generation are dropped), the request log, and every exchange the
// clients make (redacted once more here, with every secret the session has seen).

import * as vscode from 'vscode';
import { ClientToken, Exchange, HealthDataClient, RequestLogEntry } from '../../core/service';
import { HealthDataError, redact } from '../../core/errors';
import { HistoryEntry, toHistoryEntry } from '../../core/workbench';
import { Credentials } from './credentials';
import { Environment, checkEnvironment, pickActive, readEnvironments, readRequestSettings, setActiveEnvironment } from './environments';

/** Bodies the session hands on are cut here (characters): a list page of 500 records fits many times. */
const SESSION_BODY_LIMIT = 8 * 1024 * 1024;

export interface ActiveConnection {
  readonly client: HealthDataClient;
  readonly environment: Environment;
  /** The session's generation when this connection was handed out. */
  readonly generation: number;
}

/** An exchange of the session's client, with the credentials it held (for a recording to make sure of). */
export interface SessionExchange {
  readonly exchange: Exchange;
  readonly secrets: readonly string[];
}

/** How many of the session's latest exchanges stay in memory for Copy as Code and Compare. */
const RECENT_EXCHANGES = 100;

export class Session implements vscode.Disposable {
  private sandboxEnvironment: Environment | undefined;
  private current: ActiveConnection | undefined;
  private gen = 0;
  /** What the connection is made of (connectionKey) when the session last invalidated. */
  private lastKey: string;
  private readonly warned = new Set<string>();
  /** Newest first, each with the environment it was sent to. */
  private readonly recent: { exchange: Exchange; environment: Environment }[] = [];
  private archive: (() => readonly Exchange[]) | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly tokenEmitter = new vscode.EventEmitter<ClientToken | undefined>();
  private readonly exchangeEmitter = new vscode.EventEmitter<HistoryEntry>();
  /** Every request any client of the session made, once it ended, with its environment; never a secret. */
  readonly onDidExchange = this.exchangeEmitter.event;
  private readonly wholeExchangeEmitter = new vscode.EventEmitter<SessionExchange>();
  /**
   * The same requests whole (credentials redacted, bodies uncut), with every credential the client
   * held, for a recording to pseudonymize and check before it writes anything.
   */
  readonly onDidExchangeWhole = this.wholeExchangeEmitter.event;
  /** The environment, its settings or its credentials changed: reload what you show. */
  readonly onDidChange = this.changeEmitter.event;
  /** A client token was minted (or the connection was dropped, with undefined). */
  readonly onDidChangeToken = this.tokenEmitter.event;

  constructor(
    readonly credentials: Credentials,
    readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      this.changeEmitter,
      this.tokenEmitter,
      this.exchangeEmitter,
      this.wholeExchangeEmitter,
      vscode.workspace.onDidChangeConfiguration((e) => {
        // Only what changes the connection: not the view's grouping, validation, the .http files' lenses or the sandbox URL
        // (the sandbox controller handles that one).
        const connectionSettings = e.affectsConfiguration('healthData') && !['tree', 'validation', 'sandbox.url', 'httpFiles'].some((k) => e.affectsConfiguration(`healthData.${k}`));
        if (!connectionSettings) return;
        // Once per change of what the connection is made of: switchTo may already have
        // invalidated for this event, and an edit of another environment changes nothing here.
        if (this.connectionKey() !== this.lastKey) this.invalidate();
        else void this.updateContext();
      }),
      credentials.onDidChange((name) => {
        if (name === this.active?.name) this.invalidate();
        else void this.updateContext();
      }),
    );
    this.lastKey = this.connectionKey();
    void this.updateContext();
  }

  /** The active environment and the request settings: what a client is made of. */
  private connectionKey(): string {
    const { presentation, pageSize, timeoutMs, defaultRangeDays } = readRequestSettings();
    return JSON.stringify([this.active ?? null, presentation, pageSize, timeoutMs, defaultRangeDays]);
  }

  get environments(): Environment[] {
    return readEnvironments(this.sandboxEnvironment);
  }

  get active(): Environment | undefined {
    return pickActive(this.environments);
  }

  get generation(): number {
    return this.gen;
  }

  /** True while `generation` is still the session's: nothing changed since it was taken. */
  isCurrent(generation: number): boolean {
    return generation === this.gen;
  }

  get currentToken(): ClientToken | undefined {
    return this.current?.client.currentToken;
  }

  /** Adds (or, with undefined, removes) the local sandbox environment. */
  setSandbox(env: Environment | undefined): void {
    this.sandboxEnvironment = env;
    this.invalidate();
  }

  async switchTo(name: string): Promise<void> {
    await setActiveEnvironment(name);
    // Done when this resolves, whether the configuration event came before (it then invalidated
    // already) or comes after (it then finds nothing changed): listeners reload once.
    if (this.connectionKey() !== this.lastKey) this.invalidate();
  }

  /** Drops the current client (aborting what it has in flight) and tells listeners to reload. */
  invalidate(): void {
    this.lastKey = this.connectionKey();
    this.gen++;
    this.current?.client.dispose();
    this.current = undefined;
    this.tokenEmitter.fire(undefined);
    void this.updateContext();
    this.changeEmitter.fire();
  }

  /**
   * The connection to the active environment, made on first use. Throws a usage or auth
   * HealthDataError with a message that says what to do when nothing usable is configured.
   */
  async connection(): Promise<ActiveConnection> {
    if (this.current) return this.current;
    const env = this.active;
    this.current = this.connect(env);
    return this.current;
  }

  /**
   * A connection to the environment named, for one job (a run of the saved requests against
   * another environment): the connection in use when it names none or the active one; otherwise
   * a client of its own, made like the active one's (its exchanges kept in the history under its
   * environment's name), which the caller disposes when `owned`. Throws as `connection` does, and
   * when no environment has that name.
   */
  async connectionTo(name: string | undefined): Promise<ActiveConnection & { readonly owned: boolean }> {
    if (name === undefined || name === this.active?.name) return { ...(await this.connection()), owned: false };
    const env = this.environments.find((e) => e.name === name);
    if (!env) throw new HealthDataError('usage', vscode.l10n.t('There is no environment named "{0}".', name));
    // Said before anything is sent, naming the environment: it is not the one the user looks at.
    if (env.origin !== 'sandbox' && !(await this.credentials.has(env.name))) {
      throw new HealthDataError('auth', vscode.l10n.t('No client secret is stored for "{0}": run Health Data: Set Client Credentials for it first.', env.name));
    }
    return { ...this.connect(env), owned: true };
  }

  private connect(env: Environment | undefined): ActiveConnection {
    if (!env) {
      const wanted = vscode.workspace.getConfiguration('healthData').get<string>('activeEnvironment');
      throw new HealthDataError(
        'usage',
        wanted
          ? vscode.l10n.t('The environment "{0}" does not exist (or the local sandbox is not running). Switch environment or start the sandbox.', wanted)
          : vscode.l10n.t('No environment is set up: start the local sandbox or set healthData.baseUrl and your credentials.'),
      );
    }
    const { errors, warnings } = checkEnvironment(env);
    if (errors.length) throw new HealthDataError('usage', errors[0]);
    // Plain http:// to a host that is not loopback: say so before the secret travels, once each.
    for (const warning of warnings) {
      if (this.warned.has(warning)) continue;
      this.warned.add(warning);
      this.log.warn(warning);
      void vscode.window.showWarningMessage(warning);
    }
    const settings = readRequestSettings();
    const generation = this.gen;
    const credentials = this.credentials;
    const secretsSeen = new Set<string>();
    const remember = (value: string | undefined): string | undefined => {
      if (value) secretsSeen.add(value);
      return value;
    };
    const client = new HealthDataClient({
      authUrl: env.authUrl,
      baseUrl: env.baseUrl,
      clientId: env.clientId,
      clientSecret: async () => remember(await credentials.get(env.name, 'clientSecret')),
      userAccessToken: async () => remember(await credentials.get(env.name, 'userAccessToken')),
      presentation: settings.presentation,
      timeoutMs: settings.timeoutMs,
      pageSize: settings.pageSize,
      onRequest: (entry) => this.logRequest(entry, [...secretsSeen, client.currentToken?.token], client),
      onExchange: (exchange) => {
        // Redacted once more with every secret this session has seen, before anyone keeps it.
        const token = client.currentToken?.token;
        const secrets = [...secretsSeen, token];
        this.keepExchange(toHistoryEntry(exchange, { secrets, bodyLimit: SESSION_BODY_LIMIT, environment: env.name }), env);
        this.wholeExchangeEmitter.fire({ exchange, secrets: token ? [...secretsSeen, token] : [...secretsSeen] });
      },
    });
    return { client, environment: env, generation };
  }

  /**
   * The session's latest exchanges (credentials already redacted), newest first, then those of
   * the workspace's history (earlier sessions) that are not among them.
   */
  recentExchanges(): readonly Exchange[] {
    const own = this.recent.map((kept) => kept.exchange);
    const archived = this.archive?.() ?? [];
    if (archived.length === 0) return own;
    const ids = new Set(own.map((e) => e.id));
    return [...own, ...archived.filter((e) => !ids.has(e.id))];
  }

  /** The environment an exchange was sent to (for one of the history, by the name it kept). */
  environmentOf(exchangeId: string): Environment | undefined {
    const kept = this.recent.find((k) => k.exchange.id === exchangeId)?.environment;
    if (kept) return kept;
    const name = (this.archive?.().find((e) => e.id === exchangeId) as { environment?: string } | undefined)?.environment;
    return name === undefined ? undefined : this.environments.find((env) => env.name === name);
  }

  /** Where exchanges older than this session are found: the request history. */
  useArchive(archive: () => readonly Exchange[]): void {
    this.archive = archive;
  }

  private keepExchange(exchange: HistoryEntry, environment: Environment): void {
    this.recent.unshift({ exchange, environment });
    if (this.recent.length > RECENT_EXCHANGES) this.recent.length = RECENT_EXCHANGES;
    this.exchangeEmitter.fire(exchange);
  }

  private logRequest(entry: RequestLogEntry, secrets: Array<string | undefined>, client: HealthDataClient): void {
    const token = this.current?.client.currentToken?.token;
    const status = entry.status !== undefined ? String(entry.status) : entry.error ? 'failed' : '—';
    const extra = [entry.attempt > 1 ? `attempt ${entry.attempt}` : '', entry.requestId ? `request id ${entry.requestId}` : '', entry.error ?? '']
      .filter(Boolean)
      .join(', ');
    const line = redact(`${entry.method} ${entry.path} ${status} ${Math.round(entry.durationMs)} ms${extra ? ` (${extra})` : ''}`, [...secrets, token]);
    if (entry.error || (entry.status !== undefined && entry.status >= 400)) this.log.warn(line);
    else this.log.info(line);
    // The status bar shows the token in use: another environment's mint is not it.
    if (entry.method === 'POST' && entry.status !== undefined && entry.status < 300 && client === this.current?.client) {
      // The client stores the token after the reply is read; look once it has.
      setTimeout(() => this.tokenEmitter.fire(this.current?.client.currentToken), 0);
    }
  }

  /** Sets the `healthData.configured` context key that decides the welcome view. */
  async updateContext(): Promise<void> {
    const env = this.active;
    const configured = Boolean(env && (env.origin === 'sandbox' || (await this.credentials.has(env.name))));
    await vscode.commands.executeCommand('setContext', 'healthData.configured', configured);
  }

  dispose(): void {
    this.current?.client.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
