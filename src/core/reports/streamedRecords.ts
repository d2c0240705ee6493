// A record validated from a streamed file (core/streaming) as a report's record, so the writers of
// every format take it as they take the records of a file read whole. Streamed findings carry the
// line and column where they start, not their extent: their range is empty (start = end) and has
// no UTF-16 offset in the file.

import type { ResourceKind } from '../resources';
import type { RecordReport } from '../streaming';
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
    findings: r.findings.map((f) => ({ kind: f.kind, pointer: f.path, message: f.message, range: pointRange(f.line, f.column) })),
  };
}

/** A streamed file's problem, placed when the reader knows where it is. */
export function streamedProblem(message: string, at?: { line: number; column: number }): FileProblem {
  return at ? { message, range: pointRange(at.line, at.column) } : { message };
}
