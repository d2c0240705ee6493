// Shared by the integration tests: the extension's API, a started sandbox, settings reset,
// waiting for something the UI does asynchronously, reading the messages shown, the Records
// view's roots and records, unhandled rejections, and the files under a folder.
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { localDateOf } from '../../../src/core/dates';
import type { ResourceKind } from '../../../src/core/resources';
import type { HealthDataExtensionApi } from '../../../src/extension/extension';
import type { TreeItemNode } from '../../../src/extension/tree/nodes';
import type { Sandbox } from '../../../src/sandbox/server';

export const EXTENSION_ID = 'health-data-tools.health-data-explorer';

export async function extensionApi(): Promise<HealthDataExtensionApi> {
  const ext = vscode.extensions.getExtension<HealthDataExtensionApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not installed in this host`);
  return ext.isActive ? ext.exports : ext.activate();
}

/** Starts the local sandbox through the real command and returns the extension's API. */
export async function withSandbox(): Promise<HealthDataExtensionApi> {
  const api = await extensionApi();
  await vscode.commands.executeCommand('healthData.startSandbox');
  if (!api.sandbox.running) throw new Error('the sandbox did not start');
  return api;
}

/** The sandbox the extension runs, asserted to be running. */
export function runningSandbox(api: HealthDataExtensionApi): Sandbox {
  assert.ok(api.sandbox.running, 'the sandbox is not running');
  return api.sandbox.running;
}

/** Polls until `check` returns a value that is not undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Puts every healthData setting back to its default in every scope the tests may have written. */
export async function resetSettings(): Promise<void> {
  const config = vscode.workspace.getConfiguration('healthData');
  const keys = ['authUrl', 'baseUrl', 'clientId', 'environments', 'activeEnvironment', 'token.presentation', 'token.headerName', 'token.scheme', 'pageSize', 'defaultDateRange', 'requestTimeout', 'tree.groupBy'];
  for (const key of keys) {
    for (const target of [vscode.ConfigurationTarget.Global, vscode.ConfigurationTarget.Workspace]) {
      try {
        await config.update(key, undefined, target);
      } catch {
        // No workspace open: nothing to reset there.
      }
    }
  }
}

/** Sets a healthData setting globally and waits until it is visible (and with it the tree's reset). */
export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('healthData').update(key, value, vscode.ConfigurationTarget.Global);
  // The value is visible once the configuration event went out, and with it the tree's reset.
  await waitFor(`healthData.${key} = ${JSON.stringify(value)}`, () =>
    JSON.stringify(vscode.workspace.getConfiguration('healthData').inspect(key)?.globalValue) === JSON.stringify(value),
  );
}

/** The Records view's roots once every load the view started has finished. */
export async function treeRoots(api: HealthDataExtensionApi): Promise<TreeItemNode[]> {
  await api.tree.getChildren();
  await api.tree.whenLoaded();
  return api.tree.getChildren();
}

/**
 * The Records view showing the last 30 days of every source and human in one page, loaded: what
 * an open record's zeros are compared with. Returns the records of `kind` it holds, by source.
 */
export async function loadMonthOfEverySource(api: HealthDataExtensionApi, kind: ResourceKind): Promise<{ loaded: NonNullable<ReturnType<HealthDataExtensionApi['tree']['loadedOf']>>; of: (source: string) => Array<Record<string, unknown> & { id: string }> }> {
  await vscode.commands.executeCommand('healthData.clearSourceFilter');
  await vscode.commands.executeCommand('healthData.clearHumanFilter');
  await vscode.commands.executeCommand('healthData.setDateRange', { days: 30 });
  await setSetting('pageSize', 500);
  await api.tree.getChildren();
  await api.tree.whenLoaded();
  const loaded = api.tree.loadedOf(kind);
  assert.ok(loaded, `the Records view has no ${kind} records loaded`);
  return { loaded, of: (source) => loaded.records.filter((r) => (r as { source?: unknown }).source === source) as Array<Record<string, unknown> & { id: string }> };
}

/** The root of a resource, once loaded; `message` is the assertion's when there is none. */
export async function resourceRoot(api: HealthDataExtensionApi, kind: ResourceKind, message = `no root for ${kind}`): Promise<TreeItemNode> {
  const found = (await treeRoots(api)).find((n) => n.type === 'resource' && n.kind === kind);
  assert.ok(found, message);
  return found;
}

export type RecordItemNode = Extract<TreeItemNode, { type: 'record' }>;

/** Every record node under `node`, through months and dates. */
export async function recordsUnder(api: HealthDataExtensionApi, node: TreeItemNode): Promise<RecordItemNode[]> {
  const out: RecordItemNode[] = [];
  for (const child of await api.tree.getChildren(node)) {
    if (child.type === 'record') out.push(child);
    else if (child.type === 'month' || child.type === 'date' || child.type === 'undated') out.push(...(await recordsUnder(api, child)));
  }
  return out;
}

export interface ExpectedRecord {
  id: string;
  source: string;
  humanId?: string;
}

/** The running sandbox's records of a kind in the tree's range (and source filter). */
export function expectedRecords(api: HealthDataExtensionApi, kind: ResourceKind): ExpectedRecord[] {
  const { start, end } = api.tree.dateRange;
  const source = api.tree.sourceFilter;
  const human = api.tree.humanFilter;
  return (runningSandbox(api).dataset[kind] as unknown as ExpectedRecord[]).filter((r) => {
    const d = localDateOf(r, kind);
    return d !== undefined && d >= start && d <= end && (source === undefined || r.source === source) && (human === undefined || r.humanId === human);
  });
}

/**
 * Collects the process's unhandled rejections from now on: `stop()` stops listening,
 * `assertNone()` fails with their stacks when there were any.
 */
export function trackUnhandledRejections(): { stop: () => void; assertNone: () => Promise<void> } {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  return {
    stop: () => {
      process.off('unhandledRejection', onUnhandled);
    },
    assertNone: async () => {
      // Node reports an unhandled rejection on the turn after it happens.
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(unhandled.map((r) => (r instanceof Error ? r.stack ?? r.message : String(r))), []);
    },
  };
}

/** Every file under `dir`, with its bytes as text in `encoding`; one gone meanwhile (a lock file) is passed over. */
export function* filesUnder(dir: string, encoding: BufferEncoding): Generator<[string, string]> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    let info;
    try {
      info = statSync(p);
    } catch {
      continue; // gone meanwhile (a lock file)
    }
    if (info.isDirectory()) yield* filesUnder(p, encoding);
    else if (info.isFile() && info.size < 200 * 1024 * 1024) yield [p, readFileSync(p).toString(encoding)];
  }
}

export type MessageLevel = 'error' | 'warning' | 'info';

const MESSAGE_FUNCTIONS: Record<MessageLevel, string> = {
  error: 'showErrorMessage',
  warning: 'showWarningMessage',
  info: 'showInformationMessage',
};

/**
 * Replaces the message functions of `vscode.window` for these levels (the extension shares this
 * API object), so a test can read what was said and no toast waits for a click. `restore()` puts
 * them back.
 */
export function captureMessages(levels: readonly MessageLevel[] = ['error', 'warning', 'info']): {
  shown: Array<{ level: MessageLevel; text: string; actions?: string[] }>;
  restore: () => void;
} {
  const shown: Array<{ level: MessageLevel; text: string; actions?: string[] }> = [];
  const win = vscode.window as unknown as Record<string, unknown>;
  const saved = levels.map((level) => [MESSAGE_FUNCTIONS[level], win[MESSAGE_FUNCTIONS[level]]] as const);
  for (const level of levels) {
    win[MESSAGE_FUNCTIONS[level]] = (text: string, ...items: unknown[]) => {
      // The buttons offered (string items; an options object first is not one).
      const actions = items.filter((i): i is string => typeof i === 'string');
      shown.push(actions.length > 0 ? { level, text, actions } : { level, text });
      return Promise.resolve(undefined);
    };
  }
  return {
    shown,
    restore: () => {
      for (const [name, fn] of saved) win[name] = fn;
    },
  };
}

/** Reverts and closes every untitled editor (they are dirty: closing would ask "Save?"). */
export async function closeUntitledEditors(): Promise<void> {
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'untitled') {
        await vscode.window.showTextDocument(tab.input.uri);
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
    }
  }
}

/** Answers the extension's input boxes with `answer` while `action` runs; gives back what the last one asked and the action's result. */
export async function answerInputBox(answer: string | undefined, action: () => Thenable<unknown>): Promise<{ asked: vscode.InputBoxOptions | undefined; result: unknown }> {
  const win = vscode.window as unknown as { showInputBox: (o: vscode.InputBoxOptions) => Thenable<string | undefined> };
  const saved = win.showInputBox;
  let asked: vscode.InputBoxOptions | undefined;
  win.showInputBox = (options) => {
    asked = options;
    return Promise.resolve(answer);
  };
  try {
    const result = await action();
    return { asked, result };
  } finally {
    win.showInputBox = saved;
  }
}

/**
 * Answers the next quick pick of the extension (`vscode.window` is the API object it shares) with
 * the item `choose` returns from those offered (undefined dismisses it), runs `action`, and gives
 * back what was offered.
 */
export async function answerQuickPick(
  choose: (items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined,
  action: () => Thenable<unknown>,
): Promise<{ offered: readonly vscode.QuickPickItem[]; result: unknown }> {
  const win = vscode.window as unknown as {
    showQuickPick: (items: readonly vscode.QuickPickItem[]) => Thenable<unknown>;
    createQuickPick: () => unknown;
  };
  const saved = { show: win.showQuickPick, create: win.createQuickPick };
  let offered: readonly vscode.QuickPickItem[] = [];
  win.showQuickPick = (items) => {
    offered = items;
    return Promise.resolve(choose(items));
  };
  // A pick list built with createQuickPick (one that also takes typed text): shown, it is
  // answered at once, by accepting the item chosen or by hiding when there is none.
  win.createQuickPick = () => {
    const accepted = new vscode.EventEmitter<void>();
    const hidden = new vscode.EventEmitter<void>();
    const changed = new vscode.EventEmitter<string>();
    const pick = {
      title: undefined as string | undefined,
      placeholder: undefined as string | undefined,
      items: [] as readonly vscode.QuickPickItem[],
      activeItems: [] as readonly vscode.QuickPickItem[],
      onDidAccept: accepted.event,
      onDidHide: hidden.event,
      onDidChangeValue: changed.event,
      show: () => {
        offered = pick.items;
        const chosen = choose(pick.items);
        if (chosen === undefined) hidden.fire();
        else {
          pick.activeItems = [chosen];
          accepted.fire();
        }
      },
      hide: () => hidden.fire(),
      dispose: () => {
        accepted.dispose();
        hidden.dispose();
        changed.dispose();
      },
    };
    return pick;
  };
  try {
    return { result: await action(), offered };
  } finally {
    win.showQuickPick = saved.show;
    win.createQuickPick = saved.create;
  }
}

/**
 * Records every call a test run of `controller` gets (enqueued, started, passed, failed, errored,
 * skipped, appendOutput, end), each passed on to the real TestRun: `[method, the item's id or the
 * text, the second argument]`. `restore()` puts createTestRun back.
 */
export function recordTestRuns(controller: vscode.TestController): { calls: Array<[string, string, unknown?]>; restore: () => void } {
  const calls: Array<[string, string, unknown?]> = [];
  const create = controller.createTestRun.bind(controller);
  controller.createTestRun = (request, name, persist) => {
    calls.push(['createTestRun', name ?? '']);
    return new Proxy(create(request, name, persist), {
      get(target, prop: string) {
        const value = (target as unknown as Record<string, unknown>)[prop];
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const first = args[0] as { id?: string } | string | undefined;
          calls.push([prop, typeof first === 'object' && first ? first.id ?? '' : String(first ?? ''), args[1]]);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  };
  return { calls, restore: () => void (controller.createTestRun = create) };
}
