// "Export Validation Report…": SARIF 2.1.0 for the open payload files (those the validation glob
// names), or for the workspace's when none is open, written where the person says, so it can go
// to CI or a SARIF viewer. The findings sit where the Problems panel shows them: the same text
// (an open editor's, unsaved changes included) and the same options (language, kind chosen).

import * as vscode from 'vscode';
import { type ReportEntry, SarifWriter, payloadReport, reportFileFor, writeReport } from '../../core/reports';
import { DocumentValidator, matchesValidationGlob, validationGlob } from '../payloadValidation';

export const EXPORT_VALIDATION_REPORT_COMMAND = 'healthData.exportValidationReport';

/** Arguments for scripts and tests: where to write (no dialog), and which files (else open or workspace). */
export interface ExportValidationReportArgs {
  target?: vscode.Uri | string;
  uris?: Array<vscode.Uri | string>;
}

/** What the command returns (for scripts and tests). */
export interface ValidationReportSummary {
  readonly target: string;
  readonly files: number;
  readonly results: number;
}

/** Files past this many in a workspace are left out (and the person told): a report, not a crawl. */
export const MAX_WORKSPACE_FILES = 5000;

const asUri = (u: vscode.Uri | string): vscode.Uri => (typeof u === 'string' ? vscode.Uri.parse(u) : u);

interface Payload {
  readonly uri: vscode.Uri;
  readonly text: string;
  readonly languageId: string;
}

async function payloadOf(uri: vscode.Uri): Promise<Payload> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return { uri, text: open.getText(), languageId: open.languageId };
  const bytes = await vscode.workspace.fs.readFile(uri);
  // As an editor reads it: UTF-8, the byte-order mark dropped.
  const text = new TextDecoder('utf-8').decode(bytes);
  return { uri, text, languageId: uri.path.endsWith('.jsonc') ? 'jsonc' : 'json' };
}

/** The files to report on: named, else the open ones the glob names, else the workspace's. */
async function payloadUris(args: ExportValidationReportArgs): Promise<{ uris: vscode.Uri[]; capped: boolean }> {
  if (args.uris && args.uris.length > 0) return { uris: args.uris.map(asUri), capped: false };
  const open = vscode.workspace.textDocuments.filter((d) => matchesValidationGlob(d)).map((d) => d.uri);
  if (open.length > 0) return { uris: open, capped: false };
  const found = await vscode.workspace.findFiles(validationGlob(), '**/node_modules/**', MAX_WORKSPACE_FILES + 1);
  return { uris: found.slice(0, MAX_WORKSPACE_FILES), capped: found.length > MAX_WORKSPACE_FILES };
}

function baseFolderOf(uris: readonly vscode.Uri[]): vscode.Uri | undefined {
  for (const uri of uris) {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (folder) return folder.uri;
  }
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

async function entryOf(uri: vscode.Uri, validator: DocumentValidator, baseFolder: vscode.Uri | undefined): Promise<ReportEntry> {
  const name = vscode.workspace.asRelativePath(uri, false);
  const file = uri.scheme === 'file' && baseFolder?.scheme === 'file' ? reportFileFor(uri.fsPath, baseFolder.fsPath, name) : { name };
  let payload: Payload;
  try {
    payload = await payloadOf(uri);
  } catch (err) {
    return { file, problem: { message: vscode.l10n.t('could not be read: {0}', err instanceof Error ? err.message : String(err)) } };
  }
  if (!payload.text.trim()) return { file, problem: { message: vscode.l10n.t('is empty') } };
  // Each 0 said from the file's other records of its source, as the Problems panel says it.
  const report = payloadReport(payload.text, validator.optionsFor(payload), 'in this document');
  // A list with a syntax error: the records it holds whole, as the Problems panel shows them, then the error.
  return 'problem' in report ? { file, problem: report.problem, records: report.records ?? [] } : { file, records: [...report.records] };
}

async function askTarget(baseFolder: vscode.Uri | undefined): Promise<vscode.Uri | undefined> {
  return vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export Validation Report'),
    saveLabel: vscode.l10n.t('Export'),
    defaultUri: baseFolder ? vscode.Uri.joinPath(baseFolder, 'health-data.sarif') : undefined,
    filters: { [vscode.l10n.t('SARIF report')]: ['sarif', 'json'] },
  });
}

export async function exportValidationReport(validator: DocumentValidator, arg?: unknown): Promise<ValidationReportSummary | undefined> {
  const args: ExportValidationReportArgs = arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) ? (arg as ExportValidationReportArgs) : {};
  const { uris, capped } = await payloadUris(args);
  if (uris.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No payload files to report on: open a *.health.json file, or add one to the workspace (the healthData.validation.glob setting names them).'));
    return undefined;
  }
  const baseFolder = baseFolderOf(uris);
  const target = args.target !== undefined ? asUri(args.target) : await askTarget(baseFolder);
  if (target === undefined) return undefined;
  const text = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: uris.length === 1 ? vscode.l10n.t('Validating 1 file for the report…') : vscode.l10n.t('Validating {0} files for the report…', uris.length), cancellable: true },
    async (progress, cancel) => {
      const entries: ReportEntry[] = [];
      for (const uri of uris) {
        // One file at a time, letting the extension host breathe between them; stop when asked.
        await new Promise((resolve) => setImmediate(resolve));
        if (cancel.isCancellationRequested) return undefined;
        entries.push(await entryOf(uri, validator, baseFolder));
        progress.report({ increment: 100 / uris.length });
      }
      const writer = new SarifWriter({ baseFolder: baseFolder?.scheme === 'file' ? baseFolder.fsPath : undefined, toolVersion: extensionVersion() });
      return { report: writeReport(writer, entries), results: countResults(entries) };
    },
  );
  if (text === undefined) return undefined;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text.report));
  const open = vscode.l10n.t('Open Report');
  const where = vscode.workspace.asRelativePath(target);
  const message = capped
    ? vscode.l10n.t('Validation report of the first {0} files written to {1} ({2} findings).', uris.length, where, text.results)
    : uris.length === 1
      ? vscode.l10n.t('Validation report of 1 file written to {0} ({1} findings).', where, text.results)
      : vscode.l10n.t('Validation report of {0} files written to {1} ({2} findings).', uris.length, where, text.results);
  void vscode.window.showInformationMessage(message, open).then((answer) => {
    if (answer === open) return vscode.commands.executeCommand('vscode.open', target);
  });
  return { target: target.toString(), files: uris.length, results: text.results };
}

function countResults(entries: readonly ReportEntry[]): number {
  let n = 0;
  for (const e of entries) {
    if ('problem' in e) n++;
    for (const r of e.records ?? []) n += r.findings.length;
  }
  return n;
}

function extensionVersion(): string | undefined {
  const version: unknown = vscode.extensions.getExtension('health-data-tools.health-data-explorer')?.packageJSON?.version;
  return typeof version === 'string' ? version : undefined;
}
