// Export Saved Requests… and Import Saved Requests…: the History view's saved requests as a file
// to take to another workspace or hand to a teammate, and back (core/workbench/savedFile.ts).

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { MAX_SAVED_FILE_BYTES, SAVED_FILE_NAME, foreignFormatOf, readSavedRequestsFile, savedRequestsFileText } from '../../core/workbench';
import { type ForeignImportResult, importForeignRequests, mergeSentences } from './foreignImport';
import type { Session } from '../account/session';
import type { ExchangeHistory } from './history';

/** From code and the tests: where to write or read (a path or a Uri), and for export, whether the replies go in. */
export interface SavedFileOptions {
  readonly uri?: string | vscode.Uri;
  readonly replies?: boolean;
  /** Import of an .http file or a Postman collection: false sends and saves every request it can, without asking which. */
  readonly pick?: boolean;
}

export interface SavedExportResult {
  readonly uri: string;
  readonly requests: number;
  readonly replies: boolean;
}

export interface SavedImportResult {
  readonly uri: string;
  /** The names the added requests have now. */
  readonly added: string[];
  readonly renamed: ReadonlyArray<{ readonly from: string; readonly to: string }>;
  readonly alreadySaved: number;
  readonly overLimit: number;
  readonly skipped: number;
}

function optionsOf(arg: unknown): SavedFileOptions {
  if (arg === undefined || arg === null) return {};
  if (typeof arg !== 'object' || Array.isArray(arg)) throw new HealthDataError('usage', vscode.l10n.t('The argument must be {0}.', '{ uri, replies }'));
  const { uri, replies, pick } = arg as { uri?: unknown; replies?: unknown; pick?: unknown };
  if (uri !== undefined && typeof uri !== 'string' && !(uri instanceof vscode.Uri)) throw new HealthDataError('usage', vscode.l10n.t('The uri must be a path or a Uri.'));
  if (replies !== undefined && typeof replies !== 'boolean') throw new HealthDataError('usage', vscode.l10n.t('replies must be true or false.'));
  if (pick !== undefined && typeof pick !== 'boolean') throw new HealthDataError('usage', vscode.l10n.t('pick must be true or false.'));
  return { uri: uri as string | vscode.Uri | undefined, replies: replies as boolean | undefined, pick: pick as boolean | undefined };
}

export const uriOf = (uri: string | vscode.Uri): vscode.Uri => (typeof uri === 'string' ? vscode.Uri.file(uri) : uri);
export const fileName = (uri: vscode.Uri): string => uri.path.split('/').pop() || uri.toString();

/** A count of saved requests in words: `1 saved request`, `3 saved requests`. */
function savedCount(n: number): string {
  return n === 1 ? vscode.l10n.t('1 saved request') : vscode.l10n.t('{0} saved requests', n);
}

export async function exportSavedRequests(session: Session, history: ExchangeHistory, arg?: unknown): Promise<SavedExportResult | undefined> {
  const options = optionsOf(arg);
  const saved = history.saved();
  if (saved.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No saved requests to export: Save Request… on a request of the History view keeps it by a name.'));
    return undefined;
  }
  const replies = options.replies ?? (await pickReplies(saved.length));
  if (replies === undefined) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = options.uri !== undefined
    ? uriOf(options.uri)
    : await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Export Saved Requests'),
        saveLabel: vscode.l10n.t('Export'),
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, SAVED_FILE_NAME) } : {}),
        filters: { [vscode.l10n.t('Saved requests')]: ['json'] },
      });
  if (!uri) return undefined;
  const environment = session.active?.name;
  const secrets = environment ? await Promise.all([session.credentials.get(environment, 'clientSecret'), session.credentials.get(environment, 'userAccessToken')]) : [];
  const text = savedRequestsFileText(saved, { replies, secrets, exportedAt: new Date().toISOString() });
  try {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  } catch (err) {
    const why = isFsError(err, 'FileNotFound', 'EntryNotFound') ? vscode.l10n.t('its folder does not exist') : fileError(err);
    throw new HealthDataError('usage', vscode.l10n.t('{0} could not be written: {1}.', fileName(uri), why));
  }
  const open = vscode.l10n.t('Open');
  void vscode.window
    .showInformationMessage(
      replies
        ? vscode.l10n.t('Exported {0} to {1}, with their last replies: the records in them are in the file too.', savedCount(saved.length), fileName(uri))
        : vscode.l10n.t('Exported {0} to {1}. Import Saved Requests… reads it in another workspace.', savedCount(saved.length), fileName(uri)),
      open,
    )
    .then((answer) => (answer === open ? vscode.window.showTextDocument(uri) : undefined));
  return { uri: uri.toString(), requests: saved.length, replies };
}

/** Requests only (the default, to share), or with the replies' bodies (which hold health records). */
async function pickReplies(count: number): Promise<boolean | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: vscode.l10n.t('Requests only (recommended to share)'),
        detail: vscode.l10n.t('No reply bodies, so no health records: each name, request and status'),
        replies: false,
      },
      {
        label: vscode.l10n.t('With their last replies'),
        detail: vscode.l10n.t('Reply bodies up to 64 KB each: the records they returned go in the file too'),
        replies: true,
      },
    ],
    { title: vscode.l10n.t('Export {0}: what goes in the file?', savedCount(count)) },
  );
  return picked?.replies;
}

export async function importSavedRequests(session: Session, history: ExchangeHistory, arg?: unknown): Promise<SavedImportResult | ForeignImportResult | undefined> {
  const options = optionsOf(arg);
  let uri: vscode.Uri | undefined;
  if (options.uri !== undefined) uri = uriOf(options.uri);
  else {
    const picked = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Import Saved Requests'),
      openLabel: vscode.l10n.t('Import'),
      canSelectMany: false,
      ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
      filters: { [vscode.l10n.t('Saved requests, .http files, Postman collections')]: ['json', 'http', 'rest'] },
    });
    uri = picked?.[0];
  }
  if (!uri) return undefined;
  const name = fileName(uri);
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch (err) {
    if (isFsError(err, 'FileNotFound', 'EntryNotFound')) throw new HealthDataError('usage', vscode.l10n.t('{0} does not exist.', name));
    throw new HealthDataError('usage', vscode.l10n.t('{0} cannot be read: {1}.', name, fileError(err)));
  }
  if (stat.type & vscode.FileType.Directory) throw new HealthDataError('usage', vscode.l10n.t('{0} is a folder: pick a file of saved requests.', name));
  if (stat.size > MAX_SAVED_FILE_BYTES) {
    throw new HealthDataError('usage', vscode.l10n.t('{0} is {1} MB: a file of saved requests is never that large, so it was not read.', name, (stat.size / 1024 / 1024).toFixed(1)));
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await vscode.workspace.fs.readFile(uri));
  } catch (err) {
    if (err instanceof TypeError) throw new HealthDataError('usage', vscode.l10n.t('{0} is not UTF-8 text, so it is not a file of saved requests.', name));
    throw new HealthDataError('usage', vscode.l10n.t('{0} cannot be read: {1}.', name, fileError(err)));
  }
  // Another tool's requests: read as the service's, sent once and saved.
  const format = foreignFormatOf(name, text);
  if (format) return importForeignRequests(session, history, { uri, name, text, format, pick: options.pick !== false });
  let contents: ReturnType<typeof readSavedRequestsFile>;
  try {
    contents = readSavedRequestsFile(text);
  } catch (err) {
    throw new HealthDataError('usage', `${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const merged = history.importSaved(contents.requests);
  const result: SavedImportResult = {
    uri: uri.toString(),
    added: merged.added.map((e) => e.savedAs!),
    renamed: merged.renamed,
    alreadySaved: merged.alreadySaved,
    overLimit: merged.overLimit,
    skipped: contents.skipped,
  };
  const message = importMessage(name, result, contents.requests.length);
  if (merged.added.length === 0 && contents.requests.length === 0) void vscode.window.showWarningMessage(message);
  else void vscode.window.showInformationMessage(message);
  return result;
}

/** What an import did, in sentences: added, renamed, already there, over Saved's limit, skipped. */
function importMessage(name: string, r: SavedImportResult, inFile: number): string {
  const parts: string[] = [];
  if (inFile === 0) parts.push(vscode.l10n.t('{0} holds no saved request: nothing was imported.', name));
  else if (r.added.length === 0) parts.push(vscode.l10n.t('Nothing imported from {0}.', name));
  else if (r.added.length === 1) parts.push(vscode.l10n.t('Imported 1 saved request from {0}, under Saved in the History view.', name));
  else parts.push(vscode.l10n.t('Imported {0} saved requests from {1}, under Saved in the History view.', r.added.length, name));
  parts.push(...mergeSentences(r));
  if (r.skipped) parts.push(r.skipped === 1 ? vscode.l10n.t('1 entry of the file is not a saved request and was skipped.') : vscode.l10n.t('{0} entries of the file are not saved requests and were skipped.', r.skipped));
  return parts.join(' ');
}

const isFsError = (err: unknown, ...codes: string[]): boolean => err instanceof vscode.FileSystemError && codes.includes(err.code);

/** A file system error in words: `permission denied`, or its own message. */
function fileError(err: unknown): string {
  if (isFsError(err, 'NoPermissions')) return vscode.l10n.t('permission denied');
  return (err instanceof Error ? err.message : String(err)).replace(/\.$/, '');
}
