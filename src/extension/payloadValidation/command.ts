// The "Validate JSON Payload" command: validates the active editor's document (or the one a menu
// names), asks for the kind when a record does not tell it, and says what it found.

import * as vscode from 'vscode';
import { registerCommands } from '../shared/commands';
import { FINDING_KINDS, type FindingKind, type NdjsonLines } from '../../core/validation';
import { RESOURCES, ResourceKind, findResource } from '../../core/resources';
import type { WorkerThread } from '../../core/validationWorker';
import type { FindingCounts } from './diagnostics';
import { DocumentValidator, KindChoice } from './documentValidator';
import { LiveValidation } from './live';

export const VALIDATE_PAYLOAD_COMMAND = 'healthData.validatePayload';

/** Arguments for scripts and tests; a menu passes the document's Uri instead. */
export interface ValidatePayloadArgs {
  /** The document to validate; default the active editor's. */
  uri?: vscode.Uri | string;
  /** The kind of every record (`activity`, `heart-rate`, `bodyFat`…): no detection, no question. */
  kind?: string;
  /** No summary message: the caller says what it found (a list opened as a document does). */
  quiet?: boolean;
}

/** What the command returns (for scripts and tests). */
export interface PayloadValidationSummary {
  readonly uri: string;
  readonly syntaxErrors: number;
  /** The document holds nothing but white space (its one syntax error is that no value is there). */
  readonly empty: boolean;
  readonly records: number;
  /** Records whose fields did not tell their kind (validated as the kind picked, if one was). */
  readonly undetected: number;
  readonly counts: FindingCounts;
  /** Of the zeros, those that stand out among their source's other records in the document (shown as warnings). */
  readonly standingOut: number;
  /** The thread that validated: the extension host's, or a worker's for a large document. */
  readonly thread: WorkerThread;
  /** The document was read as NDJSON: its records (lines), and the lines that are no JSON. */
  readonly lines?: NdjsonLines;
}


/** Whether a document holds nothing but white space (read a line at a time, up to its first other character). */
function isBlank(document: vscode.TextDocument): boolean {
  for (let i = 0; i < document.lineCount; i++) if (!document.lineAt(i).isEmptyOrWhitespace) return false;
  return true;
}

async function targetDocument(arg: unknown): Promise<vscode.TextDocument | undefined> {
  let uri: vscode.Uri | undefined;
  if (arg instanceof vscode.Uri) uri = arg;
  else if (arg && typeof arg === 'object' && 'uri' in arg) {
    const given = (arg as ValidatePayloadArgs).uri;
    uri = typeof given === 'string' ? vscode.Uri.parse(given) : given;
  }
  if (uri === undefined) return vscode.window.activeTextEditor?.document;
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ?? vscode.workspace.openTextDocument(uri);
}

function givenKind(arg: unknown): ResourceKind | undefined | Error {
  if (!arg || typeof arg !== 'object' || arg instanceof vscode.Uri || !('kind' in arg)) return undefined;
  const name = (arg as ValidatePayloadArgs).kind;
  if (name === undefined) return undefined;
  const found = typeof name === 'string' ? findResource(name) : undefined;
  if (!found) {
    const known = RESOURCES.map((r) => r.cliName).join(', ');
    return new Error(vscode.l10n.t('"{0}" is not a kind of record ({1}).', String(name), known));
  }
  return found.kind;
}

async function pickKind(undetected: number, records: number): Promise<ResourceKind | undefined> {
  const items = RESOURCES.map((r) => ({
    label: r.singular,
    description: r.cliName,
    detail: vscode.l10n.t('Identified by {0}', r.signatureFields.join(', ')),
    resource: r.kind,
  }));
  const placeHolder =
    records === 1
      ? vscode.l10n.t('The record does not tell its kind by its fields: validate it as')
      : vscode.l10n.t('{0} of {1} records do not tell their kind by their fields: validate them as', undetected, records);
  const pick = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Health Data: Kind of Record'), placeHolder });
  return pick?.resource;
}

function summaryText(summary: PayloadValidationSummary): string {
  // VS Code's JSON support lists no problem for an empty document: the words say it all.
  if (summary.empty) return vscode.l10n.t('The document is empty: nothing to validate.');
  if (summary.lines !== undefined && summary.lines.broken > 0) return brokenLinesText(summary.lines.broken, summary.records);
  if (summary.syntaxErrors > 0) {
    const broken =
      summary.syntaxErrors === 1
        ? vscode.l10n.t('The document is not valid JSON (1 syntax error)')
        : vscode.l10n.t('The document is not valid JSON ({0} syntax errors)', summary.syntaxErrors);
    if (summary.records === 0) return vscode.l10n.t('{0}: fix it to validate its records.', broken);
    // A list whose other records are whole: they were validated, their findings are in the panel.
    return summary.records === 1
      ? vscode.l10n.t('{0}: the 1 record it holds whole was validated; fix it to validate the rest.', broken)
      : vscode.l10n.t('{0}: the {1} records it holds whole were validated; fix it to validate the rest.', broken, summary.records);
  }
  if (summary.records === 0) return vscode.l10n.t('The document holds an empty list: nothing to validate.');
  const labels: Record<FindingKind, string> = {
    error: vscode.l10n.t('errors'),
    warning: vscode.l10n.t('warnings'),
    zero: vscode.l10n.t('zeros'),
    deprecated: vscode.l10n.t('deprecated'),
    unknown: vscode.l10n.t('unknown fields'),
  };
  // Of the zeros, those shown as warnings: a 0 where the source's other records send the field.
  const standing = summary.standingOut === 1 ? vscode.l10n.t('1 stands out') : vscode.l10n.t('{0} stand out', summary.standingOut);
  const counted = (k: FindingKind) => (k === 'zero' && summary.standingOut > 0 ? `${summary.counts[k]} (${standing})` : String(summary.counts[k]));
  const parts = FINDING_KINDS.filter((k) => summary.counts[k] > 0).map((k) => `${labels[k]}: ${counted(k)}`);
  const records = summary.records === 1 ? vscode.l10n.t('1 record') : vscode.l10n.t('{0} records', summary.records);
  return parts.length === 0 ? vscode.l10n.t('{0} validated: no findings.', records) : vscode.l10n.t('{0} validated. {1}', records, parts.join(', '));
}

/** The summary of NDJSON with lines that are no JSON: the records of the others were validated all the same. */
function brokenLinesText(broken: number, records: number): string {
  if (records === 0) {
    return broken === 1 ? vscode.l10n.t('The document\'s line is not valid JSON: fix it to validate its record.') : vscode.l10n.t('None of the document\'s {0} lines is valid JSON: fix them to validate their records.', broken);
  }
  const lines = broken === 1 ? vscode.l10n.t('1 line of the document is not valid JSON') : vscode.l10n.t('{0} lines of the document are not valid JSON', broken);
  const validated = records === 1 ? vscode.l10n.t('the 1 record of its other lines was validated') : vscode.l10n.t('the {0} records of its other lines were validated', records);
  const fix = broken === 1 ? vscode.l10n.t('fix it to validate its record') : vscode.l10n.t('fix them to validate their records');
  return vscode.l10n.t('{0}: {1}; {2}.', lines, validated, fix);
}

function tellSummary(summary: PayloadValidationSummary): void {
  const text = summaryText(summary);
  const showProblems = vscode.l10n.t('Show Problems');
  const hasProblems = (summary.syntaxErrors > 0 && !summary.empty) || FINDING_KINDS.some((k) => summary.counts[k] > 0);
  const actions = hasProblems ? [showProblems] : [];
  const message =
    (summary.syntaxErrors > 0 && !summary.empty) || summary.counts.error > 0
      ? vscode.window.showWarningMessage(text, ...actions)
      : vscode.window.showInformationMessage(text, ...actions);
  // Not awaited: the command is done once the diagnostics are set, whatever the person does with the message.
  void message.then((answer) => {
    if (answer === showProblems) return vscode.commands.executeCommand('workbench.actions.view.problems');
  });
}

export function registerValidatePayloadCommand(validator: DocumentValidator, live: LiveValidation): vscode.Disposable[] {
  const validatePayload = async (arg?: unknown): Promise<PayloadValidationSummary | undefined> => {
    let document: vscode.TextDocument | undefined;
    try {
      document = await targetDocument(arg);
    } catch (err) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not open the document to validate: {0}', err instanceof Error ? err.message : String(err)));
      return undefined;
    }
    if (!document) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a JSON or NDJSON document to validate it as a health data payload.'));
      return undefined;
    }
    const kind = givenKind(arg);
    if (kind instanceof Error) {
      void vscode.window.showErrorMessage(kind.message);
      return undefined;
    }
    // A large document is validated on a worker thread, with its progress in a notification
    // that can cancel it; a small one in a moment, with the window's progress.
    const run = (choice: KindChoice | undefined) =>
      validator.isLarge(document)
        ? vscode.window.withProgress(
            { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Validating {0}', vscode.workspace.asRelativePath(document.uri)), cancellable: true },
            (progress, token) => validator.validate(document, choice, { progress, token }),
          )
        : vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Validating payload…') }, () => validator.validate(document, choice));
    // Each run of the command detects afresh (and asks again), so a wrong pick is easy to undo.
    let validation = await run(kind !== undefined ? { kind } : {});
    live.follow(document);
    if (validation === undefined) return undefined; // Cancelled, or overtaken by an edit.
    const undetected = validation.undetected;
    if (undetected > 0) {
      const fallbackKind = await pickKind(undetected, validation.records);
      if (fallbackKind !== undefined) validation = await run({ fallbackKind });
      if (validation === undefined) return undefined;
    }
    const summary: PayloadValidationSummary = {
      uri: document.uri.toString(),
      syntaxErrors: validation.syntaxErrors,
      empty: validation.syntaxErrors > 0 && validation.records === 0 && isBlank(document),
      records: validation.records,
      undetected,
      counts: validation.counts,
      standingOut: validation.standingOut,
      thread: validation.thread,
      ...(validation.lines && { lines: validation.lines }),
    };
    const quiet = Boolean(arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) && (arg as ValidatePayloadArgs).quiet);
    if (!quiet) tellSummary(summary);
    return summary;
  };
  return registerCommands({ [VALIDATE_PAYLOAD_COMMAND]: validatePayload }, (err) => {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not validate the payload: {0}', err instanceof Error ? err.message : String(err)));
  });
}
