// The client token: minted with the client id and secret, cached, shared by concurrent callers,
// re-minted ahead of expiry and once after the service rejects it.

import { HealthDataError } from '../errors';
import { HttpTransport } from './transport';
import { decodeJwtClaims, JwtClaims } from './jwt';

export interface ClientToken {
  token: string;
  /** Epoch ms, by the client's clock: mintedAt + expiresIn seconds. */
  expiresAt: number;
  /** Seconds, as the service said (or 86400 when it did not say: see expiresInAssumed). */
  expiresIn: number;
  mintedAt: number;
  /** The JWT's claims; undefined when the token is not a JWT (accepted all the same). */
  claims?: JwtClaims;
  /** The reply had no usable expires_in: the spec's default of 86400 s was assumed. */
  expiresInAssumed?: true;
}

export const TOKEN_PATH = '/v1/admin/token';
/** The spec's default lifetime of a client token, used when a reply does not say. */
export const DEFAULT_EXPIRES_IN = 86_400;

export interface TokenSourceOptions {
  authUrl: string;
  clientId: string;
  clientSecret: string | (() => Promise<string | undefined>);
  refreshMarginSeconds: number;
  now: () => number;
  http: HttpTransport;
  /** Adds a credential to what every message and log entry hides. */
  remember: (credential: string) => void;
}

export class ClientTokenSource {
  private cached: ClientToken | undefined;
  private inFlight: Promise<ClientToken> | undefined;

  constructor(private readonly options: TokenSourceOptions) {}

  get current(): ClientToken | undefined {
    return this.cached;
  }

  /** The cached token while it is fresh, else a new one. */
  get(signal?: AbortSignal): Promise<ClientToken> {
    const fresh = this.fresh();
    return fresh ? Promise.resolve(fresh) : this.mint(signal);
  }

  /** The cached token while it is fresh, without waiting for anything: a page needs no await. */
  fresh(): ClientToken | undefined {
    const cached = this.cached;
    return cached !== undefined && this.isFresh(cached) ? cached : undefined;
  }

  /**
   * Always a new token, one mint at a time: a caller arriving during a mint shares it. The mint
   * itself does not follow any one caller's signal, so one caller cancelling does not fail the
   * others; each caller stops waiting when its own signal aborts.
   */
  mint(signal?: AbortSignal): Promise<ClientToken> {
    if (!this.inFlight) {
      const mint = this.mintNow();
      this.inFlight = mint;
      const clear = () => {
        if (this.inFlight === mint) this.inFlight = undefined;
      };
      mint.then(clear, clear);
    }
    return untilAborted(this.inFlight, signal);
  }

  /**
   * After the service rejected `rejected`: a new token, unless another caller has already
   * replaced it (then that one), so a burst of 401s costs one mint.
   */
  replace(rejected: string, signal?: AbortSignal): Promise<ClientToken> {
    if (this.inFlight) return untilAborted(this.inFlight, signal);
    const fresh = this.fresh();
    return fresh !== undefined && fresh.token !== rejected ? Promise.resolve(fresh) : this.mint(signal);
  }

  /**
   * Fresh until `refreshMarginSeconds` before expiry. The margin is at most half the lifetime,
   * so a token that lives shorter than the margin is still used for a while, not re-minted on
   * every call.
   */
  private isFresh(token: ClientToken): boolean {
    const margin = Math.min(this.options.refreshMarginSeconds * 1000, (token.expiresIn * 1000) / 2);
    return this.options.now() < token.expiresAt - margin;
  }

  private async mintNow(): Promise<ClientToken> {
    const { clientId, authUrl, http } = this.options;
    const secret = await this.secret();
    if (!clientId || clientId.trim() === '') {
      throw new HealthDataError('auth', 'No client id is set: set the client id of the application before calling the service.');
    }
    const url = `${authUrl.replace(/\/+$/, '')}${TOKEN_PATH}`;
    let reply;
    try {
      reply = await http.send({
        method: 'POST',
        url,
        headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' },
        body: JSON.stringify({ type: 'client', client_id: clientId, client_secret: secret }),
        retry: false,
      });
    } catch (err) {
      if (err instanceof HealthDataError && err.kind === 'auth') {
        throw new HealthDataError('auth', `${err.message} — check the client id and client secret`, err);
      }
      throw err;
    }
    const body = reply.body as { client_token?: unknown; expires_in?: unknown } | null;
    const token = body && typeof body === 'object' ? body.client_token : undefined;
    if (typeof token !== 'string' || token.trim() === '') {
      throw new HealthDataError('auth', `${reply.request}: the reply has no client_token`, { request: reply.request, requestId: reply.requestId, status: reply.status });
    }
    this.options.remember(token);
    const stated = lifetimeOf(body?.expires_in);
    const mintedAt = this.options.now();
    const expiresIn = stated ?? DEFAULT_EXPIRES_IN;
    const minted: ClientToken = { token, expiresAt: mintedAt + expiresIn * 1000, expiresIn, mintedAt, claims: decodeJwtClaims(token) };
    if (stated === undefined) minted.expiresInAssumed = true;
    this.cached = minted;
    return minted;
  }

  private async secret(): Promise<string> {
    const source = this.options.clientSecret;
    let secret: string | undefined;
    try {
      secret = typeof source === 'function' ? await source() : source;
    } catch {
      // The getter's own message may hold what it was reading; it is not repeated here.
      throw new HealthDataError('auth', 'The client secret could not be read.');
    }
    if (typeof secret !== 'string' || secret.trim() === '') {
      throw new HealthDataError('auth', 'No client secret is set: set the client secret of the application before calling the service.');
    }
    this.options.remember(secret);
    return secret;
  }
}

/** expires_in in seconds when it is a positive number (or a numeric string), else undefined. */
function lifetimeOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Waits for a shared promise, but gives up (cancelled) as soon as the caller's signal aborts. */
function untilAborted<T>(shared: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return shared;
  const cancelled = () => new HealthDataError('cancelled', `POST ${TOKEN_PATH}: cancelled`, { request: `POST ${TOKEN_PATH}` });
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    shared.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
