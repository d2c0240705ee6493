// The exchange view's words, translated where VS Code's l10n puts them. Placeholders the webview
// fills in itself stay `{0}`: passing '{0}' as the argument keeps them through l10n.t.

import * as vscode from 'vscode';
import type { ExchangeViewStrings } from '../../core/views';

export function exchangeViewStrings(): ExchangeViewStrings {
  const t = vscode.l10n.t;
  return {
    toolbar: t('Exchange actions'),
    actions: {
      editAndResend: t('Edit and Resend…'),
      copyAsCode: t('Copy as Code…'),
      saveRequest: t('Save Request…'),
      openBody: t('Open Body'),
      openInRecordView: t('Open in Record View'),
      copyUrl: t('Copy URL'),
    },
    openRecord: t('Open Record'),
    recordIndex: t('Record {0} of the list, numbered from 0 as the Problems panel and the CLI number records', '{0}'),
    request: t('Request'),
    response: t('Response headers'),
    requestHeaders: t('Headers sent'),
    requestBody: t('Body sent'),
    keyHeaders: t('Paging, retry and tracing headers'),
    allHeaders: t('All response headers ({0})', '{0}'),
    attempts: t('Attempts'),
    attemptColumns: [t('#'), t('Started'), t('Took'), t('Status'), t('Retried because')],
    retriedBecause: t('{0}; waited {1} ms', '{0}', '{1}'),
    body: t('Body'),
    bodyText: t('Body as text'),
    noBody: t('No body arrived.'),
    notJson: t('The body is not JSON: {0}', '{0}'),
    bodyCut: t('The history kept the first part of this body; {0} bytes were left out.', '{0}'),
    bodyShownCut: t('Only the first {0} characters are shown here; Open Body shows all that was kept.', '{0}'),
    records: { one: t('{0} record ({1})', '{0}', '{1}'), other: t('{0} records ({1})', '{0}', '{1}') },
    invalidRecords: t('{0} break the schema', '{0}'),
    allValid: t('Every record matches its schema'),
    noRecords: t('The page holds no records.'),
    moreFindings: { one: t('{0} more finding: open the record to see it.', '{0}'), other: t('{0} more findings: open the record to see them all.', '{0}') },
    findings: t('Findings'),
    noFindings: t('No findings: the record matches its schema.'),
    valid: t('Valid'),
    invalid: t('Invalid'),
    summary: [t('Status'), t('Time'), t('Body'), t('Request id'), t('Environment')],
    failed: t('no reply'),
    bytes: t('{0} bytes', '{0}'),
    ms: t('{0} ms', '{0}'),
    none: t('(none)'),
  };
}
