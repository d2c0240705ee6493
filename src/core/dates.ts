// Calendar dates and the local date a record belongs to. A summary belongs to its `date`; a
// body fat reading to the calendar date of `timestamp` shifted by its `tzOffset` (UTC if none).

import { ResourceKind, resource } from './resources';

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TZ_OFFSET = /^([+-])(\d{2}):(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(text: string): boolean {
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
  if (typeof text !== 'string') return undefined;
  const m = TZ_OFFSET.exec(text);
  if (!m) return undefined;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  if (Number(m[3]) > 59) return undefined;
  return m[1] === '-' ? -minutes : minutes;
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
  const t = Date.parse(ts);
  if (Number.isNaN(t)) return undefined;
  return formatDate(t, parseTzOffset(rec.tzOffset) ?? 0);
}

/** The month (YYYY-MM) of a YYYY-MM-DD date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/**
 * Groups records by the local date they belong to, newest date first; records within a date
 * keep their order. Records with no usable date are returned under `undated`. Linear in the
 * number of records (one map insert each, one sort of the distinct dates).
 */
export function groupByLocalDate<T>(
  records: readonly T[],
  kind: ResourceKind,
): { dates: Array<{ date: string; records: T[] }>; undated: T[] } {
  const groups = new Map<string, T[]>();
  const undated: T[] = [];
  for (const rec of records) {
    const date = localDateOf(rec, kind);
    if (date === undefined) {
      undated.push(rec);
      continue;
    }
    const list = groups.get(date);
    if (list) list.push(rec);
    else groups.set(date, [rec]);
  }
  const dates = [...groups.keys()].sort().reverse().map((date) => ({ date, records: groups.get(date)! }));
  return { dates, undated };
}
