// What a validation report is made of, whatever its format: files, each with records (their
// findings placed at text ranges), a problem (not read, not JSON), or records then a problem.
// Writers are fed these one at a time, so a report never waits for a whole run (or a whole file)
// in memory.

import type { FindingKind } from '../validation';
import type { ResourceKind } from '../resources';

/** A place in a text as an editor counts it: 0-based line and UTF-16 character, like VS Code's Position. */
export interface TextPosition {
  readonly line: number;
  readonly character: number;
}

export interface TextRange {
  readonly start: TextPosition;
  readonly end: TextPosition;
  /**
   * UTF-16 offset and length of the range in the text; absent for a finding of a streamed file,
   * which is placed by line and column only (its range is empty: start = end).
   */
  readonly offset?: number;
  readonly length?: number;
}

export interface ReportFinding {
  readonly kind: FindingKind;
  /** JSON Pointer of the field in the whole payload: `/3/value`. */
  readonly pointer: string;
  readonly message: string;
  /** Where the Problems panel shows it; absent when the reader had no text positions. */
  readonly range?: TextRange;
  /**
   * A 0 that stands out among the other records of its source in the file (zeroContext's
   * standsOut: nearly all of them send the field as another number): reported at a warning's
   * level, as the Problems panel shows it, though its kind stays zero.
   */
  readonly standsOut?: true;
}

export interface ReportRecord {
  /** Position in a list payload; undefined for a single record. */
  readonly index: number | undefined;
  /**
   * Where the record sits in its payload, as a JSON Pointer: `/3`, `/data/3`; '' for a payload
   * that is the record, or an NDJSON line (its findings' pointers are then the record's own).
   * Absent when not known: a finding's pointer inside the record is then worked out by `index`.
   */
  readonly pointer?: string;
  readonly kind: ResourceKind | undefined;
  readonly id: string | undefined;
  /** The day the record belongs to (its `date`, or its timestamp's local date), when it has one. */
  readonly date: string | undefined;
  /** No error finding. */
  readonly valid: boolean;
  readonly findings: readonly ReportFinding[];
}

/** A file that was not validated, or only in part: unreadable, empty, not JSON, an empty list, broken off. */
export interface FileProblem {
  /** What went wrong, as a sentence about the file: `is not valid JSON (a comma is expected)`. */
  readonly message: string;
  readonly range?: TextRange;
  /**
   * Records of the file were validated and reported before this problem (a file that breaks off,
   * a list with a syntax error part-way): the file is validated only in part, not left unread.
   */
  readonly partial?: boolean;
}

export interface ReportFile {
  /** The name a person gave (or `standard input`), for text and titles. */
  readonly name: string;
  /**
   * The file's path with `/` separators: relative to the report's base folder (the working
   * directory, the workspace folder) when it is inside it, else absolute; none for standard input
   * or an unsaved editor.
   */
  readonly path?: string;
}

export const REPORT_FORMATS = ['text', 'json', 'sarif', 'junit', 'github'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * Writes one report as text, piece by piece: start, then for each file `file`, its `problem` or
 * its `record`s, `endFile`, and at last `end`. Each call returns the text to append (maybe '').
 */
export interface ReportWriter {
  /**
   * False when the writer never reads a finding's range (the JSON report): a streamed file's
   * findings are then not placed at all, which is most of the work after validation. Absent: true.
   */
  readonly placesFindings?: boolean;
  start(): string;
  file(file: ReportFile): string;
  problem(problem: FileProblem): string;
  record(record: ReportRecord): string;
  endFile(): string;
  end(): string;
}

/**
 * One file's whole content for the one-call form (`writeReport`): its records, or a problem, or
 * both (a list that is no JSON: the records it holds whole, then the syntax error).
 */
export type ReportEntry = { readonly file: ReportFile } & ({ readonly problem: FileProblem; readonly records?: Iterable<ReportRecord> } | { readonly records: Iterable<ReportRecord> });
