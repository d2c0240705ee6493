// "Export Records…": the records of a resource, a month, a date or the selection, every page in
// the view's filters, written as JSON, NDJSON or CSV to a file chosen in a save dialog, with
// progress and cancel. The file appears under its name only once complete.

import * as vscode from 'vscode';
import { EXPORT_EXTENSIONS, ExportFormat, exportList, isExportFormat, openPartialFile, recordEncoder } from '../../core/export';
import { HealthDataError } from '../../core/errors';
import { RESOURCES, ResourceKind } from '../../core/resources';
import type { Session } from '../account/session';
import { registerCommands } from '../shared/commands';
import { showError } from '../shared/showError';
import { describeFilters } from '../tree/filters';
import type { RecordsTreeProvider } from '../tree/recordsTreeProvider';
import { ExportTarget, exportTargets } from './exportTargets';

export interface ExportOptions {
  /** Skips the dialogs: the format and the file (a script or a test). */
  format?: string;
  uri?: vscode.Uri | string;
  /** Cancels like the notification's Cancel button (a script or a test). */
  cancellation?: vscode.CancellationToken;
}

export interface ExportOutcome {
  uri: string;
  records: number;
  complete: boolean;
}

const FORMAT_NAMES: Record<ExportFormat, string> = { json: 'JSON', ndjson: 'NDJSON', csv: 'CSV' };

/** Asks which resource to export: each with its count in the view's filters (when the service said), the filters named. */
async function pickKind(tree: RecordsTreeProvider): Promise<ResourceKind | undefined> {
  const picked = await vscode.window.showQuickPick(
    RESOURCES.map((r) => {
      const total = tree.state(r.kind).total;
      return { label: r.label, description: total === undefined ? undefined : total === 1 ? vscode.l10n.t('1 record') : vscode.l10n.t('{0} records', total), resourceKind: r.kind };
    }),
    { title: vscode.l10n.t('Export which resource?'), placeHolder: vscode.l10n.t('Every page in the Records view\'s filters: {0}', describeFilters(tree.dateRange, tree.sourceFilter, tree.humanFilter)) },
  );
  return picked?.resourceKind;
}

/** The file and format: from the options, else a save dialog whose file type sets the format. */
async function chooseFile(target: ExportTarget, options: ExportOptions): Promise<{ uri: vscode.Uri; format: ExportFormat } | undefined> {
  if (options.uri !== undefined) {
    const uri = typeof options.uri === 'string' ? vscode.Uri.file(options.uri) : options.uri;
    const format = options.format ?? uri.path.split('.').pop();
    if (!isExportFormat(format)) throw new HealthDataError('usage', vscode.l10n.t('Export format must be json, ndjson or csv.'));
    return { uri, format };
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const defaultName = `${target.name}.${EXPORT_EXTENSIONS[isExportFormat(options.format) ? options.format : 'json']}`;
  const uri = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export Records'),
    saveLabel: vscode.l10n.t('Export'),
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, defaultName) } : {}),
    filters: { JSON: ['json'], NDJSON: ['ndjson', 'jsonl'], CSV: ['csv'] },
  });
  if (!uri) return undefined;
  const extension = uri.path.split('.').pop()?.toLowerCase();
  let format: ExportFormat | undefined = extension === 'jsonl' ? 'ndjson' : isExportFormat(extension) ? extension : undefined;
  if (!format) {
    const picked = await vscode.window.showQuickPick(
      (Object.keys(FORMAT_NAMES) as ExportFormat[]).map((f) => ({ label: FORMAT_NAMES[f], format: f })),
      { title: vscode.l10n.t('Export format') },
    );
    format = picked?.format;
  }
  return format ? { uri, format } : undefined;
}

/** Writes one target to `uri`; the partial file is removed when anything goes wrong. */
async function writeTarget(session: Session, target: ExportTarget, uri: vscode.Uri, format: ExportFormat, cancellation?: vscode.CancellationToken): Promise<ExportOutcome> {
  if (uri.scheme !== 'file') throw new HealthDataError('usage', vscode.l10n.t('Export to a file on this machine (got a {0}: address).', uri.scheme));
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Exporting {0}', uri.path.split('/').pop() ?? ''), cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const cancels = [token, ...(cancellation ? [cancellation] : [])].map((t) => t.onCancellationRequested(() => controller.abort()));
      if (cancellation?.isCancellationRequested) controller.abort();
      const file = openPartialFile(uri.fsPath);
      try {
        let records: number;
        let complete = true;
        if (target.type === 'records') {
          const encoder = recordEncoder(format, target.kind);
          file.write(encoder.begin() + encoder.page(target.records) + encoder.end());
          records = target.records.length;
        } else {
          const { client } = await session.connection();
          const summary = await exportList(client, target.kind, target.query, format, {
            write: (text) => file.write(text),
            signal: controller.signal,
            onProgress: (written) => progress.report({ message: vscode.l10n.t('{0} records', written) }),
          });
          records = summary.records;
          complete = summary.complete;
          if (!complete) throw new HealthDataError('http', vscode.l10n.t('The list is incomplete ({0}); nothing was written.', summary.stopReason ?? ''));
        }
        if (controller.signal.aborted) throw new HealthDataError('cancelled', vscode.l10n.t('The export was cancelled.'));
        file.commit();
        return { uri: uri.toString(), records, complete };
      } finally {
        file.discard();
        for (const c of cancels) c.dispose();
      }
    },
  );
}

export function registerExportCommands(session: Session, tree: RecordsTreeProvider): vscode.Disposable[] {
  const exportRecords = async (clicked?: unknown, selected?: unknown, options: ExportOptions = {}): Promise<ExportOutcome[] | undefined> => {
    // From a script: (args, undefined, options) or ({...args, format, uri}).
    const opts: ExportOptions = { ...(clicked && typeof clicked === 'object' ? (clicked as ExportOptions) : {}), ...options };
    const targets = await exportTargets(tree, clicked, selected, () => pickKind(tree));
    if (!targets) return undefined;
    if (targets.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Nothing to export: the node lies outside the date range of the view.'));
      return [];
    }
    const outcomes: ExportOutcome[] = [];
    for (const target of targets) {
      const chosen = await chooseFile(target, targets.length > 1 && opts.uri !== undefined ? { ...opts, uri: undefined } : opts);
      if (!chosen) return outcomes;
      try {
        outcomes.push(await writeTarget(session, target, chosen.uri, chosen.format, opts.cancellation));
      } catch (err) {
        if (err instanceof HealthDataError && err.kind === 'cancelled') {
          void vscode.window.showInformationMessage(vscode.l10n.t('Export cancelled: no file was written.'));
          return outcomes;
        }
        throw err;
      }
    }
    const open = vscode.l10n.t('Open');
    const last = outcomes[outcomes.length - 1];
    void vscode.window
      .showInformationMessage(
        last.records === 1
          ? vscode.l10n.t('Exported 1 record to {0}.', vscode.Uri.parse(last.uri).fsPath)
          : vscode.l10n.t('Exported {0} records to {1}.', last.records, vscode.Uri.parse(last.uri).fsPath),
        open,
      )
      .then((answer) => (answer === open ? vscode.window.showTextDocument(vscode.Uri.parse(last.uri)) : undefined));
    return outcomes;
  };
  return registerCommands({ 'healthData.exportRecords': exportRecords }, (err) => showError(session, err, vscode.l10n.t('Export failed')));
}
