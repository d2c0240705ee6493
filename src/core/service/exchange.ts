// Every request the client makes, kept as an exchange: what went out and what came back, raw but
// with every credential redacted, each attempt with its timing and why it was retried. The
// front ends show, keep, copy, record and compare exchanges; none of them ever sees a secret.

import { DATE_SEGMENT, RESOURCES, ResourceKind } from '../resources';
import { redact } from '../errors';
import type { AttemptTimings } from './timings';

/** What an exchange was for, in the service's terms: the endpoint of the resource table it hit. */
export type ExchangeEndpoint = 'token' | 'list' | 'getById' | 'getByDate' | 'getLatest' | 'other';

export interface ExchangeAttempt {
  /** ISO time the attempt started. */
  readonly startedAt: string;
  readonly durationMs: number;
  readonly status?: number;
  /** Why the attempt failed, redacted. */
  readonly error?: string;
  /** Why another attempt followed: `429 Too Many Requests`, `timed out`, … (unset on the last). */
  readonly retryReason?: string;
  /** How long the client waited before the next attempt, ms. */
  readonly waitMs?: number;
  /** Where the attempt's time went: connection, lookup, connect, handshake, first byte, download. */
  readonly timings?: AttemptTimings;
}

export interface Exchange {
  /** Unique within the process: `x` + start time + a counter. */
  readonly id: string;
  /** ISO time the first attempt started. */
  readonly startedAt: string;
  readonly purpose: 'token' | 'data';
  readonly method: 'GET' | 'POST';
  /** The URL as sent, every credential replaced by `[redacted]`. */
  readonly url: string;
  /** As sent, credentials redacted (`Authorization: Bearer [redacted]`). */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** The token mint's body, with `client_secret` redacted. */
  readonly requestBody?: string;
  /** Of the last attempt that got a reply. */
  readonly status?: number;
  readonly statusText?: string;
  /** Of the last attempt that got a reply; names in lower case. */
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** The body as received (token fields redacted); absent when no body arrived. */
  readonly responseBody?: string;
  /** Bytes of the body as received (UTF-8). */
  readonly responseBytes?: number;
  readonly contentType?: string;
  readonly requestId?: string;
  /** From the first attempt's start to the end of the last, waits included. */
  readonly durationMs: number;
  readonly attempts: readonly ExchangeAttempt[];
  /** How the exchange failed, when it did: the error the caller got, redacted. */
  readonly error?: { readonly kind: string; readonly message: string };
  /** The resource of the table the URL belongs to. */
  readonly resource?: ResourceKind;
  readonly endpoint: ExchangeEndpoint;
}

/** JSON fields that carry a credential, in any body an exchange keeps. */
const CREDENTIAL_FIELD = /("(?:client_secret|client_token|access_token|refresh_token|id_token)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;
/** Header names whose values are credentials whatever they hold. */
const CREDENTIAL_HEADER = /^(?:authorization|proxy-authorization|cookie|set-cookie|x-api-key)$/i;

/** A body's credential fields replaced by `"[redacted]"`, then every known secret redacted. */
export function redactBody(text: string, secrets: readonly (string | undefined)[]): string {
  return redact(text.replace(CREDENTIAL_FIELD, '$1"[redacted]"'), secrets);
}

/** A header's value as an exchange keeps it: credentials redacted, a scheme word kept. */
export function redactHeader(name: string, value: string, secrets: readonly (string | undefined)[]): string {
  if (CREDENTIAL_HEADER.test(name)) {
    const scheme = /^([A-Za-z][\w-]*) +\S/.exec(value);
    return scheme ? `${scheme[1]} [redacted]` : '[redacted]';
  }
  return redact(value, secrets);
}

/** The endpoint and resource a request path belongs to, read from the resource table. */
export function endpointOf(method: string, path: string): { endpoint: ExchangeEndpoint; resource?: ResourceKind } {
  if (method === 'POST') return { endpoint: 'token' };
  for (const def of RESOURCES) {
    if (def.latestPath !== undefined && path.endsWith(def.latestPath)) return { endpoint: 'getLatest', resource: def.kind };
    if (path.endsWith(def.listPath)) return { endpoint: 'list', resource: def.kind };
    const at = path.indexOf(`${def.itemPath}/`);
    if (at >= 0) {
      const segment = path.slice(at + def.itemPath.length + 1);
      if (segment.includes('/')) continue;
      return { endpoint: def.byDate && DATE_SEGMENT.test(segment) ? 'getByDate' : 'getById', resource: def.kind };
    }
  }
  return { endpoint: 'other' };
}

let counter = 0;

/**
 * Collects one exchange while the transport sends it. Made only when someone listens, so a
 * client without a listener pays nothing per request.
 */
export class ExchangeCapture {
  private readonly started = Date.now();
  private readonly startedClock = performance.now();
  private readonly attempts: ExchangeAttempt[] = [];
  private attemptStart = 0;
  private attemptStartedAt = '';
  private attemptTimings: AttemptTimings | undefined;
  private reply: { status: number; statusText: string; headers: Record<string, string>; body: string } | undefined;

  constructor(
    private readonly request: { method: 'GET' | 'POST'; url: string; headers?: Readonly<Record<string, string>>; body?: string },
    /** The URL with credential parameters already redacted. */
    private readonly redactedUrl: string,
    private readonly secrets: () => readonly (string | undefined)[],
  ) {}

  attemptStarted(): void {
    this.attemptStart = performance.now();
    this.attemptStartedAt = new Date().toISOString();
    this.attemptTimings = undefined;
  }

  /** The phases of the attempt under way (AttemptClock), before it ends. */
  timed(timings: AttemptTimings | undefined): void {
    this.attemptTimings = timings;
  }

  /** What came back on this attempt (any status), before the client judges it. */
  replied(status: number, statusText: string, headers: Iterable<[string, string]>, body: string): void {
    const kept: Record<string, string> = {};
    const secrets = this.secrets();
    for (const [name, value] of headers) kept[name.toLowerCase()] = redactHeader(name, value, secrets);
    this.reply = { status, statusText, headers: kept, body };
  }

  attemptEnded(status: number | undefined, error?: string): void {
    const attempt: { -readonly [K in keyof ExchangeAttempt]: ExchangeAttempt[K] } = {
      startedAt: this.attemptStartedAt,
      durationMs: Math.round(performance.now() - this.attemptStart),
    };
    if (status !== undefined) attempt.status = status;
    if (error !== undefined) attempt.error = redact(error, this.secrets());
    if (this.attemptTimings !== undefined) attempt.timings = this.attemptTimings;
    this.attempts.push(attempt);
  }

  /** The last attempt is followed by another, after `waitMs`, because of `reason`. */
  retrying(reason: string, waitMs: number): void {
    const last = this.attempts.length - 1;
    if (last < 0) return;
    this.attempts[last] = { ...this.attempts[last], retryReason: redact(reason, this.secrets()), waitMs: Math.round(waitMs) };
  }

  finish(error?: { kind: string; message: string }): Exchange {
    const secrets = this.secrets();
    const requestHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.request.headers ?? { Accept: 'application/json' })) {
      requestHeaders[name] = redactHeader(name, value, secrets);
    }
    const { endpoint, resource } = endpointOf(this.request.method, pathOf(this.request.url));
    const reply = this.reply;
    const exchange: { -readonly [K in keyof Exchange]: Exchange[K] } = {
      id: `x${this.started.toString(36)}-${(++counter).toString(36)}`,
      startedAt: new Date(this.started).toISOString(),
      purpose: endpoint === 'token' ? 'token' : 'data',
      method: this.request.method,
      url: redact(this.redactedUrl, secrets),
      requestHeaders,
      responseHeaders: reply?.headers ?? {},
      durationMs: Math.round(performance.now() - this.startedClock),
      attempts: this.attempts,
      endpoint,
    };
    if (resource !== undefined) exchange.resource = resource;
    if (this.request.body !== undefined) exchange.requestBody = redactBody(this.request.body, secrets);
    if (reply) {
      exchange.status = reply.status;
      exchange.statusText = reply.statusText;
      exchange.responseBody = redactBody(reply.body, secrets);
      exchange.responseBytes = Buffer.byteLength(reply.body);
      const type = reply.headers['content-type'];
      if (type !== undefined) exchange.contentType = type;
      const requestId = reply.headers['x-request-id']?.trim();
      if (requestId) exchange.requestId = requestId;
    }
    if (error) exchange.error = { kind: error.kind, message: redact(error.message, secrets) };
    return exchange;
  }
}

/** The path of an absolute URL, without query or fragment. */
function pathOf(url: string): string {
  const afterScheme = url.indexOf('://');
  const start = afterScheme < 0 ? 0 : url.indexOf('/', afterScheme + 3);
  if (start < 0) return '/';
  const end = url.slice(start).search(/[?#]/);
  return end < 0 ? url.slice(start) : url.slice(start, start + end);
}
