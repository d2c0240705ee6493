// Validates one editor document into the `healthData` diagnostic collection, and remembers the
// kind a person chose for a document so that later validations of it (live, as it changes) use it.

import * as vscode from 'vscode';
import { PayloadTextOptions, PayloadTextValidation, validatePayloadText } from '../../core/validation';
import { ResourceKind } from '../../core/resources';
import { diagnosticsOf, unknownFieldSeverity } from './diagnostics';

/** How a document's records get their kind: given for all, or for those whose kind is not detected. */
export interface KindChoice {
  readonly kind?: ResourceKind;
  readonly fallbackKind?: ResourceKind;
}

export class DocumentValidator implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('healthData');
  private readonly choices = new Map<string, KindChoice>();

  constructor(private readonly log: vscode.LogOutputChannel) {}

  /**
   * Validates the document as it is now and replaces its diagnostics. A choice given is
   * remembered for the next validations of the document; without one the last is used. Never throws.
   */
  validate(document: vscode.TextDocument, choice?: KindChoice): PayloadTextValidation {
    if (choice !== undefined) this.choices.set(document.uri.toString(), choice);
    const started = performance.now();
    const validation = validatePayloadText(document.getText(), this.optionsFor(document));
    this.collection.set(document.uri, diagnosticsOf(document, validation, unknownFieldSeverity()));
    const ms = performance.now() - started;
    this.log.debug(
      `validated ${document.uri.toString(true)} v${document.version} in ${ms.toFixed(1)} ms: ` +
        (validation.syntaxErrors.length > 0
          ? `${validation.syntaxErrors.length} syntax errors`
          : `${validation.records.length} records, ${validation.findings.length} findings`),
    );
    return validation;
  }

  /**
   * How the document is validated now: its language, and the kind last chosen for it. A report
   * made with these options places its findings where the Problems panel does.
   */
  optionsFor(document: Pick<vscode.TextDocument, 'uri' | 'languageId'>): PayloadTextOptions {
    return { ...this.choices.get(document.uri.toString()), jsonc: document.languageId === 'jsonc' };
  }

  /** Forgets the document: its diagnostics and its kind. */
  forget(uri: vscode.Uri): void {
    this.collection.delete(uri);
    this.choices.delete(uri.toString());
  }

  dispose(): void {
    this.collection.dispose();
    this.choices.clear();
  }
}
