// What one attempt came to: a JSON body, or a failure with its kind and whether trying again
// may help. The transport (http.ts) decides what to do with it; nothing here waits or logs.

import { HealthDataErrorKind } from '../errors';
import {
  excerpt,
  looksLikeHtml,
  parseJson,
  parseRetryAfter,
  requestIdOf,
  serviceMessageOf,
  statusInBody,
  statusLine,
} from './replyCheck';

export interface FailureInfo {
  status?: number;
  serviceMessage?: string;
  requestId?: string;
  retryAfterMs?: number;
}

/** One attempt's failure, before it becomes the HealthDataError the caller sees. */
export class AttemptFailure extends Error {
  constructor(
    readonly kind: HealthDataErrorKind,
    /** What happened, after `GET /path: `. */
    readonly detail: string,
    readonly retryable: boolean,
    readonly info: FailureInfo = {},
  ) {
    super(detail);
  }
}

/** GET is retried on these; everything else (500 included) is an answer to report. */
const RETRY_STATUSES = new Set([429, 502, 503]);
const NETWORK_PHRASES: Record<string, string> = {
  ECONNRESET: 'the connection was reset',
  ECONNREFUSED: 'the connection was refused',
  ERR_STREAM_PREMATURE_CLOSE: 'the connection closed early (premature close)',
  EPIPE: 'the connection broke',
  ETIMEDOUT: 'the connection timed out',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be resolved just now',
};
/** Network failures that another try will not mend. */
const PERMANENT_NETWORK_CODES = new Set(['ENOTFOUND', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID']);

export interface RawReply {
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
}

/**
 * The JSON body of a reply, or the failure it is: an error status (with the service's message
 * and request id), an error status inside a 2xx body, an HTML page, a body that is not JSON.
 */
export function interpretReply(
  method: string,
  res: RawReply,
  text: string,
  requestIdHeader: string | null = res.headers.get('x-request-id'),
): { body: unknown; requestId?: string } {
  const parsed = parseJson(text);
  const body = parsed.ok ? parsed.value : undefined;
  const requestId = requestIdOf(requestIdHeader, body);
  const ok = res.status >= 200 && res.status < 300;
  if (ok && parsed.ok) {
    const hidden = statusInBody(body);
    if (hidden === undefined) return { body, requestId };
    const detail = `${statusLine(hidden)}${said(body, hidden)} (in the body of a ${res.status} reply)`;
    throw statusFailure(method, hidden, detail, { serviceMessage: serviceMessageOf(body, hidden), requestId });
  }
  // Read only on the way to a failure: a page that parsed never needs it.
  const contentType = res.headers.get('content-type');
  if (ok) {
    const what = text.trim() === ''
      ? 'the reply is empty, not JSON'
      : looksLikeHtml(text, contentType)
        ? `${statusLine(res.status, res.statusText)}: the server answered with an HTML page, not JSON`
        : 'the reply is not valid JSON (truncated?)';
    throw new AttemptFailure('parse', what, false, { status: res.status, requestId });
  }
  // 503 may carry Retry-After as well as 429 (RFC 9110); both are honoured.
  const retryAfterMs = res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers.get('retry-after')) : undefined;
  let detail = statusLine(res.status, res.statusText);
  let serviceMessage: string | undefined;
  if (parsed.ok) {
    serviceMessage = serviceMessageOf(body, res.status);
    detail += said(body, res.status);
  } else if (looksLikeHtml(text, contentType)) {
    detail += ': the server answered with an HTML page, not JSON';
  } else {
    serviceMessage = excerpt(text);
    if (serviceMessage) detail += `: ${serviceMessage}`;
  }
  throw statusFailure(method, res.status, detail, { serviceMessage, requestId, retryAfterMs });
}

function said(body: unknown, status: number): string {
  const message = serviceMessageOf(body, status);
  return message ? `: ${message}` : '';
}

/** 401 and 403 are auth errors; 429, 502 and 503 may be retried (GET only). */
function statusFailure(method: string, status: number, detail: string, info: FailureInfo): AttemptFailure {
  const kind: HealthDataErrorKind = status === 401 || status === 403 ? 'auth' : 'http';
  return new AttemptFailure(kind, detail, method === 'GET' && RETRY_STATUSES.has(status), { ...info, status });
}

/** A reply whose body stopped before its end: a network failure, worth another GET. */
export function cutShort(method: string, status: number, code?: string): AttemptFailure {
  return new AttemptFailure('network', `the reply was cut short after ${statusLine(status)} (truncated body${code ? `, ${code}` : ''})`, method === 'GET', { status });
}

/** A failure below HTTP: refused, reset, closed early, no such host. */
export function networkFailure(err: unknown, method: string, info: FailureInfo): AttemptFailure {
  const code = errorCode(err);
  const phrase = code === undefined ? undefined : NETWORK_PHRASES[code];
  const detail = phrase ? `network error: ${phrase} (${code})` : `network error: the request failed: ${errorText(err)}`;
  const retryable = method === 'GET' && isSystemError(err) && !(code && PERMANENT_NETWORK_CODES.has(code));
  return new AttemptFailure('network', detail, retryable, info);
}

export function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code;
  return /premature close/i.test(errorText(err)) ? 'ERR_STREAM_PREMATURE_CLOSE' : undefined;
}

/** node-fetch's FetchError of type 'system', or any error with a system code. */
function isSystemError(err: unknown): boolean {
  const e = err as { type?: unknown; code?: unknown } | undefined;
  return e?.type === 'system' || typeof e?.code === 'string';
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
