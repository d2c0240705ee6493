// The findings a saved request may also fail on (Set Findings That Fail…), in words: the History
// row's tooltip and the pick that sets them. Their names are `health-data run --fail-on`'s.

import * as vscode from 'vscode';
import type { FailRule } from '../../core/validation/failRules';

/** Each rule: what it fails on, as a sentence names it, and what it catches (the pick's detail). Made when asked: the words follow the display language. */
const WORDS: Record<FailRule, () => readonly [words: string, detail: string]> = {
  warning: () => [vscode.l10n.t('a warning'), vscode.l10n.t('Implausible values: minHR above maxHR, a date in the future.')],
  zero: () => [vscode.l10n.t('any 0'), vscode.l10n.t('Every 0, those a source does not provide too.')],
  unusual: () => [vscode.l10n.t('a 0 that stands out'), vscode.l10n.t('A 0 where its source nearly always sends a number (a tracker not worn).')],
  deprecated: () => [vscode.l10n.t('a deprecated field'), vscode.l10n.t('userId (use humanId).')],
  unknown: () => [vscode.l10n.t('a field the schema does not define'), vscode.l10n.t("A field the schema does not define (a source's own).")],
};

/** `a 0 that stands out`: what a rule fails on, as a sentence names it. */
export const failRuleWords = (rule: FailRule): string => WORDS[rule]()[0];

/** What a rule catches, for the pick's detail line. */
export const failRuleDetail = (rule: FailRule): string => WORDS[rule]()[1];
