// NDJSON (one record a line, `.ndjson`, `.jsonl`) in an editor's document: told from a JSON text
// that breaks off, each line parsed and validated on its own, its findings placed on the line
// and moved to where the line stands in the document. A line that is no JSON is a syntax error
// there; the other lines are validated all the same, as the CLI reads such a file. The validation
// of the records is payloadText.ts's (validateNdjsonText).

import { JsonSyntaxError, JsonTextOptions, MAX_SYNTAX_ERRORS, Span, parseJsonText } from '../json';

/**
 * How a text that is no JSON is read as NDJSON: `detect` when it starts with an object and a
 * second value follows on a line of its own (what the CLI reads as NDJSON), `always` for a
 * document named or marked NDJSON (`.ndjson`, `.jsonl`), whose first line may be the broken one.
 * A text that parses as JSON is always read as JSON.
 */
export type LinesMode = 'detect' | 'always';

export interface LinesOptions {
  readonly lines?: LinesMode;
}

/** A file name that says NDJSON: its lines are records whatever they hold (LinesMode `always`). */
export const NDJSON_FILE_NAME = /\.(?:ndjson|jsonl)$/i;

/** What a text read as NDJSON holds: its records (non-blank lines), and how many of those lines are no JSON. */
export interface NdjsonLines {
  readonly records: number;
  readonly broken: number;
}

const isBlankCode = (c: number): boolean => c === 32 || c === 9 || c === 13 || c === 10 || c === 0xfeff;

/** Where the line holding `offset` starts. */
function lineStartAt(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Whether only blanks stand between the start of its line and `offset`. */
function startsItsLine(text: string, offset: number): boolean {
  const start = lineStartAt(text, offset);
  if (start === 0) return false;
  for (let i = start; i < offset; i++) if (!isBlankCode(text.charCodeAt(i))) return false;
  return true;
}

/** The span of text[from, to) without the blanks at either end; undefined when it is all blank. */
function trimmedSpan(text: string, from: number, to: number): Span | undefined {
  while (from < to && isBlankCode(text.charCodeAt(from))) from++;
  while (to > from && isBlankCode(text.charCodeAt(to - 1))) to--;
  return from < to ? { offset: from, length: to - from } : undefined;
}

/**
 * The spans of the records of a text read as NDJSON: its first value, then each line after it
 * that is not blank; undefined when the text is not read so. `errors` are those of the text read
 * as JSON (parseJsonText): a text without them is JSON.
 */
export function ndjsonRecordSpans(text: string, errors: readonly JsonSyntaxError[], mode: LinesMode | undefined): Span[] | undefined {
  if (mode === undefined || errors.length === 0) return undefined;
  const first = errors[0];
  let at = 0;
  while (at < text.length && isBlankCode(text.charCodeAt(at))) at++;
  const spans: Span[] = [];
  let rest = 0;
  if (first.code === 'EndOfFileExpected' && text.charCodeAt(at) === 123 && startsItsLine(text, first.offset)) {
    // The first value is whole (it may take several lines); each line from the next value on is a record.
    rest = lineStartAt(text, first.offset);
    spans.push(trimmedSpan(text, at, rest)!);
  } else if (mode === 'detect') {
    return undefined;
  }
  for (let start = rest; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const span = trimmedSpan(text, start, end);
    if (span !== undefined) spans.push(span);
    start = end + 1;
  }
  // A blank text is empty, not NDJSON; a text read as NDJSON by its content has two records or more.
  return spans.length > (mode === 'always' ? 0 : 1) ? spans : undefined;
}

/** An NDJSON text's records parsed, each line on its own. */
export interface NdjsonRecords {
  /** Where each record stands in the text. */
  readonly spans: readonly Span[];
  /** Each record's value; undefined for a line that is no JSON. */
  readonly values: readonly unknown[];
  /** The lines' syntax errors, placed in the text (at most MAX_SYNTAX_ERRORS), and how many lines have one. */
  readonly syntaxErrors: readonly JsonSyntaxError[];
  readonly brokenLines: number;
}

/** Parses each record of an NDJSON text (its spans from ndjsonRecordSpans). */
export function parseNdjsonRecords(text: string, spans: readonly Span[], options?: JsonTextOptions): NdjsonRecords {
  const values: unknown[] = [];
  const syntaxErrors: JsonSyntaxError[] = [];
  let brokenLines = 0;
  for (const span of spans) {
    const parsed = parseJsonText(text.slice(span.offset, span.offset + span.length), options);
    if (parsed.errors.length === 0) {
      values.push(parsed.value);
      continue;
    }
    values.push(undefined);
    brokenLines++;
    for (const e of parsed.errors) {
      if (syntaxErrors.length >= MAX_SYNTAX_ERRORS) break;
      syntaxErrors.push({ code: e.code, offset: e.offset + span.offset, length: e.length });
    }
  }
  return { spans, values, syntaxErrors, brokenLines };
}
