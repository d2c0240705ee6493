// A sandbox started outside VS Code (`health-data sandbox`, `npm start`) and named by the
// healthData.sandbox.url setting: the "Local sandbox" environment uses it, with the sandbox's
// documented credentials, and only on loopback.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Sandbox, startSandbox } from '../../src/sandbox/server';
import { SANDBOX_ENVIRONMENT } from '../../src/extension/account/environments';
import { captureMessages, extensionApi, resetSettings, waitFor } from './support/extension';

describe('external sandbox (healthData.sandbox.url)', function () {
  this.timeout(30_000);
  let outside: Sandbox;

  before(async () => {
    const api = await extensionApi();
    await api.sandbox.stop();
    await resetSettings();
    outside = await startSandbox({ port: 0, days: 10, seed: 'outside' });
  });

  after(async () => {
    await vscode.workspace.getConfiguration('healthData').update('sandbox.url', undefined, vscode.ConfigurationTarget.Global);
    await resetSettings();
    await outside.close();
  });

  it('points the Local sandbox environment at it and reads its records', async () => {
    const api = await extensionApi();
    const config = vscode.workspace.getConfiguration('healthData');
    await config.update('sandbox.url', outside.url, vscode.ConfigurationTarget.Global);
    await config.update('activeEnvironment', SANDBOX_ENVIRONMENT, vscode.ConfigurationTarget.Global);
    const env = await waitFor('the external sandbox environment', () => (api.session.active?.baseUrl === outside.url ? api.session.active : undefined));
    assert.equal(env.name, SANDBOX_ENVIRONMENT);
    assert.equal(api.sandbox.running, undefined, 'nothing was started inside VS Code');
    const expected = outside.dataset.activity[0];
    const record = (await vscode.commands.executeCommand('healthData.activity.getByDate', { date: expected.date })) as { id: string };
    assert.equal(record.id, expected.id);
    assert.ok(outside.requests.some((r) => r.method === 'POST' && r.path === '/v1/admin/token' && r.authorized), 'minted with the documented credentials');
    // The secret went to secret storage, not to settings.
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('healthData')).includes(outside.clientSecret));
  });

  it('the environment picker names it and does not offer to start another sandbox', async () => {
    const api = await extensionApi();
    await waitFor('the external sandbox environment', () => api.session.active?.baseUrl === outside.url);
    const win = vscode.window as unknown as { showQuickPick: (items: readonly vscode.QuickPickItem[]) => Thenable<unknown> };
    const saved = win.showQuickPick;
    let offered: readonly vscode.QuickPickItem[] = [];
    win.showQuickPick = (items) => {
      offered = items;
      return Promise.resolve(undefined);
    };
    try {
      await vscode.commands.executeCommand('healthData.selectEnvironment');
    } finally {
      win.showQuickPick = saved;
    }
    const local = offered.find((i) => i.label.endsWith(SANDBOX_ENVIRONMENT));
    assert.ok(local, JSON.stringify(offered));
    assert.match(local.description ?? '', /started outside VS Code \(healthData\.sandbox\.url\)/);
    assert.equal(local.detail, outside.url);
    assert.ok(!offered.some((i) => /Start Local Sandbox/.test(i.label)), JSON.stringify(offered.map((i) => i.label)));
    assert.equal(api.sandbox.running, undefined);
  });

  it('refuses an address that is not loopback and drops the environment', async () => {
    const api = await extensionApi();
    const warnings = captureMessages(['warning']);
    try {
      await vscode.workspace.getConfiguration('healthData').update('sandbox.url', 'http://192.0.2.10:8787', vscode.ConfigurationTarget.Global);
      await waitFor('the environment to go', () => api.session.environments.every((e) => e.name !== SANDBOX_ENVIRONMENT));
      await waitFor('a warning', () => warnings.shown.find((w) => /loopback/.test(w.text)));
    } finally {
      warnings.restore();
    }
  });
});
