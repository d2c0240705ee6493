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
import { errorMessage, showError } from '../shared/showError';

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

/** Writes the client id where the environment's settings live (undefined: removes it). */
async function storeClientId(env: string, clientId: string | undefined): Promise<void> {
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
    const before = session.active;
    // Only the prompts a person will see are counted: "(1/2)" when the base URL is set already.
    const askBaseUrl = !env && !session.environments.some((e) => e.origin === 'settings') && args.baseUrl === undefined;
    const prompts = [askBaseUrl, args.clientId === undefined, args.clientSecret === undefined];
    const total = prompts.filter(Boolean).length;
    const stepOf = (i: number): number => prompts.slice(0, i + 1).filter(Boolean).length;
    const title = (name: string, i: number): string =>
      total > 1 ? vscode.l10n.t('Health Data: Set Client Credentials for {0} ({1}/{2})', name, stepOf(i), total) : vscode.l10n.t('Health Data: Set Client Credentials for {0}', name);
    /** Said at the first prompt when the environment it changes is not the one in use. */
    const notActive = (name: string): string =>
      before && before.name !== name ? ' ' + vscode.l10n.t('(This sets up "{0}", which then becomes active instead of "{1}".)', name, before.name) : '';
    if (!env) {
      if (session.environments.some((e) => e.origin === 'settings')) {
        env = await pickEnvironment(session, vscode.l10n.t('Set credentials for which environment?'), false);
        if (!env) return false;
      } else {
        // Nothing set up yet: ask where the service is first.
        const baseUrl = args.baseUrl ?? (await vscode.window.showInputBox({
          title: title(DEFAULT_ENVIRONMENT, 0),
          prompt: vscode.l10n.t('Address of the data host ({base_url}), without /v1') + notActive(DEFAULT_ENVIRONMENT),
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
    const target = env;
    const firstHere = !askBaseUrl;
    const clientId = args.clientId ?? (await vscode.window.showInputBox({
      title: title(target.name, 1),
      prompt: vscode.l10n.t('Client id of your application') + (firstHere ? notActive(target.name) : ''),
      value: target.clientId,
      ignoreFocusOut: true,
      validateInput: validateNonEmpty(vscode.l10n.t('The client id')),
    }));
    if (clientId === undefined) return false;
    const secret = args.clientSecret ?? (await vscode.window.showInputBox({
      title: title(target.name, 2),
      prompt: vscode.l10n.t('Client secret (kept in VS Code\'s secret storage only)') + (firstHere && args.clientId !== undefined ? notActive(target.name) : ''),
      password: true,
      ignoreFocusOut: true,
      validateInput: validateNonEmpty(vscode.l10n.t('The client secret')),
    }));
    if (secret === undefined) return false;
    for (const [what, value] of [[vscode.l10n.t('The client id'), clientId], [vscode.l10n.t('The client secret'), secret]] as const) {
      const problem = validateNonEmpty(what)(value);
      if (problem) throw new HealthDataError('usage', problem);
    }
    const previous = { clientId: target.clientId, secret: await session.credentials.get(target.name, 'clientSecret') };
    await storeClientId(target.name, clientId.trim());
    await session.credentials.store(target.name, 'clientSecret', secret.trim());
    if (session.active?.name !== target.name) await session.switchTo(target.name);
    else session.invalidate();
    if (args.skipCheck) return true;
    // Mint a token right away so a wrong id or secret shows now, not on the first request.
    try {
      const { client } = await session.connection();
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the credentials…'), cancellable: false },
        () => client.mintClientToken(),
      );
      void vscode.window.showInformationMessage(vscode.l10n.t('Credentials for {0} saved and checked: a client token was minted.', target.name));
    } catch (err) {
      if (!(err instanceof HealthDataError && err.kind === 'auth')) {
        // The service could not be asked (down, unreachable): the credentials may well be right.
        void showError(session, err, vscode.l10n.t('Credentials saved, but the check failed'));
        return true;
      }
      const reenter = vscode.l10n.t('Re-enter');
      const keep = vscode.l10n.t('Keep Anyway');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('The service rejected the client id or secret for {0}.', target.name),
        { modal: true, detail: vscode.l10n.t('{0}\n\nRe-enter them, keep them anyway (for a service that is not ready yet), or cancel to put back what was there before.', errorMessage(session, err)) },
        reenter,
        keep,
      );
      if (answer === keep) {
        session.log.warn(`Kept credentials of ${target.name} that the service rejected.`);
        return true;
      }
      // Re-enter and Cancel both put the previous credentials back first, so cancelling the
      // prompts that follow loses nothing.
      await storeClientId(target.name, previous.clientId || undefined);
      if (previous.secret) await session.credentials.store(target.name, 'clientSecret', previous.secret);
      else await session.credentials.delete(target.name, 'clientSecret');
      if (before && session.active?.name !== before.name) await session.switchTo(before.name);
      else session.invalidate();
      if (answer === reenter) return setCredentials({ environment: target.name });
      void vscode.window.showInformationMessage(vscode.l10n.t('The credentials of {0} were not changed.', target.name));
      return false;
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
      description: e.origin !== 'sandbox' ? undefined : sandbox.running ? vscode.l10n.t('running on this machine') : vscode.l10n.t('started outside VS Code (healthData.sandbox.url)'),
      detail: e.baseUrl,
      run: () => session.switchTo(e.name),
    }));
    // Not while a sandbox started outside VS Code serves: one started here would take its place.
    if (!sandbox.running && !sandbox.externalEnvironment) items.push({ label: `$(play) ${vscode.l10n.t('Start Local Sandbox')}`, run: () => vscode.commands.executeCommand('healthData.startSandbox') });
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
