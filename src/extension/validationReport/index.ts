// Validation reports from the editor: the export command, over the payload validation's options.

import * as vscode from 'vscode';
import type { DocumentValidator } from '../payloadValidation';
import { registerCommands } from '../shared/commands';
import { EXPORT_VALIDATION_REPORT_COMMAND, exportValidationReport } from './exportReport';

export function registerValidationReport(validator: DocumentValidator): vscode.Disposable[] {
  return registerCommands({ [EXPORT_VALIDATION_REPORT_COMMAND]: (arg?: unknown) => exportValidationReport(validator, arg) }, (err) => {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not export the validation report: {0}', err instanceof Error ? err.message : String(err)));
  });
}
