// Credentials, environments and tokens in a real extension host: the secret goes to
// SecretStorage and nowhere else, tokens are minted once, cached and re-minted, the status bar
// and the request log say what happened without ever showing a secret or a token.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Sandbox, startSandbox } from '../../src/sandbox/server';
import { DEFAULT_ENVIRONMENT } from '../../src/extension/account/environments';
import { captureMessages, extensionApi, filesUnder, recordTestRuns, resetSettings, waitFor } from './support/extension';

const SECRET = 'itest-secret-7d41b2c9';

/** Every file under a folder, as text (the logs folder is small). */
/**
 * Resolves once a setting changed now has reached the extension host: configuration events come
 * in order, so every earlier change has too. The setting is one nothing reloads for.
 */
async function settled(config: vscode.WorkspaceConfiguration): Promise<void> {
  const key = 'recording.keepWeekdays';
  const seen = new Promise<void>((resolve) => {
    const sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(`healthData.${key}`)) return;
      sub.dispose();
      resolve();
    });
  });
  await config.update(key, !vscode.workspace.getConfiguration('healthData').get<boolean>(key), vscode.ConfigurationTarget.Global);
  await seen;
  await config.update(key, undefined, vscode.ConfigurationTarget.Global);
}

const readTree = (dir: string): string => (existsSync(dir) ? [...filesUnder(dir, 'utf8')].map(([, text]) => text).join('') : '');

describe('credentials, environments and tokens', function () {
  this.timeout(40_000);
  let service: Sandbox;
  let messages: ReturnType<typeof captureMessages>;
  const tokensSeen = new Set<string>();

  before(async () => {
    const api = await extensionApi();
    await api.sandbox.stop();
    await resetSettings();
    service = await startSandbox({ port: 0, days: 5, seed: 'account', clientId: 'itest-client', clientSecret: SECRET });
    api.session.onDidChangeToken((t) => t && tokensSeen.add(t.token));
  });

  beforeEach(() => {
    messages = captureMessages();
  });

  afterEach(() => messages.restore());

  after(async () => {
    const api = await extensionApi();
    await api.session.credentials.clear(DEFAULT_ENVIRONMENT);
    await resetSettings();
    await service.close();
  });

  it('a saved request run from the Testing view with no environment set up errs with what to do, and sends nothing', async () => {
    const api = await extensionApi();
    // A saved mint as the History keeps one (this workspace has no environment yet to make one).
    const entry = { id: 'no-environment-mint', startedAt: new Date().toISOString(), purpose: 'token' as const, method: 'POST' as const, url: 'http://127.0.0.1:9/v1/admin/token', requestHeaders: {}, responseHeaders: {}, durationMs: 1, attempts: [], endpoint: 'token' as const, status: 200 };
    api.history.add(entry);
    api.history.saveRequest(entry.id, 'A mint with no environment');
    const recorded = recordTestRuns(api.savedTests.controller);
    try {
      await api.savedTests.run(new vscode.TestRunRequest([api.savedTests.controller.items.get(entry.id)!]), new vscode.CancellationTokenSource().token);
      const errored = recorded.calls.filter((c) => c[0] === 'errored' || c[0] === 'failed' || c[0] === 'started');
      assert.deepEqual(errored.map((c) => `${c[0]} ${c[1]}`), [`errored ${entry.id}`]);
      assert.equal((errored[0][2] as vscode.TestMessage).message, 'No environment is set up: start the local sandbox or set healthData.baseUrl and your credentials.');
      assert.equal(service.requests.length, 0);
    } finally {
      recorded.restore();
      api.history.removeSaved(entry.id);
    }
  });

  it('sets up the default environment from the credential prompts\' answers and checks them by minting', async () => {
    const api = await extensionApi();
    const done = await vscode.commands.executeCommand('healthData.setCredentials', {
      baseUrl: `  ${service.url}/  `,
      clientId: '  itest-client ',
      clientSecret: ` ${SECRET}\t`,
    });
    assert.equal(done, true);
    const config = vscode.workspace.getConfiguration('healthData');
    assert.equal(config.get('baseUrl'), service.url, 'the URL was trimmed and normalised');
    assert.equal(config.get('clientId'), 'itest-client', 'the id was trimmed');
    assert.equal(await api.session.credentials.get(DEFAULT_ENVIRONMENT, 'clientSecret'), SECRET, 'the secret was trimmed and stored');
    assert.equal(api.session.active?.name, DEFAULT_ENVIRONMENT);
    await waitFor('the check to mint a token', () => service.requests.some((r) => r.path === '/v1/admin/token' && r.status === 200));
    await waitFor('a success message', () => messages.shown.find((m) => /saved and checked/.test(m.text)));
  });

  it('keeps the secret out of every configuration scope and out of the settings file', async () => {
    const api = await extensionApi();
    const config = vscode.workspace.getConfiguration();
    const keys = Object.keys((vscode.extensions.getExtension('health-data-tools.health-data-explorer')!.packageJSON.contributes.configuration.properties));
    for (const key of keys) {
      const inspected = config.inspect(key);
      assert.ok(!JSON.stringify(inspected ?? {}).includes(SECRET), `${key} holds the secret`);
    }
    // The user settings file itself (logs live in <user data>/logs/<session>/<host>/<extension>).
    // A control setting written first must be found in it, or the check would look at nothing.
    const userDir = join(api.logUri.fsPath, '..', '..', '..', '..');
    const file = join(userDir, 'User', 'settings.json');
    await vscode.workspace.getConfiguration('healthData').update('history.size', 49, vscode.ConfigurationTarget.Global);
    try {
      await waitFor('the control setting on disk', () => existsSync(file) && readFileSync(file, 'utf8').includes('"healthData.history.size": 49'));
      assert.ok(!readFileSync(file, 'utf8').includes(SECRET), file);
    } finally {
      await vscode.workspace.getConfiguration('healthData').update('history.size', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('rejects empty and space-holding credentials with a clear message and keeps what was stored', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('healthData.setCredentials', { environment: DEFAULT_ENVIRONMENT, clientId: 'itest-client', clientSecret: '   ' });
    assert.ok(messages.shown.some((m) => m.level === 'error' && /client secret cannot be empty/i.test(m.text)), JSON.stringify(messages.shown));
    await vscode.commands.executeCommand('healthData.setCredentials', { environment: DEFAULT_ENVIRONMENT, clientId: 'a b', clientSecret: 'x' });
    assert.ok(messages.shown.some((m) => /client id cannot contain spaces/i.test(m.text)));
    assert.equal(await api.session.credentials.get(DEFAULT_ENVIRONMENT, 'clientSecret'), SECRET, 'nothing was lost');
  });

  it('mints a token once and reuses it, then re-mints once after the service revokes it', async () => {
    const api = await extensionApi();
    const mints = () => service.requests.filter((r) => r.path === '/v1/admin/token').length;
    const { client } = await api.session.connection();
    await client.getRecord('activity', service.dataset.activity[0].id);
    const before = mints();
    await client.getRecord('activity', service.dataset.activity[1].id);
    await client.list('activity', { all: false });
    assert.equal(mints(), before, 'the cached token served');
    service.revokeTokens();
    const record = (await client.getRecord('activity', service.dataset.activity[2].id)) as { id: string };
    assert.equal(record.id, service.dataset.activity[2].id);
    assert.equal(mints(), before + 1, 'exactly one re-mint');
  });

  it('the Mint Client Token command mints, and the status bar shows the environment and time left, never the token', async () => {
    const api = await extensionApi();
    const result = (await vscode.commands.executeCommand('healthData.mintToken')) as { expiresAt: number; claims: { sub: string } };
    assert.equal(result.claims.sub, 'itest-client');
    const token = api.session.currentToken;
    assert.ok(token);
    tokensSeen.add(token.token);
    await waitFor('the status bar to show the time left', () => /Default · \$\(key\) 23h 5\dm|Default · \$\(key\) 24h 0m/.test(api.statusBar.text));
    assert.ok(!api.statusBar.tooltipText.includes(token.token));
    // Markdown-escaped: the claims are text, never markup.
    assert.match(api.statusBar.tooltipText, /sub: "itest\\-client"/);
  });

  it('Copy Client Token puts the token on the clipboard only when asked', async () => {
    const api = await extensionApi();
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('healthData.copyToken');
    assert.equal(await vscode.env.clipboard.readText(), api.session.currentToken?.token);
    await vscode.env.clipboard.writeText('');
  });

  it('switches environment by name, refuses an unknown one, and tells listeners', async () => {
    const api = await extensionApi();
    const config = vscode.workspace.getConfiguration('healthData');
    await config.update('environments', [{ name: 'Staging', baseUrl: service.url, clientId: 'itest-client' }], vscode.ConfigurationTarget.Global);
    let changes = 0;
    const sub = api.session.onDidChange(() => changes++);
    try {
      await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: 'Staging' });
      assert.equal(api.session.active?.name, 'Staging');
      // Configuration events come in order: once this one is here, the switch's own has come too.
      await settled(config);
      // Once: a second change aborted what listeners had started on the first.
      assert.equal(changes, 1);
      // An environment the session does not use: nothing to reload.
      await config.update('environments', [{ name: 'Staging', baseUrl: service.url, clientId: 'itest-client' }, { name: 'Other', baseUrl: service.url, clientId: 'other' }], vscode.ConfigurationTarget.Global);
      await settled(config);
      assert.equal(changes, 1);
      // Staging has no secret of its own: the view shows the welcome, nothing is sent.
      assert.equal(await api.session.credentials.has('Staging'), false);
      await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: 'Nowhere' });
      assert.ok(messages.shown.some((m) => /no environment named "Nowhere"/.test(m.text)));
      assert.equal(api.session.active?.name, 'Staging');
      await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: DEFAULT_ENVIRONMENT });
    } finally {
      sub.dispose();
      await config.update('environments', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a wrong secret gives an auth error that names the failure and not the secret', async () => {
    const api = await extensionApi();
    await api.session.credentials.store(DEFAULT_ENVIRONMENT, 'clientSecret', `${SECRET}-wrong`);
    await waitFor('the session to drop its client', () => api.session.currentToken === undefined);
    await vscode.commands.executeCommand('healthData.mintToken');
    const error = messages.shown.find((m) => m.level === 'error');
    assert.ok(error, JSON.stringify(messages.shown));
    assert.match(error.text, /401/);
    assert.ok(!error.text.includes(SECRET));
    await api.session.credentials.store(DEFAULT_ENVIRONMENT, 'clientSecret', SECRET);
  });

  it('Clear Credentials removes the secret and the view goes back to the welcome', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('healthData.clearCredentials', { environment: DEFAULT_ENVIRONMENT, confirm: false });
    assert.equal(await api.session.credentials.get(DEFAULT_ENVIRONMENT, 'clientSecret'), undefined);
    assert.deepEqual(await api.tree.getChildren(), []);
    // A saved request run from the Testing view fails with the sentence that says what to do.
    const mint = api.history.all().find((e) => e.endpoint === 'token');
    assert.ok(mint, 'a token mint in the history');
    api.history.saveRequest(mint.id, 'Mint without a secret');
    const recorded = recordTestRuns(api.savedTests.controller);
    try {
      const sent = api.history.all().length;
      await api.savedTests.run(new vscode.TestRunRequest([api.savedTests.controller.items.get(mint.id)!]), new vscode.CancellationTokenSource().token);
      const failed = recorded.calls.filter((c) => c[0] === 'failed' || c[0] === 'errored');
      assert.deepEqual(failed.map((c) => c[0] + ' ' + c[1]), [`failed ${mint.id}`]);
      assert.equal(String((failed[0][2] as vscode.TestMessage).message), 'No client secret is set: set the client secret of the application before calling the service.');
      assert.equal(api.history.all().length, sent, 'nothing sent');
    } finally {
      recorded.restore();
      api.history.removeSaved(mint.id);
    }
    await api.session.credentials.store(DEFAULT_ENVIRONMENT, 'clientSecret', SECRET);
  });

  it('logs every request with method, path, status and time, and never the secret or a token', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('healthData.mintToken');
    if (api.session.currentToken) tokensSeen.add(api.session.currentToken.token);
    const { client } = await api.session.connection();
    await client.getRecord('bodyFat', service.dataset.bodyFat[0].id);
    const logs = await waitFor('the request log to be written', () => {
      const text = readTree(api.logUri.fsPath);
      return /GET \/v1\/human\/body_fat\/readings\/\S+ 200 \d+ ms/.test(text) ? text : undefined;
    });
    assert.match(logs, /POST \/v1\/admin\/token 200 \d+ ms/);
    assert.ok(!logs.includes(SECRET), 'the secret is in the log');
    for (const token of tokensSeen) assert.ok(!logs.includes(token), 'a token is in the log');
    assert.ok(tokensSeen.size > 0);
  });
});
