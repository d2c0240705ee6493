// Validates the units a RecordSplitter cut from a payload, each on its own, and places every
// finding at its line and column in the whole payload. Runs in a worker thread or in place: the
// input and the output are plain data that postMessage copies.

import { localDateOf } from '../dates';
import type { ResourceKind } from '../resources';
import { lineCharacterAt, lineStarts, parseJsonText, placedSyntaxWords } from '../json';
import {
  Clock,
  FindingKind,
  PayloadTextValidation,
  checkRecordBytes,
  clockFor,
  lastRecordPlain,
  payloadRecords,
  recordAt,
  validatePayloadText,
  validateRecordAt,
} from '../validation';
import { recordPlaces } from './recordPlaces';
import { sentMaskOf } from '../validation/sentFields';
import { type RecordUnit, isBlankLine } from './recordSplitter';

export interface PositionedFinding {
  readonly kind: FindingKind;
  /** JSON Pointer in the payload: `/3/steps`, `/data/3/steps`; in an NDJSON line, in the record. */
  readonly path: string;
  readonly message: string;
  /**
   * 1-based; the column counts UTF-16 code units within a record, bytes before it on its first
   * line. Absent for a finding not placed (see checkUnit): it is shown at its record's start.
   */
  readonly line?: number;
  readonly column?: number;
  /** A 0 said from the other records of its source in the file, where it stands out (ReportFinding.standsOut). */
  readonly standsOut?: true;
}

export interface RecordReport {
  readonly index: number | null;
  /** The record's pointer in the payload: `/3`, `/data/3`; '' for the whole payload or an NDJSON line. */
  readonly pointer: string;
  readonly kind: string | null;
  readonly id: string | null;
  readonly valid: boolean;
  /** The day the record belongs to (its `date`, or its timestamp's local date), when it has one. */
  readonly date: string | null;
  /** Where the record starts. */
  readonly line: number;
  readonly column: number;
  readonly findings: readonly PositionedFinding[];
  /** The record's `source` when it is a string; null otherwise (or no record). */
  readonly source: string | null;
  /** Its numeric fields sent as a number other than 0 (validation/sentFields.ts); 0 when its kind is unknown. */
  readonly sent: number;
}

/** The result of one unit: its records, or (for a payload kept whole) why it is no JSON. */
export type UnitResult = { records: RecordReport[] } | { syntaxError: string };

/** Where a record is: its position in the list, its pointer in the payload, its first line and column. */
type RecordPlace = Pick<RecordUnit, 'index' | 'pointer' | 'line' | 'column'>;

/** Line and column in the payload of an offset in a unit's text. */
function positioner(text: string, unit: Pick<RecordUnit, 'line' | 'column'>): (offset: number) => [number, number] {
  let starts: Uint32Array | undefined;
  return (offset) => {
    starts ??= lineStarts(text);
    const [line, character] = lineCharacterAt(starts, offset);
    return line === 0 ? [unit.line, unit.column + offset] : [unit.line + line, character + 1];
  };
}

/** Line and column of a syntax error of the unit's text, in the payload. */
function syntaxMessage(text: string, at: (offset: number) => [number, number]): string | undefined {
  const parsed = parseJsonText(text);
  if (parsed.errors.length === 0) return undefined;
  const first = parsed.errors[0];
  const [line, column] = at(first.offset);
  return `not valid JSON (${placedSyntaxWords(first.code, line, column)})`;
}

/** One record of a list: parsed, validated, and its findings placed by recordPlaces. */
function checkElement(text: string, unit: RecordPlace, kind: ResourceKind | undefined, now: number | undefined, places: boolean): RecordReport {
  const index = unit.index ?? null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Too deep for JSON.parse, or no JSON: say where, as one error of this record.
    const at = positioner(text, unit);
    const message = syntaxMessage(text, at) ?? 'not valid JSON (nested too deeply)';
    const [line, column] = at(0);
    const finding: PositionedFinding = { kind: 'error', path: unit.pointer, message: `the record is ${message}`, line, column };
    return { index, pointer: unit.pointer, kind: null, id: null, date: null, valid: false, line: unit.line, column: unit.column, findings: [finding], source: null, sent: 0 };
  }
  const r = validateRecordAt(value, kind, { now }, unit.index, unit.pointer);
  const date = r.kind === undefined ? null : (localDateOf(value, r.kind) ?? null);
  const source = sourceOfValue(value);
  const sent = r.kind === undefined ? 0 : sentMaskOf(value, r.kind);
  if (!places) {
    // The validator's own findings, shared by every record that has the same ones (frozen): an
    // NDJSON line's pointers are the record's own.
    const findings = unit.pointer === '' ? r.findings : r.findings.map((f): PositionedFinding => ({ kind: f.kind, path: unit.pointer + f.path, message: f.message }));
    return { index, pointer: unit.pointer, kind: r.kind ?? null, id: r.id ?? null, date, valid: r.valid, line: unit.line, column: unit.column, findings, source, sent };
  }
  const at = positioner(text, unit);
  let offsets: Map<string, number> | undefined;
  if (r.findings.length > 0) {
    try {
      offsets = recordPlaces(text, r.findings.map((f) => f.path));
    } catch {
      // A text too deep to walk: the findings are shown at the record's start.
    }
  }
  const findings = r.findings.map((f): PositionedFinding => {
    const [line, column] = offsets === undefined ? [unit.line, unit.column] : at(offsets.get(f.path) ?? 0);
    return { kind: f.kind, path: unit.pointer + f.path, message: f.message, line, column };
  });
  return { index, pointer: unit.pointer, kind: r.kind ?? null, id: r.id ?? null, date, valid: r.valid, line: unit.line, column: unit.column, findings, source, sent };
}

/** A parsed record's `source` when it is a string. */
function sourceOfValue(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const source = (value as { source?: unknown }).source;
  return typeof source === 'string' ? source : null;
}

const codeAt =
  (text: string) =>
  (i: number): number =>
    text.charCodeAt(i);

/**
 * The record in bytes[from, to) checked from its bytes (recordBytes.ts), as checkElement would
 * report it; undefined when the fast path is not sure, and the record goes checkElement's way.
 */
function fastRecord(bytes: Buffer, from: number, to: number, unit: Readonly<RecordPlace>, kind: ResourceKind | undefined, clock: Clock, places: boolean, oneLine = false): RecordReport | undefined {
  let r: ReturnType<typeof checkRecordBytes>;
  try {
    r = checkRecordBytes(bytes, from, to, kind, clock, oneLine);
  } catch {
    // Never expected; the usual way has the last word all the same.
    return undefined;
  }
  if (r === undefined) return undefined;
  fastEnd = r.end;
  let findings: readonly PositionedFinding[];
  if (!places) {
    findings = unit.pointer === '' ? r.findings : r.findings.map((f): PositionedFinding => ({ kind: f.kind, path: unit.pointer + f.path, message: f.message }));
  } else {
    // Columns count UTF-16 code units and a lone carriage return breaks a line: only a record of
    // ASCII without one has its columns in its bytes.
    if (!lastRecordPlain()) return undefined;
    // The findings come in the order of their keys in the text: one pass counts the lines.
    let line = unit.line;
    let lineStart = -1;
    let k = from;
    findings = r.findings.map((f, i): PositionedFinding => {
      const at = r.offset(i);
      if (at < k) [line, lineStart, k] = [unit.line, -1, from];
      for (; k < at; k++) {
        if (bytes[k] === NEWLINE) {
          line++;
          lineStart = k;
        }
      }
      const column = lineStart < 0 ? unit.column + (at - from) : at - lineStart;
      return { kind: f.kind, path: unit.pointer + f.path, message: f.message, line, column };
    });
  }
  return { index: unit.index ?? null, pointer: unit.pointer, kind: r.kind, id: r.id, date: r.date, valid: true, line: unit.line, column: unit.column, findings, source: r.source, sent: r.sent };
}

const NEWLINE = 0x0a;
/** Where the last record fastRecord gave ends. */
let fastEnd = 0;

/**
 * The records of a block of NDJSON lines: each line but the blank ones (the splitter's rule) is a
 * record, at column 1 of its line, checked from its bytes or, when the fast path is not sure,
 * decoded and checked by checkElement. A line never splits a UTF-8 sequence (a newline byte is
 * never inside one), so its text is what decoding the whole block gives.
 */
function checkLines(block: RecordUnit, kind: ResourceKind | undefined, now: number | undefined, places: boolean, fast: boolean): RecordReport[] {
  const bytes = block.bytes;
  const records: RecordReport[] = [];
  const byteAt = (i: number): number => bytes[i];
  const clock = clockFor({ now });
  let index = block.index ?? 0;
  let line = block.line;
  // One place for every line, moved along (fastRecord copies what it needs).
  const place = { index, pointer: '', line, column: 1 };
  for (let i = 0; i <= bytes.length; line++) {
    place.index = index;
    place.line = line;
    // A record the fast path takes tells where its line ends; otherwise the newline is looked for.
    const report = fast ? fastRecord(bytes, i, bytes.length, place, kind, clock, places, true) : undefined;
    let end: number;
    if (report !== undefined) {
      records.push(report);
      index++;
      end = fastEnd;
    } else {
      end = bytes.indexOf(NEWLINE, i);
      if (end < 0) end = bytes.length;
      if (!isBlankLine(byteAt, i, end)) {
        records.push(checkElement(bytes.toString('utf8', i, end), { ...place }, kind, now, places));
        index++;
      }
    }
    i = end + 1;
  }
  return records;
}

/**
 * Validates one unit. Never throws. With `places` false, a record's findings are not placed in its
 * text (for a report that never shows a line or column): they have no line and column of their
 * own (their record's start stands in), and records with the same findings share them.
 */
export function checkUnit(unit: RecordUnit, kind: ResourceKind | undefined, now?: number, places = true, fast = true): UnitResult {
  if (unit.shape === 'lines') return { records: checkLines(unit, kind, now, places, fast) };
  if (unit.shape === 'element') {
    const report = fast ? fastRecord(unit.bytes, 0, unit.bytes.length, unit, kind, clockFor({ now }), places) : undefined;
    return { records: [report ?? checkElement(unit.bytes.toString('utf8'), unit, kind, now, places)] };
  }
  const text = unit.bytes.toString('utf8');
  // The payload kept whole (one record, or a rare wrapper whose fields name a kind first): placed
  // as the editor places it.
  const at = positioner(text, unit);
  let result: PayloadTextValidation;
  try {
    result = validatePayloadText(text, { kind, now });
  } catch {
    const syntaxError = syntaxMessage(text, at) ?? 'not valid JSON (nested too deeply)';
    return { syntaxError };
  }
  if (result.syntaxErrors.length > 0) return { syntaxError: syntaxMessage(text, at) ?? 'not valid JSON' };
  const findingsByRecord = new Map<number, PositionedFinding[]>();
  const records: RecordReport[] = result.records.map((r, i) => {
    const findings: PositionedFinding[] = [];
    findingsByRecord.set(i, findings);
    const value = recordAt(result.payload, r.pointer);
    const date = r.kind === undefined ? null : (localDateOf(value, r.kind) ?? null);
    const sent = r.kind === undefined ? 0 : sentMaskOf(value, r.kind);
    return { index: r.index ?? null, pointer: r.pointer, kind: r.kind ?? null, id: r.id ?? null, date, valid: r.valid, line: unit.line, column: unit.column, findings, source: sourceOfValue(value), sent };
  });
  for (const f of result.findings) {
    const [line, column] = at(f.offset);
    findingsByRecord.get(f.index ?? 0)?.push({ kind: f.kind, path: f.pointer, message: f.message, line, column });
  }
  return { records };
}

/**
 * The values of a unit, parsed and not validated (for coverage): an element's value, each NDJSON
 * line's, or a whole payload's records (an array's elements, a wrapper's list, or the one record).
 * A text that is no JSON is left out, with what is wrong and where in the payload, as the end of
 * "<file> …".
 */
export function unitValues(unit: RecordUnit): { values: unknown[]; problems: string[] } {
  const text = unit.bytes.toString('utf8');
  const values: unknown[] = [];
  const problems: string[] = [];
  const parse = (record: string, place: Pick<RecordUnit, 'line' | 'column'>): unknown[] | undefined => {
    try {
      return [JSON.parse(record)];
    } catch {
      const why = syntaxMessage(record, positioner(record, place)) ?? 'not valid JSON (nested too deeply)';
      problems.push(unit.shape === 'whole' ? `is ${why}` : `has a record that is ${why}: it is left out`);
      return undefined;
    }
  };
  if (unit.shape === 'lines') {
    const charAt = codeAt(text);
    let line = unit.line;
    for (let i = 0; i <= text.length; line++) {
      let end = text.indexOf('\n', i);
      if (end < 0) end = text.length;
      if (!isBlankLine(charAt, i, end)) values.push(...(parse(text.slice(i, end), { line, column: 1 }) ?? []));
      i = end + 1;
    }
  } else {
    const parsed = parse(text, unit);
    if (parsed) values.push(...(unit.shape === 'whole' ? payloadRecords(parsed[0]) : parsed));
  }
  return { values, problems };
}
