// The client of the health-data service: its token, the endpoints of the resource table, whole
// lists. One request's care lives in http.ts, the token in token.ts, paging in paging.ts.

import { isCalendarDate } from '../dates';
import { HealthDataError } from '../errors';
import type { Exchange } from './exchange';
import { HttpReply, HttpTransport, RequestLogEntry } from './transport';
import { ListResult, readList } from './paging';
import { withPage } from './listPages';
import { DATE_SEGMENT, ResourceKind, resource } from '../resources';
import { ListQuery, encodeIdSegment, listParams, withParam } from './requestTargets';
import { ClientToken, ClientTokenSource } from './clientToken';

export type { RequestLogEntry } from './transport';
export type { ListResult, ListWrapper } from './paging';
export type { ClientToken } from './clientToken';
export { encodeIdSegment } from './requestTargets';

export type TokenPresentation =
  | { mode: 'header'; headerName: string; scheme: string } // '' scheme: the bare token
  | { mode: 'query'; parameter: string };

export const DEFAULT_PRESENTATION: TokenPresentation = { mode: 'header', headerName: 'Authorization', scheme: 'Bearer' };
/** The service's largest page (conventions.md). */
export const MAX_PAGE_SIZE = 500;

export interface ClientOptions {
  authUrl: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string | (() => Promise<string | undefined>);
  /** A per-user access token; when set (non-empty), data calls present it instead of the client token. */
  userAccessToken?: string | (() => Promise<string | undefined>);
  presentation?: TokenPresentation;
  /** Per request, default 30000. */
  timeoutMs?: number;
  /** GET retries on 429/502/503/network errors, default 3. */
  maxRetries?: number;
  /** Default 500; doubled each retry, with jitter, capped by maxRetryDelayMs. */
  retryBaseDelayMs?: number;
  /** Cap of the backoff between retries, default 10000. */
  maxRetryDelayMs?: number;
  /** Cap of a wait asked for by Retry-After, default 30000. */
  maxRetryAfterMs?: number;
  /** Default 50 (max 500). */
  pageSize?: number;
  /** Pages in flight when X-Total-Count is known, default 4. */
  concurrency?: number;
  /** Re-mint this long before expiry, default 300. */
  refreshMarginSeconds?: number;
  /** A hard stop against loops, default 10000. */
  maxPages?: number;
  onRequest?: (entry: RequestLogEntry) => void;
  /** Every request as a whole exchange once it ends, credentials redacted (see exchange.ts). */
  onExchange?: (exchange: Exchange) => void;
  /** The clock that dates tokens (epoch ms), default Date.now. */
  now?: () => number;
}


export interface CallOptions {
  signal?: AbortSignal;
}

export interface ListCallOptions extends CallOptions {
  /**
   * Each page's records as it arrives, records already delivered left out; `page` counts the
   * pages received so far (pages fetched in parallel may arrive out of list order).
   */
  onPage?: (records: unknown[], page: number) => void;
  /** False: records reach onPage only, none are kept (see PagingPlan.keepRecords). */
  keepRecords?: boolean;
  /** One page at a time, handed to onPage in list order (see PagingPlan.inOrder). */
  inOrder?: boolean;
  /** With inOrder: the next page waits for it (see PagingPlan.ready). */
  ready?: () => Promise<void> | undefined;
}

export class HealthDataClient {
  private readonly lifetime = new AbortController();
  private readonly credentials = new Set<string>();
  private readonly http: HttpTransport;
  private readonly tokens: ClientTokenSource;
  private readonly presentation: TokenPresentation;
  private readonly pageSize: number;
  private readonly concurrency: number;
  private readonly maxPages: number;
  private lastHeaders: { token: string; headers: Readonly<Record<string, string>> } | undefined;

  constructor(private readonly options: ClientOptions) {
    checkUrl('authUrl', options.authUrl);
    checkUrl('baseUrl', options.baseUrl);
    this.presentation = options.presentation ?? DEFAULT_PRESENTATION;
    if (this.presentation.mode === 'header' && !/^[!#$%&'*+.^_`|~\w-]+$/.test(this.presentation.headerName)) {
      throw usage(`The token header name "${this.presentation.headerName}" is not a valid HTTP header name.`);
    }
    if (this.presentation.mode === 'query' && !this.presentation.parameter) throw usage('The token query parameter has no name.');
    this.pageSize = whole('pageSize', options.pageSize ?? 50, 1, MAX_PAGE_SIZE);
    this.concurrency = whole('concurrency', options.concurrency ?? 4, 1, 64);
    this.maxPages = whole('maxPages', options.maxPages ?? 10_000, 1, Number.MAX_SAFE_INTEGER);
    if (typeof options.clientSecret === 'string') this.remember(options.clientSecret);
    if (typeof options.userAccessToken === 'string') this.remember(options.userAccessToken);
    this.http = new HttpTransport({
      timeoutMs: whole('timeoutMs', options.timeoutMs ?? 30_000, 1, 2_147_483_647),
      maxRetries: whole('maxRetries', options.maxRetries ?? 3, 0, 100),
      retryBaseDelayMs: nonNegative('retryBaseDelayMs', options.retryBaseDelayMs ?? 500),
      maxRetryDelayMs: nonNegative('maxRetryDelayMs', options.maxRetryDelayMs ?? 10_000),
      maxRetryAfterMs: nonNegative('maxRetryAfterMs', options.maxRetryAfterMs ?? 30_000),
      onRequest: options.onRequest,
      onExchange: options.onExchange,
      secrets: () => [...this.credentials],
      lifetime: this.lifetime.signal,
    });
    this.tokens = new ClientTokenSource({
      authUrl: options.authUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      refreshMarginSeconds: nonNegative('refreshMarginSeconds', options.refreshMarginSeconds ?? 300),
      now: options.now ?? Date.now,
      http: this.http,
      remember: (credential) => this.remember(credential),
    });
  }

  /** The cached client token while fresh; else one mint, shared with concurrent callers. */
  getClientToken(opts?: CallOptions): Promise<ClientToken> {
    return this.tokens.get(opts?.signal);
  }

  /** A new client token (shared with a mint already in flight). */
  mintClientToken(opts?: CallOptions): Promise<ClientToken> {
    return this.tokens.mint(opts?.signal);
  }

  get currentToken(): ClientToken | undefined {
    return this.tokens.current;
  }

  /**
   * One record: `YYYY-MM-DD` is a date where the resource has records by date (and must then be
   * a real date), anything else an id, percent-encoded so that it stays one path segment.
   */
  async getRecord(kind: ResourceKind, idOrDate: string, opts?: CallOptions): Promise<unknown> {
    return (await this.authorizedGet(this.recordUrl(kind, idOrDate), opts?.signal)).body;
  }

  /** The latest record, for resources with such an endpoint (body fat). */
  async getLatest(kind: ResourceKind, opts?: CallOptions): Promise<unknown> {
    return (await this.authorizedGet(this.recordUrl(kind), opts?.signal)).body;
  }

  /**
   * The URL getRecord (with `idOrDate`) or getLatest (without) sends, checked the same way and
   * without the token: what `--curl` prints instead of sending.
   */
  recordUrl(kind: ResourceKind, idOrDate?: string): string {
    const def = resource(kind);
    if (idOrDate === undefined) {
      if (!def.latestPath) throw usage(`${def.label} have no "latest" endpoint; ask by id${def.byDate ? ' or date' : ''} instead.`);
      return this.dataUrl(def.latestPath);
    }
    const key = typeof idOrDate === 'string' ? idOrDate.trim() : '';
    if (key === '') throw usage(`${def.singular}: the id${def.byDate ? ' or date' : ''} is empty.`);
    let segment: string;
    if (def.byDate && DATE_SEGMENT.test(key)) {
      if (!isCalendarDate(key)) throw usage(`${def.singular}: ${key} is not a real calendar date (YYYY-MM-DD).`);
      segment = key;
    } else {
      segment = encodeIdSegment(key);
    }
    return this.dataUrl(`${def.itemPath}/${segment}`);
  }

  /** The URL of the first page `list` sends for this query, without the token (for `--curl`). */
  listUrl(kind: ResourceKind, query: ListQuery = {}): string {
    const plan = this.listPlan(kind, query);
    return withPage(plan.url, plan.limit, plan.offsetGiven ? plan.offset : undefined);
  }

  /** A list, every page of it unless `all: false`; see paging.ts for how pages are found. */
  async list(kind: ResourceKind, query: ListQuery = {}, opts: ListCallOptions = {}): Promise<ListResult> {
    const plan = this.listPlan(kind, query);
    const result = await readList((url, signal) => this.authorizedGet(url, signal), {
      ...plan,
      all: query.all ?? true,
      concurrency: this.concurrency,
      inOrder: opts.inOrder,
      ready: opts.ready,
      maxPages: this.maxPages,
      onPage: opts.onPage,
      keepRecords: opts.keepRecords,
      signal: opts.signal,
      secretParams: this.presentation.mode === 'query' ? [this.presentation.parameter] : [],
    });
    if (result.stopReason) result.stopReason = this.http.redact(result.stopReason);
    return result;
  }

  /** A list's URL with its checked filters, and its first page's limit and offset. */
  private listPlan(kind: ResourceKind, query: ListQuery): { url: string; limit: number; offset: number; offsetGiven: boolean } {
    const def = resource(kind);
    const search = listParams(query).toString();
    return {
      url: this.dataUrl(def.listPath) + (search ? `?${search}` : ''),
      limit: query.limit === undefined ? this.pageSize : whole('limit', query.limit, 1, MAX_PAGE_SIZE),
      offset: query.offset === undefined ? 0 : whole('offset', query.offset, 0, Number.MAX_SAFE_INTEGER),
      offsetGiven: query.offset !== undefined,
    };
  }

  /** Aborts every request in flight; later calls fail as cancelled. */
  dispose(): void {
    this.lifetime.abort();
  }

  /**
   * A data call with the token: the user access token when there is one, else the client token,
   * re-minted once if the service answers 401 (and then the call is tried once more).
   */
  private async authorizedGet(url: string, signal: AbortSignal | undefined): Promise<HttpReply> {
    // No await (a microtask hop per page) when there is no user access token to read.
    const user = this.options.userAccessToken === undefined ? undefined : await this.userAccessToken();
    if (user !== undefined) {
      try {
        return await this.get(url, user, signal);
      } catch (err) {
        if (isUnauthorized(err)) throw new HealthDataError('auth', `${err.message} — the user access token was rejected`, err);
        throw err;
      }
    }
    const token = this.tokens.fresh() ?? (await this.tokens.get(signal));
    try {
      return await this.get(url, token.token, signal);
    } catch (err) {
      if (!isUnauthorized(err)) throw err;
    }
    const fresh = await this.tokens.replace(token.token, signal);
    try {
      return await this.get(url, fresh.token, signal);
    } catch (err) {
      if (isUnauthorized(err)) throw new HealthDataError('auth', `${err.message} — a freshly minted client token was rejected too`, err);
      throw err;
    }
  }

  private get(url: string, token: string, signal: AbortSignal | undefined): Promise<HttpReply> {
    const p = this.presentation;
    if (p.mode === 'query') {
      return this.http.send({ method: 'GET', url: withParam(url, p.parameter, token), retry: true, signal, secretParams: [p.parameter] });
    }
    return this.http.send({ method: 'GET', url, headers: this.headersFor(p, token), retry: true, signal });
  }

  /** The headers of a data call with `token`: made once per token, not once per page. */
  private headersFor(p: Extract<TokenPresentation, { mode: 'header' }>, token: string): Readonly<Record<string, string>> {
    const last = this.lastHeaders;
    if (last !== undefined && last.token === token) return last.headers;
    const headers = Object.freeze({ Accept: 'application/json', [p.headerName]: p.scheme ? `${p.scheme} ${token}` : token });
    this.lastHeaders = { token, headers };
    return headers;
  }

  private async userAccessToken(): Promise<string | undefined> {
    const source = this.options.userAccessToken;
    if (source === undefined) return undefined;
    let token: string | undefined;
    try {
      token = typeof source === 'function' ? await source() : source;
    } catch {
      throw new HealthDataError('auth', 'The user access token could not be read.');
    }
    if (typeof token !== 'string' || token.trim() === '') return undefined;
    this.remember(token);
    return token;
  }

  private dataUrl(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  private remember(credential: string): void {
    if (credential) this.credentials.add(credential);
  }
}

function isUnauthorized(err: unknown): err is HealthDataError {
  return err instanceof HealthDataError && err.status === 401;
}

function usage(message: string): HealthDataError {
  return new HealthDataError('usage', message);
}

function checkUrl(name: string, value: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol)) throw usage(`${name} must be an http(s) URL, not "${value}".`);
}

function whole(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw usage(`${name} must be a whole number from ${min} to ${max}, not ${value}.`);
  return value;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw usage(`${name} must be a number of 0 or more, not ${value}.`);
  return value;
}
