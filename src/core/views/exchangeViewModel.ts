// What the exchange view shows of one request: the request as sent (redacted), the reply's
// status and headers (the paging and retry ones first), each attempt with why it was retried,
// and the body validated as the record view validates it: a list reply as its records with a
// summary of their findings, a single record with its findings, anything else as text.

import { fieldLabel, type Finding, type FindingKind } from '../validation/findings';
import { unwrapList, type Exchange, type ExchangeAttempt } from '../service';
import { outcomeOf, requestLine, type ExchangeOutcome, type HistoryEntry } from '../workbench';
import { isResourceKind, resource, type ResourceKind } from '../resources';
import { anchorOf, inDocumentOrder } from './jsonTree';
import { DEFAULT_MARK_TEXT, MarkText, titleOf, type FindingEntry, type LegendEntry } from './recordViewModel';
import { FINDING_KINDS } from '../validation/findings';
import { ZeroTally } from './zeroContext';

/** The reply headers a developer looks for first, in this order, when present. */
export const KEY_HEADERS = ['content-type', 'x-total-count', 'link', 'retry-after', 'x-request-id'] as const;
/** Body text shown in the view, in characters; the rest is one "Open Body" away. */
export const MAX_BODY_TEXT = 200_000;
/** Findings listed per record in a list (all are counted). */
export const MAX_RECORD_FINDINGS = 20;

export type FindingCounts = Readonly<Record<FindingKind, number>>;

/** One attempt as the view lists it: the exchange's attempt and its number. */
export type AttemptRow = ExchangeAttempt & { readonly n: number };

export interface BodyRecordRow {
  readonly index: number;
  readonly id?: string;
  readonly title: string;
  readonly valid: boolean;
  readonly counts: FindingCounts;
  readonly findings: readonly FindingEntry[];
  readonly findingsTotal: number;
}

export type ExchangeBodyView =
  | { readonly type: 'none' }
  /** Not JSON (an HTML page, a body cut short): the text as it came. */
  | { readonly type: 'text'; readonly text: string; readonly textCut: boolean; readonly problem?: string }
  /** One record (or the token mint's reply), validated. */
  | {
      readonly type: 'record';
      readonly text: string;
      readonly textCut: boolean;
      readonly record: BodyRecordRow;
      readonly kindLabel?: string;
      /** What the record's zeros were compared with (the Records view's records), or why not; absent when nothing was said. */
      readonly zeroBasis?: string;
    }
  /** A list page: its records, each validated, and their findings summed. */
  | {
      readonly type: 'records';
      readonly text: string;
      readonly textCut: boolean;
      readonly wrapper: string;
      readonly kindLabel?: string;
      readonly records: readonly BodyRecordRow[];
      readonly counts: FindingCounts;
      readonly invalid: number;
    };

export interface ExchangeViewModel {
  readonly version: number;
  readonly exchangeId: string;
  /** `GET /v1/human/activities/summaries?limit=50 · 200`. */
  readonly title: string;
  readonly method: string;
  readonly url: string;
  readonly status?: number;
  readonly statusText?: string;
  readonly outcome: ExchangeOutcome;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly environment?: string;
  readonly requestId?: string;
  readonly error?: { readonly kind: string; readonly message: string };
  readonly requestHeaders: ReadonlyArray<readonly [string, string]>;
  readonly requestBody?: string;
  readonly keyHeaders: ReadonlyArray<readonly [string, string]>;
  readonly responseHeaders: ReadonlyArray<readonly [string, string]>;
  readonly attempts: readonly AttemptRow[];
  readonly bodyBytes?: number;
  /** Bytes of the body the history left out (an entry restored after a reload). */
  readonly bodyCutBytes?: number;
  readonly body: ExchangeBodyView;
  readonly legend: readonly LegendEntry[];
  /** The request is one of the service's own and can be edited and sent again. */
  readonly resendable: boolean;
}

/** What the model needs of the validator: findings of a record of a kind (or of a kind it detects). */
export type RecordCheck = (record: unknown, kind: ResourceKind | undefined) => { kind?: ResourceKind; findings: readonly Finding[] };

export interface ExchangeViewOptions {
  version?: number;
  markText?: Readonly<Record<FindingKind, MarkText>>;
  check: RecordCheck;
  /** Findings of a token mint's reply (checkClientTokenReply). */
  checkTokenReply: (reply: unknown) => readonly Finding[];
  resendable: boolean;
  /**
   * A single record's zero findings said from other records (the Records view's, by the host),
   * and the sentence that says which; without it the zeros keep the schema's words.
   */
  compareZeros?: (record: unknown, kind: ResourceKind, findings: readonly Finding[]) => { readonly findings: readonly Finding[]; readonly basis?: string };
}

const zeroCounts = (): Record<FindingKind, number> => ({ error: 0, warning: 0, zero: 0, deprecated: 0, unknown: 0 });

function recordRow(index: number, record: unknown, kind: ResourceKind | undefined, findings: readonly Finding[], listed: number): BodyRecordRow {
  const counts = zeroCounts();
  for (const f of findings) if (counts[f.kind] !== undefined) counts[f.kind]++;
  const id = record && typeof record === 'object' ? (record as Record<string, unknown>).id : undefined;
  return {
    index,
    ...(typeof id === 'string' || typeof id === 'number' ? { id: String(id) } : {}),
    title: titleOf(record, kind),
    valid: counts.error === 0,
    counts,
    // In the order of the record's fields, as the record view lists them.
    findings: inDocumentOrder(record, findings).slice(0, listed).map((f) => ({ kind: f.kind, path: f.path, field: fieldLabel(f.path), message: f.message, anchorId: anchorOf(f.path) })),
    findingsTotal: findings.length,
  };
}

/** The body's text as shown: its start, and whether the rest was left out. */
const shown = (text: string): { text: string; textCut: boolean } =>
  text.length > MAX_BODY_TEXT ? { text: text.slice(0, MAX_BODY_TEXT), textCut: true } : { text, textCut: false };

/** The body, parsed and validated; `records` are the parsed records the view's rows refer to. */
export function bodyView(exchange: Exchange, options: Pick<ExchangeViewOptions, 'check' | 'checkTokenReply' | 'compareZeros'>): { view: ExchangeBodyView; records: unknown[] } {
  const raw = exchange.responseBody;
  if (raw === undefined || raw === '') return { view: { type: 'none' }, records: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    return { view: { type: 'text', ...shown(raw), problem: err instanceof Error ? err.message : String(err) }, records: [] };
  }
  const text = shown(JSON.stringify(parsed, null, 2));
  const kind: ResourceKind | undefined = isResourceKind(exchange.resource) ? exchange.resource : undefined;
  const kindLabel = kind ? resource(kind).singular : undefined;
  const failed = exchange.status === undefined || exchange.status >= 400;
  if (exchange.endpoint === 'token' && !failed) {
    return { view: { type: 'record', ...text, record: recordRow(0, parsed, undefined, options.checkTokenReply(parsed), Infinity) }, records: [] };
  }
  if (exchange.endpoint === 'list' && !failed) {
    let page: { records: unknown[]; wrapper: string };
    try {
      page = unwrapList(parsed, exchange.url);
    } catch {
      return { view: { type: 'text', ...text }, records: [] };
    }
    const counts = zeroCounts();
    const results = page.records.map((record) => options.check(record, kind));
    // Each record's zeros said from the page's other records of its source.
    const zeros = new ZeroTally('in this reply');
    results.forEach((result, i) => zeros.add(result.kind ?? kind, page.records[i]));
    const rows = page.records.map((record, i) => {
      const result = results[i];
      const recordKind = result.kind ?? kind;
      const row = recordRow(i, record, recordKind, zeros.explain(recordKind, record, result.findings), MAX_RECORD_FINDINGS);
      for (const k of FINDING_KINDS) counts[k] += row.counts[k];
      return row;
    });
    return {
      view: { type: 'records', ...text, wrapper: page.wrapper, ...(kindLabel ? { kindLabel } : {}), records: rows, counts, invalid: rows.filter((r) => !r.valid).length },
      records: page.records,
    };
  }
  if (!failed && parsed && typeof parsed === 'object' && !Array.isArray(parsed) && kind) {
    const result = options.check(parsed, kind);
    const recordKind = result.kind ?? kind;
    const zeros = result.findings.some((f) => f.kind === 'zero') ? options.compareZeros?.(parsed, recordKind, result.findings) : undefined;
    const row = recordRow(0, parsed, recordKind, zeros?.findings ?? result.findings, Infinity);
    const zeroBasis = zeros?.basis !== undefined ? { zeroBasis: zeros.basis } : {};
    return { view: { type: 'record', ...text, record: row, ...(kindLabel ? { kindLabel } : {}), ...zeroBasis }, records: [parsed] };
  }
  // An error reply, or JSON that is not a record: shown as it came, pretty.
  return { view: { type: 'text', ...text }, records: [] };
}

/** The view of one exchange (and the parsed records its rows refer to). */
export function buildExchangeView(exchange: HistoryEntry, options: ExchangeViewOptions): { model: ExchangeViewModel; records: unknown[] } {
  const { view, records } = bodyView(exchange, options);
  const headers = (h: Readonly<Record<string, string>>) => Object.entries(h).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const keyHeaders = KEY_HEADERS.filter((name) => exchange.responseHeaders[name] !== undefined).map((name) => [name, exchange.responseHeaders[name]] as const);
  const status = exchange.status !== undefined ? ` · ${exchange.status}` : exchange.error ? ' · failed' : '';
  const model: ExchangeViewModel = {
    version: options.version ?? 0,
    exchangeId: exchange.id,
    title: `${requestLine(exchange)}${status}`,
    method: exchange.method,
    url: exchange.url,
    ...(exchange.status !== undefined ? { status: exchange.status } : {}),
    ...(exchange.statusText !== undefined ? { statusText: exchange.statusText } : {}),
    outcome: outcomeOf(exchange),
    startedAt: exchange.startedAt,
    durationMs: exchange.durationMs,
    ...(exchange.environment !== undefined ? { environment: exchange.environment } : {}),
    ...(exchange.requestId !== undefined ? { requestId: exchange.requestId } : {}),
    ...(exchange.error ? { error: exchange.error } : {}),
    requestHeaders: headers(exchange.requestHeaders),
    ...(exchange.requestBody !== undefined ? { requestBody: exchange.requestBody } : {}),
    keyHeaders,
    responseHeaders: headers(exchange.responseHeaders),
    attempts: exchange.attempts.map((a, i) => ({ n: i + 1, ...a })),
    ...(exchange.responseBytes !== undefined ? { bodyBytes: exchange.responseBytes } : {}),
    ...(exchange.bodyCutBytes !== undefined ? { bodyCutBytes: exchange.bodyCutBytes } : {}),
    body: view,
    legend: FINDING_KINDS.map((kind) => ({ kind, ...(options.markText ?? DEFAULT_MARK_TEXT)[kind] })),
    resendable: options.resendable,
  };
  return { model, records };
}
