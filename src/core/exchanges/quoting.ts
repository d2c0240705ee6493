// String literals for generated code (POSIX shell, JavaScript, Python) that no value can break
// out of: whatever an id, a URL or a header holds, the snippet runs it as data, never as code.

import { HealthDataError } from '../errors';

/**
 * A POSIX shell word in single quotes: inside them nothing is special but the quote itself,
 * which is closed, escaped and reopened. A NUL cannot be passed to a program at all, so it is
 * refused rather than silently cut.
 */
export function shellQuote(text: string): string {
  if (text.includes('\0')) throw new HealthDataError('usage', 'A value holds a NUL character, which no shell command can carry.');
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Characters a shell word is not to hold raw: controls, line and paragraph separators, direction marks. */
const UTF8 = new TextEncoder();
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

/**
 * A bash word for any argument, on one line that shows what it holds: single-quoted (shellQuote)
 * as long as the text has no character a terminal would not show; else ANSI-C quoted (`$'…'`),
 * such characters written as their UTF-8 bytes (`\x0d`, `\xe2\x80\xae`), which reach the
 * program whatever the locale.
 */
export function shellArg(text: string): string {
  if (!UNSHOWABLE.test(text)) return shellQuote(text);
  if (text.includes('\0')) return shellQuote(text);
  let out = "$'";
  for (const ch of text) {
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (UNSHOWABLE.test(ch)) for (const byte of UTF8.encode(ch)) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

/** True for what a shell word may hold bare inside double quotes without any escape. */
export function isPlainShellText(text: string): boolean {
  return /^[A-Za-z0-9 _:.,/+=@%-]*$/.test(text);
}

/**
 * The characters a literal escapes: everything outside printable ASCII (controls, NUL, line and
 * paragraph separators, direction overrides, lone surrogates), so the literal is one line of
 * ASCII that reads the same in every editor and terminal.
 */
function escapeCodeUnits(text: string, quote: string, astral: (codePoint: number) => string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const code = text.charCodeAt(i);
    const point = text.codePointAt(i) ?? code;
    if (point > 0xffff) {
      out += astral(point);
      i++;
    } else if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

/** A JavaScript (and TypeScript) string literal in single quotes. */
export function jsString(text: string): string {
  return `'${escapeCodeUnits(text, "'", (point) => `\\u{${point.toString(16)}}`)}'`;
}

/**
 * A Python 3 str literal in single quotes. Python reads `\uXXXX` as one code unit too, so lone
 * surrogates and NUL round-trip; a character beyond U+FFFF is one `\UXXXXXXXX` (two `\u`
 * escapes would be two lone surrogates in Python).
 */
export function pythonString(text: string): string {
  return `'${escapeCodeUnits(text, "'", (point) => `\\U${point.toString(16).padStart(8, '0')}`)}'`;
}
