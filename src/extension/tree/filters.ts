// The tree's filters: which dates (the last N days, or a range the user typed) and which source.
// The checks are shared by the prompts and the command arguments so both refuse the same input.

import * as vscode from 'vscode';
import { addDays } from '../../core/dates';
import { dateProblem, localToday, rangeProblem } from '../requests/prompts';

export interface DateRange {
  readonly start: string;
  readonly end: string;
  /** Set for "the last N days": the range then moves with the calendar on each reload. */
  readonly days?: number;
}

/** The longest range a user may ask for: ten years of records is what the tree is built to hold. */
export const MAX_RANGE_YEARS = 10;
export const MAX_DAYS = 3653;

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
  return range.start === range.end ? range.start : `${range.start} – ${range.end}`;
}

/** "the last 30 days (2026-10-25 – 2026-11-23)", or the two dates of a custom range. */
export function describeRangeInFull(range: DateRange): string {
  const dates = range.start === range.end ? range.start : `${range.start} – ${range.end}`;
  return range.days !== undefined ? vscode.l10n.t('the last {0} days ({1})', range.days, dates) : dates;
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
  type Item = vscode.QuickPickItem & { days?: number };
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
  const pick = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Health Data: Date Range of the Tree'), placeHolder: vscode.l10n.t('Which dates to show') });
  if (!pick) return undefined;
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

/** Asks for a source among those seen in the loaded records, "any", or one typed in. */
export async function promptSource(seen: readonly string[], current: string | undefined): Promise<SourceChoice> {
  type Item = vscode.QuickPickItem & { choice?: 'any' | 'other'; source?: string };
  const mark = (active: boolean) => (active ? vscode.l10n.t('current') : undefined);
  const items: Item[] = [{ label: vscode.l10n.t('Any source'), description: mark(current === undefined), choice: 'any' }];
  const sources = [...new Set([...seen, ...(current ? [current] : [])])].sort();
  if (sources.length) items.push({ label: vscode.l10n.t('Sources in the loaded records'), kind: vscode.QuickPickItemKind.Separator });
  for (const source of sources) items.push({ label: source, description: mark(source === current), source });
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
  items.push({ label: `$(edit) ${vscode.l10n.t('Other…')}`, choice: 'other' });
  const pick = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Health Data: Filter by Source'), placeHolder: vscode.l10n.t('Show the records of which source') });
  if (!pick) return undefined;
  if (pick.choice === 'any') return { source: undefined };
  if (pick.source !== undefined) return { source: pick.source };
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Health Data: Filter by Source'),
    prompt: vscode.l10n.t('Id of the source, as records carry it in `source`'),
    value: current ?? '',
    ignoreFocusOut: true,
    validateInput: sourceProblem,
  });
  return typed === undefined ? undefined : { source: typed.trim() };
}
