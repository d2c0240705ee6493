// The `date` and `date-time` formats of ajv-formats' full mode, with a fast path in front:
// records carry three such strings each, and the full checks (a regex split and two regex
// matches per string) would cost more than parsing the JSON. The fast path accepts only strings
// the full check accepts too; everything else goes to the full check, which has the last word.

import { fullFormats } from 'ajv-formats/dist/formats';
import type { FormatDefinition } from 'ajv';

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The digit at `i` (0-9), or -1 when the character is not an ASCII digit. */
function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

function twoDigits(s: string, i: number): number {
  const a = digit(s, i);
  const b = digit(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

/** YYYY-MM-DD at the start of `s` names a real calendar day. */
function datePrefix(s: string): boolean {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false; // '-'
  const hi = twoDigits(s, 0);
  const lo = twoDigits(s, 2);
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  if (hi < 0 || lo < 0 || month < 1 || month > 12 || day < 1) return false;
  const year = hi * 100 + lo;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month]);
}

/** `2026-11-20` exactly. */
export function fastDate(s: string): boolean {
  return s.length === 10 && datePrefix(s);
}

/** `2026-11-20T08:00:00(.123)?(Z|+hh:mm)` with in-range fields; no leap seconds (full check). */
export function fastDateTime(s: string): boolean {
  const n = s.length;
  if (n < 20 || n > 40 || !datePrefix(s)) return false;
  const sep = s.charCodeAt(10);
  if (sep !== 84 && sep !== 116 && sep !== 32) return false; // 'T' 't' ' '
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false; // ':'
  const hour = twoDigits(s, 11);
  const minute = twoDigits(s, 14);
  const second = twoDigits(s, 17);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  let i = 19;
  if (s.charCodeAt(i) === 46) {
    // '.' and at least one digit
    i++;
    const first = i;
    while (i < n && digit(s, i) >= 0) i++;
    if (i === first) return false;
  }
  const zone = s.charCodeAt(i);
  if (zone === 90 || zone === 122) return i === n - 1; // 'Z' 'z'
  if ((zone !== 43 && zone !== 45) || i !== n - 6 || s.charCodeAt(i + 3) !== 58) return false; // '+' '-' ':'
  const zh = twoDigits(s, i + 1);
  const zm = twoDigits(s, i + 4);
  return zh >= 0 && zh <= 23 && zm >= 0 && zm <= 59;
}

const fullDate = fullFormats.date as FormatDefinition<string>;
const fullDateTime = fullFormats['date-time'] as FormatDefinition<string>;

function withFastPath(full: FormatDefinition<string>, fast: (s: string) => boolean): FormatDefinition<string> {
  const check = full.validate as (s: string) => boolean;
  return { type: 'string', validate: (s: string) => fast(s) || check(s), compare: full.compare };
}

export const DATE_FORMAT = withFastPath(fullDate, fastDate);
export const DATE_TIME_FORMAT = withFastPath(fullDateTime, fastDateTime);
