// Validates a payload text a batch of records at a time, placing each batch's findings as it
// finishes, so a large document's findings can be shown while the rest is still being checked.
// The batches together hold exactly what validatePayloadText finds, in the same order and places
// (and, asked to say each 0 from the document's other records, what explainDocumentZeros makes of it).

import { JsonSyntaxError, PointerNode, PointerQuery, Span, ValueSpan, locateQuery, memberListStart, parseJsonText, rootListStart, spanOf } from '../json';
import {
  PayloadTextOptions,
  PayloadTextValidation,
  PlacedFinding,
  RecordValidation,
  payloadRecords,
  placeListRecordFindings,
  placeRecordFindings,
  recordsFrom,
  resolveUndetected,
  validateBrokenPayloadText,
  validateParsedPayloadText,
  detectKind,
  type NdjsonLines,
  ndjsonRecordSpans,
  parseNdjsonRecords,
  validateNdjsonRange,
  validateRecordAt,
} from '../validation';
import type { ResourceKind } from '../resources';
import { ZeroTally, explainDocumentZeros, type ZeroPlace } from '../views/zeroContext';

export interface PayloadTextBatch {
  /** Only in the first (and then only) batch: the text is no JSON; the findings are its whole records' (intactRecords). */
  readonly syntaxErrors: readonly JsonSyntaxError[];
  readonly findings: readonly PlacedFinding[];
  /** Records validated in this batch, and of those, how many did not tell their kind. */
  readonly records: number;
  readonly undetected: number;
  /** Records validated so far, of `total`. */
  readonly done: number;
  readonly total: number;
  /** Only in the first batch of a text read as NDJSON: its records (lines), and the lines that are no JSON. */
  readonly lines?: NdjsonLines;
}

/** The kind a record's validation gives it (resolveUndetected's fallback included), for counting it before it is validated. */
const kindOf = (record: unknown, options: PayloadTextOptions): ResourceKind | undefined => options.kind ?? detectKind(record) ?? options.fallbackKind;

/** Records per batch by default: small enough to show findings early, large enough to cost little. */
export const BATCH_RECORDS = 5_000;

/** The payload's list of records and its pointer (`''` or `/data`); undefined for a single record. */
function listOf(payload: unknown): { records: unknown[]; prefix: string } | undefined {
  const records = payloadRecords(payload);
  if (Array.isArray(payload)) return { records, prefix: '' };
  if (records.length === 1 && records[0] === payload) return undefined;
  const field = Object.keys(payload as object).find((k) => (payload as Record<string, unknown>)[k] === records);
  return field === undefined ? undefined : { records, prefix: `/${field}` };
}

/**
 * The findings of records `first`… of a list, placed by a scan of the text of those records alone
 * (wrapped in brackets so it is one JSON value; `places` are their spans) and moved back into place.
 */
function placeBatch(text: string, options: PayloadTextOptions, first: number, places: readonly ValueSpan[], validated: readonly RecordValidation[]): PlacedFinding[] {
  if (validated.every((r) => r.findings.length === 0)) return [];
  const start = places[0].value.offset;
  const last = places[places.length - 1].value;
  const chunk = `[${text.slice(start, last.offset + last.length)}]`;
  return placeRecordFindings(chunk, validated, options, recordsFrom(first, start - 1));
}

/**
 * Parses the text and validates its records `batchRecords` at a time, yielding each batch's
 * placed findings. A text that is no JSON, a single record or a short list is one batch. With
 * `zeros`, each 0 is said from the other records of its kind and source in the whole text
 * (explainDocumentZeros), counted before the first batch.
 */
export function* payloadTextBatches(text: string, options: PayloadTextOptions = {}, batchRecords = BATCH_RECORDS, zeros?: ZeroPlace): Generator<PayloadTextBatch> {
  const parsed = parseJsonText(text, options);
  const explained = (validation: PayloadTextValidation) => (zeros === undefined ? validation : explainDocumentZeros(validation, zeros));
  if (parsed.errors.length > 0) {
    const spans = ndjsonRecordSpans(text, parsed.errors, options.lines);
    if (spans !== undefined) {
      yield* ndjsonBatches(text, spans, options, batchRecords, zeros);
      return;
    }
    const broken = explained(validateBrokenPayloadText(text, parsed.errors, options));
    const n = broken.records.length;
    yield { syntaxErrors: parsed.errors, findings: broken.findings, records: n, undetected: broken.undetected, done: n, total: n };
    return;
  }
  const payload = parsed.value;
  const list = listOf(payload);
  if (list === undefined || list.records.length <= batchRecords) {
    const whole = explained(validateParsedPayloadText(text, payload, options));
    const n = whole.records.length;
    yield { syntaxErrors: [], findings: whole.findings, records: n, undetected: whole.undetected, done: n, total: n };
    return;
  }
  const { records, prefix } = list;
  const pointerOf = (i: number) => `${prefix}/${i}`;
  // A list in strict JSON, the whole text or wrapped, is read once, a batch of records after the
  // other, from where the batch before ended (`at`). JSON with comments, and a wrapped list whose
  // start cannot be told without reading the whole text (memberListStart), are read twice: once
  // for where every record is, then each batch's records on their own.
  let at = options.jsonc ? -1 : prefix === '' ? rootListStart(text) : memberListStart(text, prefix.slice(1));
  let recordNodes: PointerNode[] | undefined;
  let tally: ZeroTally | undefined;
  if (zeros !== undefined) {
    tally = new ZeroTally(zeros);
    for (const record of records) tally.add(kindOf(record, options), record);
  }
  for (let first = 0; first < records.length; first += batchRecords) {
    const end = Math.min(records.length, first + batchRecords);
    const validated: RecordValidation[] = [];
    for (let i = first; i < end; i++) validated.push(validateRecordAt(records[i], options.kind, options, i, pointerOf(i)));
    const undetected = resolveUndetected(payload, validated, options);
    const read = at < 0 ? undefined : placeListRecordFindings(text, validated, first, at);
    at = read === undefined ? -1 : read.end;
    let placed = read?.findings;
    if (placed === undefined) {
      recordNodes ??= recordNodesOf(text, options, records.length, pointerOf);
      placed = placeBatch(text, options, first, recordNodes.slice(first, end).map((node) => spanOf(node)!), validated);
    }
    const findings = tally === undefined ? placed : tally.explainPlaced(placed, (i) => (i >= first && i < end ? { record: records[i], kind: validated[i - first].kind } : undefined));
    yield { syntaxErrors: [], findings, records: validated.length, undetected, done: end, total: records.length };
  }
}

/** The nodes of a list's records, their spans set by one reading of the whole text. */
function recordNodesOf(text: string, options: PayloadTextOptions, count: number, pointerOf: (i: number) => string): PointerNode[] {
  const query = new PointerQuery();
  const nodes: PointerNode[] = [];
  for (let i = 0; i < count; i++) nodes.push(query.at(pointerOf(i)));
  locateQuery(text, query, options);
  return nodes;
}

/**
 * payloadTextBatches of a text read as NDJSON: every line parsed first (the syntax errors of the
 * broken ones go with the first batch; with `zeros`, every record counted), then validated and
 * placed `batchRecords` lines at a time, as validateNdjsonText validates them all.
 */
function* ndjsonBatches(text: string, spans: readonly Span[], options: PayloadTextOptions, batchRecords: number, zeros: ZeroPlace | undefined): Generator<PayloadTextBatch> {
  const parsed = parseNdjsonRecords(text, spans, options);
  const { values } = parsed;
  let tally: ZeroTally | undefined;
  const kinds: Array<ResourceKind | undefined> = [];
  if (zeros !== undefined) {
    tally = new ZeroTally(zeros);
    for (const value of values) {
      const kind = value === undefined ? undefined : kindOf(value, options);
      kinds.push(kind);
      if (value !== undefined) tally.add(kind, value);
    }
  }
  // A text read as NDJSON has a line at least (ndjsonRecordSpans), so there is a first batch.
  const total = values.length - parsed.brokenLines;
  let done = 0;
  for (let first = 0; first < values.length; first += batchRecords) {
    const end = Math.min(values.length, first + batchRecords);
    const batch = validateNdjsonRange(text, parsed, options, first, end);
    done += batch.records.length;
    const findings = tally === undefined ? batch.findings : tally.explainPlaced(batch.findings, (i) => (i >= first && i < end && values[i] !== undefined ? { record: values[i], kind: kinds[i] } : undefined));
    const lines = first === 0 ? { records: values.length, broken: parsed.brokenLines } : undefined;
    yield { syntaxErrors: first === 0 ? parsed.syntaxErrors : [], findings, records: batch.records.length, undetected: batch.undetected, done, total, ...(lines && { lines }) };
  }
}
