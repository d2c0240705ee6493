// The `date` and `date-time` formats of ajv-formats' full mode, with a fast path in front:
// records carry three such strings each, and the full checks (a regex split and two regex
// matches per string) would cost more than parsing the JSON. The fast path accepts only strings
// the full check accepts too; everything else goes to the full check, which has the last word.

import { fullFormats } from 'ajv-formats/dist/formats';
import type { FormatDefinition } from 'ajv';
import { calendarDateAt, digitAt, twoDigitsAt } from '../dates';

/** YYYY-MM-DD at the start of `s` names a real calendar day (years 0100 and later). */
const datePrefix = (s: string): boolean => calendarDateAt(s) >= 0;

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
  const hour = twoDigitsAt(s, 11);
  const minute = twoDigitsAt(s, 14);
  const second = twoDigitsAt(s, 17);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  let i = 19;
  if (s.charCodeAt(i) === 46) {
    // '.' and at least one digit
    i++;
    const first = i;
    while (i < n && digitAt(s, i) >= 0) i++;
    if (i === first) return false;
  }
  const zone = s.charCodeAt(i);
  if (zone === 90 || zone === 122) return i === n - 1; // 'Z' 'z'
  if ((zone !== 43 && zone !== 45) || i !== n - 6 || s.charCodeAt(i + 3) !== 58) return false; // '+' '-' ':'
  const zh = twoDigitsAt(s, i + 1);
  const zm = twoDigitsAt(s, i + 4);
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

/** The formats the generated validators (validators.generated.ts) read by name at run time. */
export const AJV_FORMATS: Readonly<Record<string, FormatDefinition<string>>> = { date: DATE_FORMAT, 'date-time': DATE_TIME_FORMAT };
