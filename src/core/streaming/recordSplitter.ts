// Splits a JSON payload read in chunks into its records without parsing it: the elements of a
// top-level array, of a wrapper's `data`/`items`/`results` array, or the lines of NDJSON (in
// blocks of whole lines), each with the line and column where it starts. Memory holds one record
// (or one chunk's lines) at a time, whatever the file's size.

import { syntaxWords } from '../json';
import { LIST_WRAPPERS, RESOURCES } from '../resources';

/** One piece of the payload to parse and validate on its own. */
export interface RecordUnit {
  /** The bytes of the record (or of the whole payload, for `whole`; of whole lines, for `lines`). */
  readonly bytes: Buffer;
  /**
   * `element`: one record of a list, at `pointer`. `whole`: the payload is this one value (a
   * record, or a small wrapper), validated as the payload as a whole. `lines`: NDJSON lines
   * separated by \n, one record each but the blank ones (see isBlankLine), numbered from `index`.
   */
  readonly shape: 'element' | 'whole' | 'lines';
  /** Position in the list (array element or NDJSON line; a block's first record); undefined for a whole payload. */
  readonly index: number | undefined;
  /** JSON Pointer of the record in the payload: `/3`, `/data/3`; '' for NDJSON lines and a whole payload. */
  readonly pointer: string;
  /** 1-based line and column (in bytes from the line's start) where the unit's bytes begin. */
  readonly line: number;
  readonly column: number;
}

/** A place where a payload is not JSON. Positions are 1-based. */
export class SplitError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} at line ${line}, column ${column}`);
  }
}

const WRAPPER_FIELDS: ReadonlySet<string> = new Set(LIST_WRAPPERS);
const SIGNATURE_FIELDS = new Set(RESOURCES.flatMap((r) => r.signatureFields));

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** `"`, `-`, digits, and the first letters of true, false and null. */
const SCALAR_START = new Set([QUOTE, 0x2d, ...Array.from({ length: 10 }, (_, d) => 0x30 + d), 0x74, 0x66, 0x6e]);
const describeByte = (b: number): string => (b >= 0x21 && b < 0x7f ? `"${String.fromCharCode(b)}"` : `0x${b.toString(16).padStart(2, '0')}`);

const BOM = [0xef, 0xbb, 0xbf];

/** Why a payload that starts as UTF-16 is not read (JSON payloads are UTF-8), as the end of "<file> …". */
export const UTF16_MESSAGE = 'is UTF-16, not UTF-8 (it starts with a UTF-16 byte-order mark): save it as UTF-8';

/** Whether bytes start with a UTF-16 byte-order mark (FF FE or FE FF). */
export function startsAsUtf16(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
}

const isSpace = (b: number): boolean => b === 0x20 || b === NEWLINE || b === 0x0d || b === 0x09;

/** An NDJSON line of JSON whitespace only (bytes or character codes), which holds no record. */
export function isBlankLine(codeAt: (i: number) => number, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!isSpace(codeAt(k))) return false;
  return true;
}

type Mode =
  /** Before the first value (a byte-order mark and whitespace are skipped). */
  | 'start'
  /** Elements of a list at `elementDepth` are records. */
  | 'list'
  /** A top-level object, kept whole until it proves to be a wrapper of a list. */
  | 'object'
  /** After a top-level value that was kept whole: NDJSON if more values follow on new lines. */
  | 'afterWhole'
  /** After a list that was streamed: only whitespace may follow. */
  | 'afterList'
  /** One NDJSON line per record. */
  | 'lines';

export class RecordSplitter {
  private mode: Mode = 'start';
  /** Absolute offset of the current chunk's first byte. */
  private base = 0;
  private line = 1;
  private lineStart = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Bytes of the unit being gathered, from earlier chunks. */
  private parts: Buffer[] = [];
  private unitStart = -1;
  private unitLine = 0;
  private unitColumn = 0;
  private elementDepth = 1;
  private prefix = '';
  private index = 0;
  /** In a list: the element just ended, so only `,` or `]` may come. */
  private elementDone = false;
  /** In a list: a comma came last, so an element must come (JSON has no trailing comma). */
  private afterComma = false;
  /** In a top-level object: a key is expected at depth 1, its bytes, a signature field seen. */
  private expectKey = false;
  private keyParts: number[] | undefined;
  private lastKey = '';
  private awaitingValueOf = '';
  private sawSignature = false;
  /** The top-level value kept whole, emitted once it is known whether NDJSON follows. */
  private pendingWhole: Omit<RecordUnit, 'shape' | 'index'> | undefined;
  private newlineSinceWhole = false;
  /** Units emitted so far. */
  units = 0;
  /**
   * The first place the payload is not JSON, in file order. A list goes on being split past a
   * comma that is missing or one too many, as the editor reads it (the records on either side
   * are whole); anything else stops the split there (`stopped`).
   */
  syntaxError: SplitError | undefined;
  /** How many more places are not JSON after `syntaxError` (up to the one that stopped the split). */
  moreSyntaxErrors = 0;
  /** Nothing after `syntaxError`'s last place can be split: push and end give no more units. */
  stopped = false;
  /** `a comma is expected at line 3, column 2, and 2 more`, as a file's problem names them; undefined when all was JSON. */
  get syntaxErrorText(): string | undefined {
    const first = this.syntaxError;
    if (first === undefined) return undefined;
    return this.moreSyntaxErrors > 0 ? `${first.message}, and ${this.moreSyntaxErrors} more` : first.message;
  }
  /** The payload was a list (or a wrapper's list): when it had no element, it is an empty list. */
  get emptyList(): boolean {
    return this.units === 0 && (this.mode === 'list' || this.mode === 'afterList');
  }

  /**
   * The units complete in this chunk. A unit's bytes may be a view of the chunk (no copy per
   * record): the caller must not change the chunk afterwards.
   */
  push(chunk: Buffer): RecordUnit[] {
    const out: RecordUnit[] = [];
    if (this.stopped) return out;
    try {
      if (this.mode === 'lines') this.lines(chunk, 0, out);
      else this.scan(chunk, 0, out);
    } catch (err) {
      // The units before the place that stopped the split are still records.
      if (!(err instanceof SplitError)) throw err;
      this.stop(err);
      this.units += out.length;
      return out;
    }
    if (this.unitStart >= 0) {
      // The unit goes on in the next chunk: keep its bytes so far (a copy, so a long record does
      // not hold every chunk it spans whole).
      const from = Math.max(0, this.unitStart - this.base);
      this.parts.push(Buffer.from(chunk.subarray(from)));
      this.unitStart = this.base + chunk.length;
    }
    this.base += chunk.length;
    this.units += out.length;
    return out;
  }

  /** The last units, once the input has ended (an input that ends inside a value stops the split). */
  end(): RecordUnit[] {
    const out: RecordUnit[] = [];
    if (this.stopped) return out;
    if (this.mode === 'lines') {
      if (this.unitStart >= 0) this.emitLine(Buffer.alloc(0), 0, out);
    } else if (this.mode === 'start') {
      // Nothing but whitespace: the caller says "is empty".
    } else if (this.mode === 'afterWhole') {
      this.flushWhole(out, 'whole');
    } else if (this.mode === 'object' && this.depth === 0 && !this.inString) {
      // A scalar at the top, with no newline after it.
      this.endWhole(Buffer.alloc(0), 0);
      this.flushWhole(out, 'whole');
    } else if (this.mode !== 'afterList') {
      this.stop(new SplitError(this.inString ? 'the JSON ends inside a string' : 'the JSON ends inside a value', this.line, this.base - this.lineStart + 1));
    }
    this.units += out.length;
    return out;
  }

  private column(offset: number): number {
    return offset - this.lineStart + 1;
  }

  private startUnit(at: number): void {
    this.unitStart = at;
    this.unitLine = this.line;
    this.unitColumn = this.column(at);
    this.parts.length = 0;
  }

  private takeUnit(chunk: Buffer, endInChunk: number): Buffer {
    const from = Math.max(0, this.unitStart - this.base);
    const tail = chunk.subarray(from, endInChunk);
    const bytes = this.parts.length === 0 ? tail : Buffer.concat([...this.parts, tail]);
    this.parts.length = 0;
    this.unitStart = -1;
    return bytes;
  }

  private fail(message: string, chunkOffset: number): never {
    throw new SplitError(message, this.line, this.column(this.base + chunkOffset));
  }

  /** A place that is not JSON but after which the list reads on, as the editor reads it. */
  private note(message: string, chunkOffset: number): void {
    this.noteError(new SplitError(message, this.line, this.column(this.base + chunkOffset)));
  }

  private noteError(error: SplitError): void {
    if (this.syntaxError === undefined) this.syntaxError = error;
    else this.moreSyntaxErrors++;
  }

  private stop(error: SplitError): void {
    this.noteError(error);
    this.stopped = true;
    this.unitStart = -1;
    this.parts.length = 0;
  }

  private emitElement(chunk: Buffer, endInChunk: number, out: RecordUnit[]): void {
    const bytes = this.takeUnit(chunk, endInChunk);
    const index = this.index++;
    out.push({ bytes, shape: 'element', index, pointer: `${this.prefix}/${index}`, line: this.unitLine, column: this.unitColumn });
  }

  private flushWhole(out: RecordUnit[], shape: 'whole' | 'element'): void {
    const whole = this.pendingWhole;
    if (whole === undefined) return;
    this.pendingWhole = undefined;
    out.push(shape === 'whole' ? { ...whole, shape, index: undefined } : { ...whole, shape, index: this.index++, pointer: '' });
  }

  /** The byte loop for every mode but `lines`: strings, nesting, and the places records start and end. */
  private scan(chunk: Buffer, from: number, out: RecordUnit[]): void {
    const n = chunk.length;
    for (let i = from; i < n; i++) {
      if (this.depth > this.elementDepth && this.mode === 'list') {
        // Inside an element: most of a list's bytes, read by a loop of its own.
        i = this.insideElement(chunk, i);
        continue;
      }
      const b = chunk[i];
      if (b === NEWLINE) {
        this.line++;
        this.lineStart = this.base + i + 1;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) {
          this.inString = false;
          if (this.keyParts !== undefined) this.endKey();
          // A string that is an element of the list ends at its closing quote.
          else if (this.depth === this.elementDepth && this.mode === 'list') this.elementDone = true;
        } else if (this.keyParts !== undefined && this.keyParts.length < 64) this.keyParts.push(b);
        continue;
      }
      switch (this.mode) {
        case 'start':
          if (isSpace(b)) continue;
          if (this.base + i < 3 && b === BOM[this.base + i]) {
            // A byte-order mark takes no column.
            this.lineStart = this.base + i + 1;
            continue;
          }
          if (this.base + i === 0 && (b === 0xff || b === 0xfe)) {
            // UTF-16's byte-order marks (FF FE, FE FF): PowerShell 5's `>` writes files so.
            throw new Error(UTF16_MESSAGE);
          }
          this.depth = 0;
          if (b === OPEN_BRACKET) {
            this.mode = 'list';
            this.elementDepth = 1;
            this.depth = 1;
            continue;
          }
          this.startUnit(this.base + i);
          if (b === OPEN_BRACE) {
            this.mode = 'object';
            this.depth = 1;
            this.expectKey = true;
            continue;
          }
          // A scalar at the top: the rest of the line is the payload (JSON.parse judges it). What
          // can start no JSON value (a NUL, an HTML page) is refused here, before it is kept.
          if (!SCALAR_START.has(b)) this.fail(`unexpected character ${describeByte(b)}`, i);
          this.mode = 'object';
          if (b === QUOTE) this.inString = true;
          continue;
        case 'list':
          this.scanList(chunk, i, b, out);
          continue;
        case 'object':
          this.scanObject(chunk, i, b);
          continue;
        case 'afterWhole':
          if (isSpace(b)) {
            if (b === NEWLINE) this.newlineSinceWhole = true;
            continue;
          }
          if (!this.newlineSinceWhole) this.fail('more JSON after the end of the value', i);
          // NDJSON: the first value was the first record; every line from here is one record.
          this.flushWhole(out, 'element');
          this.mode = 'lines';
          this.startUnit(this.base + i);
          this.lines(chunk, i, out);
          return;
        case 'afterList':
          if (!isSpace(b)) this.fail('more JSON after the end of the list', i);
          continue;
        case 'lines':
          return;
      }
    }
  }

  /**
   * The bytes of a list element below its own depth, from `i`, as scan and scanList read them
   * (lines, strings, nesting) but with the state in locals: the offset of the bracket that closes
   * the element, or the chunk's length when it goes on in the next chunk.
   */
  private insideElement(chunk: Buffer, i: number): number {
    const n = chunk.length;
    const base = this.base;
    const elementDepth = this.elementDepth;
    let { depth, inString, escaped, line, lineStart } = this;
    for (; i < n; i++) {
      const b = chunk[i];
      if (b === NEWLINE) {
        line++;
        lineStart = base + i + 1;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) inString = false;
      } else if (b === QUOTE) inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        if (--depth === elementDepth) {
          this.elementDone = true;
          break;
        }
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.line = line;
    this.lineStart = lineStart;
    return i;
  }

  /** A byte of a list at or above its elements' depth (scan reads the inside of an element with insideElement). */
  private scanList(chunk: Buffer, i: number, b: number, out: RecordUnit[]): void {
    if (this.depth < this.elementDepth) {
      // Wrapper members after its list, at depth 1: skipped.
      if (b === QUOTE) this.inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) this.depth++;
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        this.depth--;
        if (this.depth === 0) this.mode = 'afterList';
      }
      return;
    }
    // At the elements' depth.
    if (b === COMMA || b === CLOSE_BRACKET) {
      if (this.unitStart >= 0) this.emitElement(chunk, i, out);
      else if (b === COMMA || this.afterComma) this.note(syntaxWords('ValueExpected'), i); // `[,` `,,` `, ]`
      this.elementDone = false;
      this.afterComma = b === COMMA;
      if (b === CLOSE_BRACKET) {
        this.depth--;
        // What follows the list in a wrapper is skipped at any depth.
        this.elementDepth = Number.MAX_SAFE_INTEGER;
        if (this.depth === 0) this.mode = 'afterList';
      }
      return;
    }
    if (isSpace(b)) {
      // A scalar element ends at the space after it (an object or array at its closing bracket).
      if (this.unitStart >= 0) this.elementDone = true;
      return;
    }
    // A value starting right after a number or literal (`1{`) also ends it.
    if (this.elementDone || (this.unitStart >= 0 && (b === QUOTE || b === OPEN_BRACE || b === OPEN_BRACKET))) {
      // `} {`, `"a""b"`: a comma is missing between two elements; both are read, as the editor reads them.
      this.note(syntaxWords('CommaExpected'), i);
      this.emitElement(chunk, i, out);
      this.elementDone = false;
    }
    this.afterComma = false;
    if (this.unitStart < 0) this.startUnit(this.base + i);
    if (b === QUOTE) this.inString = true;
    else if (b === OPEN_BRACE || b === OPEN_BRACKET) this.depth++;
    else if (b === CLOSE_BRACE) this.fail('unexpected "}"', i);
  }

  private endKey(): void {
    this.lastKey = String.fromCharCode(...this.keyParts!);
    this.keyParts = undefined;
    if (SIGNATURE_FIELDS.has(this.lastKey)) this.sawSignature = true;
  }

  private scanObject(chunk: Buffer, i: number, b: number): void {
    if (this.depth === 0) {
      // A scalar at the top: it runs to the end of its line.
      if (b === NEWLINE) this.endWhole(chunk, i);
      else if (b === QUOTE) this.inString = true;
      return;
    }
    if (b === QUOTE) {
      this.inString = true;
      if (this.depth === 1 && this.expectKey) {
        this.keyParts = [];
        this.expectKey = false;
      }
      return;
    }
    if (this.depth === 1) {
      if (b === COLON) {
        this.awaitingValueOf = this.lastKey;
        return;
      }
      if (b === COMMA) {
        this.expectKey = true;
        this.awaitingValueOf = '';
        return;
      }
      if (b === OPEN_BRACKET && WRAPPER_FIELDS.has(this.awaitingValueOf) && !this.sawSignature) {
        // A wrapper `{"data": [...]}`: its list is streamed, the object is not kept.
        this.mode = 'list';
        this.prefix = `/${this.awaitingValueOf}`;
        this.elementDepth = 2;
        this.depth = 2;
        this.unitStart = -1;
        this.parts.length = 0;
        return;
      }
      if (!isSpace(b)) this.awaitingValueOf = '';
    }
    if (b === OPEN_BRACE || b === OPEN_BRACKET) this.depth++;
    else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      this.depth--;
      if (this.depth === 0) this.endWhole(chunk, i + 1);
    }
  }

  /** The top-level value kept whole has ended (before `endInChunk`). */
  private endWhole(chunk: Buffer, endInChunk: number): void {
    const line = this.unitLine;
    const column = this.unitColumn;
    this.pendingWhole = { bytes: this.takeUnit(chunk, endInChunk), pointer: '', line, column };
    this.mode = 'afterWhole';
    this.newlineSinceWhole = endInChunk < chunk.length && chunk[endInChunk] === NEWLINE;
  }

  /**
   * NDJSON after its first record, one record per line: the line under way ends at the chunk's
   * first newline (a unit of its own, maybe begun in earlier chunks), the whole lines after it up
   * to the chunk's last newline are one `lines` unit (no object per line here: the thread that
   * reads only counts them), and the rest begins the next line. Newlines are found with indexOf.
   */
  private lines(chunk: Buffer, from: number, out: RecordUnit[]): void {
    const first = chunk.indexOf(NEWLINE, from);
    if (first < 0) return;
    if (this.unitStart < 0) this.startUnit(this.base + from);
    this.emitLine(chunk, first, out);
    this.line++;
    const last = chunk.lastIndexOf(NEWLINE);
    if (last > first) {
      const line = this.line;
      const index = this.index;
      const byteAt = (k: number): number => chunk[k];
      for (let i = first + 1; i <= last; ) {
        const end = chunk.indexOf(NEWLINE, i);
        // Most lines start with "{": one byte tells they are not blank.
        if (!isSpace(chunk[i]) || !isBlankLine(byteAt, i, end)) this.index++;
        this.line++;
        i = end + 1;
      }
      if (this.index > index) out.push({ bytes: chunk.subarray(first + 1, last), shape: 'lines', index, pointer: '', line, column: 1 });
    }
    const rest = Math.max(first, last) + 1;
    this.lineStart = this.base + rest;
    this.startUnit(this.base + rest);
  }

  private emitLine(chunk: Buffer, endInChunk: number, out: RecordUnit[]): void {
    const line = this.unitLine;
    const bytes = this.takeUnit(chunk, endInChunk);
    // Blank lines (and a last newline) hold no record.
    if (isBlankLine((k) => bytes[k], 0, bytes.length)) return;
    out.push({ bytes, shape: 'element', index: this.index++, pointer: '', line, column: 1 });
  }
}
