// Reads what the service answered before the client trusts it: the status line, whether the
// body is JSON or an HTML page from a proxy, an error hidden in a 200 body, request ids, Retry-After.

import { STATUS_CODES } from 'node:http';

/** `503 Service Unavailable`: the standard reason phrase, whatever the server wrote. */
export function statusLine(status: number, statusText?: string): string {
  const phrase = STATUS_CODES[status] ?? statusText ?? '';
  return phrase ? `${status} ${phrase}` : String(status);
}

/** An HTML page where JSON was expected: a proxy's error page, a login portal, a CDN banner. */
export function looksLikeHtml(text: string, contentType: string | null): boolean {
  if (contentType && /\btext\/html\b/i.test(contentType)) return true;
  const head = text.trimStart().slice(0, 64).toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || head.startsWith('<head') || head.startsWith('<body');
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The request id of a reply: the X-Request-Id header, else a `requestId`/`request_id` field. */
export function requestIdOf(header: string | null, body: unknown): string | undefined {
  const fromHeader = header?.trim();
  if (fromHeader) return fromHeader;
  const rec = asRecord(body);
  return rec ? text(rec.requestId) ?? text(rec.request_id) : undefined;
}

/**
 * What the service said in an error body `{statusCode, error, message}`: its message, or its
 * `error` when that is more than the reason phrase again.
 */
export function serviceMessageOf(body: unknown, status: number): string | undefined {
  const rec = asRecord(body);
  if (!rec) return undefined;
  const message = text(rec.message) ?? text(rec.error_description) ?? text(rec.detail);
  const error = text(rec.error);
  const phrase = STATUS_CODES[status];
  if (message && error && error !== phrase && !message.includes(error)) return `${error}: ${message}`;
  return message ?? (error !== phrase ? error : undefined);
}

/**
 * An error status carried in the JSON of a 2xx reply: `{"status": 401, …}` or
 * `{"statusCode": 503, "error": …}`. Records never carry either field as a number of that range.
 */
export function statusInBody(body: unknown): number | undefined {
  const rec = asRecord(body);
  if (!rec) return undefined;
  const isErrorStatus = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 400 && v <= 599;
  if (isErrorStatus(rec.status)) return rec.status;
  if (isErrorStatus(rec.statusCode) && ('error' in rec || 'message' in rec)) return rec.statusCode;
  return undefined;
}

/** A short, single-line excerpt of a non-JSON error body, so a proxy's words are not lost. */
export function excerpt(body: string, max = 200): string | undefined {
  const line = body.replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/**
 * Retry-After in milliseconds: delta-seconds or an HTTP-date. Undefined when absent or
 * unreadable; never negative.
 */
export function parseRetryAfter(value: string | null, nowMs: number = Date.now()): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** X-Total-Count as a count, or undefined when absent or not a whole number. */
export function parseTotalCount(value: string | null): number | undefined {
  const v = value?.trim();
  if (!v || !/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
}
