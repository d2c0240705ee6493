// Validating payloads in the editor: the command, live validation of matching files, and the
// quick fix of deprecated fields, over one diagnostic collection. Registering costs nothing:
// schemas are compiled on the first validation.

import * as vscode from 'vscode';
import { registerValidatePayloadCommand } from './command';
import { DocumentValidator } from './documentValidator';
import { LiveValidation } from './live';
import { DeprecatedFieldQuickFix } from './quickFix';

export function registerPayloadValidation(log: vscode.LogOutputChannel): vscode.Disposable[] {
  const validator = new DocumentValidator(log);
  const live = new LiveValidation(validator);
  return [
    validator,
    live,
    ...registerValidatePayloadCommand(validator, live),
    vscode.languages.registerCodeActionsProvider(
      [{ language: 'json' }, { language: 'jsonc' }],
      new DeprecatedFieldQuickFix(validator.collection),
      DeprecatedFieldQuickFix.metadata,
    ),
  ];
}
