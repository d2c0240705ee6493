// Validating payloads in the editor: the command, live validation of matching files, and the
// quick fix of deprecated fields, over one diagnostic collection. Registering costs nothing:
// schemas are compiled on the first validation.

import * as vscode from 'vscode';
import { registerValidatePayloadCommand } from './command';
import { DocumentValidator } from './documentValidator';
import { LiveValidation } from './live';
import { DeprecatedFieldQuickFix } from './quickFix';

export { DocumentValidator } from './documentValidator';
export { matchesValidationGlob, validationGlob } from './live';

export function registerPayloadValidation(log: vscode.LogOutputChannel, validator = new DocumentValidator(log)): vscode.Disposable[] {
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
