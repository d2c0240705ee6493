// Runs the local sandbox inside the extension host on a free loopback port and points the
// "Local sandbox" environment at it, so a new user sees data with one click. A sandbox started
// outside VS Code (`health-data sandbox`, `npm start`) is used instead when the
// `healthData.sandbox.url` setting names it.

import * as vscode from 'vscode';
import { checkServiceUrl, isLoopbackHost } from '../../core/config';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../sandbox/defaults';
import type { Sandbox } from '../../sandbox/server';
import type { ReplayData } from '../../core/recording';
import { Session } from './session';
import { Environment, SANDBOX_ENVIRONMENT } from './environments';

export class SandboxController implements vscode.Disposable {
  private sandbox: Sandbox | undefined;
  private starting: Promise<Sandbox> | undefined;
  /** The sandbox named by `healthData.sandbox.url`, while no in-process one runs. */
  private external: Environment | undefined;
  private readonly configSubscription: vscode.Disposable;

  constructor(private readonly session: Session) {
    this.configSubscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('healthData.sandbox.url')) void this.useExternal();
    });
    // Reads one setting; the secret store write happens after activation returns.
    if (vscode.workspace.getConfiguration('healthData').get<string>('sandbox.url')) void this.useExternal();
  }

  /** The external sandbox's environment, if one is configured and usable. */
  get externalEnvironment(): Environment | undefined {
    return this.external;
  }

  /**
   * Points the "Local sandbox" environment at `healthData.sandbox.url`. Only loopback
   * addresses are taken: the sandbox's documented credentials are sent there.
   */
  private async useExternal(): Promise<void> {
    if (this.sandbox || this.starting) return;
    const text = (vscode.workspace.getConfiguration('healthData').get<string>('sandbox.url') ?? '').trim();
    let env: Environment | undefined;
    if (text) {
      try {
        const { url } = checkServiceUrl(text, 'healthData.sandbox.url');
        if (!isLoopbackHost(new URL(url).hostname)) throw new Error(vscode.l10n.t('healthData.sandbox.url must be a loopback address (127.0.0.1, localhost or [::1]).'));
        env = { name: SANDBOX_ENVIRONMENT, authUrl: url, baseUrl: url, clientId: DEFAULT_CLIENT_ID, origin: 'sandbox' };
      } catch (err) {
        this.session.log.warn(err instanceof Error ? err.message : String(err));
        void vscode.window.showWarningMessage(err instanceof Error ? err.message : String(err));
      }
    }
    if (!env && !this.external) return;
    if (env) await this.session.credentials.store(SANDBOX_ENVIRONMENT, 'clientSecret', DEFAULT_CLIENT_SECRET);
    this.external = env;
    this.session.setSandbox(env);
    if (env) this.session.log.info(`Using the local sandbox at ${env.baseUrl} (healthData.sandbox.url)`);
  }

  get running(): Sandbox | undefined {
    return this.sandbox;
  }

  /**
   * Starts the sandbox (once: a second call while it starts or runs returns the same one). With
   * `replay`, a sandbox serving those recordings replaces whatever sandbox runs.
   */
  async start(replay?: ReplayData): Promise<Sandbox> {
    if (replay) await this.stop();
    if (this.sandbox) return this.sandbox;
    if (!this.starting) {
      this.starting = (async () => {
        // Required on first use: the sandbox and its data generator are a bundle of their own
        // (dist/sandbox.js, scripts/lazyBundles.mjs), which activation never reads.
        const { startSandbox } = require('../../sandbox/server') as typeof import('../../sandbox/server');
        const sandbox = await startSandbox({
          port: 0,
          ...(replay ? { replay } : {}),
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
        this.session.log.info(replay ? `Local sandbox replaying ${replay.sources.join(', ')} on ${sandbox.url}` : `Local sandbox listening on ${sandbox.url}`);
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
    // An external sandbox, if configured, serves again.
    this.external = undefined;
    await this.useExternal();
    return true;
  }

  dispose(): void {
    this.configSubscription.dispose();
    void this.stop();
  }
}
