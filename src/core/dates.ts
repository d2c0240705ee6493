// Calendar dates and the local date a record belongs to. A summary belongs to its `date`; a
// body fat reading to the calendar date of `timestamp` shifted by its `tzOffset` (UTC if none).

import { ResourceKind, resource } from './resources';

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeapYear = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const lastDay = (year: number, month: number): number => (month === 2 && isLeapYear(year) ? 29 : MONTH_DAYS[month - 1]);

/** The ASCII digit at `i` as a number, or -1. */
export function digitAt(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

export function twoDigitsAt(s: string, i: number): number {
  const a = digitAt(s, i);
  const b = digitAt(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

/**
 * A real calendar date at the start of `s` (YYYY-MM-DD) as the number YYYYMMDD, read without a
 * regex or a Date (the tree reads one per record); -1 when it is not one, and for years before
 * 100, which isCalendarDate judges as Date.UTC does.
 */
export function calendarDateAt(s: string): number {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return -1; // '-'
  // Each character read once, with no call per digit: a chart or coverage reads one per record.
  const y0 = s.charCodeAt(0) - 48;
  const y1 = s.charCodeAt(1) - 48;
  const y2 = s.charCodeAt(2) - 48;
  const y3 = s.charCodeAt(3) - 48;
  const m0 = s.charCodeAt(5) - 48;
  const m1 = s.charCodeAt(6) - 48;
  const d0 = s.charCodeAt(8) - 48;
  const d1 = s.charCodeAt(9) - 48;
  // NaN (past the end) fails every comparison, as a non-digit fails one.
  if (!(y0 >= 0 && y0 <= 9 && y1 >= 0 && y1 <= 9 && y2 >= 0 && y2 <= 9 && y3 >= 0 && y3 <= 9 && m0 >= 0 && m0 <= 9 && m1 >= 0 && m1 <= 9 && d0 >= 0 && d0 <= 9 && d1 >= 0 && d1 <= 9)) return -1;
  const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
  const month = m0 * 10 + m1;
  const day = d0 * 10 + d1;
  if (year < 100 || month < 1 || month > 12 || day < 1) return -1;
  return day > lastDay(year, month) ? -1 : year * 10_000 + month * 100 + day;
}

/**
 * Days since 1970-01-01 of a real calendar date written YYYY-MM-DD, NaN for anything else;
 * counted on the text (Howard Hinnant's days-from-civil), for charts that place thousands.
 */
export function epochDayOf(date: string): number {
  const n = date.length === 10 ? calendarDateAt(date) : -1;
  return n < 0 ? NaN : epochDayOfNumber(n);
}

/**
 * Days since 1970-01-01 of a date given as the number YYYYMMDD that calendarDateAt gives (year
 * 100 or later). Integer arithmetic only: a chart places one per record, and a `%` of a value
 * the compiler cannot prove an integer is a floating-point remainder, a call each.
 */
export function epochDayOfNumber(n: number): number {
  const day = n % 100 | 0;
  const month = ((n / 100) | 0) % 100 | 0;
  const y = ((n / 10_000) | 0) - (month <= 2 ? 1 : 0); // from 99: never negative
  const era = (y / 400) | 0;
  const yearOfEra = y - era * 400;
  const dayOfYear = (((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) | 0) + day - 1;
  const dayOfEra = yearOfEra * 365 + ((yearOfEra / 4) | 0) - ((yearOfEra / 100) | 0) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(text: string): boolean {
  if (text.length !== 10) return false;
  if (twoDigitsAt(text, 0) > 0 && twoDigitsAt(text, 2) >= 0) return calendarDateAt(text) >= 0;
  const m = CALENDAR_DATE.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Minutes east of UTC for `+hh:mm`/`-hh:mm`, or undefined when the text is not an offset. */
export function parseTzOffset(text: unknown): number | undefined {
  // Read by character code: the tree reads one per body fat reading.
  if (typeof text !== 'string' || text.length !== 6 || text.charCodeAt(3) !== 58) return undefined; // ':'
  const sign = text.charCodeAt(0);
  const hours = twoDigitsAt(text, 1);
  const mins = twoDigitsAt(text, 4);
  if ((sign !== 43 && sign !== 45) || hours < 0 || mins < 0 || mins > 59) return undefined; // '+' '-'
  const minutes = hours * 60 + mins;
  return sign === 45 ? -minutes : minutes;
}

/** YYYY-MM-DD of a UTC instant shifted by `offsetMinutes`. */
export function formatDate(epochMs: number, offsetMinutes = 0): string {
  return new Date(epochMs + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

/** Today's date (UTC unless an offset is given), YYYY-MM-DD. */
export function today(now: number = Date.now(), offsetMinutes = 0): string {
  return formatDate(now, offsetMinutes);
}

/** Adds whole days to a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`);
  return formatDate(t + days * 86_400_000);
}

/**
 * The local calendar date a record belongs to, or undefined when the record has no usable
 * dating field.
 */
export function localDateOf(record: unknown, kind: ResourceKind): string | undefined {
  if (!record || typeof record !== 'object') return undefined;
  const rec = record as Record<string, unknown>;
  const def = resource(kind);
  if (def.datingField === 'date') {
    const d = rec.date;
    return typeof d === 'string' && isCalendarDate(d) ? d : undefined;
  }
  const ts = rec.timestamp;
  if (typeof ts !== 'string') return undefined;
  const fast = isoLocalDateCode(ts, rec.tzOffset);
  // Not moved by its offset: the timestamp's own date text.
  if (fast >= 0) return fast & 1 ? formatDateNumber(fast >> 1) : ts.slice(0, 10);
  const t = Date.parse(ts);
  if (Number.isNaN(t)) return undefined;
  return formatDate(t, parseTzOffset(rec.tzOffset) ?? 0);
}

/**
 * The local date of a body fat reading as localDateOf gives it, as the number YYYYMMDD and
 * without making its text (coverage dates one per reading): -1 when it has none, -2 when its
 * text is no YYYY-MM-DD (a year beyond 9999 or before 0; localDateOf gives that text).
 */
export function localDateNumberOf(record: Record<string, unknown>): number {
  const ts = record.timestamp;
  if (typeof ts !== 'string') return -1;
  const fast = isoLocalDateCode(ts, record.tzOffset);
  if (fast >= 0) return fast >> 1;
  const t = Date.parse(ts);
  if (Number.isNaN(t)) return -1;
  const n = digitsDateNumber(formatDate(t, parseTzOffset(record.tzOffset) ?? 0));
  return n < 0 ? -2 : n;
}

/** YYYYMMDD of a text written as four, two and two digits between dashes (numbers sort as these texts do), else -1. */
export function digitsDateNumber(s: string): number {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return -1; // '-'
  let n = 0;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    const c = digitAt(s, i);
    if (c < 0) return -1;
    n = n * 10 + c;
  }
  return n;
}

/** The text YYYY-MM-DD of a date number YYYYMMDD (year 0 to 9999). */
export function formatDateNumber(n: number): string {
  const year = (n / 10_000) | 0;
  const month = ((n / 100) | 0) % 100;
  const day = n % 100;
  return `${String(year).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

/**
 * The local date of a timestamp written exactly `YYYY-MM-DDTHH:MM:SS(.f…)(Z|±HH:MM)` with every
 * field in range, computed on the text: the same date as Date.parse and formatDate give, without
 * building a Date. As YYYYMMDD × 2, plus 1 when the offsets move it off the timestamp's own date;
 * -1 for anything else, which takes the slow path.
 */
function isoLocalDateCode(ts: string, tzOffset: unknown): number {
  const n = ts.length;
  if (n < 20 || n > 40 || ts.charCodeAt(10) !== 84 || ts.charCodeAt(13) !== 58 || ts.charCodeAt(16) !== 58) return -1; // 'T' ':'
  const date = calendarDateAt(ts);
  const hour = twoDigitsAt(ts, 11);
  const minute = twoDigitsAt(ts, 14);
  const second = twoDigitsAt(ts, 17);
  if (date < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return -1;
  let i = 19;
  if (ts.charCodeAt(i) === 46) {
    // '.' and digits: under a second, so they never move the date.
    const first = ++i;
    while (i < n && digitAt(ts, i) >= 0) i++;
    if (i === first) return -1;
  }
  let offset: number;
  const zone = ts.charCodeAt(i);
  if (zone === 90 && i === n - 1) {
    offset = 0; // 'Z'
  } else if ((zone === 43 || zone === 45) && i === n - 6 && ts.charCodeAt(i + 3) === 58) {
    const oh = twoDigitsAt(ts, i + 1);
    const om = twoDigitsAt(ts, i + 4);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return -1;
    offset = (zone === 45 ? -1 : 1) * (oh * 60 + om);
  } else {
    return -1;
  }
  // Offsets are whole minutes, so the minute of the day decides the date.
  const minutes = hour * 60 + minute - offset + (parseTzOffset(tzOffset) ?? 0);
  const shift = Math.floor(minutes / 1440);
  if (shift === 0) return date * 2;
  let year = Math.floor(date / 10_000);
  let month = Math.floor(date / 100) % 100;
  let day = date % 100;
  if (year < 1000 || year > 9998) return -1; // the slow path has the last word near the edges
  for (let k = shift; k > 0; k--) {
    if (day < lastDay(year, month)) {
      day++;
    } else {
      day = 1;
      if (month < 12) month++;
      else {
        year++;
        month = 1;
      }
    }
  }
  for (let k = shift; k < 0; k++) {
    if (day > 1) {
      day--;
    } else {
      if (month > 1) month--;
      else {
        year--;
        month = 12;
      }
      day = lastDay(year, month);
    }
  }
  return (year * 10_000 + month * 100 + day) * 2 + 1;
}

/** The month (YYYY-MM) of a YYYY-MM-DD date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/**
 * Groups records by the local date they belong to, newest date first; records within a date
 * keep their order. Records with no usable date are returned under `undated`. Linear in the
 * number of records. The service lists newest first, so while the dates come in descending
 * order the groups are built as they come, without a map; the first date out of that order
 * moves them into a map, and the distinct dates are sorted once at the end.
 */
export function groupByLocalDate<T>(
  records: readonly T[],
  kind: ResourceKind,
): { dates: Array<{ date: string; records: T[] }>; undated: T[] } {
  const dates: Array<{ date: string; records: T[] }> = [];
  const undated: T[] = [];
  let current: { date: string; records: T[] } | undefined;
  let groups: Map<string, { date: string; records: T[] }> | undefined;
  for (let i = 0; i < records.length; i++) {
    const rec = records[i];
    const date = localDateOf(rec, kind);
    if (date === undefined) {
      undated.push(rec);
      continue;
    }
    if (current !== undefined && date === current.date) {
      current.records.push(rec);
      continue;
    }
    if (groups === undefined) {
      if (current === undefined || date < current.date) {
        current = { date, records: [rec] };
        dates.push(current);
        continue;
      }
      groups = new Map(dates.map((g) => [g.date, g]));
    }
    current = groups.get(date);
    if (current) current.records.push(rec);
    else {
      current = { date, records: [rec] };
      groups.set(date, current);
      dates.push(current);
    }
  }
  if (groups !== undefined) dates.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  return { dates, undated };
}

/**
 * What a person typed into a date-range picker: a number of days (`14`, `14 days`, `last 14`),
 * one date (`2026-11-03`: that day), a date and on (`2026-11-01..`: to `today`), or two dates
 * (`2026-11-01..2026-11-20`, `2026-11-01 2026-11-20`, `2026-11-01 to 2026-11-20`; also with a
 * comma, an en or em dash, or a hyphen between spaces). A text that is none of these but starts
 * with a digit is a problem (`unreadable`); one that starts otherwise is not meant as a range
 * (undefined), so the picker's own items are what it filters.
 */
export type TypedRange =
  | { readonly days: number }
  | { readonly start: string; readonly end: string }
  | { readonly problem: DateRangeProblem | { readonly code: 'days'; readonly maxDays: number } | { readonly code: 'unreadable' } };

const TYPED_DAYS = /^(?:last\s+)?(\d{1,6})(?:\s*(?:d|days?))?$/i;
const TYPED_DATE = '\\d{4}-\\d{1,2}-\\d{1,2}';
const TYPED_RANGE = new RegExp(`^(${TYPED_DATE})(?:(\\s*\\.\\.\\.?\\s*|\\s*[\u2013\u2014,]\\s*|\\s+to\\s+|\\s+-\\s+|\\s+)(${TYPED_DATE})?)?$`, 'i');

/** Reads a typed range (see TypedRange), checked by the one rule for ranges (dateRangeProblem). */
export function readTypedRange(text: string, today: string, limits: { readonly maxYears?: number; readonly maxDays: number }): TypedRange | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const days = TYPED_DAYS.exec(t);
  if (days) {
    const n = Number(days[1]);
    return n >= 1 && n <= limits.maxDays ? { days: n } : { problem: { code: 'days', maxDays: limits.maxDays } };
  }
  const range = TYPED_RANGE.exec(t);
  if (range) {
    const start = range[1];
    const separator = range[2];
    // `A..` runs to today; `A` alone is that day; any other separator needs its second date.
    const end = range[3] ?? (separator === undefined ? start : separator.trim().startsWith('..') ? today : undefined);
    if (end === undefined) return { problem: { code: 'oneDateOnly' } };
    const problem = dateRangeProblem(start, end, limits.maxYears);
    return problem ? { problem } : { start, end };
  }
  return /^\d/.test(t) ? { problem: { code: 'unreadable' } } : undefined;
}

/** Why a date range is unusable, as a code each front end words in its own terms. */
export type DateRangeProblem =
  | { readonly code: 'oneDateOnly' }
  | { readonly code: 'notADate'; readonly which: 'start' | 'end'; readonly value: string }
  | { readonly code: 'startAfterEnd'; readonly start: string; readonly end: string }
  | { readonly code: 'tooLong'; readonly start: string; readonly end: string; readonly maxYears: number };

/**
 * The one rule for a date range, shared by the client, the CLI and the extension: both dates or
 * neither (undefined is "not given"), real calendar dates, start on or before end, and, when
 * `maxYears` is given, an end no later than the start's month and day that many years on.
 */
export function dateRangeProblem(start: string | undefined, end: string | undefined, maxYears?: number): DateRangeProblem | undefined {
  if ((start === undefined) !== (end === undefined)) return { code: 'oneDateOnly' };
  if (start === undefined || end === undefined) return undefined;
  if (!isCalendarDate(start)) return { code: 'notADate', which: 'start', value: start };
  if (!isCalendarDate(end)) return { code: 'notADate', which: 'end', value: end };
  if (start > end) return { code: 'startAfterEnd', start, end };
  if (maxYears !== undefined) {
    // Same month and day `maxYears` on; string order is calendar order for YYYY-MM-DD.
    const limit = `${String(Number(start.slice(0, 4)) + maxYears).padStart(4, '0')}${start.slice(4)}`;
    if (end > limit) return { code: 'tooLong', start, end, maxYears };
  }
  return undefined;
}
