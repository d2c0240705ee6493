// The saved requests run against another environment from the Testing view, in a real extension
// host: a profile per environment not in use ("Run against Staging"), kept in step as
// environments come, go and switch; a run through one reaches that service only, keeps its
// exchanges under that environment's name and leaves the environment in use as it was; an
// environment without a client secret fails each request with the sentence that says what to do.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SANDBOX_ENVIRONMENT } from '../../src/extension/account/environments';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import { Sandbox, startSandbox } from '../../src/sandbox/server';
import { addDays } from '../../src/core/dates';
import { captureMessages, recordTestRuns, resetSettings, runningSandbox, withSandbox } from './support/extension';
import type { SavedRunResult } from '../../src/core/workbench';

describe('saved requests run against another environment (Testing view profiles)', function () {
  this.timeout(60_000);
  let api: HealthDataExtensionApi;
  let staging: Sandbox;
  const config = () => vscode.workspace.getConfiguration('healthData');
  const labels = () => api.savedTests.profiles().map((p) => p.label);

  before(async () => {
    await resetSettings();
    api = await withSandbox();
    await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: SANDBOX_ENVIRONMENT });
    // The same generator and seed as the local sandbox (the same records), other credentials.
    staging = await startSandbox({ port: 0, clientId: 'staging-client', clientSecret: 'staging-secret-7c2d' });
  });

  after(async () => {
    for (const e of api.history.savedByName()) api.history.removeSaved(e.id);
    await api.session.credentials.clear('Staging');
    await resetSettings();
    await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: SANDBOX_ENVIRONMENT }).then(undefined, () => undefined);
    await staging.close();
  });

  it('a profile per environment not in use; a run through one goes there only, and keeps the environment in use', async () => {
    // Only the sandbox: the default profile alone.
    assert.deepEqual(labels(), ['Run against the environment in use']);
    await config().update('environments', [{ name: 'Staging', baseUrl: staging.url, clientId: staging.clientId }, { name: 'No secret', baseUrl: staging.url, clientId: 'nobody' }], vscode.ConfigurationTarget.Global);
    assert.deepEqual(labels(), ['Run against the environment in use', 'Run against Staging', 'Run against No secret']);
    assert.ok(api.savedTests.profiles().slice(1).every((p) => !p.isDefault && p.kind === vscode.TestRunProfileKind.Run));
    await api.session.credentials.store('Staging', 'clientSecret', staging.clientSecret);

    // A request saved from the sandbox: a few days of activity.
    const local = runningSandbox(api);
    const end = local.dataset.activity[0].date;
    await vscode.commands.executeCommand('healthData.activity.list', { start: addDays(end, -3), end });
    const sent = api.history.all().find((e) => e.endpoint === 'list' && e.resource === 'activity')!;
    api.history.saveRequest(sent.id, 'Recent activity');
    const item = api.savedTests.controller.items.get(sent.id);
    assert.ok(item, 'no test item for the saved request');

    const recorded = recordTestRuns(api.savedTests.controller);
    try {
      const profile = api.savedTests.profiles().find((p) => p.label === 'Run against Staging')!;
      const localBefore = local.requests.length;
      const stagingBefore = staging.requests.length;
      await profile.runHandler(new vscode.TestRunRequest([item]), new vscode.CancellationTokenSource().token);
      const of = (what: string) => recorded.calls.filter((c) => c[0] === what).map((c) => c[1]);
      assert.deepEqual(of('createTestRun'), ['Saved requests against Staging']);
      assert.deepEqual(of('passed'), [sent.id]);
      assert.match(recorded.calls.filter((c) => c[0] === 'appendOutput').map((c) => c[1]).join(''), /^Running 1 saved request against Staging\r\n/);
      // Staging got the mint and the list; the sandbox nothing.
      const reached = staging.requests.slice(stagingBefore).map((r) => `${r.method} ${r.path.split('?')[0]}`);
      assert.deepEqual(reached, ['POST /v1/admin/token', 'GET /v1/human/activities/summaries']);
      assert.equal(local.requests.length, localBefore, 'the local sandbox was asked');
      // Its exchanges are kept under Staging's name; the environment in use is still the sandbox.
      const kept = api.history.all().filter((e) => e.url.startsWith(staging.url));
      assert.equal(kept.length, 2);
      assert.ok(kept.every((e) => e.environment === 'Staging'));
      assert.equal(api.session.active?.name, SANDBOX_ENVIRONMENT);
      assert.ok(!JSON.stringify(kept).includes(staging.clientSecret), 'the secret was kept');

      // No secret for that environment: each request fails with what to do, nothing is sent.
      recorded.calls.length = 0;
      const noSecret = api.savedTests.profiles().find((p) => p.label === 'Run against No secret')!;
      const before = staging.requests.length;
      await noSecret.runHandler(new vscode.TestRunRequest([item]), new vscode.CancellationTokenSource().token);
      const errored = recorded.calls.filter((c) => c[0] === 'failed' || c[0] === 'errored');
      assert.deepEqual(errored.map((c) => `${c[0]} ${c[1]}`), [`errored ${sent.id}`]);
      assert.equal(String((errored[0][2] as vscode.TestMessage).message), 'No client secret is stored for "No secret": run Health Data: Set Client Credentials for it first.');
      assert.equal(staging.requests.length, before, 'a request went out without a secret');
      assert.deepEqual(recorded.calls.filter((c) => c[0] === 'appendOutput').map((c) => c[1]), ['No client secret is stored for "No secret": run Health Data: Set Client Credentials for it first.\r\n']);
    } finally {
      recorded.restore();
    }

    // Run Saved Requests takes an environment by name too (scripts, keybindings): the same run.
    const messages = captureMessages();
    try {
      const stagingBefore = staging.requests.length;
      const results = (await vscode.commands.executeCommand('healthData.runSavedRequests', { environment: 'Staging', showResults: false })) as SavedRunResult[];
      assert.deepEqual(results.map((r) => [r.name, r.verdict]), [['Recent activity', 'passed']]);
      assert.ok(staging.requests.length > stagingBefore, 'Staging was not asked');
      assert.equal(api.session.active?.name, SANDBOX_ENVIRONMENT);
      await vscode.commands.executeCommand('healthData.runSavedRequests', { environment: 'Nowhere', showResults: false });
      await vscode.commands.executeCommand('healthData.runSavedRequests', { environment: 7, showResults: false });
      assert.deepEqual(messages.shown.map((m) => [m.level, m.text]), [
        ['info', 'The saved request passed against Staging.'],
        ['error', 'There is no environment named "Nowhere".'],
        ['error', 'environment must be the name of an environment.'],
      ]);
    } finally {
      messages.restore();
    }

    // Switching to Staging: its profile goes, the sandbox's comes.
    await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: 'Staging' });
    assert.deepEqual(labels(), ['Run against the environment in use', 'Run against No secret', `Run against ${SANDBOX_ENVIRONMENT}`]);
    await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: SANDBOX_ENVIRONMENT });
    // An environment removed from the settings: its profile goes too.
    await config().update('environments', [{ name: 'Staging', baseUrl: staging.url, clientId: staging.clientId }], vscode.ConfigurationTarget.Global);
    assert.deepEqual(labels(), ['Run against the environment in use', 'Run against Staging']);
  });
});
