// The tree's filters: which dates (the last N days, or a range the user typed) and which source.
// The checks are shared by the prompts and the command arguments so both refuse the same input.

import * as vscode from 'vscode';
import { addDays } from '../../core/dates';
import { MAX_RANGE_DAYS, dateProblem, daysOfRange, localToday, rangeProblem, rangeText, readRangeTyped, typedRangeProblemText } from '../requests/prompts';
import { type TypedReading, matchesAnItem, pickOrType } from '../shared/typedPick';

export interface DateRange {
  readonly start: string;
  readonly end: string;
  /** Set for "the last N days": the range then moves with the calendar on each reload. */
  readonly days?: number;
}

/** The longest range a user may ask for: ten years of records is what the tree is built to hold. */
export const MAX_RANGE_YEARS = 10;
export const MAX_DAYS = MAX_RANGE_DAYS;

/** The last `days` days, ending today in the user's time zone (today counts as one). */
export function lastDays(days: number, now: number = Date.now()): DateRange {
  const end = localToday(now);
  return { start: addDays(end, -(days - 1)), end, days };
}

/** Why `days` is not a usable "last N days", or undefined. */
export function daysProblem(days: unknown): string | undefined {
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_DAYS) {
    return vscode.l10n.t('The number of days must be a whole number from 1 to {0}.', MAX_DAYS);
  }
  return undefined;
}

/** Why start..end is not a usable range, or undefined: real dates, start <= end, at most ten years. */
export function customRangeProblem(start: unknown, end: unknown): string | undefined {
  if (typeof start !== 'string' || typeof end !== 'string') return vscode.l10n.t('Give both a start and an end date.');
  // A blank date is a date the user has yet to write, not a date left out.
  return dateProblem(start) ?? dateProblem(end) ?? rangeProblem(start, end, MAX_RANGE_YEARS);
}

/** "last 30 days" or "2026-01-01 – 2026-02-28". */
export function describeRange(range: DateRange): string {
  if (range.days !== undefined) return vscode.l10n.t('last {0} days', range.days);
  return rangeText(range.start, range.end);
}

/** "the last 30 days (2026-10-25 – 2026-11-23)", or the two dates of a custom range. */
export function describeRangeInFull(range: DateRange): string {
  const dates = rangeText(range.start, range.end);
  return range.days !== undefined ? vscode.l10n.t('the last {0} days ({1})', range.days, dates) : dates;
}

/** The view's filters in words: "the last 30 days (…) · all sources", "… · source: fitbit · human: 86b9…" (the whole id). */
export function describeFilters(range: DateRange, source: string | undefined, human: string | undefined): string {
  const words = [describeRangeInFull(range), source ? vscode.l10n.t('source: {0}', source) : vscode.l10n.t('all sources')];
  if (human !== undefined) words.push(vscode.l10n.t('human: {0}', human));
  return words.join(' · ');
}

/** Why a typed source id is unusable, or undefined. */
export function sourceProblem(source: string): string | undefined {
  const v = source.trim();
  if (!v) return vscode.l10n.t('Enter the id of a source, for example fitbit.');
  if (v.length > 100) return vscode.l10n.t('A source id is at most 100 characters.');
  if (/[\u0000-\u001f\u007f\s]/.test(v)) return vscode.l10n.t('A source id cannot contain spaces or control characters.');
  return undefined;
}

/** Asks for a range: the usual ones, or two dates. Undefined when dismissed. */
export async function promptDateRange(current: DateRange): Promise<DateRange | undefined> {
  type Item = vscode.QuickPickItem & { days?: number; range?: DateRange };
  const items: Item[] = [7, 30, 90].map((days) => ({
    label: vscode.l10n.t('Last {0} days', days),
    description: current.days === days ? vscode.l10n.t('current') : undefined,
    days,
  }));
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
  items.push({
    label: `$(calendar) ${vscode.l10n.t('Custom range…')}`,
    description: current.days === undefined ? describeRange(current) : undefined,
  });
  // A range typed into the list is taken as it is (14, 2026-11-01..2026-11-20, …; see readTypedRange).
  const typed = (text: string) =>
    readRangeTyped(text, { maxYears: MAX_RANGE_YEARS, maxDays: MAX_DAYS }, ({ start, end, days }): Item =>
      days === undefined
        ? { label: `$(calendar) ${rangeText(start, end)}`, description: daysOfRange(start, end), range: { start, end } }
        : { label: vscode.l10n.t('Last {0} days', days), description: rangeText(start, end), days },
    );
  const pick = await pickOrType(items, { title: vscode.l10n.t('Health Data: Date Range of the Tree'), placeHolder: vscode.l10n.t('Which dates to show? Or type 14 (days) or 2026-11-01..2026-11-20'), hint: typedRangeProblemText({ code: 'unreadable' }) }, typed);
  if (!pick) return undefined;
  if (pick.range !== undefined) return pick.range;
  if (pick.days !== undefined) return lastDays(pick.days);
  const start = await vscode.window.showInputBox({
    title: vscode.l10n.t('Custom range (1/2)'),
    prompt: vscode.l10n.t('First date, written YYYY-MM-DD'),
    value: current.start,
    ignoreFocusOut: true,
    validateInput: (v) => dateProblem(v),
  });
  if (start === undefined) return undefined;
  const end = await vscode.window.showInputBox({
    title: vscode.l10n.t('Custom range (2/2)'),
    prompt: vscode.l10n.t('Last date, written YYYY-MM-DD (at most {0} years after {1})', MAX_RANGE_YEARS, start.trim()),
    value: current.end >= start.trim() ? current.end : start.trim(),
    ignoreFocusOut: true,
    validateInput: (v) => customRangeProblem(start, v),
  });
  if (end === undefined) return undefined;
  return { start: start.trim(), end: end.trim() };
}

/** The answer of the source prompt: a source, "any" (clear the filter), or dismissed. */
export type SourceChoice = { source: string | undefined } | undefined;

/**
 * Asks for a source among those seen in the loaded records (with `beforeFilter`, those loaded
 * before the source filter was set), "any", or one typed in.
 */
export async function promptSource(seen: readonly string[], current: string | undefined, beforeFilter = false): Promise<SourceChoice> {
  const sources = [...new Set([...seen, ...(current ? [current] : [])])].sort();
  const choice = await promptFilterValue({
    title: vscode.l10n.t('Health Data: Filter by Source'),
    placeHolder: vscode.l10n.t('Show the records of which source? Or type its id'),
    any: vscode.l10n.t('Any source'),
    heading: beforeFilter ? vscode.l10n.t('Sources in the records loaded before the source filter') : vscode.l10n.t('Sources in the loaded records'),
    values: sources.map((value) => ({ value })),
    current,
    prompt: vscode.l10n.t('Id of the source, as records carry it in `source`'),
    validate: sourceProblem,
    typedNote: vscode.l10n.t('a source not in the loaded records'),
  });
  return choice && { source: choice.value };
}

/** What a filter's pick list offers: "any" (no filter), the values known, and "Other…" to type one. */
interface FilterPrompt {
  readonly title: string;
  readonly placeHolder: string;
  readonly any: string;
  readonly heading: string;
  readonly values: ReadonlyArray<{ readonly value: string; readonly detail?: string }>;
  readonly current: string | undefined;
  readonly prompt: string;
  readonly validate: (text: string) => string | undefined;
  /** Beside a value typed into the list: it is none of those offered. */
  readonly typedNote: string;
}

/** The value picked or typed, `{value: undefined}` for "any", undefined when dismissed. */
async function promptFilterValue(p: FilterPrompt): Promise<{ value: string | undefined } | undefined> {
  type Item = vscode.QuickPickItem & { choice?: 'any' | 'other'; value?: string };
  const mark = (active: boolean) => (active ? vscode.l10n.t('current') : undefined);
  const items: Item[] = [{ label: p.any, description: mark(p.current === undefined), choice: 'any' }];
  if (p.values.length) items.push({ label: p.heading, kind: vscode.QuickPickItemKind.Separator });
  for (const { value, detail } of p.values) items.push({ label: value, description: [detail, mark(value === p.current)].filter(Boolean).join(' · ') || undefined, value });
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
  items.push({ label: `$(edit) ${vscode.l10n.t('Other…')}`, choice: 'other' });
  // A value typed in that is part of none offered is a line of its own, ready for Enter (or what
  // is wrong with it); one that is part of an offered value leaves the list to filter, so a few
  // letters typed never take Enter from the value they begin.
  const typedIn = (text: string): TypedReading<Item> => {
    const value = text.trim();
    if (value === '' || matchesAnItem(items, value)) return undefined;
    const problem = p.validate(value);
    return problem ? { problem } : { item: { label: value, description: p.typedNote, value } };
  };
  const pick = await pickOrType(items, { title: p.title, placeHolder: p.placeHolder }, typedIn);
  if (!pick) return undefined;
  if (pick.choice === 'any') return { value: undefined };
  if (pick.value !== undefined) return { value: pick.value };
  const entered = await vscode.window.showInputBox({ title: p.title, prompt: p.prompt, value: p.current ?? '', ignoreFocusOut: true, validateInput: p.validate });
  return entered === undefined ? undefined : { value: entered.trim() };
}

/** A human id short enough for the view's title bar: `86b94da11e…` (the whole id in its message). */
export function shortHumanId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 10)}…` : id;
}

/** Why a typed human id is unusable, or undefined. */
export function humanProblem(human: string): string | undefined {
  const v = human.trim();
  if (!v) return vscode.l10n.t('Enter the id of a human, as records carry it in humanId.');
  if (v.length > 200) return vscode.l10n.t('A human id is at most 200 characters.');
  if (/[\u0000-\u001f\u007f\s]/.test(v)) return vscode.l10n.t('A human id cannot contain spaces or control characters.');
  return undefined;
}

/** The answer of the human prompt: a human, "every human" (clear the filter), or dismissed. */
export type HumanChoice = { human: string | undefined } | undefined;

/**
 * Asks for a human among those of the loaded records, most records first (with `beforeFilter`,
 * those loaded before the human filter was set), "every human", or one typed in.
 */
export async function promptHuman(seen: ReadonlyArray<{ humanId: string; records: number }>, current: string | undefined, beforeFilter = false): Promise<HumanChoice> {
  const values = seen.map(({ humanId, records }) => ({ value: humanId, detail: records === 1 ? vscode.l10n.t('1 record') : vscode.l10n.t('{0} records', records) }));
  if (current !== undefined && !seen.some((h) => h.humanId === current)) values.unshift({ value: current, detail: '' });
  const choice = await promptFilterValue({
    title: vscode.l10n.t('Health Data: Filter by Human'),
    placeHolder: vscode.l10n.t('Show the records of which human? Or type their id'),
    any: vscode.l10n.t('Every human'),
    heading: beforeFilter ? vscode.l10n.t('Humans in the records loaded before the human filter') : vscode.l10n.t('Humans in the loaded records'),
    values,
    current,
    prompt: vscode.l10n.t('Id of the human, as records carry it in `humanId`'),
    validate: humanProblem,
    typedNote: vscode.l10n.t('a human not in the loaded records'),
  });
  return choice && { human: choice.value };
}
