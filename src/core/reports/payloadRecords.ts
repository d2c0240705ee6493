// A validated payload text as a report's records (findings placed at ranges) or as a file problem
// (no JSON, nothing to validate): the one reading of a validation that the CLI and the editor's
// export share, so both place findings where the Problems panel does.

import { localDateOf } from '../dates';
import type { PayloadTextOptions, PayloadTextValidation, RecordValidation } from '../validation';
import { recordAt, validatePayload, validatePayloadText } from '../validation';
import type { FileProblem, ReportFinding, ReportRecord } from './model';
import { LineIndex } from './textPositions';
import { placedSyntaxWords } from '../json';
import { explainDocumentZeros, standsOut, type ZeroPlace } from '../views/zeroContext';

/** The file problem of a validation that validated nothing, or undefined when it has records. */
export function payloadProblem(text: string, validation: PayloadTextValidation, lines = new LineIndex(text)): FileProblem | undefined {
  const first = validation.syntaxErrors[0];
  if (first !== undefined) {
    const range = lines.rangeOf(first.offset, first.length);
    const where = placedSyntaxWords(first.code, range.start.line + 1, range.start.character + 1);
    // NDJSON: the lines that are no JSON; the records of the others are reported.
    const broken = validation.lines?.broken ?? 0;
    if (broken > 0) return { message: broken === 1 ? `has a line that is not valid JSON (${where})` : `has ${broken} lines that are not valid JSON (the first: ${where})`, range };
    const more = validation.syntaxErrors.length > 1 ? `, and ${validation.syntaxErrors.length - 1} more` : '';
    return { message: `is not valid JSON (${where}${more})`, range };
  }
  if (validation.records.length === 0) return { message: 'holds an empty list: nothing to validate' };
  return undefined;
}

/**
 * The records of a validation with their findings at text ranges, one at a time, in the
 * payload's order. `validation` must come from validatePayloadText on this very text.
 */
export function* payloadRecords(text: string, validation: PayloadTextValidation, lines = new LineIndex(text)): Generator<ReportRecord> {
  let next = 0;
  for (const r of validation.records) {
    const findings: ReportFinding[] = [];
    // validatePayloadText places the findings record after record, in each record's order.
    for (let k = 0; k < r.findings.length; k++, next++) {
      const f = validation.findings[next];
      const finding: ReportFinding = { kind: f.kind, pointer: f.pointer, message: f.message, range: lines.rangeOf(f.offset, f.length) };
      findings.push(standsOut(f) ? { ...finding, standsOut: true } : finding);
    }
    yield reportRecord(r, validation.payload, findings);
  }
}

function reportRecord(r: RecordValidation, payload: unknown, findings: readonly ReportFinding[]): ReportRecord {
  const date = r.kind === undefined ? undefined : localDateOf(recordAt(payload, r.pointer), r.kind);
  return { index: r.index, pointer: r.pointer, kind: r.kind, id: r.id, date, valid: r.valid, findings };
}

/**
 * What a report says of one payload text: its records, or a file problem. A list that is no JSON
 * has both: the records it holds whole (validated as the editor validates them), then the
 * syntax error.
 */
export type PayloadReport = { readonly problem: FileProblem; readonly records?: readonly ReportRecord[] } | { readonly records: Iterable<ReportRecord> };

/**
 * Validates a payload text for a report: findings placed on the text as the Problems panel places
 * them. With `zeros`, each 0 is said from the text's other records of its source, as the Problems
 * panel says it (explainDocumentZeros). A text nested too deeply to walk for positions (tens of
 * thousands of levels) is still validated, its findings without ranges.
 */
export function payloadReport(text: string, options: PayloadTextOptions = {}, zeros?: ZeroPlace): PayloadReport {
  let validation: PayloadTextValidation;
  try {
    validation = validatePayloadText(text, options);
    if (zeros !== undefined) validation = explainDocumentZeros(validation, zeros);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return unplacedReport(text, options);
  }
  const lines = new LineIndex(text);
  const problem = payloadProblem(text, validation, lines);
  if (!problem) return { records: payloadRecords(text, validation, lines) };
  // The records of a list with a syntax error that hold none (intactRecords), before it.
  return validation.records.length > 0 ? { problem, records: [...payloadRecords(text, validation, lines)] } : { problem };
}

function unplacedReport(text: string, options: PayloadTextOptions): PayloadReport {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return { problem: { message: 'is not valid JSON' } };
  }
  const records = validatePayload(payload, options.kind, options);
  if (records.length === 0) return { problem: { message: 'holds an empty list: nothing to validate' } };
  return {
    records: records.map((r) => reportRecord(r, payload, r.findings.map((f) => ({ kind: f.kind, pointer: r.pointer + f.path, message: f.message })))),
  };
}
