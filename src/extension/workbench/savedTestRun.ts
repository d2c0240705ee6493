// A run of the Testing view's saved requests (savedTests.ts): the items asked for (or all of
// them) sent one after another through the environment in use, each judged as Run Saved Requests
// judges it, each verdict reported to its item with its time; a failure's message says why, a
// status that is not the one expected as a diff of the two. The run's output has a line per
// request, as `health-data run` prints it. Cancel in the Testing view stops it; what was not
// run is reported skipped.

import * as vscode from 'vscode';
import { statusLine } from '../../core/service';
import { type HistoryEntry, type SavedRunResult, resultLines } from '../../core/workbench';
import type { Session } from '../account/session';
import type { ExchangeHistory } from './history';
import { runEach } from './runSavedCommand';
import { EXCHANGE_MESSAGE } from './savedTests';

/** The items a request names (every item when it names none), less those it leaves out, in the view's order. */
function itemsOf(controller: vscode.TestController, request: vscode.TestRunRequest): vscode.TestItem[] {
  const all: vscode.TestItem[] = [];
  controller.items.forEach((item) => all.push(item));
  const chosen = request.include ? [...request.include] : all;
  const excluded = new Set((request.exclude ?? []).map((i) => i.id));
  return chosen.filter((i) => !excluded.has(i.id)).sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label));
}


/**
 * Why a request failed, as the Testing view shows it: a diff of the statuses when the status was
 * not the one expected. The message carries the run's exchange (`contextValue`), so that its
 * context menu's Show Exchange opens what the service answered.
 */
function messageOf(r: SavedRunResult): vscode.TestMessage {
  const problem = r.problem ?? vscode.l10n.t('Failed');
  let message: vscode.TestMessage;
  if (r.failure === 'status' && r.status !== undefined) {
    const expected = r.expectedStatus !== undefined ? statusLine(r.expectedStatus) : vscode.l10n.t('a 2xx');
    message = vscode.TestMessage.diff(problem, expected, statusLine(r.status, r.statusText));
  } else if (r.failure === 'time' && r.timeLimitMs !== undefined && r.firstByteMs !== undefined) {
    message = vscode.TestMessage.diff(problem, vscode.l10n.t('first byte ≤ {0} ms', r.timeLimitMs), vscode.l10n.t('first byte after {0} ms', r.firstByteMs));
  } else {
    message = new vscode.TestMessage(problem);
  }
  if (r.exchangeId !== undefined) message.contextValue = `${EXCHANGE_MESSAGE}${r.exchangeId}`;
  return message;
}

/** An item a run was asked for: the request it sends (a saved one, or one of an `.http` file), or why it cannot be sent (none: skipped). */
export interface TestCase {
  readonly item: vscode.TestItem;
  readonly entry?: HistoryEntry;
  readonly problem?: string;
}

/**
 * Runs the items a request names against `environment` (a profile's: "Run against Staging"), or
 * against the environment in use when it names none.
 */
export async function runSavedTests(
  session: Session,
  history: ExchangeHistory,
  controller: vscode.TestController,
  request: vscode.TestRunRequest,
  token: vscode.CancellationToken,
  environment?: string,
): Promise<void> {
  await runCases(session, controller, request, token, environment, {
    title: (where) => (where ? vscode.l10n.t('Saved requests against {0}', where) : vscode.l10n.t('Saved requests')),
    count: (n) => (n === 1 ? vscode.l10n.t('1 saved request') : vscode.l10n.t('{0} saved requests', n)),
    cases: async () =>
      itemsOf(controller, request).map((item) => {
        const entry = history.get(item.id);
        return entry?.savedAs === undefined ? { item } : { item, entry };
      }),
  });
}

/** What a run is named by, what it counts, and how its items become requests. */
export interface CaseSource {
  /** The run's name in Test Results, from where it runs (undefined: no environment). */
  readonly title: (where: string | undefined) => string;
  /** `3 saved requests`. */
  readonly count: (n: number) => string;
  readonly cases: () => Promise<TestCase[]>;
}

/** Sends the cases' requests one after another through the environment and reports each to its item; a case without a request is skipped, or errored with its problem. */
export async function runCases(
  session: Session,
  controller: vscode.TestController,
  request: vscode.TestRunRequest,
  token: vscode.CancellationToken,
  environment: string | undefined,
  source: CaseSource,
): Promise<void> {
  // Named in Test Results by what ran where, not by the extension's name.
  const run = controller.createTestRun(request, source.title(environment ?? session.active?.name));
  try {
    const entries: HistoryEntry[] = [];
    const itemOf = new Map<string, vscode.TestItem>();
    for (const { item, entry, problem } of await source.cases()) {
      if (problem !== undefined) {
        run.errored(item, placed(new vscode.TestMessage(problem), item));
        continue;
      }
      if (entry === undefined) {
        run.skipped(item);
        continue;
      }
      entries.push(entry);
      itemOf.set(entry.id, item);
      run.enqueued(item);
    }
    if (entries.length === 0) return;
    let connection: Awaited<ReturnType<Session['connectionTo']>>;
    try {
      connection = await session.connectionTo(environment);
    } catch (err) {
      // No environment, no credentials: every request errs with the sentence that says what to do.
      const text = err instanceof Error ? err.message : String(err);
      const message = new vscode.TestMessage(text);
      for (const item of itemOf.values()) run.errored(item, message);
      // The output says it too: otherwise Test Results shows "did not record any output".
      run.appendOutput(`${text}\r\n`);
      return;
    }
    run.appendOutput(`${vscode.l10n.t('Running {0} against {1}', source.count(entries.length), connection.environment.name)}\r\n`);
    const abort = new AbortController();
    const cancelling = token.onCancellationRequested(() => abort.abort());
    if (token.isCancellationRequested) abort.abort();
    const finished = new Set<string>();
    let failed = 0;
    try {
      await runEach(session, connection.client, entries, abort.signal, {
        starting: (entry) => run.started(itemOf.get(entry.id)!),
        done: (entry, result) => {
          const item = itemOf.get(entry.id)!;
          finished.add(entry.id);
          // As `health-data run` prints it; the Test Results panel is a terminal.
          run.appendOutput(`${resultLines(result).join('\r\n')}\r\n`, undefined, item);
          if (result.verdict === 'passed') run.passed(item, result.durationMs);
          else {
            failed++;
            run.failed(item, placed(messageOf(result), item), result.durationMs);
          }
        },
      });
    } finally {
      cancelling.dispose();
      // Another environment's client was made for this run alone.
      if (connection.owned) connection.client.dispose();
    }
    for (const [id, item] of itemOf) if (!finished.has(id)) run.skipped(item);
    const ran = finished.size;
    run.appendOutput(
      `${abort.signal.aborted ? vscode.l10n.t('Cancelled after {0} of {1}: {2} passed, {3} failed.', ran, entries.length, ran - failed, failed) : vscode.l10n.t('{0} passed, {1} failed.', ran - failed, failed)}\r\n`,
    );
  } finally {
    run.end();
  }
}

/** A message shown where its item is in a file (an `.http` file's request line): the editor shows it there. */
function placed(message: vscode.TestMessage, item: vscode.TestItem): vscode.TestMessage {
  if (item.uri && item.range) message.location = new vscode.Location(item.uri, item.range);
  return message;
}
