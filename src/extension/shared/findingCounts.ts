// Counts of findings in words, where the tree and the record view say them the same way.

import * as vscode from 'vscode';
import type { FindingKind } from '../../core/validation';

/** `1 error`, `3 warnings`: the kinds that fail or question a record, counted; none when there are none. */
export function errorAndWarningWords(counts: Readonly<Record<FindingKind, number>>): string[] {
  const words: string[] = [];
  if (counts.error > 0) words.push(counts.error === 1 ? vscode.l10n.t('1 error') : vscode.l10n.t('{0} errors', counts.error));
  if (counts.warning > 0) words.push(counts.warning === 1 ? vscode.l10n.t('1 warning') : vscode.l10n.t('{0} warnings', counts.warning));
  return words;
}
