// The `date` and `date-time` formats of ajv-formats' full mode, with a fast path in front:
// records carry three such strings each, and the full checks (a regex split and two regex
// matches per string) would cost more than parsing the JSON. The fast path accepts only strings
// the full check accepts too; everything else goes to the full check, which has the last word.

import { fullFormats } from 'ajv-formats/dist/formats';
import type { FormatDefinition } from 'ajv';
import { calendarDateAt } from '../dates';

// One regular expression each (irregexp compiles it to machine code: about a third faster than
// reading the characters one by one in script, and fast from the first call). The patterns keep
// every field in range; only a day from 29 to 31 needs the month's length, read by calendarDateAt.
const DATE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;
const DATE_TIME = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt ](?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** The day of a YYYY-MM-DD prefix the patterns accepted is in its month (years 0100 and later). */
function dayInMonth(s: string): boolean {
  const tens = s.charCodeAt(8);
  // '0', '1' or '2' then not '9': days 1-28 are in every month.
  if (tens < 50 || (tens === 50 && s.charCodeAt(9) !== 57)) return true;
  return calendarDateAt(s) >= 0;
}

// The last string each fast path accepted. Records of a list come by date, several a day, and a
// record's updatedAt is often its createdAt: a string equal to the last one is accepted again
// without the pattern (an equal string is the same text, so the same answer).
let lastDate = '';
let lastDateTime = '';

/** `2026-11-20` exactly. */
export function fastDate(s: string): boolean {
  if (s === lastDate) return true;
  if (s.length === 10 && DATE.test(s) && dayInMonth(s)) {
    lastDate = s;
    return true;
  }
  return false;
}

/** `2026-11-20T08:00:00(.123)?(Z|+hh:mm)` with in-range fields; no leap seconds (full check). */
export function fastDateTime(s: string): boolean {
  if (s === lastDateTime) return true;
  if (s.length >= 20 && s.length <= 40 && DATE_TIME.test(s) && dayInMonth(s)) {
    lastDateTime = s;
    return true;
  }
  return false;
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
