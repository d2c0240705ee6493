// Health Data: Compare Exchanges: two exchanges of the same endpoint (two dates, two
// environments, before and after), or an exchange and a JSON file, in VS Code's diff editor as
// normalized JSON (keys in schema order, records paired by id), with a summary of what differs.

import * as vscode from 'vscode';
import { CompareSummary, comparableExchanges, comparePayloads, compareSummaryText, exchangePayload, exchangeTitle, parsePayloadText } from '../../core/exchanges';
import { HealthDataError, redact } from '../../core/errors';
import { Exchange, redactBody } from '../../core/service';
import { shortText } from '../../core/views';
import type { Session } from '../account/session';
import { registerCommands } from '../shared/commands';
import { exchangeArgument, exchangeItem, pickExchange } from '../shared/exchanges';
import { showError } from '../shared/showError';
import { CompareDocuments } from './compareDocuments';

/** Larger files make the diff editor crawl; the JSON is re-indented on top. */
const MAX_FILE_BYTES = 50 * 1024 * 1024;

/** The right side: another exchange, or a JSON file. */
export type CompareTarget = Exchange | { readonly exchangeId: string } | { readonly file: vscode.Uri | string };

export interface CompareResult {
  readonly summary: CompareSummary;
  readonly message: string;
  readonly left: vscode.Uri;
  readonly right: vscode.Uri;
}

export function registerCompare(session: Session): vscode.Disposable[] {
  const documents = new CompareDocuments();
  const withBody = (e: Exchange) => e.purpose === 'data' && e.responseBody !== undefined;

  const compareExchanges = async (arg?: unknown, target?: CompareTarget): Promise<CompareResult | undefined> => {
    const left =
      exchangeArgument(session, arg) ??
      (await pickExchange(
        session,
        session.recentExchanges().filter(withBody),
        vscode.l10n.t('Compare: which request first?'),
        vscode.l10n.t('No data request with a reply has been sent in this session yet: load records or run a request first.'),
      ));
    if (!left) return undefined;
    const right = await resolveTarget(target, left);
    if (!right) return undefined;

    const secrets = [session.currentToken?.token];
    const leftValue = exchangePayload(left, vscode.l10n.t('the first request'));
    let rightValue: unknown;
    let rightName: string;
    if ('file' in right) {
      rightValue = parsePayloadText(redactBody(await readJsonFile(right.file), secrets), vscode.l10n.t('The file {0}', baseName(right.file)));
      rightName = baseName(right.file);
    } else {
      if (!comparableExchanges(left, right)) {
        throw new HealthDataError('usage', vscode.l10n.t('"{0}" and "{1}" are not replies of the same endpoint, so they are not compared.', shortText(exchangeTitle(left)), shortText(exchangeTitle(right))));
      }
      rightValue = exchangePayload(right, vscode.l10n.t('the second request'));
      rightName = sideName(session, right);
    }
    const comparison = comparePayloads(leftValue, rightValue, left.resource);
    const leftName = sideName(session, left);
    const message = compareSummaryText(comparison.summary, comparison.left.shape === 'list' || comparison.right.shape === 'list' ? 'list' : 'record');
    const leftUri = documents.add(leftName, redact(comparison.left.text, secrets));
    const rightUri = documents.add(rightName, redact(comparison.right.text, secrets));
    const title = diffTitle(session, left, 'file' in right ? undefined : right, leftName, rightName, message);
    await vscode.commands.executeCommand('vscode.diff', leftUri, rightUri, title, { preview: true });
    void vscode.window.showInformationMessage(message);
    return { summary: comparison.summary, message, left: leftUri, right: rightUri };
  };

  /** The second side: the one given, or another exchange of the same endpoint or a JSON file, picked. */
  const resolveTarget = async (target: CompareTarget | undefined, left: Exchange): Promise<Exchange | { file: vscode.Uri | string } | undefined> => {
    if (target && typeof target === 'object' && 'file' in target) {
      if (!(target.file instanceof vscode.Uri) && typeof target.file !== 'string') throw new HealthDataError('usage', vscode.l10n.t('The file to compare with is not a path or a URI.'));
      return { file: target.file };
    }
    const given = exchangeArgument(session, target);
    if (given) return given;
    const others = session.recentExchanges().filter((e) => e.id !== left.id && withBody(e) && comparableExchanges(left, e));
    const fileItem = { label: vscode.l10n.t('$(file) JSON File…'), description: vscode.l10n.t('a saved reply or a payload of your own') };
    const picked = await vscode.window.showQuickPick<vscode.QuickPickItem & { exchange?: Exchange }>(
      [...others.map((e) => exchangeItem(session, e)), fileItem],
      {
        title: vscode.l10n.t('Compare "{0}" with…', shortText(exchangeTitle(left), 60)),
        placeHolder: others.length ? vscode.l10n.t('Another reply of the same endpoint, or a JSON file') : vscode.l10n.t('No other reply of this endpoint yet: pick a JSON file'),
        matchOnDescription: true,
        matchOnDetail: true,
      },
    );
    if (!picked) return undefined;
    if (picked.exchange) return picked.exchange;
    const [file] = (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { JSON: ['json'] }, title: vscode.l10n.t('Compare with a JSON File') })) ?? [];
    return file ? { file } : undefined;
  };

  return [documents, ...registerCommands({ 'healthData.compareExchanges': compareExchanges }, (err) => showError(session, err, vscode.l10n.t('Compare failed')))];
}

/**
 * The diff editor's title. Two replies of the same request differ only in where and when they
 * were asked, so the request is named once and each side by its environment and time (a long
 * request title would otherwise cut off the very thing that tells the sides apart).
 */
function diffTitle(session: Session, left: Exchange, right: Exchange | undefined, leftName: string, rightName: string, message: string): string {
  if (right && exchangeTitle(left) === exchangeTitle(right)) {
    const where = (e: Exchange) => sideName(session, e).slice(exchangeTitle(e).length + ' · '.length);
    return `${shortText(exchangeTitle(left), 60)}: ${shortText(where(left), 40)} ↔ ${shortText(where(right), 40)} · ${shortText(message, 120)}`;
  }
  return `${shortText(leftName, 50)} ↔ ${shortText(rightName, 50)} · ${shortText(message, 120)}`;
}

/** `Activity 2026-11-20 · Staging · 14:32:05`: what, where (when known), when. */
function sideName(session: Session, exchange: Exchange): string {
  const environment = session.environmentOf(exchange.id)?.name;
  const time = new Date(exchange.startedAt).toLocaleTimeString();
  return [exchangeTitle(exchange), environment, time].filter(Boolean).join(' · ');
}

function toUri(file: vscode.Uri | string): vscode.Uri {
  return typeof file === 'string' ? vscode.Uri.file(file) : file;
}

function baseName(file: vscode.Uri | string): string {
  const path = toUri(file).path;
  return path.slice(path.lastIndexOf('/') + 1) || path;
}

async function readJsonFile(file: vscode.Uri | string): Promise<string> {
  const uri = toUri(file);
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch {
    throw new HealthDataError('usage', vscode.l10n.t('The file {0} does not exist or cannot be read.', baseName(file)));
  }
  if (stat.type & vscode.FileType.Directory) throw new HealthDataError('usage', vscode.l10n.t('{0} is a folder, not a JSON file.', baseName(file)));
  if (stat.size > MAX_FILE_BYTES) {
    throw new HealthDataError('usage', vscode.l10n.t('{0} is {1} MB; files over {2} MB are not compared.', baseName(file), (stat.size / 1024 / 1024).toFixed(0), MAX_FILE_BYTES / 1024 / 1024));
  }
  return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
}
