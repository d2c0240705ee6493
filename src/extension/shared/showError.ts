// Shows a failure to the user: one message that says what failed and what to do, with the
// actions that help (set credentials, show the log, start the sandbox). Never a secret.

import * as vscode from 'vscode';
import { HealthDataError, redact } from '../../core/errors';
import type { Session } from '../account/session';

/** The message of any error, with the session's token removed. */
export function errorMessage(session: Session, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return redact(message, [session.currentToken?.token]);
}

export async function showError(session: Session, err: unknown, prefix?: string): Promise<void> {
  if (err instanceof HealthDataError && err.kind === 'cancelled') return;
  const text = prefix ? `${prefix}: ${errorMessage(session, err)}` : errorMessage(session, err);
  session.log.error(text);
  const actions: string[] = [];
  const setCredentials = vscode.l10n.t('Set Credentials');
  const startSandbox = vscode.l10n.t('Start Local Sandbox');
  const showLog = vscode.l10n.t('Show Log');
  if (err instanceof HealthDataError && err.kind === 'auth') actions.push(setCredentials);
  if (err instanceof HealthDataError && err.kind === 'usage' && !session.active) actions.push(startSandbox);
  actions.push(showLog);
  const answer = await vscode.window.showErrorMessage(text, ...actions);
  if (answer === setCredentials) await vscode.commands.executeCommand('healthData.setCredentials');
  else if (answer === startSandbox) await vscode.commands.executeCommand('healthData.startSandbox');
  else if (answer === showLog) session.log.show();
}
