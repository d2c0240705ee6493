// Offsets in a text as line and character, counted the way VS Code's TextDocument counts them
// (\r\n, \r and \n end a line; characters are UTF-16 code units), so a report's ranges are the
// Problems panel's.

import type { TextPosition, TextRange } from './model';

export class LineIndex {
  /** Offset at which each line starts, as far as the text has been read. */
  private readonly starts: number[] = [0];
  /** The text before this offset has been read for line ends: a text is read only as far as the positions asked of it. */
  private read = 0;

  constructor(private readonly text: string) {}

  positionAt(offset: number): TextPosition {
    const at = Math.max(0, Math.min(Math.floor(offset), this.text.length));
    if (at >= this.read) this.readTo(at);
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: at - this.starts[lo] };
  }

  /** Notes the line starts up to and including offset `at`. */
  private readTo(at: number): void {
    const { text, starts } = this;
    let i = this.read;
    for (; i <= at && i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (c === 10) {
        starts.push(i + 1);
      }
    }
    this.read = i;
  }

  rangeOf(offset: number, length: number): TextRange {
    return { start: this.positionAt(offset), end: this.positionAt(offset + length), offset, length };
  }
}
