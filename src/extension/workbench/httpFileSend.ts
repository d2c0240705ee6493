// Send All Requests of This File: every request of the service in an `.http`/`.rest` file, one
// after another through the environment in use, with progress and Cancel. Each line's lens then
// shows its reply (httpLens.ts); the message counts how they ended and names those the form
// would refuse, which are not sent. The open document is read (unsaved edits included).

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { statusLine } from '../../core/service';
import { type HistoryEntry, outcomeOf } from '../../core/workbench';
import type { Session } from '../account/session';
import { httpFileLensRequests, sendInTurn, unusableText } from './foreignImport';
import { MAX_HTTP_FILE_CHARS } from './httpFiles';
import { fileName, uriOf } from './savedFileCommands';

export interface HttpFileSendResult {
  readonly uri: string;
  readonly environment: string;
  /** In the file's order: each request sent, and its exchange (none when cancelled during it). */
  readonly sent: ReadonlyArray<{ readonly name: string; readonly target: string; readonly exchangeId?: string; readonly status?: number }>;
  /** Requests of the service the form refuses, not sent, and why. */
  readonly leftOut: ReadonlyArray<{ readonly name: string; readonly problem: string }>;
  readonly cancelled: boolean;
}

/** The document an argument names: a Uri (the editor's context menu), `{ uri }`, or the active editor's. */
async function documentOf(arg: unknown): Promise<vscode.TextDocument> {
  let uri: vscode.Uri | undefined;
  if (arg instanceof vscode.Uri) uri = arg;
  else if (arg !== undefined && arg !== null) {
    const given = typeof arg === 'object' && !Array.isArray(arg) ? (arg as { uri?: unknown }).uri : undefined;
    if (typeof given !== 'string' && !(given instanceof vscode.Uri)) throw new HealthDataError('usage', vscode.l10n.t('The argument must be {0}.', '{ uri }'));
    uri = uriOf(given);
  }
  if (!uri) {
    const active = vscode.window.activeTextEditor?.document;
    if (!active) throw new HealthDataError('usage', vscode.l10n.t('Open an .http or .rest file first: Send All sends the requests of the service it holds.'));
    return active;
  }
  try {
    return await vscode.workspace.openTextDocument(uri);
  } catch (err) {
    throw new HealthDataError('usage', vscode.l10n.t('{0} cannot be read: {1}', fileName(uri), err instanceof Error ? err.message : String(err)));
  }
}

export async function sendHttpFile(session: Session, arg?: unknown): Promise<HttpFileSendResult | undefined> {
  const document = await documentOf(arg);
  const name = fileName(document.uri);
  const text = document.getText();
  if (text.length > MAX_HTTP_FILE_CHARS) throw new HealthDataError('usage', vscode.l10n.t('{0} is over 1 MB: an .http file is never that large, so it was not read.', name));
  const requests = httpFileLensRequests(text);
  const usable = requests.filter((r) => r.problem === undefined);
  const leftOut = requests.filter((r) => r.problem !== undefined).map((r) => ({ name: r.name, problem: r.problem! }));
  if (usable.length === 0) {
    const why = requests.length === 0 ? vscode.l10n.t('{0} holds no request of the service: nothing was sent.', name) : `${vscode.l10n.t('Nothing was sent from {0}.', name)} ${unusableText(leftOut)}`;
    void vscode.window.showWarningMessage(why);
    return { uri: document.uri.toString(), environment: session.active?.name ?? '', sent: [], leftOut, cancelled: false };
  }
  const { client, environment } = await session.connection();
  const sent: Array<HttpFileSendResult['sent'][number]> = [];
  const failed: Array<{ entry: HistoryEntry; expected?: number }> = [];
  const cancelled = await sendInTurn(session, client, usable, vscode.l10n.t('Sending the requests of {0}', name), (request, entry) => {
    // Not a success: a failure or a refusal, or with `?? status == N` any other status than N.
    const expected = request.expectStatus;
    if (entry && (expected !== undefined ? entry.status !== expected : outcomeOf(entry) === 'failed' || outcomeOf(entry) === 'clientError')) failed.push({ entry, ...(expected !== undefined ? { expected } : {}) });
    sent.push({ name: request.name, target: request.target, ...(entry ? { exchangeId: entry.id, ...(entry.status !== undefined ? { status: entry.status } : {}) } : {}) });
  });
  const result: HttpFileSendResult = { uri: document.uri.toString(), environment: environment.name, sent, leftOut, cancelled };
  const count = sent.length === 1 ? vscode.l10n.t('1 request') : vscode.l10n.t('{0} requests', sent.length);
  const statuses = failed
    .slice(0, 3)
    .map(({ entry: e, expected }) => {
      const got = e.status === undefined ? vscode.l10n.t('no reply') : statusLine(e.status, e.statusText);
      return expected === undefined ? got : vscode.l10n.t('{0}, not the {1} expected', got, statusLine(expected));
    })
    .join(', ');
  const parts = [
    failed.length === 0
      ? vscode.l10n.t('Sent {0} of {1} through {2}: every reply a success.', count, name, environment.name)
      : vscode.l10n.t('Sent {0} of {1} through {2}: {3} not a success ({4}).', count, name, environment.name, failed.length, statuses),
  ];
  if (cancelled) parts.push(vscode.l10n.t('Cancelled: {0} of the {1} were not sent.', usable.length - sent.length, usable.length));
  if (leftOut.length) parts.push(unusableText(leftOut));
  parts.push(vscode.l10n.t('Each reply is beside its request.'));
  const message = parts.join(' ');
  if (failed.length || cancelled || leftOut.length) void vscode.window.showWarningMessage(message);
  else void vscode.window.showInformationMessage(message);
  return result;
}
