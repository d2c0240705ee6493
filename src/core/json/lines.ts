// Lines of a text: where each starts, and the line and character of an offset (0-based, UTF-16,
// a line ending at `\n`, as editors count), found by binary search over the starts.

/** Where each line starts: 0, then just after each `\n`. */
export function lineStarts(text: string): Uint32Array {
  let count = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  const starts = new Uint32Array(count);
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts[n++] = i + 1;
  return starts;
}

/** The 0-based line and character of `offset`, from the text's lineStarts. */
export function lineCharacterAt(starts: ArrayLike<number>, offset: number): [line: number, character: number] {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return [lo, offset - starts[lo]];
}

/** A text without the byte order mark some editors write at its start (JSON.parse refuses it). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
