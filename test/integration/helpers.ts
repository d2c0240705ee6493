// Shared by the integration tests: the extension's API, a started sandbox, settings reset,
// waiting for something the UI does asynchronously, and reading the messages shown.
import * as vscode from 'vscode';
import type { HealthDataExtensionApi } from '../../src/extension/extension';

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
  shown: Array<{ level: MessageLevel; text: string }>;
  restore: () => void;
} {
  const shown: Array<{ level: MessageLevel; text: string }> = [];
  const win = vscode.window as unknown as Record<string, unknown>;
  const saved = levels.map((level) => [MESSAGE_FUNCTIONS[level], win[MESSAGE_FUNCTIONS[level]]] as const);
  for (const level of levels) {
    win[MESSAGE_FUNCTIONS[level]] = (text: string) => {
      shown.push({ level, text });
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
