// The request workbench's commands: show an exchange (from the history, the record view, or a
// pick of recent ones matching the request log's lines), clear the history, build a request
// from the service's endpoints and send it, and edit and resend any exchange.

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { resource } from '../../core/resources';
import { HistoryEntry, RequestDraft, draftFromExchange, draftOf, outcomeOf, pathAndQuery } from '../../core/workbench';
import type { Session } from '../account/session';
import { registerCommands } from '../shared/commands';
import { showError } from '../shared/showError';
import type { ExchangeViews } from './exchangeViews';
import type { ExchangeHistory } from './history';
import { draftProblems, promptDraft } from './requestForm';

/** An exchange named by a command's argument: `{ exchangeId }`, an Exchange, or a History row. */
function exchangeIdOf(arg: unknown): string | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as { exchangeId?: unknown; id?: unknown };
  if (typeof a.exchangeId === 'string') return a.exchangeId;
  if (typeof a.id === 'string' && 'url' in (arg as object)) return a.id;
  return undefined;
}

const OUTCOME_ICON = { ok: '$(pass)', retried: '$(history)', clientError: '$(warning)', failed: '$(error)' } as const;

export interface WorkbenchCommandDeps {
  readonly session: Session;
  readonly history: ExchangeHistory;
  readonly views: ExchangeViews;
}

export function registerWorkbenchCommands({ session, history, views }: WorkbenchCommandDeps): vscode.Disposable[] {
  /** The history entry an argument names; with no argument, a pick of the recent ones. */
  const entryFor = async (arg: unknown, title: string): Promise<HistoryEntry | undefined> => {
    const id = exchangeIdOf(arg);
    if (id !== undefined) {
      const entry = history.get(id);
      if (!entry) throw new HealthDataError('usage', vscode.l10n.t('That exchange is no longer in the history (it keeps the last {0}).', history.all().length));
      return entry;
    }
    if (arg !== undefined && arg !== null) throw new HealthDataError('usage', vscode.l10n.t('The argument must name an exchange: {0}.', '{ exchangeId }'));
    if (history.all().length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No requests yet: the history fills as the extension talks to the service.'));
      return undefined;
    }
    type Item = vscode.QuickPickItem & { entry: HistoryEntry };
    // Each row reads like the request log's line for it: method, path, status, time, request id.
    const items: Item[] = history.all().map((e) => ({
      label: `${OUTCOME_ICON[outcomeOf(e)]} ${e.method} ${pathAndQuery(e.url)}`,
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
          const signal = abort.signal;
          const text = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);
          const p = draft.params ?? {};
          try {
            switch (draft.endpoint) {
              case 'token':
                return await client.mintClientToken({ signal });
              case 'getLatest':
                return await client.getLatest(draft.kind!, { signal });
              case 'getById':
                return await client.getRecord(draft.kind!, draft.id!.trim(), { signal });
              case 'getByDate':
                return await client.getRecord(draft.kind!, draft.date!.trim(), { signal });
              case 'list':
                return await client.list(
                  draft.kind!,
                  {
                    startDate: text(p.start_date),
                    endDate: text(p.end_date),
                    source: text(p.source),
                    updatedSince: text(p.updated_since),
                    ...(text(p.limit) ? { limit: Number(p.limit) } : {}),
                    ...(text(p.offset) ? { offset: Number(p.offset) } : {}),
                    all: false,
                  },
                  { signal },
                );
            }
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
    // The exchange of the endpoint asked for (a token mint may have gone out first).
    const wanted = draft.endpoint === 'token' ? 'token' : draft.endpoint;
    const entry = [...made].reverse().find((e) => e.endpoint === wanted && (draft.endpoint === 'token' || e.resource === draft.kind));
    if (!entry) {
      if (failure) throw failure;
      throw new HealthDataError('network', vscode.l10n.t('The request left no exchange to show.'));
    }
    views.createOrShow(entry);
    if (failure) session.log.warn(`${entry.method} ${pathAndQuery(entry.url)}: ${entry.error?.message ?? String(failure)}`);
    return entry;
  };

  /** A draft given as an argument, checked as the form checks it. */
  const givenDraft = (value: unknown): RequestDraft => {
    const draft = draftOf(value);
    if (!draft) throw new HealthDataError('usage', vscode.l10n.t('The request names no endpoint of the service: give endpoint (token, list, getById, getByDate, getLatest) and kind.'));
    const problems = draftProblems(draft);
    if (problems.length) throw new HealthDataError('usage', problems[0].message);
    return draft;
  };

  type RequestArgs = { draft?: unknown; cancellation?: vscode.CancellationToken };
  const argsOf = (arg: unknown): RequestArgs => (arg && typeof arg === 'object' && !Array.isArray(arg) ? (arg as RequestArgs) : {});

  return registerCommands(
    {
      'healthData.showExchange': showExchange,
      'healthData.clearHistory': async (arg?: { confirm?: boolean }) => {
        if (history.all().length === 0) return true;
        if (arg?.confirm !== false) {
          const clear = vscode.l10n.t('Clear History');
          const answer = await vscode.window.showWarningMessage(history.all().length === 1 ? vscode.l10n.t('Clear the 1 request of this workspace\'s history?') : vscode.l10n.t('Clear the {0} requests of this workspace\'s history?', history.all().length), { modal: true }, clear);
          if (answer !== clear) return false;
        }
        await history.clear();
        return true;
      },
      'healthData.newRequest': async (arg?: unknown) => {
        const args = argsOf(arg);
        const draft = args.draft !== undefined ? givenDraft(args.draft) : await promptDraft();
        return draft ? send(draft, args.cancellation) : undefined;
      },
      'healthData.editAndResend': async (arg?: unknown) => {
        const args = argsOf(arg);
        if (args.draft !== undefined) return send(givenDraft(args.draft), args.cancellation);
        const entry = await entryFor(arg, vscode.l10n.t('Health Data: Edit and Resend'));
        if (!entry) return undefined;
        const draft = draftFromExchange(entry);
        if (!draft) throw new HealthDataError('usage', vscode.l10n.t('{0} is not one of the service\'s endpoints, so it cannot be sent from here.', pathAndQuery(entry.url)));
        const edited = await promptDraft(draft);
        return edited ? send(edited, args.cancellation) : undefined;
      },
    },
    (err) => showError(session, err),
  );
}
