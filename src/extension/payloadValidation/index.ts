// Validating payloads in the editor: the command, live validation of matching files, and the
// quick fix of deprecated fields, over one diagnostic collection. Registering costs nothing: the
// validators are loaded once activation is over, at idle (or by the first validation, if sooner).

import * as vscode from 'vscode';
import { registerValidatePayloadCommand } from './command';
import { DocumentValidator } from './documentValidator';
import { LiveValidation } from './live';
import { DeprecatedFieldQuickFix } from './quickFix';
import { FieldHover } from './hover';

export { DocumentValidator } from './documentValidator';
export { matchesValidationGlob, validationGlob } from './live';

/** After activation, when the host is idle: the validators are loaded and warmed up a step at a time (see DocumentValidator.warmUp). */
export const WARM_UP_DELAY_MS = 100;

/** Wherever the command validates: JSON, and NDJSON by its language, its name or in a plain-text document. */
const PAYLOAD_SELECTOR: vscode.DocumentSelector = [
  { language: 'json' },
  { language: 'jsonc' },
  { language: 'jsonl' },
  { language: 'ndjson' },
  { language: 'jsonlines' },
  { language: 'plaintext' },
  { pattern: '**/*.{ndjson,jsonl}' },
];

export function registerPayloadValidation(log: vscode.LogOutputChannel, validator = new DocumentValidator(log)): vscode.Disposable[] {
  const live = new LiveValidation(validator);
  const warmUp = setTimeout(() => void validator.warmUp(), WARM_UP_DELAY_MS);
  return [
    { dispose: () => clearTimeout(warmUp) },
    validator,
    live,
    ...registerValidatePayloadCommand(validator, live),
    vscode.languages.registerCodeActionsProvider(PAYLOAD_SELECTOR, new DeprecatedFieldQuickFix(validator.collection), DeprecatedFieldQuickFix.metadata),
    // The schema's words for a field, where the JSON language service does not give them.
    vscode.languages.registerHoverProvider(PAYLOAD_SELECTOR, new FieldHover(validator, live)),
  ];
}
