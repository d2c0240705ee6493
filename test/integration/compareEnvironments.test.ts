// Compare across two environments in a real extension host: the same list asked of the local
// sandbox and of a second service (as Default) that differs in one record's steps. The diff
// names each side's environment, pairs the records by id, and finds the one changed path.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Exchange } from '../../src/core/service';
import { Sandbox, startSandbox } from '../../src/sandbox/server';
import { DEFAULT_ENVIRONMENT, SANDBOX_ENVIRONMENT } from '../../src/extension/account/environments';
import type { CompareResult } from '../../src/extension/compare/commands';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import { captureMessages, resetSettings, runningSandbox, setSetting, waitFor, withSandbox } from './support/extension';

interface Activity { id: string; date: string; steps: number }

describe('compare across two environments', function () {
  this.timeout(60_000);
  let api: HealthDataExtensionApi;
  let other: Sandbox;
  let messages: ReturnType<typeof captureMessages>;

  before(async () => {
    await resetSettings();
    api = await withSandbox();
    await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: SANDBOX_ENVIRONMENT });
    // The same generator, seed and today as the local sandbox: the same records, but for one. Today
    // is the local sandbox's, not the clock's, so a run over UTC midnight compares the same days.
    const today = (runningSandbox(api).dataset.activity[0] as { date: string }).date;
    other = await startSandbox({ port: 0, clientId: 'staging-client', clientSecret: 'staging-secret-5e1a', today });
    messages = captureMessages();
  });

  after(async () => {
    messages.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.session.credentials.clear(DEFAULT_ENVIRONMENT);
    await resetSettings();
    await other.close();
    await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: SANDBOX_ENVIRONMENT }).then(undefined, () => undefined);
  });

  it('the same list from the local sandbox and from Default: one record changed, each side named by its environment', async () => {
    const local = runningSandbox(api);
    const localRecords = local.dataset.activity as unknown as Activity[];
    const otherRecords = other.dataset.activity as unknown as Activity[];
    assert.deepEqual(otherRecords.slice(0, 20).map((r) => r.id), localRecords.slice(0, 20).map((r) => r.id), 'both services hold the same records');
    // Days before today: a sandbox clamps today's createdAt/updatedAt to the moment it started.
    const days = [...new Set(localRecords.map((r) => r.date))].filter((d) => d < localRecords[0].date).slice(0, 5);
    const range = { start: days[days.length - 1], end: days[0] };
    const inRange = localRecords.filter((r) => r.date >= range.start && r.date <= range.end);
    const changed = otherRecords.find((r) => r.id === inRange[3].id)!;
    changed.steps += 250;

    await vscode.commands.executeCommand('healthData.activity.list', range);
    const fromLocal = api.session.recentExchanges().find((e: Exchange) => e.endpoint === 'list')!;
    assert.equal(api.session.environmentOf(fromLocal.id)?.name, SANDBOX_ENVIRONMENT);

    await setSetting('baseUrl', other.url);
    await vscode.commands.executeCommand('healthData.setCredentials', { environment: DEFAULT_ENVIRONMENT, clientId: other.clientId, clientSecret: other.clientSecret, skipCheck: true });
    assert.equal(api.session.active?.name, DEFAULT_ENVIRONMENT);
    await vscode.commands.executeCommand('healthData.activity.list', range);
    const fromOther = api.session.recentExchanges().find((e: Exchange) => e.endpoint === 'list')!;
    assert.notEqual(fromOther.id, fromLocal.id);
    assert.equal(api.session.environmentOf(fromOther.id)?.name, DEFAULT_ENVIRONMENT);
    assert.equal(new URL(fromOther.url).host, new URL(other.url).host);

    const result = (await vscode.commands.executeCommand('healthData.compareExchanges', { exchangeId: fromLocal.id }, { exchangeId: fromOther.id })) as CompareResult;
    assert.ok(result, JSON.stringify(messages.shown));
    assert.deepEqual([result.summary.changed, result.summary.added, result.summary.removed], [1, 0, 0], result.message);
    assert.equal(result.summary.unchanged, inRange.length - 1);
    assert.deepEqual(result.summary.changedPaths, [{ path: '/steps', records: 1 }]);

    const tab = await waitFor('the diff editor', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === result.right.toString()),
    );
    assert.match(tab.label, new RegExp(`${SANDBOX_ENVIRONMENT}.*↔.*${DEFAULT_ENVIRONMENT}`));
    const [left, right] = await Promise.all([vscode.workspace.openTextDocument(result.left), vscode.workspace.openTextDocument(result.right)]);
    const steps = (text: string) => (JSON.parse(text) as Activity[]).find((r) => r.id === changed.id)?.steps;
    assert.equal(steps(right.getText()), (steps(left.getText()) ?? NaN) + 250);
    for (const doc of [left, right]) {
      assert.ok(!doc.getText().includes(other.clientSecret), 'no secret in the compared documents');
      assert.ok(!doc.getText().includes(api.session.currentToken!.token), 'no token in the compared documents');
    }
  });
});
