// Saved requests run as checks (`health-data run`): each request of a saved-requests file sent
// again through the client, its reply validated as the exchange view validates it, and a verdict:
// passed (a 2xx whose records, or token, break no rule that fails the run; or the refusal the
// request expects, in the service's error form), or failed and why.
// What the run reports in text, JSON and JUnit XML is made here too, so CI and a terminal read
// the same verdicts.

import { checkClientTokenReply, validate } from '../validation';
import type { Finding, FindingKind } from '../validation';
import { FINDING_KINDS } from '../validation/findings';
import { DEFAULT_FAIL_ON, type FailOn, type FailRule, findingFails, unusualZeros } from '../reports/failOn';
import { ZeroTally } from '../views/zeroContext';
import type { ResourceKind } from '../resources';
import { xmlText } from '../reports/safeText';
import { redact } from '../errors';
import { looksLikeHtml, msFigure, parseJson, serviceMessageOf, statusLine, unwrapList, type Exchange } from '../service';
import type { HistoryEntry } from './history';
import { pathAndQuery } from './history';
import { draftFromExchange, type RequestDraft } from './requestDraft';
import { exchangeOfDraft } from './sendDraft';

export type RunVerdict = 'passed' | 'failed';

/**
 * What a failed run fell on: the request (not sent, no answer), the status (not the one expected),
 * the reply (no body, not JSON, not a record, not the service's error form), its records'
 * findings, or the time (the first byte later than the request's limit).
 */
export type RunFailure = 'request' | 'status' | 'reply' | 'findings' | 'time';

export interface SavedRunResult {
  /** The saved request's name. */
  readonly name: string;
  readonly method: string;
  /** What was sent: path and query, without scheme and host (the environment's own). */
  readonly path: string;
  readonly verdict: RunVerdict;
  /** Why it failed, in a sentence. */
  readonly problem?: string;
  /** What it failed on. */
  readonly failure?: RunFailure;
  /** The status the saved request expects (Set Expected Status…); absent, any 2xx. */
  readonly expectedStatus?: number;
  /** The longest the saved request may wait for the first byte, ms (Set Time Limit…); absent, no limit. */
  readonly timeLimitMs?: number;
  /** The findings that fail the saved request besides errors and the run's own (Set Findings That Fail…); absent, none. */
  readonly failOn?: readonly FailRule[];
  /** How long the service took to its first byte on the answered attempt, ms to a tenth. */
  readonly firstByteMs?: number;
  readonly status?: number;
  readonly statusText?: string;
  readonly durationMs?: number;
  readonly attempts?: number;
  /** Records in the reply (a list page's, or 1), when it held any. */
  readonly records?: number;
  /** Records that break a rule that fails the run (errors, and the kinds of --fail-on). */
  readonly failingRecords?: number;
  /** Findings of the reply's records (or the token reply's), by kind. */
  readonly counts?: Readonly<Record<FindingKind, number>>;
  /** Of `counts.zero`, the zeros that stand out among the other records of their source in the reply (a list page); absent when none does. */
  readonly unusual?: number;
  readonly requestId?: string;
  /** The id of the exchange the request made (the extension opens it). */
  readonly exchangeId?: string;
}

export interface RunOptions {
  /** Sends a draft through the client; every exchange it makes reaches `exchanges`. */
  readonly send: (draft: RequestDraft, signal?: AbortSignal) => Promise<unknown>;
  /** The exchanges made since the last call (the client's onExchange), taken. */
  readonly takeExchanges: () => Exchange[];
  readonly failOn?: FailOn;
  readonly signal?: AbortSignal;
  /** Values to redact from a failure's message. */
  readonly secrets?: readonly (string | undefined)[];
}

/** Runs one saved request and says how it went. Never throws: a failure is a verdict. */
export async function runSavedRequest(entry: HistoryEntry, options: RunOptions): Promise<SavedRunResult> {
  // The run's rules (--fail-on) and the request's own (Set Findings That Fail…).
  const failOn: FailOn = entry.failOn?.length ? new Set([...(options.failOn ?? DEFAULT_FAIL_ON), ...entry.failOn]) : (options.failOn ?? DEFAULT_FAIL_ON);
  const expected = entry.expectStatus;
  const limit = entry.timeLimitMs;
  const base = {
    name: entry.savedAs ?? '',
    method: entry.method,
    path: pathAndQuery(entry.url),
    ...(expected !== undefined ? { expectedStatus: expected } : {}),
    ...(limit !== undefined ? { timeLimitMs: limit } : {}),
    ...(entry.failOn?.length ? { failOn: entry.failOn } : {}),
  };
  const draft = draftFromExchange(entry);
  if (!draft) return { ...base, verdict: 'failed', failure: 'request', problem: `${base.method} ${base.path} is not one of the service's endpoints, so it cannot be sent.` };
  options.takeExchanges();
  let failure: unknown;
  try {
    await options.send(draft, options.signal);
  } catch (err) {
    failure = err;
  }
  const made = options.takeExchanges();
  const exchange = exchangeOfDraft(made, draft);
  const message = (err: unknown): string => redact(err instanceof Error ? err.message : String(err), options.secrets ?? []);
  if (!exchange) return { ...base, verdict: 'failed', failure: 'request', problem: failure ? message(failure) : 'The request left no exchange.' };
  const status = exchange.status;
  const firstByte = exchange.attempts[exchange.attempts.length - 1]?.timings?.firstByteMs;
  const sent = {
    ...base,
    path: pathAndQuery(exchange.url),
    ...(status !== undefined ? { status } : {}),
    ...(exchange.statusText ? { statusText: exchange.statusText } : {}),
    durationMs: exchange.durationMs,
    attempts: exchange.attempts.length,
    ...(exchange.requestId ? { requestId: exchange.requestId } : {}),
    ...(firstByte !== undefined ? { firstByteMs: firstByte } : {}),
    exchangeId: exchange.id,
  };
  // The time limit is checked last: a request that fails on what it got fails on that.
  const passed = (result: Omit<SavedRunResult, 'verdict'>): SavedRunResult => {
    const waited = firstByte ?? exchange.durationMs;
    if (limit === undefined || waited <= limit) return { ...result, verdict: 'passed' };
    const problem = firstByte !== undefined ? `The first byte came after ${`${msFigure(waited)} ms`}; the limit is ${limit} ms.` : `The reply took ${waited} ms; the limit is ${limit} ms.`;
    return { ...result, verdict: 'failed', failure: 'time', problem };
  };
  const answered = exchange.error?.message ?? (failure ? message(failure) : status !== undefined ? statusLine(status, exchange.statusText) : 'No answer');
  const fail = (on: RunFailure, problem: string): SavedRunResult => ({ ...sent, verdict: 'failed', failure: on, problem: redact(problem, options.secrets ?? []) });
  if (status === undefined) return fail('request', expected !== undefined ? `Expected ${statusLine(expected)}; ${answered}` : answered);
  if (expected !== undefined && status !== expected) {
    const said = serviceSaid(exchange.responseBody, status);
    const got = `${statusLine(status, exchange.statusText)}${said ? `: ${said}` : ''}`;
    return fail('status', `Expected ${statusLine(expected)}; the service answered ${got}${/[.!?]$/.test(got) ? '' : '.'}`);
  }
  if (expected !== undefined && (expected < 200 || expected >= 300)) {
    // The refusal expected (a 404 for a record that is not there): it must still be the service's own.
    const problem = expected >= 400 ? errorReplyProblem(exchange, expected) : undefined;
    return problem ? fail('reply', problem) : passed(sent);
  }
  if (failure || exchange.error || status < 200 || status >= 300) return fail(status < 200 || status >= 300 ? 'status' : 'reply', answered);
  const reply = replyFindings(exchange, draft);
  if ('problem' in reply) return fail('reply', reply.problem);
  const counts = Object.fromEntries(FINDING_KINDS.map((k) => [k, 0])) as Record<FindingKind, number>;
  let failingRecords = 0;
  let unusual = 0;
  for (const findings of reply.findings) {
    for (const f of findings) {
      counts[f.kind]++;
      if (f.standsOut === true) unusual++;
    }
    if (findings.some((f) => findingFails(f, failOn))) failingRecords++;
  }
  const records = reply.findings.length;
  const result = { ...sent, ...(draft.endpoint === 'token' ? {} : { records }), failingRecords, counts, ...(unusual > 0 ? { unusual } : {}) };
  if (failingRecords > 0) {
    const what = draft.endpoint === 'token' ? 'The token reply breaks' : records === 1 ? 'The record breaks' : `${failingRecords} of ${records} records break`;
    const kinds = FINDING_KINDS.filter((k) => failOn.has(k) && counts[k] > 0).map((k) => kindCount(k, counts[k]));
    if (failOn.has('unusual') && !failOn.has('zero') && unusual > 0) kinds.push(unusualZeros(unusual));
    return { ...result, verdict: 'failed', failure: 'findings', problem: `${what} the rules that fail the run: ${kinds.join(', ')}.` };
  }
  return passed(result);
}


/** What the service said in an error body (its message), cut to one short line; undefined for a record. */
function serviceSaid(body: string | undefined, status: number): string | undefined {
  const parsed = status >= 400 && body ? parseJson(body) : undefined;
  const said = parsed?.ok ? serviceMessageOf(parsed.value, status) : undefined;
  return said?.replace(/\s+/g, ' ').slice(0, 200);
}

/**
 * Why an error reply is not in the service's error form `{"statusCode": 404, "error": "Not Found",
 * "message": "…"}` (the conventions' errors), or undefined when it is.
 */
export function errorReplyProblem(exchange: Pick<Exchange, 'responseBody' | 'contentType'>, status: number): string | undefined {
  const form = '{statusCode, error, message}';
  const body = exchange.responseBody ?? '';
  const reply = `The ${status} reply`;
  if (body.trim() === '') return `${reply} has no body: the service's errors are JSON ${form}.`;
  if (looksLikeHtml(body, exchange.contentType ?? null)) return `${reply} is an HTML page (a proxy's or a gateway's?), not the service's JSON error ${form}.`;
  const json = parseJson(body);
  if (!json.ok) return `${reply} is not JSON, so not the service's error ${form}.`;
  const parsed = json.value;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return `${reply} is not the service's error ${form}: it is ${Array.isArray(parsed) ? 'a list' : 'not an object'}.`;
  const rec = parsed as Record<string, unknown>;
  const faults: string[] = [];
  if (rec.statusCode === undefined) faults.push('no statusCode');
  else if (rec.statusCode !== status) faults.push(`statusCode ${JSON.stringify(rec.statusCode).slice(0, 20)}, not ${status}`);
  for (const field of ['error', 'message'] as const) {
    const v = rec[field];
    if (v === undefined) faults.push(`no ${field}`);
    else if (typeof v !== 'string' || v.trim() === '') faults.push(`${field} not a text`);
  }
  return faults.length ? `${reply} breaks the service's error form ${form}: ${faults.join(', ')}.` : undefined;
}

/** A finding of a reply's record; `standsOut` on a 0 that stands out among the page's other records of its source. */
type ReplyFinding = Finding & { readonly standsOut?: true };

/** The findings of each record of a list page, its zeros compared with the page's other records of their source (as the exchange view says them). */
function pageFindings(records: readonly unknown[], kind: ResourceKind | undefined): ReplyFinding[][] {
  const tally = new ZeroTally('in this reply');
  for (const r of records) tally.add(kind, r);
  return records.map((r) =>
    validate(r, kind).findings.map((f): ReplyFinding => (f.kind === 'zero' && tally.sayZero(kind, r, f)?.standsOut === true ? { ...f, standsOut: true } : f)),
  );
}

/** The findings of each record of a 2xx reply (the token reply's for a mint), or why there are none to check. */
function replyFindings(exchange: Exchange, draft: RequestDraft): { findings: ReplyFinding[][] } | { problem: string } {
  const body = exchange.responseBody;
  if (body === undefined || body === '') return { problem: 'The reply has no body.' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (err) {
    return { problem: `The reply is not JSON (${err instanceof Error ? err.message : String(err)}).` };
  }
  if (draft.endpoint === 'token') return { findings: [checkClientTokenReply(parsed)] };
  if (draft.endpoint === 'list') {
    let records: unknown[];
    try {
      records = unwrapList(parsed, exchange.url).records;
    } catch (err) {
      return { problem: `The reply is not a list of records: ${err instanceof Error ? err.message : String(err)}` };
    }
    return { findings: pageFindings(records, draft.kind) };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { problem: 'The reply is not a record (a JSON object).' };
  return { findings: [validate(parsed, draft.kind).findings] };
}

/** The results as a JSON report: `{ requests, passed, failed }`. */
export function runJson(results: readonly SavedRunResult[]): string {
  const passed = results.filter((r) => r.verdict === 'passed').length;
  // The exchange ids mean something only inside the process that made them.
  const requests = results.map(({ exchangeId: _id, ...rest }) => rest);
  return `${JSON.stringify({ requests, passed, failed: results.length - passed }, null, 2)}\n`;
}

/** The results as JUnit XML: one testsuite named by the file, a testcase per saved request. */
export function runJunit(file: string, results: readonly SavedRunResult[]): string {
  const failed = results.filter((r) => r.verdict === 'failed').length;
  const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3);
  const total = results.reduce((s, r) => s + (r.durationMs ?? 0), 0);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="health-data run" tests="${results.length}" failures="${failed}" time="${seconds(total)}">`];
  lines.push(`  <testsuite name="${xmlText(file)}" tests="${results.length}" failures="${failed}" errors="0" time="${seconds(total)}">`);
  for (const r of results) {
    const head = `    <testcase name="${xmlText(r.name)}" classname="${xmlText(`${r.method} ${r.path}`)}" time="${seconds(r.durationMs)}"`;
    const out = outLine(r);
    if (r.verdict === 'passed') {
      lines.push(out ? `${head}>\n      <system-out>${xmlText(out, true)}</system-out>\n    </testcase>` : `${head}/>`);
    } else {
      const problem = r.problem ?? 'failed';
      lines.push(`${head}>\n      <failure message="${xmlText(problem)}" type="${r.failure ?? 'request'}">${xmlText([problem, out].filter(Boolean).join('\n'), true)}</failure>\n    </testcase>`);
    }
  }
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.join('\n')}\n`;
}

/**
 * A result as `health-data run` prints it: `PASS  name  GET /path`, then its facts and why it
 * failed, indented. `verdict` dresses the word (the CLI's colours); `clean` makes a value
 * printable in at most `max` characters (the CLI's control characters).
 */
export function resultLines(r: SavedRunResult, options: { readonly verdict?: (word: string) => string; readonly clean?: (text: string, max: number) => string } = {}): string[] {
  const clean = options.clean ?? ((text: string) => text);
  const word = r.verdict === 'passed' ? 'PASS' : 'FAIL';
  const lines = [`${options.verdict?.(word) ?? word}  ${clean(r.name, 80)}  ${r.method} ${clean(r.path, 120)}`];
  const facts = outLine(r);
  if (facts) lines.push(`      ${facts}`);
  if (r.problem) lines.push(`      ${clean(r.problem, 300)}`);
  return lines;
}

/**
 * `200 OK · 3 records · 2 zero, 1 deprecated · 34 ms · request id abc`, `404 Not Found, as
 * expected · 5 ms`: the facts of a result.
 */
export function outLine(r: SavedRunResult): string {
  const parts: string[] = [];
  if (r.status !== undefined) parts.push(`${r.status}${r.statusText ? ` ${r.statusText}` : ''}${r.status === r.expectedStatus ? ', as expected' : ''}`);
  if (r.records !== undefined) parts.push(r.records === 1 ? '1 record' : `${r.records} records`);
  if (r.counts) {
    const found = FINDING_KINDS.filter((k) => r.counts![k] > 0).map((k) => (k === 'zero' && r.unusual ? `${kindCount(k, r.counts![k])} (${r.unusual} unusual)` : kindCount(k, r.counts![k])));
    if (found.length) parts.push(found.join(', '));
  }
  if (r.durationMs !== undefined) parts.push(`${Math.round(r.durationMs)} ms`);
  if (r.timeLimitMs !== undefined && r.firstByteMs !== undefined) parts.push(`first byte after ${`${msFigure(r.firstByteMs)} ms`} (limit ${r.timeLimitMs} ms)`);
  if (r.attempts !== undefined && r.attempts > 1) parts.push(`${r.attempts} attempts`);
  if (r.requestId) parts.push(`request id ${r.requestId}`);
  return parts.join(' · ');
}

/** `1 error`, `3 errors`, `2 warnings`, `4 zero`, `1 deprecated`: a count of findings of one kind. */
function kindCount(kind: FindingKind, n: number): string {
  return `${n} ${kind}${n !== 1 && (kind === 'error' || kind === 'warning') ? 's' : ''}`;
}
