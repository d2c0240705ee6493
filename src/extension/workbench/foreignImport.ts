// Import Saved Requests… of another tool's file: an `.http`/`.rest` file (REST Client, httpYac)
// or a Postman collection. Its requests are read as the service's (core/workbench/foreignRequests.ts)
// and checked as the New Request form checks them; those picked are sent once through the
// environment in use, each saved under its name with its reply, so that the History view shows
// at once what each one got and how its records validate. A request that is none of the
// service's is left out and said why.

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { cutText, inertText } from '../../core/views';
import { type ForeignFormat, type ForeignRequest, type HistoryEntry, MAX_SAVED_NAME, type RequestDraft, MAX_SAVED_REQUESTS, exchangeOfDraft, mergeSavedRequests, readForeignRequests, sendDraft, uncheckedText } from '../../core/workbench';
import { tokenCarriers } from '../account/environments';
import type { Session } from '../account/session';
import type { ExchangeHistory } from './history';
import { draftProblems } from './requestForm';

export interface ForeignImportResult {
  readonly uri: string;
  readonly format: ForeignFormat;
  /** The names the requests were saved under. */
  readonly added: string[];
  readonly renamed: ReadonlyArray<{ readonly from: string; readonly to: string }>;
  readonly alreadySaved: number;
  readonly overLimit: number;
  /** The file's requests that are none of the service's, and why. */
  readonly unusable: ReadonlyArray<{ readonly name: string; readonly problem: string }>;
  /** Whether Cancel stopped the sending (what was sent is saved). */
  readonly cancelled: boolean;
}

interface Usable extends ForeignRequest {
  readonly read: ForeignRequest['read'] & { readonly draft: NonNullable<ForeignRequest['read']['draft']>; readonly target: string };
}

/** A name Saved takes: no control characters or direction marks, at most MAX_SAVED_NAME. */
const savedNameOf = (name: string, fallback: string): string => cutText(inertText(name, ' ').replace(/\s+/g, ' ').trim() || fallback, MAX_SAVED_NAME);

export async function importForeignRequests(
  session: Session,
  history: ExchangeHistory,
  file: { readonly uri: vscode.Uri; readonly name: string; readonly text: string; readonly format: ForeignFormat; readonly pick: boolean },
): Promise<ForeignImportResult | undefined> {
  const { params, headers } = tokenCarriers();
  let all: ForeignRequest[];
  try {
    all = readForeignRequests(file.format, file.text, params, headers);
  } catch (err) {
    throw new HealthDataError('usage', `${file.name}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const usable: Usable[] = [];
  const unusable: { name: string; problem: string }[] = [];
  for (const request of all) {
    const problem = request.read.problem ?? (request.read.draft ? draftProblems(request.read.draft)[0]?.message : undefined);
    if (problem || !request.read.draft) unusable.push({ name: request.name, problem: problem ?? '' });
    else usable.push(request as Usable);
  }
  const base = { uri: file.uri.toString(), format: file.format, renamed: [], alreadySaved: 0, overLimit: 0, unusable, cancelled: false };
  if (usable.length === 0) {
    const message = all.length === 0 ? vscode.l10n.t('{0} holds no request: nothing was imported.', file.name) : `${vscode.l10n.t('{0} holds no request the service serves: nothing was imported.', file.name)} ${unusableText(unusable)}`;
    void vscode.window.showWarningMessage(message);
    return { ...base, added: [] };
  }
  const { client, environment } = await session.connection();
  let chosen: readonly Usable[] = usable;
  if (file.pick) {
    type Item = vscode.QuickPickItem & { request: Usable };
    const items: Item[] = usable.map((request) => ({
      label: request.name,
      description: request.read.target,
      detail: [...request.read.notes, uncheckedText(request)].filter(Boolean).join(' ') || undefined,
      picked: true,
      request,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      title: unusable.length
        ? vscode.l10n.t('Import from {0} ({1} not requests of the service, left out)', file.name, unusable.length)
        : vscode.l10n.t('Import from {0}', file.name),
      placeHolder: vscode.l10n.t('Each one picked is sent once through {0}, then saved', environment.name),
      canPickMany: true,
      matchOnDescription: true,
      ignoreFocusOut: true,
    });
    if (!picked || picked.length === 0) return undefined;
    chosen = picked.map((item) => item.request);
  }
  const added: string[] = [];
  const renamed: { from: string; to: string }[] = [];
  let alreadySaved = 0;
  let overLimit = 0;
  // A refusal or a failure is an exchange too: it is saved with what it got.
  const cancelled = await sendInTurn(session, client, chosen.map((r) => ({ request: r, draft: r.read.draft, target: r.read.target })), vscode.l10n.t('Importing from {0}', file.name), ({ request }, entry) => {
    if (!entry) return;
    const name = savedNameOf(request.name, request.read.target);
    // Saved's rules, as an import of saved requests keeps them: a name taken gets `name (2)`.
    const merge = mergeSavedRequests(history.all(), [{ ...entry, savedAs: name }], { newId: () => entry.id, max: MAX_SAVED_REQUESTS });
    alreadySaved += merge.alreadySaved;
    overLimit += merge.overLimit;
    const saved = merge.added[0];
    if (!saved) return;
    history.saveRequest(entry.id, saved.savedAs!);
    // An httpYac `?? status == 404` is the saved request's expected status, as Set Expected Status… sets it.
    if (request.expectStatus !== undefined) history.setExpectedStatus(entry.id, request.expectStatus);
    added.push(saved.savedAs!);
    renamed.push(...merge.renamed);
  });
  const result: ForeignImportResult = { ...base, added, renamed, alreadySaved, overLimit, cancelled };
  const message = foreignMessage(file.name, environment.name, result, chosen.length);
  if (added.length === 0 || unusable.length || cancelled) void vscode.window.showWarningMessage(message);
  else void vscode.window.showInformationMessage(message);
  return result;
}

/**
 * Sends each draft in turn through `client`, under a notification with progress and Cancel;
 * `each` gets the exchange a send made (undefined when it made none), also for a refusal or a
 * failure. A draft not yet sent when Cancel is pressed is not sent. True when cancelled.
 */
export async function sendInTurn<T extends { readonly draft: RequestDraft; readonly target: string }>(
  session: Session,
  client: Awaited<ReturnType<Session['connection']>>['client'],
  drafts: readonly T[],
  title: string,
  each: (sent: T, entry: HistoryEntry | undefined) => void,
): Promise<boolean> {
  let cancelled = false;
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const abort = new AbortController();
    const listener = token.onCancellationRequested(() => abort.abort());
    try {
      for (const [i, item] of drafts.entries()) {
        if (abort.signal.aborted) break;
        progress.report({ message: vscode.l10n.t('{0} of {1}: {2}', i + 1, drafts.length, item.target), increment: 100 / drafts.length });
        const made: HistoryEntry[] = [];
        const listening = session.onDidExchange((e) => made.push(e));
        try {
          await sendDraft(client, item.draft, abort.signal);
        } catch {
          // The exchange says how it ended.
        } finally {
          listening.dispose();
        }
        if (abort.signal.aborted) break;
        each(item, exchangeOfDraft(made, item.draft));
      }
    } finally {
      cancelled = abort.signal.aborted;
      listener.dispose();
    }
  });
  return cancelled;
}

/** A request of the service in an `.http` file, as its code lenses offer it (httpLens.ts). */
export interface LensRequest {
  /** The line (from 0) of its method line. */
  readonly line: number;
  readonly name: string;
  readonly draft: RequestDraft;
  /** `GET /v1/…?limit=3`. */
  readonly target: string;
  /** What the form would refuse it for (a limit of 5000), when anything. */
  readonly problem?: string;
  /** What the request has that is not sent (its token, other headers) or not checked (httpYac assertions but `?? status == N`). */
  readonly notes: readonly string[];
  /** The status its `?? status == N` expects. */
  readonly expectStatus?: number;
}

/**
 * The requests of an `.http`/`.rest` file that are the service's, read as Import Saved Requests…
 * reads them (the file's variables put in, its token and other headers left out), with the line
 * each starts on. Requests to other services are not listed: a file may hold those too.
 */
export function httpFileLensRequests(text: string): LensRequest[] {
  const { params, headers } = tokenCarriers();
  const out: LensRequest[] = [];
  for (const request of readForeignRequests('http', text, params, headers)) {
    const { draft, target, notes } = request.read;
    if (!draft || target === undefined || request.line === undefined) continue;
    const problem = draftProblems(draft)[0]?.message;
    const unchecked = uncheckedText(request);
    out.push({
      line: request.line,
      name: request.name,
      draft,
      target,
      notes: unchecked ? [...notes, unchecked] : notes,
      ...(problem !== undefined ? { problem } : {}),
      ...(request.expectStatus !== undefined ? { expectStatus: request.expectStatus } : {}),
    });
  }
  return out;
}

/** The requests left out and why: the first three by name, then how many more. */
export function unusableText(unusable: ReadonlyArray<{ name: string; problem: string }>): string {
  const shown = unusable.slice(0, 3).map((u) => vscode.l10n.t('"{0}": {1}', cutText(u.name, 60), u.problem));
  const more = unusable.length > 3 ? vscode.l10n.t(' and {0} more', unusable.length - 3) : '';
  return unusable.length === 1 ? vscode.l10n.t('Left out: {0}', shown[0]) : vscode.l10n.t('{0} left out: {1}{2}', unusable.length, shown.join(' '), more);
}

function foreignMessage(file: string, environment: string, r: ForeignImportResult, chosen: number): string {
  const parts: string[] = [];
  if (r.added.length === 0) parts.push(vscode.l10n.t('Nothing imported from {0}.', file));
  else if (r.added.length === 1) parts.push(vscode.l10n.t('Imported 1 request from {0} under Saved, sent once through {1}.', file, environment));
  else parts.push(vscode.l10n.t('Imported {0} requests from {1} under Saved, each sent once through {2}.', r.added.length, file, environment));
  if (r.cancelled) parts.push(vscode.l10n.t('Cancelled: {0} of the {1} picked were not sent.', chosen - r.added.length - r.alreadySaved - r.overLimit, chosen));
  parts.push(...mergeSentences(r));
  if (r.unusable.length) parts.push(unusableText(r.unusable));
  return parts.join(' ');
}

/** What joining requests to Saved did besides adding them, in sentences: renamed, already there, over Saved's limit. */
export function mergeSentences(r: Pick<ForeignImportResult, 'renamed' | 'alreadySaved' | 'overLimit'>): string[] {
  const parts: string[] = [];
  if (r.renamed.length) {
    const list = r.renamed.slice(0, 3).map((x) => vscode.l10n.t('"{0}" as "{1}"', x.from, x.to)).join(', ');
    parts.push(vscode.l10n.t('Names already taken, so saved under another: {0}{1}.', list, r.renamed.length > 3 ? vscode.l10n.t(' and {0} more', r.renamed.length - 3) : ''));
  }
  if (r.alreadySaved) parts.push(r.alreadySaved === 1 ? vscode.l10n.t('1 was already saved here.') : vscode.l10n.t('{0} were already saved here.', r.alreadySaved));
  if (r.overLimit) parts.push(vscode.l10n.t('{0} left out: Saved holds at most {1} requests; remove some first.', r.overLimit, MAX_SAVED_REQUESTS));
  return parts;
}
