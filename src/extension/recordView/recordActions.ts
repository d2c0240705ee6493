// What can be done with one record, wherever it comes from (the tree, a palette request):
// open it (in the record view), copy it, copy its id.

import * as vscode from 'vscode';
import { ResourceKind } from '../../core/resources';
import { textField } from '../../core/views';
import type { RecordViews } from './recordViews';

/** Opens a record for reading in its record view panel (reused when it is open already). */
export function openRecord(views: RecordViews, kind: ResourceKind, record: unknown): void {
  views.createOrShow(kind, record);
}


/** Pretty JSON of the record on the clipboard. Returns what was copied. */
export async function copyRecordJson(record: unknown): Promise<string> {
  const text = JSON.stringify(record, null, 2) ?? 'null';
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Record JSON copied to the clipboard.'), 3000);
  return text;
}

/** The record's id on the clipboard; undefined (and a warning) when it has none. */
export async function copyRecordId(record: unknown): Promise<string | undefined> {
  const id = textField(record, 'id');
  if (id === undefined) {
    void vscode.window.showWarningMessage(vscode.l10n.t('This record has no id.'));
    return undefined;
  }
  await vscode.env.clipboard.writeText(id);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Id {0} copied to the clipboard.', id), 3000);
  return id;
}
