// Commands about who we are and where we talk to: credentials, environments, tokens, the
// local sandbox and the request log. Each takes optional arguments so scripts and tests can
// run it without the prompts; without them it asks.

import * as vscode from 'vscode';
import { registerCommands } from '../shared/commands';
import { checkServiceUrl } from '../../core/config';
import { HealthDataError } from '../../core/errors';
import { DEFAULT_ENVIRONMENT, Environment, SANDBOX_ENVIRONMENT } from './environments';
import { SandboxController } from './localSandbox';
import { Session } from './session';
import { showError } from '../shared/showError';

export interface CredentialArgs {
  environment?: string;
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  /** Skip the token mint that checks new credentials. */
  skipCheck?: boolean;
}

const validateNonEmpty = (what: string) => (value: string): string | undefined => {
  const v = value.trim();
  if (!v) return vscode.l10n.t('{0} cannot be empty.', what);
  if (/\s/.test(v)) return vscode.l10n.t('{0} cannot contain spaces.', what);
  return undefined;
};

function validateUrl(value: string): vscode.InputBoxValidationMessage | undefined {
  try {
    const check = checkServiceUrl(value, vscode.l10n.t('The address'));
    return check.warning ? { message: check.warning, severity: vscode.InputBoxValidationSeverity.Warning } : undefined;
  } catch (err) {
    return { message: err instanceof Error ? err.message : String(err), severity: vscode.InputBoxValidationSeverity.Error };
  }
}

async function pickEnvironment(session: Session, placeHolder: string, includeSandbox: boolean): Promise<Environment | undefined> {
  const envs = session.environments.filter((e) => includeSandbox || e.origin !== 'sandbox');
  if (envs.length <= 1) return envs[0];
  const active = session.active?.name;
  const pick = await vscode.window.showQuickPick(
    envs.map((e) => ({ label: e.name, description: e.name === active ? vscode.l10n.t('active') : undefined, detail: e.baseUrl, env: e })),
    { placeHolder },
  );
  return pick?.env;
}

/** Writes the client id where the environment's settings live. */
async function storeClientId(env: string, clientId: string): Promise<void> {
  const config = vscode.workspace.getConfiguration('healthData');
  if (env === DEFAULT_ENVIRONMENT) {
    await config.update('clientId', clientId, vscode.ConfigurationTarget.Global);
    return;
  }
  const list = [...(config.get<Array<Record<string, unknown>>>('environments') ?? [])];
  const i = list.findIndex((e) => e?.name === env);
  if (i >= 0) {
    list[i] = { ...list[i], clientId };
    await config.update('environments', list, vscode.ConfigurationTarget.Global);
  }
}

export function registerAccountCommands(session: Session, sandbox: SandboxController): vscode.Disposable[] {
  const setCredentials = async (args: CredentialArgs = {}): Promise<boolean> => {
    let env = args.environment ? session.environments.find((e) => e.name === args.environment) : undefined;
    if (!env && args.environment) throw new HealthDataError('usage', vscode.l10n.t('There is no environment named "{0}".', args.environment));
    if (!env) {
      if (session.environments.some((e) => e.origin === 'settings')) {
        env = await pickEnvironment(session, vscode.l10n.t('Set credentials for which environment?'), false);
        if (!env) return false;
      } else {
        // Nothing set up yet: ask where the service is first.
        const baseUrl = args.baseUrl ?? (await vscode.window.showInputBox({
          title: vscode.l10n.t('Health Data: Set Client Credentials (1/3)'),
          prompt: vscode.l10n.t('Address of the data host ({base_url}), without /v1'),
          placeHolder: 'https://api.example.com',
          ignoreFocusOut: true,
          validateInput: validateUrl,
        }));
        if (baseUrl === undefined) return false;
        const check = checkServiceUrl(baseUrl, vscode.l10n.t('The address'));
        await vscode.workspace.getConfiguration('healthData').update('baseUrl', check.url, vscode.ConfigurationTarget.Global);
        env = session.environments.find((e) => e.name === DEFAULT_ENVIRONMENT);
        if (!env) return false;
      }
    }
    if (env.origin === 'sandbox') {
      void vscode.window.showInformationMessage(vscode.l10n.t('The local sandbox sets its own credentials.'));
      return false;
    }
    const clientId = args.clientId ?? (await vscode.window.showInputBox({
      title: vscode.l10n.t('Health Data: Set Client Credentials for {0} (2/3)', env.name),
      prompt: vscode.l10n.t('Client id of your application'),
      value: env.clientId,
      ignoreFocusOut: true,
      validateInput: validateNonEmpty(vscode.l10n.t('The client id')),
    }));
    if (clientId === undefined) return false;
    const secret = args.clientSecret ?? (await vscode.window.showInputBox({
      title: vscode.l10n.t('Health Data: Set Client Credentials for {0} (3/3)', env.name),
      prompt: vscode.l10n.t('Client secret (kept in VS Code\'s secret storage only)'),
      password: true,
      ignoreFocusOut: true,
      validateInput: validateNonEmpty(vscode.l10n.t('The client secret')),
    }));
    if (secret === undefined) return false;
    for (const [what, value] of [[vscode.l10n.t('The client id'), clientId], [vscode.l10n.t('The client secret'), secret]] as const) {
      const problem = validateNonEmpty(what)(value);
      if (problem) throw new HealthDataError('usage', problem);
    }
    await storeClientId(env.name, clientId.trim());
    await session.credentials.store(env.name, 'clientSecret', secret.trim());
    if (session.active?.name !== env.name) await session.switchTo(env.name);
    else session.invalidate();
    if (args.skipCheck) return true;
    // Mint a token right away so a wrong id or secret shows now, not on the first request.
    try {
      const { client } = await session.connection();
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the credentials…'), cancellable: false },
        () => client.mintClientToken(),
      );
      void vscode.window.showInformationMessage(vscode.l10n.t('Credentials for {0} saved and checked: a client token was minted.', env.name));
    } catch (err) {
      void showError(session, err, vscode.l10n.t('Credentials saved, but the check failed'));
    }
    return true;
  };

  const clearCredentials = async (args: { environment?: string; confirm?: boolean } = {}): Promise<boolean> => {
    const env = args.environment ? session.environments.find((e) => e.name === args.environment) : await pickEnvironment(session, vscode.l10n.t('Clear the credentials of which environment?'), false);
    if (!env) return false;
    if (args.confirm !== false) {
      const yes = vscode.l10n.t('Clear');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Clear the client secret and access token of "{0}"?', env.name),
        { modal: true, detail: vscode.l10n.t('They are removed from secret storage; the client id stays in settings.') },
        yes,
      );
      if (answer !== yes) return false;
    }
    await session.credentials.clear(env.name);
    session.invalidate();
    return true;
  };

  const setUserAccessToken = async (args: { environment?: string; token?: string } = {}): Promise<boolean> => {
    const env = args.environment ? session.environments.find((e) => e.name === args.environment) : session.active;
    if (!env) throw new HealthDataError('usage', vscode.l10n.t('Set up an environment first.'));
    const token = args.token ?? (await vscode.window.showInputBox({
      title: vscode.l10n.t('Health Data: Set User Access Token for {0}', env.name),
      prompt: vscode.l10n.t('A per-user access token; data calls then use it instead of the client token. Leave empty to remove it.'),
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (/\s/.test(v.trim()) ? vscode.l10n.t('The token cannot contain spaces.') : undefined),
    }));
    if (token === undefined) return false;
    if (/\s/.test(token.trim())) throw new HealthDataError('usage', vscode.l10n.t('The token cannot contain spaces.'));
    if (token.trim()) await session.credentials.store(env.name, 'userAccessToken', token.trim());
    else await session.credentials.delete(env.name, 'userAccessToken');
    session.invalidate();
    return true;
  };

  const selectEnvironment = async (args: { environment?: string } = {}): Promise<boolean> => {
    if (args.environment) {
      if (!session.environments.some((e) => e.name === args.environment)) {
        throw new HealthDataError('usage', vscode.l10n.t('There is no environment named "{0}".', args.environment));
      }
      await session.switchTo(args.environment);
      return true;
    }
    type Item = vscode.QuickPickItem & { run: () => Thenable<unknown> };
    const active = session.active?.name;
    const items: Item[] = session.environments.map((e) => ({
      label: `${e.name === active ? '$(check) ' : ''}${e.name}`,
      description: e.origin === 'sandbox' ? vscode.l10n.t('running on this machine') : undefined,
      detail: e.baseUrl,
      run: () => session.switchTo(e.name),
    }));
    if (!sandbox.running) items.push({ label: `$(play) ${vscode.l10n.t('Start Local Sandbox')}`, run: () => vscode.commands.executeCommand('healthData.startSandbox') });
    items.push({ label: `$(gear) ${vscode.l10n.t('Add or Edit Environments in Settings')}`, run: () => vscode.commands.executeCommand('workbench.action.openSettings', 'healthData.environments') });
    const pick = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Choose the environment to use') });
    if (!pick) return false;
    await pick.run();
    return true;
  };

  const mintToken = async (): Promise<unknown> => {
    const { client, environment } = await session.connection();
    const token = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Minting a client token for {0}…', environment.name), cancellable: true },
      (_progress, cancel) => {
        const abort = new AbortController();
        cancel.onCancellationRequested(() => abort.abort());
        return client.mintClientToken({ signal: abort.signal });
      },
    );
    const hours = Math.round((token.expiresAt - Date.now()) / 360_000) / 10;
    const copy = vscode.l10n.t('Copy Token');
    void vscode.window.showInformationMessage(vscode.l10n.t('Client token minted for {0}; it expires in {1} h.', environment.name, hours), copy).then((a) => {
      if (a === copy) void vscode.commands.executeCommand('healthData.copyToken');
    });
    return { expiresAt: token.expiresAt, claims: token.claims };
  };

  const copyToken = async (): Promise<boolean> => {
    const { client } = await session.connection();
    const token = await client.getClientToken();
    await vscode.env.clipboard.writeText(token.token);
    void vscode.window.showInformationMessage(vscode.l10n.t('Client token copied to the clipboard. Treat it like a password.'));
    return true;
  };

  return registerCommands(
    {
      'healthData.setCredentials': setCredentials,
      'healthData.clearCredentials': clearCredentials,
      'healthData.setUserAccessToken': setUserAccessToken,
      'healthData.selectEnvironment': selectEnvironment,
      'healthData.mintToken': mintToken,
      'healthData.copyToken': copyToken,
      'healthData.showLog': async () => session.log.show(),
      'healthData.startSandbox': async () => {
        const running = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Starting the local sandbox…') },
          () => sandbox.start(),
        );
        void vscode.window.showInformationMessage(vscode.l10n.t('Local sandbox running at {0}; the "{1}" environment is active.', running.url, SANDBOX_ENVIRONMENT));
        return { url: running.url };
      },
      'healthData.stopSandbox': async () => {
        const stopped = await sandbox.stop();
        if (stopped) void vscode.window.showInformationMessage(vscode.l10n.t('Local sandbox stopped.'));
        return stopped;
      },
    },
    (err) => showError(session, err),
  );
}
