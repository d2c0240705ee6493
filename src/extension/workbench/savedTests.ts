// The saved requests in VS Code's Testing view: a test controller whose items are the History
// view's saved requests, by name, each described by its request and what a run expects. Run (and
// Run All, the gutter of the Test Explorer, "Test: Rerun Last Run") sends them through the
// environment in use and reports each verdict there (savedTestRun.ts, loaded on first run); a
// profile per other environment ("Run against Staging", under Run Tests' "Execute Using
// Profile…") sends them there without switching. Kept in step with the history and the
// environments: a saved, renamed, expecting or removed request shows at once.

import * as vscode from 'vscode';
import { requestLine } from '../../core/workbench';
import type { HistoryEntry } from '../../core/workbench';
import type { ExchangeHistory } from './history';
import { expectationWords } from './historyView';

export const SAVED_TESTS_ID = 'healthData.savedRequests';
/** A failure's message's contextValue: this, then the id of the exchange the run made (Show Exchange reads it). */
export const EXCHANGE_MESSAGE = 'healthDataExchange:';

/** Runs a request's items against `environment`, or the environment in use when undefined. */
export type SavedTestRunHandler = (controller: vscode.TestController, request: vscode.TestRunRequest, token: vscode.CancellationToken, environment?: string) => Promise<void>;

/** What the profiles follow: the environments' names, the one in use, and when either changes. */
export interface EnvironmentList {
  readonly environments: ReadonlyArray<{ readonly name: string }>;
  readonly active: { readonly name: string } | undefined;
  readonly onDidChange: vscode.Event<void>;
}

export interface SavedTests extends vscode.Disposable {
  readonly controller: vscode.TestController;
  /** The default run profile's handler (the tests call it with a request of their own). */
  readonly run: (request: vscode.TestRunRequest, token: vscode.CancellationToken) => Promise<void>;
  /** The run profiles: the default one first, then one per environment not in use. */
  profiles(): readonly vscode.TestRunProfile[];
}

/** `GET /v1/human/body_fat · expects 404`: a saved request's test item's description. */
function describe(entry: HistoryEntry): string {
  const expects = expectationWords(entry);
  return expects ? `${requestLine(entry)} · ${expects}` : requestLine(entry);
}

export function registerSavedTests(history: ExchangeHistory, environments: EnvironmentList, handler: SavedTestRunHandler): SavedTests {
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
  const profiles = environmentProfiles(controller, environments, handler, run);
  const listening = [history.onDidChange(sync)];
  return {
    controller,
    run,
    profiles: profiles.all,
    dispose: () => {
      for (const l of listening) l.dispose();
      profiles.dispose();
      controller.dispose();
    },
  };
}

/**
 * A controller's run profiles: "Run against the environment in use" (the default, `run`), and one
 * per other environment ("Run against Staging", under Run Tests' "Execute Using Profile…"), made
 * and dropped as environments come, go and switch.
 */
export function environmentProfiles(
  controller: vscode.TestController,
  environments: EnvironmentList,
  handler: SavedTestRunHandler,
  run: (request: vscode.TestRunRequest, token: vscode.CancellationToken) => Promise<void>,
): { all(): vscode.TestRunProfile[]; dispose(): void } {
  const profile = controller.createRunProfile(vscode.l10n.t('Run against the environment in use'), vscode.TestRunProfileKind.Run, run, true);
  const others = new Map<string, vscode.TestRunProfile>();
  const syncProfiles = (): void => {
    const active = environments.active?.name;
    const names = environments.environments.map((e) => e.name).filter((name) => name !== active);
    for (const [name, p] of others) {
      if (names.includes(name)) continue;
      p.dispose();
      others.delete(name);
    }
    for (const name of names) {
      if (others.has(name)) continue;
      others.set(name, controller.createRunProfile(vscode.l10n.t('Run against {0}', name), vscode.TestRunProfileKind.Run, (request, token) => handler(controller, request, token, name), false));
    }
  };
  syncProfiles();
  const listening = [environments.onDidChange(syncProfiles), vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('healthData') && syncProfiles())];
  return {
    all: () => [profile, ...others.values()],
    dispose: () => {
      for (const l of listening) l.dispose();
      for (const p of others.values()) p.dispose();
      profile.dispose();
    },
  };
}
