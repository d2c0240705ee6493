// Validates the units a RecordSplitter cut from a payload, each on its own, and places every
// finding at its line and column in the whole payload. Runs in a worker thread or in place: the
// input and the output are plain data that postMessage copies.

import type { ResourceKind } from '../resources';
import { FindingKind, PayloadTextValidation, validatePayload, validatePayloadText, validateRecordAt } from '../validation';
import type { RecordUnit } from './recordSplitter';

export interface PositionedFinding {
  readonly kind: FindingKind;
  /** JSON Pointer in the payload: `/3/steps`, `/data/3/steps`; in an NDJSON line, in the record. */
  readonly path: string;
  readonly message: string;
  /** 1-based; the column counts UTF-16 code units within a record, bytes before it on its first line. */
  readonly line: number;
  readonly column: number;
}

export interface RecordReport {
  readonly index: number | null;
  readonly kind: string | null;
  readonly id: string | null;
  readonly valid: boolean;
  /** Where the record starts. */
  readonly line: number;
  readonly column: number;
  readonly findings: PositionedFinding[];
}

/** The result of one unit: its records, or (for a payload kept whole) why it is no JSON. */
export type UnitResult = { records: RecordReport[] } | { syntaxError: string };

/** `ValueExpected` → `value expected`. */
const words = (code: string): string => code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** Line and column in the payload of an offset in a unit's text. */
function positioner(text: string, unit: Pick<RecordUnit, 'line' | 'column'>): (offset: number) => [number, number] {
  let starts: number[] | undefined;
  return (offset) => {
    if (starts === undefined) {
      starts = [0];
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) starts.push(nl + 1);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo === 0 ? [unit.line, unit.column + offset] : [unit.line + lo, offset - starts[lo] + 1];
  };
}

/**
 * The unit's records and findings placed on its text; when the text is too deeply nested to be
 * placed (the locator recurses), the findings without places, shown at the record's start.
 */
function placedOrNot(text: string, unit: RecordUnit, kind: ResourceKind | undefined, now: number | undefined): PayloadTextValidation {
  const record = unit.shape === 'element';
  try {
    return validatePayloadText(text, { kind, now, record });
  } catch {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { syntaxErrors: [{ code: 'NestedTooDeeply', offset: 0, length: 0 }], records: [], findings: [], undetected: 0 };
    }
    const records = record ? [validateRecordAt(value, kind, { now }, undefined, '')] : validatePayload(value, kind, { now });
    const findings = records.flatMap((r) =>
      r.findings.map((f) => ({ ...f, pointer: r.pointer + f.path, offset: 0, length: 0, missing: false, index: r.index, recordId: r.id })),
    );
    return { syntaxErrors: [], records, findings, undetected: 0 };
  }
}

/** Validates one unit. Never throws. */
export function checkUnit(unit: RecordUnit, kind: ResourceKind | undefined, now?: number): UnitResult {
  const text = unit.bytes.toString('utf8');
  const at = positioner(text, unit);
  const result = placedOrNot(text, unit, kind, now);
  if (result.syntaxErrors.length > 0) {
    const first = result.syntaxErrors[0];
    const [line, column] = at(first.offset);
    const message = `not valid JSON (${words(first.code)} at line ${line}, column ${column})`;
    if (unit.shape === 'whole') return { syntaxError: message };
    // One broken record of a list: that record is invalid, the others are still read.
    const finding: PositionedFinding = { kind: 'error', path: unit.pointer, message: `the record is ${message}`, line, column };
    return { records: [{ index: unit.index ?? null, kind: null, id: null, valid: false, line: unit.line, column: unit.column, findings: [finding] }] };
  }
  const base = unit.shape === 'element' ? unit.pointer : '';
  const findingsByRecord = new Map<number, PositionedFinding[]>();
  const records: RecordReport[] = result.records.map((r, i) => {
    const findings: PositionedFinding[] = [];
    findingsByRecord.set(i, findings);
    return {
      index: unit.shape === 'element' ? (unit.index ?? null) : (r.index ?? null),
      kind: r.kind ?? null,
      id: r.id ?? null,
      valid: r.valid,
      // A record of the rare wrapper kept whole is placed at the payload's start.
      line: unit.line,
      column: unit.column,
      findings,
    };
  });
  // Findings come in record order; each one names its record by index (undefined: the only one).
  let recordIndex = 0;
  for (const f of result.findings) {
    if (f.index !== undefined && unit.shape === 'whole') recordIndex = f.index;
    const [line, column] = at(f.offset);
    findingsByRecord.get(recordIndex)?.push({ kind: f.kind, path: base + f.pointer, message: f.message, line, column });
  }
  return { records };
}
