// Where a report writer's text goes as it is made: pieces of one string, or UTF-8 bytes in a
// buffer of their own (which a worker thread transfers to the thread that writes the report, and
// which is written out without encoding it again). Either way each piece dies young: a batch of
// thousands of records held as strings until joined lived through collections and cost more time
// in the collector than writing them.

export interface TextSink {
  write(text: string): void;
}

/** Pieces joined once at the end. */
export class StringSink implements TextSink {
  private readonly parts: string[] = [];

  write(text: string): void {
    this.parts.push(text);
  }

  text(): string {
    return this.parts.join('');
  }
}

/** Text gathered before it is encoded: one encoding call per piece cost more than making the piece. */
const PENDING_CHARS = 16_384;

/** UTF-8 bytes in a growing buffer that is its own ArrayBuffer (not Node's shared pool). */
export class ByteSink implements TextSink {
  private out: Buffer;
  private at = 0;
  private readonly pending: string[] = [];
  private pendingChars = 0;

  constructor(expected = 64 * 1024) {
    this.out = Buffer.allocUnsafeSlow(Math.max(1024, expected));
  }

  /** Bytes written so far. */
  get length(): number {
    this.encode();
    return this.at;
  }

  private room(need: number): void {
    if (this.at + need <= this.out.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(this.out.length * 2, this.at + need));
    bigger.set(this.out.subarray(0, this.at));
    this.out = bigger;
  }

  private encode(): void {
    if (this.pendingChars === 0) return;
    const text = this.pending.length === 1 ? this.pending[0] : this.pending.join('');
    // Emptied in place: the JSON report encodes once per record, and a new array each time shows.
    this.pending.length = 0;
    this.pendingChars = 0;
    // At most 3 UTF-8 bytes per UTF-16 code unit.
    this.room(text.length * 3);
    this.at += this.out.write(text, this.at);
  }

  write(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= PENDING_CHARS) this.encode();
  }

  /**
   * Text encoded at once, for a writer that puts bytes between its pieces (the JSON report: a
   * record's opening, then its findings' shared bytes): gathering would only add work there.
   */
  writeNow(text: string): void {
    this.encode();
    this.room(text.length * 3);
    this.at += this.out.write(text, this.at);
  }

  /**
   * A string of printable ASCII but `"` and `\\` (what JSON and the report's escapes leave as
   * it is) in quotes, its characters as bytes; false, writing nothing, for any other string.
   */
  plainQuoted(text: string): boolean {
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
    }
    this.encode();
    this.room(n + 2);
    const out = this.out;
    let at = this.at;
    out[at++] = 0x22;
    for (let i = 0; i < n; i++) out[at++] = text.charCodeAt(i);
    out[at++] = 0x22;
    this.at = at;
    return true;
  }

  /** Drops what was written after `length` bytes (a length read before). */
  truncate(length: number): void {
    this.encode();
    if (length < this.at) this.at = length;
  }

  /** A non-negative safe integer in decimal. */
  digits(n: number): void {
    this.encode();
    this.room(16);
    let at = this.at;
    let width = 1;
    for (let v = n; v >= 10; v = Math.floor(v / 10)) width++;
    at += width;
    for (let i = 1, v = n; i <= width; i++, v = Math.floor(v / 10)) this.out[at - i] = 0x30 + (v % 10);
    this.at = at;
  }

  /** Bytes already encoded (`set`, not `copy`: Buffer#copy checks its arguments in JS, a cost per call). */
  bytes(bytes: Uint8Array): void {
    this.encode();
    this.room(bytes.length);
    this.out.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** What was written: a view of the buffer, whose ArrayBuffer may be transferred. */
  done(): Buffer {
    this.encode();
    return this.out.subarray(0, this.at);
  }
}
