// Moving every calendar date and timestamp of a recording by whole days: the time of day, the
// offset and the format stay as they were, so the records still read as real ones.

import { isCalendarDate } from '../dates';

const DATE = /\b(\d{4})-(\d{2})-(\d{2})(?![\d-])/g;
const DAY_MS = 86_400_000;

/** The days to shift by: `days` as given, or the nearest whole number of weeks when weekdays are kept. */
export function effectiveShift(days: number, keepWeekdays: boolean): number {
  if (!keepWeekdays || days % 7 === 0) return days;
  const weeks = Math.round(days / 7);
  return (weeks === 0 ? Math.sign(days) : weeks) * 7;
}

/** `text` with every real calendar date in it (alone or the date of a timestamp) moved by `days`. */
export function shiftDatesIn(text: string, days: number): string {
  if (days === 0) return text;
  return text.replace(DATE, (match: string, y: string, m: string, d: string) => {
    if (!isCalendarDate(match)) return match;
    const moved = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)) + days * DAY_MS);
    return moved.toISOString().slice(0, 10);
  });
}
