// The list endpoints' query parameters, as conventions.md names them, read strictly: a bad value
// is a 400 that says which parameter and why, never a silently ignored filter.

import { isCalendarDate } from '../core/dates';

export interface RecordFilter {
  humanId?: string;
  /** Inclusive, on the local date the record belongs to. */
  startDate?: string;
  endDate?: string;
  source?: string;
  /** Normalised to `toISOString()` form, so it compares with the records' times as text. */
  updatedSince?: string;
  createdSince?: string;
}

export interface ListQuery extends RecordFilter {
  limit: number;
  offset: number;
}

const DEFAULT_LIMIT = 50;

const WHOLE = /^\d+$/;
const SINCE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

export function parseListQuery(params: URLSearchParams, maxLimit: number): ListQuery | { error: string } {
  const query: ListQuery = { limit: DEFAULT_LIMIT, offset: 0 };
  const limit = params.get('limit');
  if (limit !== null) {
    if (!WHOLE.test(limit) || Number(limit) < 1) return { error: `limit must be a whole number of at least 1, got "${limit}"` };
    query.limit = Number(limit);
  }
  query.limit = Math.min(query.limit, maxLimit);
  const offset = params.get('offset');
  if (offset !== null) {
    if (!WHOLE.test(offset) || !Number.isSafeInteger(Number(offset))) return { error: `offset must be a whole number of at least 0, got "${offset}"` };
    query.offset = Number(offset);
  }

  const start = params.get('start_date');
  const end = params.get('end_date');
  if ((start === null) !== (end === null)) {
    return { error: `start_date and end_date go together: ${start === null ? 'start_date' : 'end_date'} is missing` };
  }
  if (start !== null && end !== null) {
    for (const [name, value] of [['start_date', start], ['end_date', end]]) {
      if (!isCalendarDate(value)) return { error: `${name} must be a real date written YYYY-MM-DD, got "${value}"` };
    }
    if (start > end) return { error: `start_date ${start} is after end_date ${end}` };
    query.startDate = start;
    query.endDate = end;
  }

  for (const [name, field] of [['updated_since', 'updatedSince'], ['created_since', 'createdSince']] as const) {
    const value = params.get(name);
    if (value === null) continue;
    const since = parseSince(value);
    if (since === undefined) return { error: `${name} must be a date or a date-time (UTC unless it carries an offset), got "${value}"` };
    query[field] = since;
  }

  const source = params.get('source');
  if (source !== null) {
    if (source === '') return { error: 'source must not be empty' };
    query.source = source;
  }
  const humanId = params.get('humanId');
  if (humanId !== null && humanId !== '') query.humanId = humanId;
  return query;
}

function parseSince(text: string): string | undefined {
  const m = SINCE.exec(text);
  if (!m || !isCalendarDate(text.slice(0, 10))) return undefined;
  // A date alone is its UTC midnight; a time without a zone is UTC, as the conventions say.
  const withZone = text.length === 10 ? `${text}T00:00:00Z` : m[1] ? text : `${text}Z`;
  const t = Date.parse(withZone);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}
