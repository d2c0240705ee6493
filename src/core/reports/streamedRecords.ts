// A record validated from a streamed file (core/streaming) as a report's record, so the writers of
// every format take it as they take the records of a file read whole. Streamed findings carry the
// line and column where they start, not their extent: their range is empty (start = end) and has
// no UTF-16 offset in the file.

import type { ResourceKind } from '../resources';
import type { PositionedFinding, RecordReport } from '../streaming';
import { JSON_RECORD_CLOSING, JSON_RECORD_SEPARATOR, jsonFindingsText, jsonRecordOpening, jsonRecordOpeningParts } from './jsonReport';
import type { FileProblem, ReportRecord, TextRange } from './model';
import { ByteSink } from './textSinks';

/** The empty range at a 1-based line and column. */
export function pointRange(line: number, column: number): TextRange {
  const at = { line: line - 1, character: Math.max(0, column - 1) };
  return { start: at, end: at };
}

export function streamedRecord(r: RecordReport): ReportRecord {
  return {
    index: r.index ?? undefined,
    pointer: r.pointer,
    kind: (r.kind ?? undefined) as ResourceKind | undefined,
    id: r.id ?? undefined,
    date: r.date ?? undefined,
    valid: r.valid,
    findings: r.findings.map((f) => {
      const finding = { kind: f.kind, pointer: f.path, message: f.message, range: pointRange(f.line ?? r.line, f.column ?? r.column) };
      return f.standsOut === true ? { ...finding, standsOut: true as const } : finding;
    }),
  };
}

/**
 * The findings of the JSON report (as UTF-8) for lists of findings the validator shares between
 * records (frozen: the same `userId` deprecation, the same zeros on thousands of NDJSON lines),
 * written once per list. A WeakMap: a list no record holds any more lets its text go.
 */
const sharedFindingsBytes = new WeakMap<readonly PositionedFinding[], Buffer>();
const pathOf = (f: PositionedFinding): string => f.path;
const SEPARATOR = Buffer.from(JSON_RECORD_SEPARATOR);
const CLOSING = Buffer.from(JSON_RECORD_CLOSING);

/** jsonRecordOpeningParts as bytes, by kind, then [invalid, valid]. */
const openingParts = new Map<string, Array<[Buffer, Buffer, Buffer] | undefined>>();

/**
 * jsonRecordOpening written as bytes, for the usual record (an index, a kind, an id of printable
 * ASCII): no string made per record. False, writing nothing, for any other: the caller writes
 * jsonRecordOpening's text.
 */
function writeOpening(out: ByteSink, r: RecordReport): boolean {
  const index = r.index;
  const id = r.id;
  if (index === null || !Number.isSafeInteger(index) || index < 0 || id === null || r.kind === null) return false;
  // By kind, then valid or not: no key string made (and hashed) per record.
  let byValidity = openingParts.get(r.kind);
  if (byValidity === undefined) openingParts.set(r.kind, (byValidity = [undefined, undefined]));
  const validity = r.valid ? 1 : 0;
  let parts = byValidity[validity];
  if (parts === undefined) {
    const [head, middle, tail] = jsonRecordOpeningParts(r.kind, r.valid);
    byValidity[validity] = parts = [Buffer.from(head), Buffer.from(middle), Buffer.from(tail)];
  }
  const start = out.length;
  out.bytes(parts[0]);
  out.digits(index);
  out.bytes(parts[1]);
  if (!out.plainQuoted(id)) {
    out.truncate(start);
    return false;
  }
  out.bytes(parts[2]);
  return true;
}

/**
 * Streamed records as the JSON report writes them (jsonRecordText), joined by
 * JSON_RECORD_SEPARATOR, as UTF-8 in an ArrayBuffer of their own (a worker thread transfers it):
 * what follows JsonReportWriter.recordsHead(). Written into one buffer piece by piece, the shared
 * findings copied as bytes: most of a record's text is its findings, and building it as a string
 * to encode afterwards cost more than validating the record.
 */
export function streamedJsonBytes(records: readonly RecordReport[]): Buffer {
  const out = new ByteSink(records.length * 768);
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    let findings = sharedFindingsBytes.get(r.findings);
    if (findings === undefined) {
      findings = Buffer.from(jsonFindingsText(r.findings, pathOf));
      if (Object.isFrozen(r.findings)) sharedFindingsBytes.set(r.findings, findings);
    }
    if (i > 0) out.bytes(SEPARATOR);
    if (!writeOpening(out, r)) out.writeNow(jsonRecordOpening(r));
    out.bytes(findings);
    out.bytes(CLOSING);
  }
  return out.done();
}

/** A streamed file's problem, placed when the reader knows where it is. */
export function streamedProblem(message: string, at?: { line: number; column: number }): FileProblem {
  return at ? { message, range: pointRange(at.line, at.column) } : { message };
}
