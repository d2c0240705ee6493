// Saved requests run as checks (`health-data run`): each request of a saved-requests file sent
// again through the client, its reply validated as the exchange view validates it, and a verdict:
// passed (a 2xx whose records, or token, break no rule that fails the run), or failed and why.
// What the run reports in text, JSON and JUnit XML is made here too, so CI and a terminal read
// the same verdicts.

import { checkClientTokenReply, validate } from '../validation';
import type { Finding, FindingKind } from '../validation';
import { FINDING_KINDS } from '../validation/findings';
import { DEFAULT_FAIL_ON, type FailOn } from '../reports/failOn';
import { xmlText } from '../reports/safeText';
import { redact } from '../errors';
import { unwrapList, type Exchange } from '../service';
import type { HistoryEntry } from './history';
import { pathAndQuery } from './history';
import { draftFromExchange, type RequestDraft } from './requestDraft';
import { exchangeOfDraft } from './sendDraft';

export type RunVerdict = 'passed' | 'failed';

export interface SavedRunResult {
  /** The saved request's name. */
  readonly name: string;
  readonly method: string;
  /** What was sent: path and query, without scheme and host (the environment's own). */
  readonly path: string;
  readonly verdict: RunVerdict;
  /** Why it failed, in a sentence. */
  readonly problem?: string;
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
  const failOn = options.failOn ?? DEFAULT_FAIL_ON;
  const base = { name: entry.savedAs ?? '', method: entry.method, path: pathAndQuery(entry.url) };
  const draft = draftFromExchange(entry);
  if (!draft) return { ...base, verdict: 'failed', problem: `${base.method} ${base.path} is not one of the service's endpoints, so it cannot be sent.` };
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
  if (!exchange) return { ...base, verdict: 'failed', problem: failure ? message(failure) : 'The request left no exchange.' };
  const sent = {
    ...base,
    path: pathAndQuery(exchange.url),
    ...(exchange.status !== undefined ? { status: exchange.status } : {}),
    ...(exchange.statusText ? { statusText: exchange.statusText } : {}),
    durationMs: exchange.durationMs,
    attempts: exchange.attempts.length,
    ...(exchange.requestId ? { requestId: exchange.requestId } : {}),
    exchangeId: exchange.id,
  };
  if (failure || exchange.error || exchange.status === undefined || exchange.status < 200 || exchange.status >= 300) {
    const why = exchange.error?.message ?? (failure ? message(failure) : `The service answered ${exchange.status} ${exchange.statusText ?? ''}`.trim());
    return { ...sent, verdict: 'failed', problem: redact(why, options.secrets ?? []) };
  }
  const reply = replyFindings(exchange, draft);
  if ('problem' in reply) return { ...sent, verdict: 'failed', problem: reply.problem };
  const counts = Object.fromEntries(FINDING_KINDS.map((k) => [k, 0])) as Record<FindingKind, number>;
  let failingRecords = 0;
  for (const findings of reply.findings) {
    for (const f of findings) counts[f.kind]++;
    if (findings.some((f) => failOn.has(f.kind))) failingRecords++;
  }
  const records = reply.findings.length;
  const result = { ...sent, ...(draft.endpoint === 'token' ? {} : { records }), failingRecords, counts };
  if (failingRecords > 0) {
    const what = draft.endpoint === 'token' ? 'The token reply breaks' : records === 1 ? 'The record breaks' : `${failingRecords} of ${records} records break`;
    const kinds = FINDING_KINDS.filter((k) => failOn.has(k) && counts[k] > 0).map((k) => kindCount(k, counts[k]));
    return { ...result, verdict: 'failed', problem: `${what} the rules that fail the run: ${kinds.join(', ')}.` };
  }
  return { ...result, verdict: 'passed' };
}

/** The findings of each record of a 2xx reply (the token reply's for a mint), or why there are none to check. */
function replyFindings(exchange: Exchange, draft: RequestDraft): { findings: Finding[][] } | { problem: string } {
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
    return { findings: records.map((r) => validate(r, draft.kind).findings) };
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
      lines.push(`${head}>\n      <failure message="${xmlText(problem)}" type="${r.status === undefined ? 'request' : r.status >= 300 ? 'status' : 'findings'}">${xmlText([problem, out].filter(Boolean).join('\n'), true)}</failure>\n    </testcase>`);
    }
  }
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.join('\n')}\n`;
}

/** `200 OK · 3 records · 2 zero, 1 deprecated · 34 ms · request id abc`: the facts of a result. */
export function outLine(r: SavedRunResult): string {
  const parts: string[] = [];
  if (r.status !== undefined) parts.push(`${r.status}${r.statusText ? ` ${r.statusText}` : ''}`);
  if (r.records !== undefined) parts.push(r.records === 1 ? '1 record' : `${r.records} records`);
  if (r.counts) {
    const found = FINDING_KINDS.filter((k) => r.counts![k] > 0).map((k) => kindCount(k, r.counts![k]));
    if (found.length) parts.push(found.join(', '));
  }
  if (r.durationMs !== undefined) parts.push(`${Math.round(r.durationMs)} ms`);
  if (r.attempts !== undefined && r.attempts > 1) parts.push(`${r.attempts} attempts`);
  if (r.requestId) parts.push(`request id ${r.requestId}`);
  return parts.join(' · ');
}

/** `1 error`, `3 errors`, `2 warnings`, `4 zero`, `1 deprecated`: a count of findings of one kind. */
function kindCount(kind: FindingKind, n: number): string {
  return `${n} ${kind}${n !== 1 && (kind === 'error' || kind === 'warning') ? 's' : ''}`;
}
