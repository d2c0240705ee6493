// What must never reach a terminal from a payload, and the assertion the CLI tests make with it.
import * as assert from 'node:assert/strict';

/**
 * C0 controls but the line feed (ESC starts every escape sequence), DEL, C1 controls (U+009B is a
 * one-character CSI), and the bidi marks, embeddings, overrides and isolates that reorder what is shown.
 */
export const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export function assertInert(text: string, what: string): void {
  const at = text.search(UNSAFE);
  assert.equal(at, -1, `${what}: U+${text.charCodeAt(at).toString(16).padStart(4, '0')} reaches the terminal in ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`);
  assert.doesNotMatch(text, /\n\s+at .*:\d+:\d+\)?\n/, `${what}: a stack trace`);
}
