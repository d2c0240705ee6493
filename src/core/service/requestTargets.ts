// Where a call goes: an id as one path segment, the list's query parameters (checked, so no
// request leaves with a date that does not exist), a parameter added without re-parsing the URL.

import { dateRangeProblem, isCalendarDate } from '../dates';
import { HealthDataError } from '../errors';

/**
 * An id as one path segment. encodeURIComponent keeps `/ ? #` from changing the path but leaves
 * dots alone, so the ids `.` and `..` (which every URL parser collapses) are written with %2E.
 */
export function encodeIdSegment(id: string): string {
  return id === '.' || id === '..' ? id.replace(/\./g, '%2E') : encodeURIComponent(id);
}

/** What a list asks for: its date range and filters, and whether to follow every page. */
export interface ListQuery {
  startDate?: string;
  endDate?: string;
  source?: string;
  /** Page size asked of the service (default: pageSize). */
  limit?: number;
  offset?: number;
  updatedSince?: string;
  createdSince?: string;
  humanId?: string;
  /** Follow every page; default true. */
  all?: boolean;
}

/** updated_since / created_since: a date, or an ISO 8601 date-time with an optional offset. */
const SINCE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;

/** Whether `text` is a value `updated_since`/`created_since` takes: a real date, or a real ISO date-time. */
export function isSinceValue(text: string): boolean {
  const since = text.trim();
  return SINCE.test(since) && isCalendarDate(since.slice(0, 10)) && !Number.isNaN(Date.parse(since));
}

/** The query parameters of a list, checked: no request goes out with a date that does not exist. */
export function listParams(query: ListQuery): URLSearchParams {
  const params = new URLSearchParams();
  const given = (v: string | undefined): v is string => typeof v === 'string' && v.trim() !== '';
  const startDate = given(query.startDate) ? query.startDate : undefined;
  const endDate = given(query.endDate) ? query.endDate : undefined;
  const problem = dateRangeProblem(startDate, endDate);
  if (problem?.code === 'oneDateOnly') throw usage('startDate and endDate go together: give both or neither.');
  if (problem?.code === 'notADate') throw usage(`${problem.value} is not a real calendar date (YYYY-MM-DD).`);
  if (problem?.code === 'startAfterEnd') throw usage(`startDate ${problem.start} is after endDate ${problem.end}.`);
  if (startDate !== undefined && endDate !== undefined) {
    params.set('start_date', startDate);
    params.set('end_date', endDate);
  }
  if (given(query.source)) params.set('source', query.source.trim());
  for (const [name, value] of [['updated_since', query.updatedSince], ['created_since', query.createdSince]] as const) {
    if (!given(value)) continue;
    const since = value.trim();
    if (!isSinceValue(since)) {
      throw usage(`${name} ${value} is not a date (YYYY-MM-DD) or an ISO date-time (UTC unless it carries an offset).`);
    }
    params.set(name, since);
  }
  if (given(query.humanId)) params.set('humanId', query.humanId.trim());
  return params;
}

/** Sets one query parameter without re-parsing the URL (which would collapse an encoded `..`). */
export function withParam(url: string, name: string, value: string): string {
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const q = base.indexOf('?');
  const path = q < 0 ? base : base.slice(0, q);
  const key = encodeURIComponent(name);
  const kept = (q < 0 ? [] : base.slice(q + 1).split('&')).filter((pair) => pair && pair.split('=')[0] !== key);
  kept.push(`${key}=${encodeURIComponent(value)}`);
  return `${path}?${kept.join('&')}`;
}

function usage(message: string): HealthDataError {
  return new HealthDataError('usage', message);
}
