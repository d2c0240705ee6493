// The record view's words, translated where VS Code's l10n puts them. Placeholders the webview
// fills in itself stay `{0}`: passing '{0}' as the argument keeps them through l10n.t.

import * as vscode from 'vscode';
import type { FindingKind } from '../../core/validation';
import type { MarkText, RecordViewStrings } from '../../core/views';

export function recordViewStrings(): RecordViewStrings {
  const t = vscode.l10n.t;
  return {
    toolbar: t('Record actions'),
    actions: {
      copyJson: t('Copy JSON'),
      openAsJson: t('Open as JSON Document'),
      refetch: t('Re-fetch'),
      validate: t('Validate Again'),
      showRequest: t('Show Request'),
    },
    findings: t('Findings'),
    noFindings: t('No findings: the record matches its schema.'),
    moreFindings: { one: t('{0} more finding is marked on the JSON but not listed here.', '{0}'), other: t('{0} more findings are marked on the JSON but not listed here.', '{0}') },
    legend: t('Legend'),
    json: t('JSON'),
    zones: t('Heart rate zones'),
    zoneColumns: [t('Zone'), t('Range'), t('Time in zone (h:mm)'), t('Calories')],
    noZones: t('This record has no zones.'),
    valid: t('Valid'),
    invalid: t('Invalid'),
    missing: t('(missing)'),
    keys: { one: t('{0} key', '{0}'), other: t('{0} keys', '{0}') },
    items: { one: t('{0} item', '{0}'), other: t('{0} items', '{0}') },
    findingsInside: { one: t('{0} finding inside', '{0}'), other: t('{0} findings inside', '{0}') },
    moreChildren: t('Show {0} more', '{0}'),
    loading: t('Loading…'),
    charactersCut: { one: t('… {0} more character (Copy JSON has it)', '{0}'), other: t('… {0} more characters (Copy JSON has them all)', '{0}') },
    expand: t('Expand {0}', '{0}'),
    collapse: t('Collapse {0}', '{0}'),
    goTo: t('Go to {0}', '{0}'),
    previousFinding: t('Previous Finding'),
    nextFinding: t('Next Finding'),
    findingOf: t('Finding {0} of {1}: {2}', '{0}', '{1}', '{2}'),
    jsonRows: t('JSON, {0} rows', '{0}'),
    records: { one: t('{0} record', '{0}'), other: t('{0} records', '{0}') },
  };
}

/** The legend's words; the symbols stay, so no mark depends on colour or on reading a language. */
export function markText(): Record<FindingKind, MarkText> {
  const t = vscode.l10n.t;
  return {
    error: { icon: '✖', word: t('error'), description: t('Breaks the schema (underlined).') },
    warning: { icon: '⚠', word: t('warning'), description: t('Well-formed but implausible or inconsistent.') },
    zero: { icon: '0', word: t('zero'), description: t('The value is 0: a field the source may not provide; the finding says more when its other records are loaded.') },
    deprecated: { icon: '⊘', word: t('deprecated'), description: t('Deprecated by the service (struck through); use the replacement named.') },
    unknown: { icon: '?', word: t('unknown'), description: t('Not defined by the schema: a field the source added.') },
  };
}
