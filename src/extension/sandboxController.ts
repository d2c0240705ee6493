// Runs the local sandbox inside the extension host on a free loopback port and points the
// "Local sandbox" environment at it, so a new user sees data with one click.

import * as vscode from 'vscode';
import type { Sandbox } from '../sandbox/server';
import { Session } from './session';
import { SANDBOX_ENVIRONMENT } from './environments';

export class SandboxController implements vscode.Disposable {
  private sandbox: Sandbox | undefined;
  private starting: Promise<Sandbox> | undefined;

  constructor(private readonly session: Session) {}

  get running(): Sandbox | undefined {
    return this.sandbox;
  }

  /** Starts the sandbox (once: a second call while it starts or runs returns the same one). */
  async start(): Promise<Sandbox> {
    if (this.sandbox) return this.sandbox;
    if (!this.starting) {
      this.starting = (async () => {
        // Loaded on first use: the sandbox and its data generator stay out of activation.
        const { startSandbox } = await import('../sandbox/server');
        const sandbox = await startSandbox({
          port: 0,
          log: (line) => this.session.log.debug(`[sandbox] ${line}`),
        });
        this.sandbox = sandbox;
        await this.session.credentials.store(SANDBOX_ENVIRONMENT, 'clientSecret', sandbox.clientSecret);
        this.session.setSandbox({
          name: SANDBOX_ENVIRONMENT,
          authUrl: sandbox.authUrl,
          baseUrl: sandbox.baseUrl,
          clientId: sandbox.clientId,
          origin: 'sandbox',
        });
        await this.session.switchTo(SANDBOX_ENVIRONMENT);
        await vscode.commands.executeCommand('setContext', 'healthData.sandboxRunning', true);
        this.session.log.info(`Local sandbox listening on ${sandbox.url}`);
        return sandbox;
      })().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  async stop(): Promise<boolean> {
    const sandbox = this.sandbox ?? (this.starting ? await this.starting.catch(() => undefined) : undefined);
    if (!sandbox) return false;
    this.sandbox = undefined;
    this.session.setSandbox(undefined);
    await sandbox.close();
    await vscode.commands.executeCommand('setContext', 'healthData.sandboxRunning', false);
    this.session.log.info('Local sandbox stopped');
    return true;
  }

  dispose(): void {
    void this.stop();
  }
}
