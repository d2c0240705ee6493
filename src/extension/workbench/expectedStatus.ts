// Set Expected Status…, Set Time Limit… and Set Findings That Fail…: what Run Saved Requests,
// the Testing view and `health-data run` expect of a saved request. By default a 2xx whose
// records have no error; a request meant to be refused (an id that is not there, a day with no
// record) can expect its status instead, and then passes only on that status with the service's
// error body {statusCode, error, message}. A time limit fails a run whose first byte comes later;
// findings of the kinds set (a 0 that stands out, a deprecated field…) fail it as errors do.

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { statusLine } from '../../core/service';
import { HistoryEntry, MAX_TIME_LIMIT_MS, isExpectableStatus, isTimeLimit, typedStatus, typedTimeLimit } from '../../core/workbench';
import { FAIL_RULES, type FailRule, failRulesOf } from '../../core/validation/failRules';
import { type TypedReading, pickOrType } from '../shared/typedPick';
import { failRuleDetail, failRuleWords } from './failRules';
import type { ExchangeHistory } from './history';

/** The refusals the service's conventions name, offered first. */
const OFFERED = [400, 401, 403, 404, 409, 422, 429, 500, 502, 503] as const;

/** The status an argument gives: `{ status: 404 }`, `{ status: null }` for any 2xx; undefined when it gives none. */
export function givenStatus(arg: unknown): number | null | undefined {
  if (!arg || typeof arg !== 'object' || !('status' in arg)) return undefined;
  const { status } = arg as { status: unknown };
  if (status === null || isExpectableStatus(status)) return status;
  throw new HealthDataError('usage', vscode.l10n.t('status must be a status from 100 to 599, or null for any 2xx.'));
}

type Item = vscode.QuickPickItem & { readonly status: number | null };

/** Asks what a run of `entry` expects: any 2xx, a refusal the conventions name, its last status, or one typed. */
export async function pickExpectedStatus(entry: HistoryEntry, title: string): Promise<number | null | undefined> {
  const now = entry.expectStatus ?? null;
  const last = entry.status;
  const note = (status: number | null): string | undefined => {
    const words = [status === now ? vscode.l10n.t('expected now') : '', status !== null && status === last ? vscode.l10n.t('its last reply') : ''].filter(Boolean);
    return words.length ? words.join(' · ') : undefined;
  };
  const item = (status: number | null, label: string, detail?: string): Item => {
    const description = note(status);
    return { label, status, ...(description ? { description } : {}), ...(detail ? { detail } : {}) };
  };
  const codeItem = (code: number): Item => item(code, statusLine(code), code >= 400 ? vscode.l10n.t('Passes on {0} with the service\'s error body {1}.', code, '{statusCode, error, message}') : undefined);
  const codes = [...new Set<number>([...(last !== undefined && (last < 200 || last >= 300) ? [last] : []), ...(now !== null ? [now] : []), ...OFFERED])];
  const items: Item[] = [
    item(null, vscode.l10n.t('$(pass) Any success (2xx)'), vscode.l10n.t('The default: a 2xx whose records (or token) break no rule.')),
    { label: vscode.l10n.t('Refused'), kind: vscode.QuickPickItemKind.Separator, status: null },
    ...codes.map(codeItem),
  ];
  const typed = (text: string): TypedReading<Item> => {
    const status = typedStatus(text);
    if (status === undefined || (status !== 'notStatus' && codes.includes(status))) return undefined;
    return status === 'notStatus' ? { problem: vscode.l10n.t('A status is a whole number from 100 to 599.') } : { item: codeItem(status) };
  };
  const picked = await pickOrType(items, { title, placeHolder: vscode.l10n.t('What should a run of "{0}" get? Or type a status', entry.savedAs ?? '') }, typed);
  return picked?.status;
}

/**
 * Health Data: Set Expected Status…, on a saved request: `{ exchangeId, status }` sets it (null:
 * any 2xx); without a status, a pick. The status set, null, or undefined when dismissed.
 */
export async function setExpectedStatus(history: ExchangeHistory, entry: HistoryEntry, arg: unknown, title: string): Promise<number | null | undefined> {
  if (entry.savedAs === undefined) throw new HealthDataError('usage', vscode.l10n.t('Only a saved request has an expected status: Save Request… first.'));
  const given = givenStatus(arg);
  const status = given !== undefined ? given : await pickExpectedStatus(entry, title);
  if (status === undefined) return undefined;
  history.setExpectedStatus(entry.id, status ?? undefined);
  return status;
}

/** The limit an argument gives: `{ ms: 500 }`, `{ ms: null }` for none; undefined when it gives none. */
function givenLimit(arg: unknown): number | null | undefined {
  if (!arg || typeof arg !== 'object' || !('ms' in arg)) return undefined;
  const { ms } = arg as { ms: unknown };
  if (ms === null || isTimeLimit(ms)) return ms;
  throw new HealthDataError('usage', vscode.l10n.t('ms must be a whole number from 1 to {0}, or null for no limit.', MAX_TIME_LIMIT_MS));
}

/**
 * Health Data: Set Time Limit…, on a saved request: how long a run may wait for the service's
 * first byte. `{ exchangeId, ms }` sets it (null: no limit); without one, an input box that shows
 * the limit now and how long the last reply took, and takes `500`, `500 ms` or `2 s` (empty: no
 * limit). The limit set, null, or undefined when dismissed.
 */
export async function setTimeLimit(history: ExchangeHistory, entry: HistoryEntry, arg: unknown, title: string): Promise<number | null | undefined> {
  if (entry.savedAs === undefined) throw new HealthDataError('usage', vscode.l10n.t('Only a saved request has a time limit: Save Request… first.'));
  let ms = givenLimit(arg);
  if (ms === undefined) {
    const lastFirstByte = entry.attempts[entry.attempts.length - 1]?.timings?.firstByteMs;
    const last = lastFirstByte !== undefined ? vscode.l10n.t('Its last reply\'s first byte came after {0} ms.', lastFirstByte) : '';
    const text = await vscode.window.showInputBox({
      title,
      value: entry.timeLimitMs !== undefined ? String(entry.timeLimitMs) : '',
      prompt: [vscode.l10n.t('How long a run of "{0}" may wait for the service\'s first byte: 500, 500 ms or 2 s. Empty: no limit.', entry.savedAs), last].filter(Boolean).join(' '),
      placeHolder: vscode.l10n.t('No limit'),
      validateInput: (value) => (typedTimeLimit(value) === 'notLimit' ? vscode.l10n.t('A limit is a time from 1 ms to 10 minutes: 500, 500 ms or 2 s.') : undefined),
    });
    if (text === undefined) return undefined;
    const typed = typedTimeLimit(text);
    if (typed === 'notLimit') return undefined;
    ms = typed ?? null;
  }
  history.setTimeLimit(entry.id, ms ?? undefined);
  return ms;
}

/** The rules an argument gives: `{ failOn: ['unusual'] }`, `{ failOn: [] }` or `{ failOn: null }` for none; undefined when it gives none. */
function givenRules(arg: unknown): FailRule[] | undefined {
  if (!arg || typeof arg !== 'object' || !('failOn' in arg)) return undefined;
  const { failOn } = arg as { failOn: unknown };
  if (failOn === null) return [];
  if (Array.isArray(failOn) && failOn.every((r) => (FAIL_RULES as readonly unknown[]).includes(r))) return failRulesOf(failOn) ?? [];
  throw new HealthDataError('usage', vscode.l10n.t('failOn must be a list of {0}, or null for errors alone.', FAIL_RULES.join(', ')));
}

type RuleItem = vscode.QuickPickItem & { readonly rule: FailRule };

/**
 * Health Data: Set Findings That Fail…, on a saved request: the findings that fail a run of it
 * besides errors, as `health-data run --fail-on` names them (a run's own --fail-on adds to them).
 * `{ exchangeId, failOn }` sets them (null or []: errors alone); without them, a pick of several
 * with those set now checked. The rules set, or undefined when dismissed.
 */
export async function setFailOn(history: ExchangeHistory, entry: HistoryEntry, arg: unknown, title: string): Promise<FailRule[] | undefined> {
  if (entry.savedAs === undefined) throw new HealthDataError('usage', vscode.l10n.t('Only a saved request has findings that fail it: Save Request… first.'));
  let rules = givenRules(arg);
  if (rules === undefined) {
    const now = new Set(entry.failOn ?? []);
    const items: RuleItem[] = FAIL_RULES.map((rule) => ({ label: rule, description: failRuleWords(rule), detail: failRuleDetail(rule), picked: now.has(rule), rule }));
    const picked = await vscode.window.showQuickPick(items, {
      title,
      canPickMany: true,
      placeHolder: vscode.l10n.t('What fails "{0}" besides errors? None: errors alone', entry.savedAs),
    });
    if (picked === undefined) return undefined;
    rules = FAIL_RULES.filter((r) => picked.some((p) => p.rule === r));
  }
  history.setFailOn(entry.id, rules);
  return rules;
}
