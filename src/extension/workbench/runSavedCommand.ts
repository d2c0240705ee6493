// Health Data: Run Saved Requests: every saved request (or those given) sent again through the
// environment in use (or the one named), one after another, with progress and Cancel; each judged as `health-data
// run` judges it (core/workbench/runSaved.ts): PASS for a 2xx whose records break no schema rule,
// FAIL and why. The results are listed in a pick list whose rows open their exchanges.

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { HistoryEntry, SavedRunResult, outLine, runSavedRequest, savedNamed, sendDraft } from '../../core/workbench';
import type { HealthDataClient } from '../../core/service';
import type { Session } from '../account/session';
import type { ExchangeViews } from './exchangeViews';
import type { ExchangeHistory } from './history';

export interface RunSavedOptions {
  /** Names of saved requests to run (any case); default every saved request. */
  readonly names?: readonly string[];
  /** The saved request to run alone (a History row's). */
  readonly exchangeId?: string;
  /** False: no pick list of the results at the end (scripts and tests). */
  readonly showResults?: boolean;
  /** The environment to run against (by name); default the environment in use. */
  readonly environment?: string;
  readonly cancellation?: vscode.CancellationToken;
}

function optionsOf(arg: unknown): RunSavedOptions {
  if (arg === undefined || arg === null) return {};
  if (typeof arg !== 'object' || Array.isArray(arg)) throw new HealthDataError('usage', vscode.l10n.t('The argument must be {0}.', '{ names, showResults }'));
  const { names, showResults, cancellation, exchangeId, environment } = arg as Record<string, unknown>;
  if (environment !== undefined && (typeof environment !== 'string' || environment.trim() === '')) {
    throw new HealthDataError('usage', vscode.l10n.t('environment must be the name of an environment.'));
  }
  // A click on the Saved group hands its tree node: no option in it. A saved request's row (Run
  // Saved Request) hands its exchangeId: that request alone.
  if (names !== undefined && (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))) {
    throw new HealthDataError('usage', vscode.l10n.t('names must be a list of saved requests\' names.'));
  }
  return {
    ...(names ? { names: names as string[] } : typeof exchangeId === 'string' ? { exchangeId } : {}),
    ...(typeof showResults === 'boolean' ? { showResults } : {}),
    ...(typeof environment === 'string' ? { environment } : {}),
    ...(cancellation ? { cancellation: cancellation as vscode.CancellationToken } : {}),
  };
}

export async function runSavedRequests(session: Session, history: ExchangeHistory, views: ExchangeViews, arg?: unknown): Promise<SavedRunResult[] | undefined> {
  const options = optionsOf(arg);
  let requests = history.savedByName();
  if (requests.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No saved requests to run: Save Request… on a request of the History view keeps it by a name.'));
    return undefined;
  }
  if (options.names) {
    const named = savedNamed(requests, options.names);
    if (named.missing !== undefined) throw new HealthDataError('usage', vscode.l10n.t('No saved request is named "{0}".', named.missing));
    requests = named.requests;
  }
  if (options.exchangeId !== undefined) {
    const entry = history.get(options.exchangeId);
    if (!entry || entry.savedAs === undefined) throw new HealthDataError('usage', vscode.l10n.t('That saved request is no longer in the history.'));
    requests = [entry];
  }
  // Another environment's client is made for this run alone, and disposed after it.
  const connection = await session.connectionTo(options.environment);
  const { client, environment } = connection;
  const results: SavedRunResult[] = [];
  let cancelled = false;
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Running saved requests against {0}', environment.name), cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const listeners = [token, options.cancellation].map((t) => t?.onCancellationRequested(() => abort.abort()));
        if (options.cancellation?.isCancellationRequested) abort.abort();
        try {
          await runEach(session, client, requests, abort.signal, {
            starting: (entry, i) => progress.report({ message: vscode.l10n.t('{0} of {1}: {2}', i + 1, requests.length, entry.savedAs!), increment: 100 / requests.length }),
            done: (_entry, result) => results.push(result),
          });
        } finally {
          cancelled = abort.signal.aborted;
          for (const l of listeners) l?.dispose();
        }
      },
    );
  } finally {
    if (connection.owned) client.dispose();
  }
  const failed = results.filter((r) => r.verdict === 'failed').length;
  const summary = cancelled
    ? vscode.l10n.t('Cancelled after {0} of {1} saved requests: {2} passed, {3} failed.', results.length, requests.length, results.length - failed, failed)
    : failed === 0
      ? results.length === 1
        ? vscode.l10n.t('The saved request passed against {0}.', environment.name)
        : vscode.l10n.t('All {0} saved requests passed against {1}.', results.length, environment.name)
      : results.length === 1
        ? vscode.l10n.t('The saved request failed against {0}.', environment.name)
        : vscode.l10n.t('{0} of {1} saved requests failed against {2}.', failed, results.length, environment.name);
  if (options.showResults === false) {
    void (failed ? vscode.window.showWarningMessage(summary) : vscode.window.showInformationMessage(summary));
    return results;
  }
  const show = vscode.l10n.t('Show Results');
  const answer = await (failed ? vscode.window.showWarningMessage(summary, show) : vscode.window.showInformationMessage(summary, show));
  if (answer === show) await pickResult(results, summary, history, views);
  return results;
}

/**
 * Sends each saved request in turn through `client` and judges it (runSavedRequest), with a line
 * in the log for each; stops at the first request after `signal` aborts.
 */
export async function runEach(
  session: Session,
  client: HealthDataClient,
  requests: readonly HistoryEntry[],
  signal: AbortSignal,
  on: { readonly starting?: (entry: HistoryEntry, index: number) => void; readonly done: (entry: HistoryEntry, result: SavedRunResult) => void },
): Promise<void> {
  const made: HistoryEntry[] = [];
  const listening = session.onDidExchange((e) => made.push(e));
  try {
    for (const [i, entry] of requests.entries()) {
      if (signal.aborted) break;
      on.starting?.(entry, i);
      const result = await runSavedRequest(entry, { send: (draft, s) => sendDraft(client, draft, s), takeExchanges: () => made.splice(0), signal });
      if (signal.aborted) break;
      session.log.info(`run "${result.name}": ${result.verdict === 'passed' ? 'PASS' : 'FAIL'} ${result.method} ${result.path}${result.problem ? ` · ${result.problem}` : ''}`);
      on.done(entry, result);
    }
  } finally {
    listening.dispose();
  }
}

/** The results as a pick list: PASS or FAIL, the facts, why it failed; a row opens its exchange. */
async function pickResult(results: readonly SavedRunResult[], title: string, history: ExchangeHistory, views: ExchangeViews): Promise<void> {
  type Item = vscode.QuickPickItem & { exchangeId?: string };
  const items: Item[] = results.map((r) => ({
    label: `${r.verdict === 'passed' ? '$(pass)' : '$(error)'} ${r.name}`,
    description: `${r.method} ${r.path}`,
    detail: [r.verdict === 'passed' ? vscode.l10n.t('Passed') : vscode.l10n.t('Failed'), outLine(r), r.problem].filter(Boolean).join(' · '),
    ...(r.exchangeId ? { exchangeId: r.exchangeId } : {}),
  }));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Pick a request to open its exchange'), matchOnDescription: true, matchOnDetail: true });
  const entry = picked?.exchangeId ? history.get(picked.exchangeId) : undefined;
  if (entry) views.createOrShow(entry);
}
