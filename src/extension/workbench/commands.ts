// The request workbench's commands: show an exchange (from the history, the record view, or a
// pick of recent ones matching the request log's lines), clear the history, build a request
// from the service's endpoints and send it, edit and resend any exchange, and save one by name
// (rename it, remove it from Saved), run the saved ones as checks, and take them to a file and back.

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { resource } from '../../core/resources';
import { statusLine } from '../../core/service';
import { cutText, inertText } from '../../core/views';
import { HistoryEntry, MAX_SAVED_NAME, QUERY_PARAMS, RequestDraft, choiceOf, draftFromExchange, draftFromUrl, draftOf, exchangeOfDraft, outcomeOf, pathAndQuery, requestLine, sendDraft } from '../../core/workbench';
import type { Session } from '../account/session';
import { registerCommands } from '../shared/commands';
import { showError } from '../shared/showError';
import type { ExchangeViews } from './exchangeViews';
import { type ExchangeHistory, savedNameProblem } from './history';
import { draftProblems, promptDraft, readPasted } from './requestForm';
import { exportSavedRequests, importSavedRequests } from './savedFileCommands';
import { runSavedRequests } from './runSavedCommand';
import { sendHttpFile } from './httpFileSend';
import { setExpectedStatus, setFailOn, setTimeLimit } from './expectedStatus';
import { EXCHANGE_MESSAGE } from './savedTests';

export { httpFileLensRequests } from './foreignImport';

/**
 * An exchange named by a command's argument: `{ exchangeId }`, an Exchange, a History row, a
 * saved request's item in the Testing view (its id is the saved exchange's), or a failure's
 * message there (the run's exchange).
 */
function exchangeIdOf(arg: unknown): string | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as { exchangeId?: unknown; id?: unknown };
  if (typeof a.exchangeId === 'string') return a.exchangeId;
  if (typeof a.id === 'string' && 'url' in (arg as object)) return a.id;
  if (typeof a.id === 'string' && 'canResolveChildren' in (arg as object)) return a.id;
  // A failure's message in the Testing view: `{ test, message }`, the run's exchange in the message's contextValue.
  const context = (arg as { message?: { contextValue?: unknown } }).message?.contextValue;
  if (typeof context === 'string' && context.startsWith(EXCHANGE_MESSAGE)) return context.slice(EXCHANGE_MESSAGE.length);
  return undefined;
}

const OUTCOME_ICON = { ok: '$(pass)', retried: '$(history)', clientError: '$(warning)', failed: '$(error)' } as const;

export interface WorkbenchCommandDeps {
  readonly session: Session;
  readonly history: ExchangeHistory;
  readonly views: ExchangeViews;
}

export function registerWorkbenchCommands({ session, history, views }: WorkbenchCommandDeps): vscode.Disposable[] {
  /** The history entry an argument names; with no argument, a pick of the recent ones (or of `among`, the saved ones). */
  const entryFor = async (arg: unknown, title: string, among?: readonly HistoryEntry[]): Promise<HistoryEntry | undefined> => {
    const id = exchangeIdOf(arg);
    if (id !== undefined) {
      const entry = history.get(id);
      if (!entry) throw new HealthDataError('usage', vscode.l10n.t('That exchange is no longer in the history (it keeps the last {0}).', history.all().length));
      return entry;
    }
    if (arg !== undefined && arg !== null) throw new HealthDataError('usage', vscode.l10n.t('The argument must name an exchange: {0}.', '{ exchangeId }'));
    const entries = among ?? history.all();
    if (entries.length === 0) {
      void vscode.window.showInformationMessage(
        among ? vscode.l10n.t('No saved requests yet: Save Request… on a request of the History view keeps it by a name.') : vscode.l10n.t('No requests yet: the history fills as the extension talks to the service.'),
      );
      return undefined;
    }
    type Item = vscode.QuickPickItem & { entry: HistoryEntry };
    // Each row reads like the request log's line for it: method, path, status, time, request id.
    const items: Item[] = entries.map((e) => ({
      label: `${OUTCOME_ICON[outcomeOf(e)]} ${e.savedAs !== undefined ? `${e.savedAs} · ` : ''}${requestLine(e)}`,
      description: `${e.status ?? vscode.l10n.t('failed')} · ${e.durationMs} ms${e.attempts.length > 1 ? ` · ${vscode.l10n.t('{0} attempts', e.attempts.length)}` : ''}`,
      detail: [new Date(e.startedAt).toLocaleString(vscode.env.language), e.requestId ? vscode.l10n.t('request id {0}', e.requestId) : '', e.environment ?? ''].filter(Boolean).join(' · '),
      entry: e,
    }));
    const pick = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Type a path, a status or a request id from the log'), matchOnDescription: true, matchOnDetail: true });
    return pick?.entry;
  };

  const showExchange = async (arg?: unknown): Promise<string | undefined> => {
    const entry = await entryFor(arg, vscode.l10n.t('Health Data: Show Exchange'));
    if (!entry) return undefined;
    views.createOrShow(entry);
    return entry.id;
  };

  /**
   * Sends a draft through the session's client (which adds the token) and opens the exchange it
   * made, whatever the reply: a 404 or a 500 is what the user came to see.
   */
  const send = async (draft: RequestDraft, cancellation?: vscode.CancellationToken): Promise<HistoryEntry | undefined> => {
    const { client } = await session.connection();
    const made: HistoryEntry[] = [];
    const listening = session.onDidExchange((e) => made.push(e));
    const abort = new AbortController();
    let failure: unknown;
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Sending {0}…', draft.endpoint === 'token' ? vscode.l10n.t('a token request') : resource(draft.kind!).label.toLowerCase()), cancellable: true },
        async (_progress, token) => {
          const listeners = [token, cancellation].map((t) => t?.onCancellationRequested(() => abort.abort()));
          if (cancellation?.isCancellationRequested) abort.abort();
          try {
            return await sendDraft(client, draft, abort.signal);
          } catch (err) {
            failure = err;
            return undefined;
          } finally {
            for (const l of listeners) l?.dispose();
          }
        },
      );
    } finally {
      listening.dispose();
    }
    if (abort.signal.aborted) return undefined;
    const entry = exchangeOfDraft(made, draft);
    if (!entry) {
      if (failure) throw failure;
      throw new HealthDataError('network', vscode.l10n.t('The request left no exchange to show.'));
    }
    views.createOrShow(entry);
    if (failure) session.log.warn(`${requestLine(entry)}: ${entry.error?.message ?? String(failure)}`);
    return entry;
  };

  /** A draft given as an argument: one of the service's endpoints. */
  const namedDraft = (value: unknown): RequestDraft => {
    const draft = draftOf(value);
    if (!draft) throw new HealthDataError('usage', vscode.l10n.t('The request names no endpoint of the service: give endpoint (token, list, getById, getByDate, getLatest) and kind.'));
    return draft;
  };
  /** A draft given as an argument, checked as the form checks it. */
  const givenDraft = (value: unknown): RequestDraft => {
    const draft = namedDraft(value);
    const problems = draftProblems(draft);
    if (problems.length) throw new HealthDataError('usage', problems[0].message);
    return draft;
  };

  /**
   * Saves (or renames) the exchange an argument names under the name given, or one asked for (what
   * the request asks, or the present name, offered). False when dismissed; a name or an exchange
   * that will not do throws the sentence that says why (the command shows it).
   */
  const saveUnder = async (arg: unknown, title: string, renaming: boolean): Promise<boolean> => {
    const given = savedArg(arg);
    const entry = await entryFor(given.exchange, title, renaming ? history.saved() : undefined);
    if (!entry) return false;
    if (renaming && entry.savedAs === undefined) throw new HealthDataError('usage', vscode.l10n.t('{0} is not a saved request: save it first.', requestLine(entry)));
    let name = given.name;
    if (name === undefined) {
      name = await vscode.window.showInputBox({
        title,
        prompt: vscode.l10n.t('A name for {0}, shown under Saved in the History view', requestLine(entry)),
        value: entry.savedAs ?? defaultSavedName(entry),
        validateInput: (v) => savedNameProblem(v, history.all(), entry.id),
      });
      if (name === undefined) return false;
    }
    let saved: HistoryEntry;
    try {
      saved = history.saveRequest(entry.id, name);
    } catch (err) {
      throw new HealthDataError('usage', vscode.l10n.t('Not saved: {0}', err instanceof Error ? err.message : String(err)));
    }
    const status = saved.status;
    if (!renaming && saved.expectStatus === undefined && status !== undefined && (status < 200 || status >= 300)) {
      // A refusal saved on purpose (an id that is not there) is a check only when a run expects it.
      const expect = vscode.l10n.t('Expect {0}', status);
      void Promise.resolve(
        vscode.window.showInformationMessage(vscode.l10n.t('Saved "{0}". A run expects a 2xx of it, and it got {1}.', saved.savedAs!, statusLine(status, saved.statusText)), expect),
      ).then((answer) => {
        if (answer === expect && history.get(saved.id)?.savedAs !== undefined) history.setExpectedStatus(saved.id, status);
      });
    }
    return true;
  };

  type RequestArgs = { draft?: unknown; curl?: unknown; edit?: unknown; notes?: unknown; cancellation?: vscode.CancellationToken };
  const argsOf = (arg: unknown): RequestArgs => (arg && typeof arg === 'object' && !Array.isArray(arg) ? (arg as RequestArgs) : {});

  return registerCommands(
    {
      'healthData.showExchange': showExchange,
      'healthData.clearHistory': async (arg?: { confirm?: boolean }) => {
        const saved = history.saved().length;
        const count = history.all().length - saved;
        if (count === 0) return true;
        if (arg?.confirm !== false) {
          const clear = vscode.l10n.t('Clear History');
          const question = count === 1 ? vscode.l10n.t('Clear the 1 request of this workspace\'s history?') : vscode.l10n.t('Clear the {0} requests of this workspace\'s history?', count);
          const kept = saved === 0 ? undefined : saved === 1 ? vscode.l10n.t('The saved request is kept.') : vscode.l10n.t('The {0} saved requests are kept.', saved);
          const answer = await vscode.window.showWarningMessage(question, { modal: true, detail: kept }, clear);
          if (answer !== clear) return false;
        }
        await history.clear();
        return true;
      },
      'healthData.saveRequest': (arg?: unknown) => saveUnder(arg, vscode.l10n.t('Health Data: Save Request'), false),
      'healthData.renameSavedRequest': (arg?: unknown) => saveUnder(arg, vscode.l10n.t('Health Data: Rename Saved Request'), true),
      'healthData.removeSavedRequest': async (arg?: unknown) => {
        const entry = await entryFor(savedArg(arg).exchange, vscode.l10n.t('Health Data: Remove from Saved'), history.saved());
        if (!entry) return false;
        if (entry.savedAs === undefined) return true;
        history.removeSaved(entry.id);
        return true;
      },
      'healthData.setExpectedStatus': async (arg?: unknown) => {
        const title = vscode.l10n.t('Health Data: Set Expected Status');
        const entry = await entryFor(savedArg(arg).exchange, title, history.saved());
        return entry ? setExpectedStatus(history, entry, arg, title) : undefined;
      },
      'healthData.setTimeLimit': async (arg?: unknown) => {
        const title = vscode.l10n.t('Health Data: Set Time Limit');
        const entry = await entryFor(savedArg(arg).exchange, title, history.saved());
        return entry ? setTimeLimit(history, entry, arg, title) : undefined;
      },
      'healthData.setFailOn': async (arg?: unknown) => {
        const title = vscode.l10n.t('Health Data: Set Findings That Fail');
        const entry = await entryFor(savedArg(arg).exchange, title, history.saved());
        return entry ? setFailOn(history, entry, arg, title) : undefined;
      },
      'healthData.exportSavedRequests': (arg?: unknown) => exportSavedRequests(session, history, arg),
      'healthData.importSavedRequests': (arg?: unknown) => importSavedRequests(session, history, arg),
      'healthData.runSavedRequests': (arg?: unknown) => runSavedRequests(session, history, views, arg),
      'healthData.runSavedRequest': async (arg?: unknown) => {
        const exchangeId = exchangeIdOf(arg);
        const entry = await entryFor(exchangeId !== undefined ? { exchangeId } : arg, vscode.l10n.t('Health Data: Run Saved Request'), history.saved());
        if (!entry) return undefined;
        // Its showResults and cancellation pass on; the request is this one alone.
        const { showResults, cancellation } = (arg && typeof arg === 'object' ? arg : {}) as Record<string, unknown>;
        return runSavedRequests(session, history, views, { exchangeId: entry.id, showResults, cancellation });
      },
      'healthData.newRequest': async (arg?: unknown) => {
        const args = argsOf(arg);
        if (args.draft !== undefined && args.edit === true) {
          // The form, filled in from the draft (a code lens of an .http file): what it did not keep said above its fields.
          const draft = namedDraft(args.draft);
          const notes = Array.isArray(args.notes) ? args.notes.filter((n): n is string => typeof n === 'string') : [];
          const edited = await promptDraft(draft, notes, session.active);
          return edited ? send(edited, args.cancellation) : undefined;
        }
        if (args.draft !== undefined) return send(givenDraft(args.draft), args.cancellation);
        const active = session.active;
        if (args.curl !== undefined) {
          // A cURL command, a URL or a request line: the form, filled in from it.
          if (typeof args.curl !== 'string') throw new HealthDataError('usage', vscode.l10n.t('curl must be the text of a cURL command, a URL or a request line.'));
          const read = readPasted(args.curl, active);
          if (!read.draft) throw new HealthDataError('usage', read.problem ?? '');
          const draft = await promptDraft(read.draft, read.notes, active);
          return draft ? send(draft, args.cancellation) : undefined;
        }
        const draft = await promptDraft(undefined, [], active);
        return draft ? send(draft, args.cancellation) : undefined;
      },
      'healthData.sendAgain': async (arg?: unknown) => {
        const entry = await entryFor(arg, vscode.l10n.t('Health Data: Send Again'));
        if (!entry) return undefined;
        // As it was sent, through the environment in use; checked as the form would check it.
        const { draft, leftOut } = draftToResend(entry);
        const sent = await send(givenDraft(draft), argsOf(arg).cancellation);
        if (sent && leftOut.length) void vscode.window.showWarningMessage(vscode.l10n.t('Sent again without {0}, which {1} does not take.', leftOut.join(', '), endpointLine(draft)));
        return sent;
      },
      'healthData.sendHttpFile': (arg?: unknown) => sendHttpFile(session, arg),
      'healthData.editAndResend': async (arg?: unknown) => {
        const args = argsOf(arg);
        if (args.draft !== undefined) return send(givenDraft(args.draft), args.cancellation);
        const entry = await entryFor(arg, vscode.l10n.t('Health Data: Edit and Resend'));
        if (!entry) return undefined;
        const { draft, leftOut } = draftToResend(entry);
        const notes = leftOut.length ? [vscode.l10n.t('Left out: {0}, which the endpoint does not take.', leftOut.join(', '))] : [];
        const edited = await promptDraft(draft, notes, session.active);
        return edited ? send(edited, args.cancellation) : undefined;
      },
    },
    (err) => showError(session, err),
  );
}

/**
 * The request an exchange made, as a draft to send again, and the query parameters it cannot
 * carry; throws when it is none of the service's endpoints.
 */
function draftToResend(entry: HistoryEntry): { draft: RequestDraft; leftOut: readonly string[] } {
  const { draft, leftOut } = draftFromUrl(entry.method, entry.url);
  if (!draft) throw new HealthDataError('usage', vscode.l10n.t('{0} is not one of the service\'s endpoints, so it cannot be sent from here.', pathAndQuery(entry.url)));
  return { draft, leftOut };
}

/** `GET /v1/human/activities/summaries`: the endpoint a draft sends to. */
function endpointLine(draft: RequestDraft): string {
  const choice = choiceOf(draft);
  return choice ? `${choice.method} ${choice.path}` : '';
}

/**
 * A save command's argument: `{ exchangeId, name? }` or a History row (which carries exchangeId);
 * `exchange` is what names the exchange (undefined: ask), `name` the name given, if any.
 */
function savedArg(arg: unknown): { exchange: unknown; name?: string } {
  if (!arg || typeof arg !== 'object' || Array.isArray(arg)) return { exchange: arg };
  const { name } = arg as { name?: unknown };
  if (name !== undefined && typeof name !== 'string') throw new HealthDataError('usage', vscode.l10n.t('The name must be a string.'));
  return { exchange: arg, name };
}

/**
 * The name a request is offered to be saved under, from what it asks: `Activity summaries,
 * 2026-11-01 – 2026-11-20, limit 3`, `Heart rate summaries 2026-11-20`, `Token mint`; another
 * request by its method and path. Control characters and direction marks become spaces (inertText);
 * cut to MAX_SAVED_NAME.
 */
export function defaultSavedName(entry: HistoryEntry): string {
  const draft = draftFromExchange(entry);
  let name = requestLine(entry);
  if (draft?.endpoint === 'token') name = vscode.l10n.t('Token mint');
  else if (draft?.kind !== undefined) {
    const label = resource(draft.kind).label;
    if (draft.endpoint === 'getLatest') name = vscode.l10n.t('{0}: the latest', label);
    else if (draft.endpoint === 'getById') name = `${label} ${draft.id ?? ''}`;
    else if (draft.endpoint === 'getByDate') name = `${label} ${draft.date ?? ''}`;
    else {
      const p = draft.params ?? {};
      const parts: string[] = [];
      if (p.start_date || p.end_date) parts.push(`${p.start_date ?? '…'} – ${p.end_date ?? '…'}`);
      for (const key of QUERY_PARAMS) if (key !== 'start_date' && key !== 'end_date' && p[key]) parts.push(`${key} ${p[key]}`);
      name = [label, ...parts].join(', ');
    }
  }
  return cutText(inertText(name, ' ').trim(), MAX_SAVED_NAME);
}

// The Testing view's runs (savedTests.ts requires them from this bundle on the first run).
export { runSavedTests } from './savedTestRun';
export { runHttpFileTests } from './httpFileTestRun';
export { HttpFileList } from './httpFileList';
