// What the request commands ask for: a calendar date, an id, the options of a list. The checks
// are shared by the prompts and by arguments given to a command, so both fail with one message.

import * as vscode from 'vscode';
import { DateRangeProblem, TypedRange, addDays, dateRangeProblem, epochDayOf, isCalendarDate, readTypedRange, today } from '../../core/dates';
import { DATE_SEGMENT, ResourceDefinition } from '../../core/resources';
import { readRequestSettings } from '../account/environments';
import { type TypedReading, pickOrType } from '../shared/typedPick';

/** The options of a list call, as the commands take them (`all` defaults to true). */
export interface ListOptions {
  start?: string;
  end?: string;
  source?: string;
  all?: boolean;
}

/** Today in the user's time zone: a summary's `date` is the user's calendar day. */
export function localToday(now: number = Date.now()): string {
  return today(now, -new Date(now).getTimezoneOffset());
}

/** Why `text` is not a usable date, or undefined when it is a real calendar date. */
export function dateProblem(text: string): string | undefined {
  const value = text.trim();
  if (!value) return vscode.l10n.t('Enter a date written YYYY-MM-DD, for example {0}.', localToday());
  if (!DATE_SEGMENT.test(value)) return vscode.l10n.t('"{0}" is not a date written YYYY-MM-DD.', clip(value));
  if (!isCalendarDate(value)) return vscode.l10n.t('{0} is not a real calendar date.', value);
  return undefined;
}

/**
 * Why `text` is not a usable id, or undefined. The id is sent percent-encoded by the client, so
 * `/ ? #` are fine; only an empty id is refused, and, where the resource has records by date, an
 * id written like a date, which the service would read as a date.
 */
export function idProblem(text: string, def: ResourceDefinition): string | undefined {
  const value = text.trim();
  if (!value) return vscode.l10n.t('The id cannot be empty.');
  if (def.byDate && DATE_SEGMENT.test(value)) {
    return vscode.l10n.t('{0} is written like a date, and the service reads it as one: use "Get {1} by Date" instead.', value, def.singular);
  }
  return undefined;
}

/** The date-range rule's problem in the extension's words. */
export function rangeProblemText(problem: DateRangeProblem): string {
  switch (problem.code) {
    case 'oneDateOnly':
      return vscode.l10n.t('Give both a start and an end date, or neither.');
    case 'notADate':
      // The rule found it is no calendar date, so dateProblem says why.
      return dateProblem(problem.value) ?? '';
    case 'startAfterEnd':
      return vscode.l10n.t('The start date {0} is after the end date {1}.', problem.start, problem.end);
    case 'tooLong':
      return vscode.l10n.t('The range can span at most {0} years; {1} to {2} is longer.', problem.maxYears, problem.start, problem.end);
  }
}

/** The most days a typed "last N days" may span: ten years, the most the tree is built to hold. */
export const MAX_RANGE_DAYS = 3653;

/** "2026-11-01 – 2026-11-20", or the one date of a range of one day. */
export function rangeText(start: string, end: string): string {
  return start === end ? start : `${start} – ${end}`;
}

/** Why a typed range (readTypedRange) cannot be used, in the extension's words. */
export function typedRangeProblemText(problem: Extract<TypedRange, { problem: unknown }>['problem']): string {
  if (problem.code === 'days') return vscode.l10n.t('The number of days must be a whole number from 1 to {0}.', problem.maxDays);
  if (problem.code === 'unreadable') return vscode.l10n.t('Type a number of days (14), a date (2026-11-03) or two dates (2026-11-01..2026-11-20).');
  return rangeProblemText(problem);
}

/**
 * What a range picker makes of the text typed into it: the last N days, a range, or why it
 * cannot be used (see readTypedRange); `item` builds the picker's item for a usable range.
 */
export function readRangeTyped<T>(text: string, limits: { maxYears?: number; maxDays: number }, item: (range: { start: string; end: string; days?: number }) => T): TypedReading<T> {
  const end = localToday();
  const typed = readTypedRange(text, end, limits);
  if (typed === undefined) return undefined;
  if ('problem' in typed) return { problem: typedRangeProblemText(typed.problem) };
  if ('days' in typed) return { item: item({ start: addDays(end, -(typed.days - 1)), end, days: typed.days }) };
  return { item: item(typed) };
}

/** "1 day", "10 days": how many days start..end (real dates, start first) holds. */
export function daysOfRange(start: string, end: string): string {
  const n = epochDayOf(end) - epochDayOf(start) + 1;
  return n === 1 ? vscode.l10n.t('1 day') : vscode.l10n.t('{0} days', n);
}

/** Why a list's date range is unusable (blank counts as not given), in words; undefined when it is fine. */
export function rangeProblem(start: string | undefined, end: string | undefined, maxYears?: number): string | undefined {
  const given = (v: string | undefined): string | undefined => (v === undefined || v.trim() === '' ? undefined : v.trim());
  const problem = dateRangeProblem(given(start), given(end), maxYears);
  return problem && rangeProblemText(problem);
}

/** Asks for a date: today, yesterday, the days before, or one typed in. Undefined when dismissed. */
export async function promptDate(title: string): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { date?: string };
  const now = Date.now();
  const todayDate = localToday(now);
  const weekday = new Intl.DateTimeFormat(vscode.env.language, { weekday: 'long', timeZone: 'UTC' });
  const dayName = (date: string): string => weekday.format(new Date(`${date}T00:00:00Z`));
  const items: Item[] = [
    { label: vscode.l10n.t('Today'), description: todayDate, date: todayDate },
    { label: vscode.l10n.t('Yesterday'), description: addDays(todayDate, -1), date: addDays(todayDate, -1) },
  ];
  for (let back = 2; back <= 6; back++) {
    const date = addDays(todayDate, -back);
    items.push({ label: date, description: dayName(date), date });
  }
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
  items.push({ label: `$(calendar) ${vscode.l10n.t('Enter a date…')}` });
  // A date typed into the list is taken as it is: a line of its own says which, or what is wrong with it.
  const typed = (text: string): TypedReading<Item> => {
    const value = text.trim();
    if (!/^\d/.test(value)) return undefined;
    const problem = dateProblem(value);
    return problem ? { problem } : { item: { label: `$(calendar) ${value}`, description: dayName(value), date: value } };
  };
  const pick = await pickOrType(items, { title, placeHolder: vscode.l10n.t('Pick a day, or type a date (YYYY-MM-DD)'), hint: vscode.l10n.t('Type a date written YYYY-MM-DD (2026-11-03), or pick a day.') }, typed);
  if (!pick) return undefined;
  if (pick.date) return pick.date;
  return inputDate(title, vscode.l10n.t('Date, written YYYY-MM-DD'), addDays(todayDate, -7));
}

async function inputDate(title: string, prompt: string, value: string): Promise<string | undefined> {
  const date = await vscode.window.showInputBox({
    title,
    prompt,
    value,
    placeHolder: 'YYYY-MM-DD',
    ignoreFocusOut: true,
    validateInput: dateProblem,
  });
  return date?.trim();
}

/** Asks for an id. Undefined when dismissed. */
export async function promptId(title: string, def: ResourceDefinition): Promise<string | undefined> {
  const id = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('Id of the {0} (sent URL-encoded)', def.singular.toLowerCase()),
    ignoreFocusOut: true,
    validateInput: (v) => idProblem(v, def),
  });
  return id?.trim();
}

/**
 * Asks which part of a list to read: the last 7, 30 or 90 days (the default range of the
 * settings first), a range typed in, or everything. Undefined when dismissed.
 */
export async function promptListOptions(title: string): Promise<ListOptions | undefined> {
  type Item = vscode.QuickPickItem & { options?: ListOptions };
  const end = localToday();
  const preferred = readRequestSettings().defaultRangeDays;
  const ranges = [7, 30, 90].sort((a, b) => Number(b === preferred) - Number(a === preferred));
  const items: Item[] = ranges.map((days) => ({
    label: vscode.l10n.t('Last {0} days', days),
    description: `${addDays(end, -(days - 1))} – ${end}`,
    options: { start: addDays(end, -(days - 1)), end },
  }));
  const custom: Item = { label: `$(calendar) ${vscode.l10n.t('Custom range…')}` };
  items.push(custom);
  items.push({ label: vscode.l10n.t('All records'), description: vscode.l10n.t('no date filter, every page'), options: {} });
  const typed = (text: string): TypedReading<Item> =>
    readRangeTyped(text, { maxDays: MAX_RANGE_DAYS }, ({ start, end: last, days }) => ({
      label: days === undefined ? `$(calendar) ${rangeText(start, last)}` : vscode.l10n.t('Last {0} days', days),
      description: days === undefined ? daysOfRange(start, last) : rangeText(start, last),
      options: { start, end: last },
    }));
  const pick = await pickOrType(items, { title, placeHolder: vscode.l10n.t('Which records? Or type 14 (days) or 2026-11-01..2026-11-20'), hint: typedRangeProblemText({ code: 'unreadable' }) }, typed);
  if (!pick) return undefined;
  if (pick.options) return pick.options;
  const start = await inputDate(title, vscode.l10n.t('First date of the range, written YYYY-MM-DD'), addDays(end, -29));
  if (start === undefined) return undefined;
  const last = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('Last date of the range, written YYYY-MM-DD'),
    value: end,
    placeHolder: 'YYYY-MM-DD',
    ignoreFocusOut: true,
    validateInput: (v) => dateProblem(v) ?? rangeProblem(start, v),
  });
  if (last === undefined) return undefined;
  return { start, end: last.trim() };
}

function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
