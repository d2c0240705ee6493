// The request history: the last N exchanges, newest first, as a workspace keeps them across
// reloads. Every string is redacted once more before it is kept (a token the client did not
// know yet, a secret in an error text), bodies are capped, and what comes back from storage is
// checked field by field: storage is never trusted.

import { redact } from '../errors';
import { isResourceKind } from '../resources';
import { type FailRule, failRulesOf } from '../validation/failRules';
import { hasInvisibleControls } from '../views/labels';
import { attemptTimingsOf, type Exchange, type ExchangeAttempt, type ExchangeEndpoint } from '../service';

/** An exchange as the history keeps it: which environment it went to, and how much body was cut. */
export interface HistoryEntry extends Exchange {
  /** The environment's name when it was sent. */
  readonly environment?: string;
  /** Bytes of the body left out to keep the history small (the body kept is its start). */
  readonly bodyCutBytes?: number;
  /**
   * The name it was saved under (the History view's Saved group): a saved request is kept
   * whatever the history's size, until it is removed from Saved.
   */
  readonly savedAs?: string;
  /**
   * The status a run of this saved request expects (Set Expected Status…): a code from 100 to
   * 599. Absent, a run expects a 2xx whose records break no rule.
   */
  readonly expectStatus?: number;
  /**
   * The longest a run of this saved request may wait for the service's first byte, in ms (Set
   * Time Limit…): a whole number from 1 to MAX_TIME_LIMIT_MS. Absent, no limit.
   */
  readonly timeLimitMs?: number;
  /**
   * The findings that also fail a run of this saved request besides errors (Set Findings That
   * Fail…), as `health-data run --fail-on` names them, added to the run's own. Absent: errors only.
   */
  readonly failOn?: readonly FailRule[];
}

/** The longest time limit a saved request can have: ten minutes. */
export const MAX_TIME_LIMIT_MS = 600_000;

/** Whether `v` can be a saved request's time limit: a whole number of ms from 1 to MAX_TIME_LIMIT_MS. */
export function isTimeLimit(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_TIME_LIMIT_MS;
}


/** Whether `v` can be a saved request's expected status: a whole number from 100 to 599. */
export function isExpectableStatus(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 100 && v <= 599;
}

export const DEFAULT_HISTORY_SIZE = 50;
export const MAX_HISTORY_SIZE = 500;
/** Bodies kept in storage are cut to this many characters; the session's own copy keeps more. */
export const STORED_BODY_LIMIT = 64 * 1024;
/** All bodies kept in storage together, in characters: older entries beyond it keep no body. */
export const STORED_BODIES_BUDGET = 1024 * 1024;

/** Saved requests a workspace keeps at most, and the longest name one may have. */
export const MAX_SAVED_REQUESTS = 100;
export const MAX_SAVED_NAME = 80;

/**
 * What keeps `name` from naming a saved request, or undefined: nothing but spaces, longer than
 * MAX_SAVED_NAME, or a control character or direction mark in it.
 */
export function savedNameFault(name: string): 'empty' | 'long' | 'controls' | undefined {
  if (!name.trim()) return 'empty';
  if (name.length > MAX_SAVED_NAME) return 'long';
  return hasInvisibleControls(name) ? 'controls' : undefined;
}

/** Header names whose values never go into the history at all, whatever they hold. */
const DROPPED_HEADERS = /^(?:authorization|proxy-authorization|cookie|set-cookie|x-api-key)$/i;

/** The history size from a setting's value: a whole number in 1…MAX_HISTORY_SIZE, else the default. */
export function historySize(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? Math.min(value, MAX_HISTORY_SIZE) : DEFAULT_HISTORY_SIZE;
}

/**
 * An exchange made safe to keep: every string redacted against `secrets` (and anything shaped
 * like a token), credential headers reduced to their scheme word, the body cut to `bodyLimit`.
 */
export function toHistoryEntry(exchange: Exchange, options: { secrets: readonly (string | undefined)[]; bodyLimit: number; environment?: string }): HistoryEntry {
  const clean = (text: string): string => redact(text, options.secrets);
  const headers = (h: Readonly<Record<string, string>>): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(h)) {
      const scheme = /^([A-Za-z][\w-]*) +\S/.exec(value);
      out[name] = DROPPED_HEADERS.test(name) ? (scheme ? `${scheme[1]} [redacted]` : '[redacted]') : clean(value);
    }
    return out;
  };
  const entry: { -readonly [K in keyof HistoryEntry]: HistoryEntry[K] } = {
    ...exchange,
    url: clean(exchange.url),
    requestHeaders: headers(exchange.requestHeaders),
    responseHeaders: headers(exchange.responseHeaders),
    attempts: exchange.attempts.map((a) => ({
      ...a,
      ...(a.error !== undefined ? { error: clean(a.error) } : {}),
      ...(a.retryReason !== undefined ? { retryReason: clean(a.retryReason) } : {}),
    })),
  };
  if (exchange.requestBody !== undefined) entry.requestBody = clean(exchange.requestBody);
  if (exchange.statusText !== undefined) entry.statusText = clean(exchange.statusText);
  if (exchange.requestId !== undefined) entry.requestId = clean(exchange.requestId);
  if (exchange.contentType !== undefined) entry.contentType = clean(exchange.contentType);
  if (exchange.error) entry.error = { kind: exchange.error.kind, message: clean(exchange.error.message) };
  if (options.environment !== undefined) entry.environment = options.environment;
  if (exchange.responseBody !== undefined) {
    const body = clean(exchange.responseBody);
    if (body.length > options.bodyLimit) {
      entry.responseBody = body.slice(0, options.bodyLimit);
      entry.bodyCutBytes = Buffer.byteLength(body.slice(options.bodyLimit)) + ((exchange as HistoryEntry).bodyCutBytes ?? 0);
    } else {
      entry.responseBody = body;
    }
  }
  return entry;
}

/**
 * The history as storage keeps it: each body cut to STORED_BODY_LIMIT, and once the bodies kept
 * reach STORED_BODIES_BUDGET, older entries keep their request, status, headers and attempts
 * but no body. Storage is written on every change: it must stay small.
 */
export function forStorage(history: readonly HistoryEntry[]): HistoryEntry[] {
  let budget = STORED_BODIES_BUDGET;
  return history.map((e) => {
    const limit = Math.max(0, Math.min(STORED_BODY_LIMIT, budget));
    const entry = toHistoryEntry(e, { secrets: [], bodyLimit: limit });
    budget -= entry.responseBody?.length ?? 0;
    return entry;
  });
}

/** The history with `entry` added first and the oldest beyond `size` dropped (saved ones are kept). */
export function addToHistory(history: readonly HistoryEntry[], entry: HistoryEntry, size: number): HistoryEntry[] {
  return trimHistory([entry, ...history.filter((e) => e.id !== entry.id)], size);
}

/** The newest `size` entries that are not saved, and every saved one, in the history's order. */
export function trimHistory(history: readonly HistoryEntry[], size: number): HistoryEntry[] {
  let unsaved = 0;
  return history.filter((e) => e.savedAs !== undefined || unsaved++ < size);
}

/** How an exchange ended, for its icon: fine, fine after retries, refused (4xx), failed (5xx, network). */
export type ExchangeOutcome = 'ok' | 'retried' | 'clientError' | 'failed';

export function outcomeOf(e: Exchange): ExchangeOutcome {
  if (e.status === undefined || e.status >= 500) return 'failed';
  if (e.status >= 400) return 'clientError';
  // A 200 can still fail: a body cut short, not JSON, an error status inside it.
  if (e.error) return 'failed';
  return e.attempts.length > 1 ? 'retried' : 'ok';
}

/** The entries by the local calendar day they started on (offset in minutes east of UTC), newest day first. */
export function groupByDay(entries: readonly HistoryEntry[], offsetMinutes: (epochMs: number) => number): Array<{ day: string; entries: HistoryEntry[] }> {
  const days = new Map<string, HistoryEntry[]>();
  for (const e of entries) {
    const ms = Date.parse(e.startedAt);
    const day = Number.isNaN(ms) ? '' : new Date(ms + offsetMinutes(ms) * 60_000).toISOString().slice(0, 10);
    const list = days.get(day);
    if (list) list.push(e);
    else days.set(day, [e]);
  }
  return [...days].map(([day, list]) => ({ day, entries: list })).sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0));
}

const ENDPOINTS: readonly ExchangeEndpoint[] = ['token', 'list', 'getById', 'getByDate', 'getLatest', 'other'];
const str = (v: unknown): v is string => typeof v === 'string';
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function stringRecord(v: unknown): Record<string, string> | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) if (str(value)) out[k] = value;
  return out;
}

function attemptOf(v: unknown): ExchangeAttempt | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const a = v as Record<string, unknown>;
  if (!str(a.startedAt) || !num(a.durationMs)) return undefined;
  const timings = attemptTimingsOf(a.timings);
  return {
    startedAt: a.startedAt,
    durationMs: a.durationMs,
    ...(num(a.status) ? { status: a.status } : {}),
    ...(str(a.error) ? { error: a.error } : {}),
    ...(str(a.retryReason) ? { retryReason: a.retryReason } : {}),
    ...(num(a.waitMs) ? { waitMs: a.waitMs } : {}),
    ...(timings ? { timings } : {}),
  };
}

/** One stored entry, checked: undefined when it is not one (an older format, a broken store). */
export function historyEntryOf(v: unknown): HistoryEntry | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const e = v as Record<string, unknown>;
  const requestHeaders = stringRecord(e.requestHeaders);
  const responseHeaders = stringRecord(e.responseHeaders);
  if (!str(e.id) || !str(e.startedAt) || !str(e.url) || (e.method !== 'GET' && e.method !== 'POST')) return undefined;
  if (!requestHeaders || !responseHeaders || !num(e.durationMs) || !Array.isArray(e.attempts)) return undefined;
  if (!(ENDPOINTS as readonly unknown[]).includes(e.endpoint)) return undefined;
  const error = e.error && typeof e.error === 'object' ? (e.error as Record<string, unknown>) : undefined;
  const entry: { -readonly [K in keyof HistoryEntry]: HistoryEntry[K] } = {
    id: e.id,
    startedAt: e.startedAt,
    purpose: e.endpoint === 'token' ? 'token' : 'data',
    method: e.method,
    url: e.url,
    requestHeaders,
    responseHeaders,
    durationMs: e.durationMs,
    attempts: e.attempts.map(attemptOf).filter((a): a is ExchangeAttempt => a !== undefined),
    endpoint: e.endpoint as ExchangeEndpoint,
  };
  if (str(e.requestBody)) entry.requestBody = e.requestBody;
  if (num(e.status)) entry.status = e.status;
  if (str(e.statusText)) entry.statusText = e.statusText;
  if (str(e.responseBody)) entry.responseBody = e.responseBody;
  if (num(e.responseBytes)) entry.responseBytes = e.responseBytes;
  if (str(e.contentType)) entry.contentType = e.contentType;
  if (str(e.requestId)) entry.requestId = e.requestId;
  if (error && str(error.kind) && str(error.message)) entry.error = { kind: error.kind, message: error.message };
  if (isResourceKind(e.resource)) entry.resource = e.resource;
  if (str(e.environment)) entry.environment = e.environment;
  if (num(e.bodyCutBytes)) entry.bodyCutBytes = e.bodyCutBytes;
  if (str(e.savedAs) && savedNameFault(e.savedAs) === undefined) {
    entry.savedAs = e.savedAs;
    if (isExpectableStatus(e.expectStatus)) entry.expectStatus = e.expectStatus;
    if (isTimeLimit(e.timeLimitMs)) entry.timeLimitMs = e.timeLimitMs;
    const rules = failRulesOf(e.failOn);
    if (rules) entry.failOn = rules;
  }
  return entry;
}

/**
 * A stored history, checked: entries that are not entries are dropped, the order kept; past
 * MAX_SAVED_REQUESTS saved ones (a store no version of this extension wrote), the rest are kept
 * as plain entries.
 */
export function readHistory(stored: unknown): HistoryEntry[] {
  if (!Array.isArray(stored)) return [];
  let saved = 0;
  return stored
    .map(historyEntryOf)
    .filter((e): e is HistoryEntry => e !== undefined)
    .map((e) => {
      if (e.savedAs === undefined || ++saved <= MAX_SAVED_REQUESTS) return e;
      const { savedAs: _dropped, expectStatus: _expect, timeLimitMs: _limit, failOn: _rules, ...plain } = e;
      return plain;
    });
}

/** `GET /v1/human/activities/summaries?limit=10`: an exchange's method and its URL without scheme and host. */
export function requestLine(exchange: Pick<Exchange, 'method' | 'url'>): string {
  return `${exchange.method} ${pathAndQuery(exchange.url)}`;
}

/** `/v1/human/activities/summaries?limit=10`: the URL without scheme and host. */
export function pathAndQuery(url: string): string {
  const scheme = url.indexOf('://');
  if (scheme < 0) return url;
  const slash = url.indexOf('/', scheme + 3);
  return slash < 0 ? '/' : url.slice(slash);
}
