// How every feature registers its commands: one table of handlers, each run so that a failure
// becomes one message to the user (never an unhandled rejection) and the handler's value is
// the command's result, which the tests and other commands read.

import * as vscode from 'vscode';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- commands take whatever their callers pass
export type CommandHandler = (...args: any[]) => unknown;

/** What a feature does with a failed command: typically showError with its session. */
export type CommandFailure = (err: unknown) => void | Promise<void>;

/**
 * Registers the handlers under their command ids. A failure is handed to `onFailure` without
 * waiting for the person to read the message: the command is done either way, with undefined.
 */
export function registerCommands(handlers: Readonly<Record<string, CommandHandler>>, onFailure: CommandFailure): vscode.Disposable[] {
  return Object.entries(handlers).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (err) {
        void onFailure(err);
        return undefined;
      }
    }),
  );
}
