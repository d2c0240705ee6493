// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) written from exchanges and read back
// for replay. Fields of our own start with `_`, as the format allows: `_attempts` keeps each try
// of a request and why it was retried, `_error` how a request without a reply failed.

import { openPartialFile } from '../export';
import { inertJson } from '../reports/safeText';
import type { Exchange, ExchangeAttempt } from '../service';

export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: never[];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string; params?: never[] };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: never[];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: HarTimings;
  /** The server's IP address, when the connection said. */
  serverIPAddress?: string;
  _attempts?: ExchangeAttempt[];
  _error?: { kind: string; message: string };
}

/** HAR's phases, in ms; -1 where a phase does not apply (no lookup, a connection reused). */
export interface HarTimings {
  blocked?: number;
  dns?: number;
  connect?: number;
  ssl?: number;
  send: number;
  wait: number;
  receive: number;
}

/**
 * The exchange's time as HAR's phases, from its last attempt (the one that was answered): what
 * came before that attempt's connection (earlier attempts, the waits between them, the queue) is
 * `blocked`, so the phases add up to the exchange's time (harTime) as the format asks. An
 * exchange without timings (kept before they were measured) is all `wait`.
 */
export function harTimingsOf(exchange: Exchange): HarTimings {
  const t = exchange.attempts[exchange.attempts.length - 1]?.timings;
  if (!t) return { send: 0, wait: exchange.durationMs, receive: 0 };
  const dns = t.dnsMs ?? -1;
  const ssl = t.tlsMs ?? -1;
  // HAR's connect includes the TLS handshake.
  const connect = t.connectMs === undefined ? -1 : t.connectMs + Math.max(ssl, 0);
  const send = t.sendMs ?? 0;
  const wait = t.firstByteMs ?? 0;
  const receive = t.downloadMs ?? 0;
  const measured = Math.max(dns, 0) + Math.max(connect, 0) + send + wait + receive;
  const blocked = Math.max(0, Math.round((exchange.durationMs - measured) * 10) / 10);
  return { blocked, dns, connect, ssl, send, wait, receive };
}

/**
 * An entry's `time`: the sum of its phases (-1 counts nothing; `ssl` is inside `connect`). The
 * exchange's own time is whole ms and the phases tenths, so the sum, not the rounded time, is the
 * one the phases always add up to.
 */
function harTime(t: HarTimings): number {
  const sum = [t.blocked, t.dns, t.connect, t.send, t.wait, t.receive].reduce<number>((n, v) => n + Math.max(v ?? 0, 0), 0);
  return Math.round(sum * 10) / 10;
}

/** `127.0.0.1` of `127.0.0.1:8787`, `::1` of `[::1]:443`. */
function ipOf(remote: string | undefined): string | undefined {
  if (!remote) return undefined;
  const bracketed = /^\[([^\]]+)\]/.exec(remote);
  if (bracketed) return bracketed[1];
  const colon = remote.lastIndexOf(':');
  return colon > 0 ? remote.slice(0, colon) : remote;
}

export interface HarLog {
  log: {
    version: '1.2';
    creator: { name: string; version: string; comment?: string };
    entries: HarEntry[];
    comment?: string;
  };
}

export function harEntryOf(exchange: Exchange): HarEntry {
  const url = new URL(exchange.url);
  const requestType = Object.entries(exchange.requestHeaders).find(([n]) => n.toLowerCase() === 'content-type')?.[1];
  const timings = harTimingsOf(exchange);
  const entry: HarEntry = {
    startedDateTime: exchange.startedAt,
    time: harTime(timings),
    request: {
      method: exchange.method,
      url: exchange.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: Object.entries(exchange.requestHeaders).map(([name, value]) => ({ name, value })),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      headersSize: -1,
      bodySize: exchange.requestBody === undefined ? 0 : Buffer.byteLength(exchange.requestBody),
    },
    response: {
      status: exchange.status ?? 0,
      statusText: exchange.statusText ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: Object.entries(exchange.responseHeaders).map(([name, value]) => ({ name, value })),
      content: {
        size: exchange.responseBytes ?? 0,
        mimeType: exchange.contentType ?? 'x-unknown',
        ...(exchange.responseBody !== undefined ? { text: exchange.responseBody } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: exchange.responseBody === undefined ? -1 : Buffer.byteLength(exchange.responseBody),
    },
    cache: {},
    timings,
  };
  const ip = ipOf(exchange.attempts[exchange.attempts.length - 1]?.timings?.remote);
  if (ip !== undefined) entry.serverIPAddress = ip;
  if (exchange.requestBody !== undefined) entry.request.postData = { mimeType: requestType ?? 'application/json', text: exchange.requestBody };
  if (exchange.attempts.length > 1) entry._attempts = [...exchange.attempts];
  if (exchange.error) entry._error = { ...exchange.error };
  return entry;
}

export function harLog(entries: HarEntry[], creator: { name: string; version: string }, comment?: string): HarLog {
  return { log: { version: '1.2', creator, entries, ...(comment ? { comment } : {}) } };
}

/**
 * A HAR file's text read as a log, with the entries a replay can use checked; throws an Error
 * that names the file and what is wrong.
 */
export function readHar(text: string, name: string): HarLog {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new Error(`${name} is not JSON (${err instanceof Error ? err.message : String(err)}); a recording is a HAR file`);
  }
  const log = value && typeof value === 'object' ? (value as { log?: unknown }).log : undefined;
  const entries = log && typeof log === 'object' ? (log as { entries?: unknown }).entries : undefined;
  if (!Array.isArray(entries)) throw new Error(`${name} is not a HAR file: it has no log.entries array`);
  entries.forEach((entry: unknown, i) => {
    const e = entry as Partial<HarEntry> | null;
    if (!e || typeof e !== 'object' || typeof e.request?.url !== 'string' || typeof e.request.method !== 'string' || typeof e.response?.status !== 'number') {
      throw new Error(`${name}: entry ${i + 1} is not a HAR entry (it needs request.method, request.url and response.status)`);
    }
  });
  return value as HarLog;
}

/** Writes a recording under a temporary name and renames it into place, so no half file is left. */
export function writeHar(file: string, har: HarLog): void {
  const out = openPartialFile(file);
  try {
    // Inert as the JSON exports are: a recorded body's direction overrides and C1 controls as \uXXXX.
    out.write(`${inertJson(JSON.stringify(har, null, 2))}\n`);
    out.commit();
  } finally {
    out.discard();
  }
}
