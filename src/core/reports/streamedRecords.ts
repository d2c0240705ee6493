// A record validated from a streamed file (core/streaming) as a report's record, so the writers of
// every format take it as they take the records of a file read whole. Streamed findings carry the
// line and column where they start, not their extent: their range is empty (start = end) and has
// no UTF-16 offset in the file.

import type { ResourceKind } from '../resources';
import type { PositionedFinding, RecordReport } from '../streaming';
import { JSON_RECORD_SEPARATOR, jsonFindingsText, jsonRecordText } from './jsonReport';
import type { FileProblem, ReportRecord, TextRange } from './model';

/** The empty range at a 1-based line and column. */
export function pointRange(line: number, column: number): TextRange {
  const at = { line: line - 1, character: Math.max(0, column - 1) };
  return { start: at, end: at };
}

export function streamedRecord(r: RecordReport): ReportRecord {
  return {
    index: r.index ?? undefined,
    kind: (r.kind ?? undefined) as ResourceKind | undefined,
    id: r.id ?? undefined,
    date: r.date ?? undefined,
    valid: r.valid,
    findings: r.findings.map((f) => ({ kind: f.kind, pointer: f.path, message: f.message, range: pointRange(f.line ?? r.line, f.column ?? r.column) })),
  };
}

/**
 * The findings text of the JSON report for lists of findings the validator shares between records
 * (frozen: the same `userId` deprecation, the same zeros on thousands of NDJSON lines), written
 * once per list. A WeakMap: a list no record holds any more lets its text go.
 */
const sharedFindingsText = new WeakMap<readonly PositionedFinding[], string>();
const pathOf = (f: PositionedFinding): string => f.path;

/**
 * Streamed records as the JSON report writes them (jsonRecordText), joined by
 * JSON_RECORD_SEPARATOR for JsonReportWriter.renderedRecords; a worker thread writes its batch so,
 * and the thread that writes the report only copies the text on.
 */
export function streamedJsonText(records: readonly RecordReport[]): string {
  // Pieces joined once: a string grown by += is a tree that costs more to flatten than to join.
  const parts: string[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    let findings = sharedFindingsText.get(r.findings);
    if (findings === undefined) {
      findings = jsonFindingsText(r.findings, pathOf);
      if (Object.isFrozen(r.findings)) sharedFindingsText.set(r.findings, findings);
    }
    parts.push(jsonRecordText(r, findings));
  }
  return parts.join(JSON_RECORD_SEPARATOR);
}

/** A streamed file's problem, placed when the reader knows where it is. */
export function streamedProblem(message: string, at?: { line: number; column: number }): FileProblem {
  return at ? { message, range: pointRange(at.line, at.column) } : { message };
}
