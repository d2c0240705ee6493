// The saved requests in VS Code's Testing view: a test controller whose items are the History
// view's saved requests, by name, each described by its request and what a run expects. Run (and
// Run All, the gutter of the Test Explorer, "Test: Rerun Last Run") sends them through the
// environment in use and reports each verdict there (savedTestRun.ts, loaded on first run). Kept
// in step with the history: a saved, renamed, expecting or removed request shows at once.

import * as vscode from 'vscode';
import { requestLine } from '../../core/workbench';
import type { HistoryEntry } from '../../core/workbench';
import type { ExchangeHistory } from './history';
import { expectationWords } from './historyView';

export const SAVED_TESTS_ID = 'healthData.savedRequests';
/** A failure's message's contextValue: this, then the id of the exchange the run made (Show Exchange reads it). */
export const EXCHANGE_MESSAGE = 'healthDataExchange:';

export type SavedTestRunHandler = (controller: vscode.TestController, request: vscode.TestRunRequest, token: vscode.CancellationToken) => Promise<void>;

export interface SavedTests extends vscode.Disposable {
  readonly controller: vscode.TestController;
  /** The run profile's handler (the tests call it with a request of their own). */
  readonly run: (request: vscode.TestRunRequest, token: vscode.CancellationToken) => Promise<void>;
}

/** `GET /v1/human/body_fat · expects 404`: a saved request's test item's description. */
function describe(entry: HistoryEntry): string {
  const expects = expectationWords(entry);
  return expects ? `${requestLine(entry)} · ${expects}` : requestLine(entry);
}

export function registerSavedTests(history: ExchangeHistory, handler: SavedTestRunHandler): SavedTests {
  const controller = vscode.tests.createTestController(SAVED_TESTS_ID, vscode.l10n.t('Health Data: Saved Requests'));
  const sync = (): void => {
    const saved = history.savedByName();
    const kept = new Set(saved.map((e) => e.id));
    controller.items.forEach((item) => {
      if (!kept.has(item.id)) controller.items.delete(item.id);
    });
    saved.forEach((entry, i) => {
      // An item is kept while its request is saved, so a run in progress reports to the item shown.
      // The history changes with every exchange: an item is touched only when what it shows changed.
      const old = controller.items.get(entry.id);
      const item = old ?? controller.createTestItem(entry.id, entry.savedAs!);
      const description = describe(entry);
      const sortText = String(i).padStart(4, '0');
      if (item.label !== entry.savedAs) item.label = entry.savedAs!;
      if (item.description !== description) item.description = description;
      if (item.sortText !== sortText) item.sortText = sortText;
      if (!old) controller.items.add(item);
    });
  };
  sync();
  const run = (request: vscode.TestRunRequest, token: vscode.CancellationToken) => handler(controller, request, token);
  const profile = controller.createRunProfile(vscode.l10n.t('Run'), vscode.TestRunProfileKind.Run, run, true);
  const listening = history.onDidChange(sync);
  return {
    controller,
    run,
    dispose: () => {
      listening.dispose();
      profile.dispose();
      controller.dispose();
    },
  };
}
