// One request to the service, done with care: a timeout, the caller's AbortSignal, retries with
// backoff for GET, replies mapped to HealthDataError kinds, and no token or secret in any text.

import fetch from 'node-fetch';
import { HttpAgents, onBodyCutShort } from './agents';
import { HealthDataError, redact } from '../errors';
import { AttemptFailure, cutShort, errorCode, errorText, interpretReply, networkFailure } from './attemptOutcome';
import { Exchange, ExchangeCapture } from './exchange';
import { AttemptClock } from './timings';

export interface RequestLogEntry {
  method: string;
  /** Path and query as sent, every credential replaced by `[redacted]`. */
  path: string;
  status?: number;
  durationMs: number;
  /** 1 for the first try, 2 for the first retry, … */
  attempt: number;
  error?: string;
  requestId?: string;
}

export interface HttpSettings {
  timeoutMs: number;
  maxRetries: number;
  retryBaseDelayMs: number;
  /** Cap of the exponential backoff. */
  maxRetryDelayMs: number;
  /** Cap of a wait the server asks for with Retry-After. */
  maxRetryAfterMs: number;
  onRequest?: (entry: RequestLogEntry) => void;
  /** Every request as a whole exchange, once it ends (credentials redacted). */
  onExchange?: (exchange: Exchange) => void;
  /** Everything to hide from messages and logs: the secret and every token seen so far. */
  secrets: () => readonly (string | undefined)[];
  /** Aborted by dispose(): ends every request in flight and every wait. */
  lifetime: AbortSignal;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Absolute URL exactly as it should go on the wire (already percent-encoded). */
  url: string;
  /** Sent as given, with `Accept: application/json` unless they have an `Accept` of their own. */
  headers?: Readonly<Record<string, string>>;
  body?: string;
  /** GET data calls may be retried; the token mint never is. */
  retry: boolean;
  signal?: AbortSignal;
  /** Query parameters whose values are credentials (a token presented as a parameter). */
  secretParams?: readonly string[];
}

export interface HttpReply {
  status: number;
  body: unknown;
  headers: { get(name: string): string | null };
  requestId?: string;
  url: string;
  /** `GET /v1/…`: method and path (never the query), for messages. */
  request: string;
  attempts: number;
}

/** A path segment that is `.` or `..`, literally or percent-encoded: WHATWG URLs collapse them. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=\/|$)/i;

const SCHEME = /^[a-z][a-z\d+.-]*$/i;

/** The path and the query of an absolute URL as written, without any normalisation. */
export function splitUrl(url: string): { path: string; query: string } {
  const colon = url.indexOf('://');
  if (colon <= 0 || !SCHEME.test(url.slice(0, colon))) return { path: '/', query: '' };
  const n = url.length;
  let pathAt = colon + 3;
  while (pathAt < n && !endsAuthority(url.charCodeAt(pathAt))) pathAt++;
  let queryAt = pathAt;
  while (queryAt < n && url.charCodeAt(queryAt) !== 63 && url.charCodeAt(queryAt) !== 35) queryAt++; // '?' '#'
  let end = queryAt;
  if (queryAt < n && url.charCodeAt(queryAt) === 63) {
    end = url.indexOf('#', queryAt);
    if (end < 0) end = n;
  }
  return { path: url.slice(pathAt, queryAt) || '/', query: url.slice(queryAt, end) };
}

/** `/`, `?` or `#`: the end of a URL's host and port. */
const endsAuthority = (c: number): boolean => c === 47 || c === 63 || c === 35;

export class HttpTransport {
  private readonly connections = new HttpAgents();
  /** The attempts in flight: each one's stop. */
  private readonly active = new Set<(failure: AttemptFailure) => void>();
  /**
   * The attempts in flight under each caller's signal. A list's pages share one signal: it gets
   * one 'abort' listener, not an EventTarget listener added and removed around every request.
   */
  private readonly bySignal = new WeakMap<AbortSignal, Set<(failure: AttemptFailure) => void>>();

  constructor(private readonly settings: HttpSettings) {
    settings.lifetime.addEventListener(
      'abort',
      () => {
        this.connections.destroy();
        for (const stop of [...this.active]) stop(new AttemptFailure('cancelled', 'cancelled (the client was disposed)', false));
      },
      { once: true },
    );
  }

  /** Hides every credential the client knows of in a text. */
  redact(text: string): string {
    return redact(text, this.settings.secrets());
  }

  async send(req: HttpRequest): Promise<HttpReply> {
    const raw = splitUrl(req.url);
    const request = `${req.method} ${raw.path}`;
    // Stopped before it was sent (a list cancelled between two pages): nothing went out, so
    // there is nothing to log or to keep in the history, only the cancellation to report.
    const stoppedBefore = this.stopReason(req.signal);
    if (stoppedBefore) throw this.finish(stoppedBefore, request, 1);
    const maxAttempts = req.retry ? Math.max(0, this.settings.maxRetries) + 1 : 1;
    // Only made when someone listens: a client without a listener pays nothing per request.
    const capture = this.settings.onExchange ? new ExchangeCapture(req, this.urlForPeople(req, raw), this.settings.secrets) : undefined;
    for (let attempt = 1; ; attempt++) {
      const started = this.settings.onRequest ? performance.now() : 0;
      capture?.attemptStarted();
      try {
        const reply = await this.attempt(req, raw, request, attempt, capture);
        this.log(req, raw, attempt, started, reply.status, reply.requestId);
        if (capture) {
          capture.attemptEnded(reply.status);
          this.emit(capture);
        }
        return reply;
      } catch (err) {
        const failure = err instanceof AttemptFailure ? err : new AttemptFailure('network', errorText(err), false);
        this.log(req, raw, attempt, started, failure.info.status, failure.info.requestId, `${request}: ${failure.detail}`);
        capture?.attemptEnded(failure.info.status, failure.detail);
        if (!failure.retryable || attempt >= maxAttempts) throw this.finish(failure, request, attempt, capture);
        const wait = this.delayBefore(attempt, failure);
        capture?.retrying(failure.detail, wait);
        try {
          await this.pause(wait, req.signal);
        } catch (stop) {
          throw this.finish(stop as AttemptFailure, request, attempt, capture);
        }
      }
    }
  }

  /** Hands a finished exchange to the listener; a failing listener must not fail the request. */
  private emit(capture: ExchangeCapture, error?: HealthDataError): void {
    try {
      this.settings.onExchange?.(capture.finish(error && { kind: error.kind, message: error.message }));
    } catch {
      // The exchange is a record of the request, not part of it.
    }
  }

  /** The URL as people may see it: credential parameters redacted. */
  private urlForPeople(req: HttpRequest, raw: { path: string; query: string }): string {
    const at = req.url.indexOf(raw.path, req.url.indexOf('://') + 3);
    const origin = at > 0 ? req.url.slice(0, at) : req.url;
    return origin + raw.path + this.redactedQuery(req, raw.query);
  }

  private redactedQuery(req: HttpRequest, query: string): string {
    for (const name of req.secretParams ?? []) {
      query = query.replace(new RegExp(`([?&]${escapeRegExp(encodeURIComponent(name))}=)[^&]*`, 'g'), '$1[redacted]');
    }
    return query;
  }

  private async attempt(req: HttpRequest, raw: { path: string; query: string }, request: string, attempt: number, capture?: ExchangeCapture): Promise<HttpReply> {
    const stopped = this.stopReason(req.signal);
    if (stopped) throw stopped;
    const timeoutMs = this.settings.timeoutMs;
    // One signal per attempt for node-fetch (a light one: see AttemptSignal); whatever stops the
    // attempt aborts it, and node-fetch then rejects at once, the fetch before the reply and the
    // body after it (it emits the error on the body stream), so nothing else need be raced.
    // `why` is what stopped it, and wins over how node-fetch reports the abort.
    const signal = new AttemptSignal();
    let why: AttemptFailure | undefined;
    const stop = (failure: AttemptFailure) => {
      if (why) return;
      why = failure;
      signal.abort();
    };
    const timer = setTimeout(stopOnTimeout, timeoutMs, stop, timeoutMs);
    const callers = req.signal === undefined ? undefined : this.stopsUnder(req.signal);
    callers?.add(stop);
    // The lifetime's abort stops every attempt in `active` (one listener for all of them).
    this.active.add(stop);
    let status: number | undefined;
    let requestId: string | undefined;
    // Where the time went, only when the exchange is kept.
    const clock = capture ? new AttemptClock() : undefined;
    try {
      const agent = this.connections.agentFor(DOT_SEGMENT.test(raw.path) ? raw.path + raw.query : undefined, (clientRequest) => {
        onBodyCutShort(clientRequest, (cutStatus) => stop(cutShort(req.method, cutStatus)));
        clock?.watch(clientRequest);
      });
      const res = await fetch(req.url, {
        method: req.method,
        headers: req.headers === undefined ? ACCEPT_JSON : 'Accept' in req.headers ? req.headers : { Accept: 'application/json', ...req.headers },
        body: req.body,
        signal: signal as unknown as AbortSignal,
        follow: 5,
        agent,
      });
      if (why) throw why;
      status = res.status;
      const requestIdHeader = res.headers.get('x-request-id');
      requestId = requestIdHeader?.trim() || undefined;
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        if (why) throw why;
        throw cutShort(req.method, res.status, errorCode(err));
      }
      // Stopped as the last bytes came: what stopped it is the answer, as it would have been a
      // moment earlier.
      if (why) throw why;
      capture?.replied(res.status, res.statusText, res.headers, text);
      const reply = interpretReply(req.method, res, text, requestIdHeader);
      return { status: res.status, body: reply.body, headers: res.headers, requestId: reply.requestId, url: req.url, request, attempts: attempt };
    } catch (err) {
      // What aborted the attempt wins over how node-fetch noticed; the reply's status and
      // request id are kept when the failure itself does not say.
      const failure = why ?? (err instanceof AttemptFailure ? err : networkFailure(err, req.method, {}));
      const info = { ...failure.info };
      info.status ??= status;
      info.requestId ??= requestId;
      throw new AttemptFailure(failure.kind, failure.detail, failure.retryable, info);
    } finally {
      clearTimeout(timer);
      callers?.delete(stop);
      this.active.delete(stop);
      if (clock) capture?.timed(clock.timings());
    }
  }

  private finish(failure: AttemptFailure, request: string, attempts: number, capture?: ExchangeCapture): HealthDataError {
    const notes: string[] = [];
    if (failure.info.requestId) notes.push(`request id ${failure.info.requestId}`);
    if (attempts > 1 && failure.kind !== 'cancelled' && failure.kind !== 'timeout') notes.push(`${attempts} attempts`);
    else if (attempts > 1) notes.push(`attempt ${attempts}`);
    const message = `${request}: ${failure.detail}${notes.length ? ` (${notes.join('; ')})` : ''}`;
    const error = new HealthDataError(failure.kind, this.redact(message), {
      status: failure.info.status,
      serviceMessage: failure.info.serviceMessage === undefined ? undefined : this.redact(failure.info.serviceMessage),
      requestId: failure.info.requestId,
      request,
      retryAfterMs: failure.info.retryAfterMs,
    });
    if (capture) this.emit(capture, error);
    return error;
  }

  /** The set of attempts the caller's signal stops when it aborts. */
  private stopsUnder(signal: AbortSignal): Set<(failure: AttemptFailure) => void> {
    let stops = this.bySignal.get(signal);
    if (stops === undefined) {
      const these = new Set<(failure: AttemptFailure) => void>();
      signal.addEventListener(
        'abort',
        () => {
          for (const stop of [...these]) stop(new AttemptFailure('cancelled', 'cancelled', false));
        },
        { once: true },
      );
      this.bySignal.set(signal, these);
      stops = these;
    }
    return stops;
  }

  private delayBefore(attempt: number, failure: AttemptFailure): number {
    const asked = failure.info.retryAfterMs;
    if (asked !== undefined) {
      // Never earlier than asked, never past the cap; a little later than asked when there is
      // room, so clients told the same time do not all come back at once.
      const cap = this.settings.maxRetryAfterMs;
      return Math.min(asked + Math.random() * Math.min(250, asked * 0.1), cap);
    }
    const ceiling = Math.min(this.settings.maxRetryDelayMs, this.settings.retryBaseDelayMs * 2 ** (attempt - 1));
    return ceiling / 2 + (Math.random() * ceiling) / 2;
  }

  /** Waits between attempts; cancelling or disposing ends the wait at once. */
  private pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const stopped = this.stopReason(signal, ' while waiting to retry');
      if (stopped) return reject(stopped);
      const done = (failure?: AttemptFailure) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.settings.lifetime.removeEventListener('abort', onAbort);
        if (failure) reject(failure);
        else resolve();
      };
      const onAbort = () => done(this.stopReason(signal, ' while waiting to retry'));
      const timer = setTimeout(() => done(), ms);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.settings.lifetime.addEventListener('abort', onAbort, { once: true });
    });
  }

  private stopReason(signal: AbortSignal | undefined, when = ''): AttemptFailure | undefined {
    if (this.settings.lifetime.aborted) return new AttemptFailure('cancelled', `cancelled${when} (the client was disposed)`, false);
    if (signal?.aborted) return new AttemptFailure('cancelled', `cancelled${when}`, false);
    return undefined;
  }

  private log(req: HttpRequest, raw: { path: string; query: string }, attempt: number, started: number, status?: number, requestId?: string, error?: string): void {
    const sink = this.settings.onRequest;
    if (!sink) return;
    const query = this.redactedQuery(req, raw.query);
    const entry: RequestLogEntry = {
      method: req.method,
      path: this.redact(raw.path + query),
      durationMs: Math.round(performance.now() - started),
      attempt,
    };
    if (status !== undefined) entry.status = status;
    if (requestId) entry.requestId = requestId;
    if (error) entry.error = this.redact(error);
    try {
      sink(entry);
    } catch {
      // A failing log sink must not fail the request it describes.
    }
  }
}

const ACCEPT_JSON: Readonly<Record<string, string>> = Object.freeze({ Accept: 'application/json' });

function stopOnTimeout(stop: (failure: AttemptFailure) => void, timeoutMs: number): void {
  stop(new AttemptFailure('timeout', `no complete reply within ${timeoutMs} ms (timed out)`, false));
}

/**
 * The abort signal node-fetch is given for one attempt. node-fetch v2 accepts any object whose
 * class is named AbortSignal (as the abort-controller polyfill's is) and uses only `aborted`,
 * `addEventListener('abort')` and `removeEventListener`; Node's own AbortController and its
 * EventTarget cost several microseconds and a dozen objects per request, this a few fields.
 */
class AttemptSignal {
  aborted = false;
  private listeners: ((event: { type: string }) => void)[] | undefined;

  addEventListener(type: string, listener: (event: { type: string }) => void): void {
    if (type !== 'abort' || this.aborted) return;
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(type: string, listener: (event: { type: string }) => void): void {
    const listeners = this.listeners;
    if (type !== 'abort' || !listeners) return;
    const at = listeners.indexOf(listener);
    if (at >= 0) listeners.splice(at, 1);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = undefined;
    if (!listeners) return;
    const event = { type: 'abort' };
    for (const listener of listeners) listener.call(this, event);
  }
}
// node-fetch checks the name of the class; a minifier must not lose it.
Object.defineProperty(AttemptSignal, 'name', { value: 'AbortSignal' });

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
