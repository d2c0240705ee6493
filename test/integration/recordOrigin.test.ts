// A record panel is tied to the environment it came from, in a real extension host: its heading
// names the environment and host, Re-fetch goes there or asks (switch, start the sandbox, or
// fetch from the one in use), never silently to another service, and a reload keeps the tie.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HostMessage } from '../../src/core/views';
import { Sandbox, startSandbox } from '../../src/sandbox/server';
import { DEFAULT_ENVIRONMENT, SANDBOX_ENVIRONMENT } from '../../src/extension/account/environments';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import { resetSettings, setSetting, waitFor, withSandbox } from './support/extension';

interface Rec { id: string }

/** Keeps what every record panel created from now on posts to its webview. */
function capturePosts(): { posts: HostMessage[]; restore: () => void } {
  const win = vscode.window as unknown as Record<string, (...args: unknown[]) => unknown>;
  const saved = win.createWebviewPanel;
  const posts: HostMessage[] = [];
  win.createWebviewPanel = (...args: unknown[]) => {
    const panel = saved(...args) as vscode.WebviewPanel;
    const post = panel.webview.postMessage.bind(panel.webview);
    panel.webview.postMessage = (message: HostMessage) => {
      posts.push(message);
      return post(message);
    };
    return panel;
  };
  return { posts, restore: () => (win.createWebviewPanel = saved) };
}

/** Answers the next modal questions with `choices` in turn, recording them. */
function answerQuestions(choices: Array<string | undefined>): { asked: string[]; restore: () => void } {
  const win = vscode.window as unknown as Record<string, unknown>;
  const saved = { showWarningMessage: win.showWarningMessage, showInformationMessage: win.showInformationMessage, showErrorMessage: win.showErrorMessage };
  const asked: string[] = [];
  win.showWarningMessage = (text: string, ...rest: unknown[]) => {
    asked.push(`${text} [${rest.filter((r) => typeof r === 'string').join('|')}]`);
    return Promise.resolve(choices.shift());
  };
  win.showInformationMessage = () => Promise.resolve(undefined);
  win.showErrorMessage = () => Promise.resolve(undefined);
  return { asked, restore: () => Object.assign(win, saved) };
}

describe('record panels and their environment', function () {
  this.timeout(60_000);
  let api: HealthDataExtensionApi;
  let other: Sandbox;
  let answers: ReturnType<typeof answerQuestions> | undefined;

  const sandbox = (): Sandbox => {
    assert.ok(api.sandbox.running, 'the sandbox is not running');
    return api.sandbox.running;
  };
  // Requests for single records. The Records view reloads its lists whenever the environment
  // changes, on its own schedule; those list loads are not what these tests are about.
  const dataRequests = (s: Sandbox, from: number) =>
    s.requests.slice(from).filter((r) => /^\/v1\/human\/[a-z_]+\/[a-z_]+\/[^/]+$/.test(r.path));

  before(async () => {
    await resetSettings();
    // Another service, with other data: the same record id there would be another record.
    other = await startSandbox({ port: 0, days: 5, seed: 'another-service', clientId: 'other-client', clientSecret: 'other-secret-71c4' });
  });

  beforeEach(async () => {
    api = await withSandbox();
    // A sandbox running already is not made active again by its start: make it so.
    await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: SANDBOX_ENVIRONMENT });
    api.recordViews.closeAll();
  });

  afterEach(async () => {
    answers?.restore();
    answers = undefined;
    api.recordViews.closeAll();
  });

  after(async () => {
    await api.session.credentials.clear(DEFAULT_ENVIRONMENT);
    await resetSettings();
    await other.close();
    await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: SANDBOX_ENVIRONMENT }).then(undefined, () => undefined);
  });

  /** Makes the other service the Default environment and the one in use. */
  async function useOtherService(): Promise<void> {
    await setSetting('baseUrl', other.url);
    await vscode.commands.executeCommand('healthData.setCredentials', { environment: DEFAULT_ENVIRONMENT, clientId: other.clientId, clientSecret: other.clientSecret, skipCheck: true });
    assert.equal(api.session.active?.name, DEFAULT_ENVIRONMENT);
  }

  it('the heading names the environment and host the record came from', async () => {
    const capture = capturePosts();
    try {
      const record = (sandbox().dataset.activity as unknown as Rec[])[2];
      await vscode.commands.executeCommand('healthData.openRecord', { kind: 'activity', record });
      const panel = api.recordViews.get(`activity/${record.id}`);
      assert.ok(panel);
      const host = new URL(sandbox().url).host;
      assert.deepEqual(panel.origin, { environment: SANDBOX_ENVIRONMENT, host });
      const render = await waitFor('the render message', () => capture.posts.find((m) => m.type === 'render'), 20_000);
      assert.equal(render.type === 'render' && render.origin, `From Local sandbox (${host})`);
      assert.equal(render.type === 'render' && render.persist.source.environment, SANDBOX_ENVIRONMENT, 'kept for a reload');
    } finally {
      capture.restore();
    }
  });

  it('Re-fetch after switching to another service asks, and Cancel asks no service at all', async () => {
    const record = (sandbox().dataset.bodyFat as unknown as Rec[])[1];
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'bodyFat', record });
    const panel = api.recordViews.get(`bodyFat/${record.id}`);
    assert.ok(panel);
    const local = sandbox();
    await useOtherService();
    const [localBefore, otherBefore] = [local.requests.length, other.requests.length];
    answers = answerQuestions([undefined]);
    assert.equal(await panel.refetch(true), 'Not fetched.');
    assert.equal(answers.asked.length, 1);
    assert.match(answers.asked[0], /^This record came from Local sandbox \(127\.0\.0\.1:\d+\), but Default is in use\. \[Switch to Local sandbox and Fetch\|Fetch from Default\]$/);
    assert.deepEqual(dataRequests(other, otherBefore), [], 'the other service was not asked');
    assert.deepEqual(dataRequests(local, localBefore), []);
    assert.equal(api.session.active?.name, DEFAULT_ENVIRONMENT);
  });

  it('a record\'s zeros are not compared with another service\'s records, and the view says why', async () => {
    const record = (sandbox().dataset.activity as unknown as Array<Rec & { source: string }>).find((r) => r.source === 'googlefit')!;
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'activity', record });
    const panel = api.recordViews.get(`activity/${record.id}`);
    assert.ok(panel);
    await useOtherService();
    await api.tree.getChildren();
    await api.tree.whenLoaded();
    assert.equal(api.tree.loadedOf('activity')?.environment, DEFAULT_ENVIRONMENT);
    panel.validateAgain();
    assert.equal(panel.currentModel.zeroBasis, 'Zeros not compared: this record came from Local sandbox, and the Records view shows Default.');
    assert.equal(panel.currentModel.findings.find((f) => f.path === '/steps')?.message, '0 — this source may not provide steps');
  });

  it('Re-fetch: "Switch to" goes back to the environment the record came from and fetches there', async () => {
    const record = (sandbox().dataset.activity as unknown as Rec[])[4];
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'activity', record: { ...record, steps: 1 } });
    const panel = api.recordViews.get(`activity/${record.id}`);
    assert.ok(panel);
    const local = sandbox();
    await useOtherService();
    const [localBefore, otherBefore] = [local.requests.length, other.requests.length];
    answers = answerQuestions(['Switch to Local sandbox and Fetch']);
    assert.match((await panel.refetch(true)) ?? '', /^Fetched again from Local sandbox \(127\.0\.0\.1:\d+\)\.$/);
    assert.equal(api.session.active?.name, SANDBOX_ENVIRONMENT);
    assert.deepEqual(dataRequests(local, localBefore).map((r) => [r.path, r.status]), [[`/v1/human/activities/summaries/${encodeURIComponent(record.id)}`, 200]]);
    assert.deepEqual(dataRequests(other, otherBefore), []);
    assert.deepEqual(panel.currentRecord, JSON.parse(JSON.stringify(record)));
  });

  it('Re-fetch: "Fetch from" the one in use asks it, and the panel then names it', async () => {
    const record = (sandbox().dataset.activity as unknown as Rec[])[0];
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'activity', record });
    const panel = api.recordViews.get(`activity/${record.id}`);
    assert.ok(panel);
    await useOtherService();
    const otherBefore = other.requests.length;
    answers = answerQuestions(['Fetch from Default']);
    // The other service has no record with this id: an honest 404, from the service chosen.
    await assert.rejects(panel.refetch(true), /404/);
    assert.equal(dataRequests(other, otherBefore).length, 1);
    assert.deepEqual(panel.origin, { environment: DEFAULT_ENVIRONMENT, host: new URL(other.url).host });
  });

  it('Re-fetch of a record from a sandbox that stopped offers to start it', async () => {
    const record = (sandbox().dataset.heartRate as unknown as Rec[])[0];
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'heartRate', record });
    const panel = api.recordViews.get(`heartRate/${record.id}`);
    assert.ok(panel);
    await api.sandbox.stop();
    answers = answerQuestions(['Start Local Sandbox and Fetch']);
    assert.match((await panel.refetch(true)) ?? '', /^Fetched again from Local sandbox/);
    assert.match(answers.asked[0], /^This record came from the local sandbox, which is not running\. \[Start Local Sandbox and Fetch\]$/);
    assert.ok(api.sandbox.running);
    assert.equal(panel.origin.host, new URL(sandbox().url).host, 'the sandbox\'s new port');
  });

  it('a panel restored after a reload keeps its environment, and does not fetch from another one quietly', async () => {
    const record = (sandbox().dataset.activity as unknown as Rec[])[3];
    const key = `activity/${record.id}`;
    const capture = capturePosts();
    try {
      const restored = vscode.window.createWebviewPanel('healthData.record', 'restoring', vscode.ViewColumn.Active, {});
      const before = sandbox().requests.length;
      // Too large to have been kept: it would be fetched again, but it came from elsewhere.
      api.recordViews.revive(restored, { persist: { kind: 'activity', key, title: 'Activity', source: { id: record.id, environment: 'Staging', host: 'staging.example.com' } } });
      const panel = api.recordViews.get(key);
      assert.ok(panel);
      assert.deepEqual(panel.origin, { environment: 'Staging', host: 'staging.example.com' });
      const render = await waitFor('the render message', () => capture.posts.find((m) => m.type === 'render'), 30_000).catch((err: Error) => {
        throw new Error(`${err.message}: ready ${panel.readyCount}, visible ${restored.visible}, posts ${capture.posts.length}`);
      });
      assert.equal(render.type === 'render' && render.origin, 'From Staging (staging.example.com)');
      await waitFor('the note', () => panel.currentModel.note?.startsWith('Not fetched: this record came from Staging'));
      // The Records view may be loading its lists meanwhile; the record itself must not be asked for.
      const item = `/v1/human/activities/summaries/${encodeURIComponent(record.id)}`;
      assert.deepEqual(dataRequests(sandbox(), before).filter((r) => r.path === item), []);
    } finally {
      capture.restore();
    }
  });
});
