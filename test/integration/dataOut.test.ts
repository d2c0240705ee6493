// Export, recording and replay in the real extension host: Export Records… on a resource root
// and on a date node (every page, not only the loaded ones), cancel mid-export, Start/Stop
// Recording with its status bar item, and Start Local Sandbox from Recording… giving back the
// recorded records; every file written is scanned for the secret, tokens and original ids.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readHar } from '../../src/core/recording';
import { RESOURCES, resource } from '../../src/core/resources';
import { parseFaultSpec } from '../../src/sandbox/server';
import { readCsv } from '../unit/support/csv';
import { assertNoLeak, assertValidHar, originalIdentifiers, recordedListRecords } from '../unit/support/recording';
import { captureMessages, recordsUnder, resourceRoot, resetSettings, runningSandbox, waitFor, withSandbox } from './support/extension';

interface Outcome {
  uri: string;
  records: number;
}

describe('export, recording and replay', function () {
  this.timeout(60_000);
  const folder = mkdtempSync(join(tmpdir(), 'hde-data-out-'));

  before(async () => {
    await resetSettings();
    await withSandbox();
  });
  after(async () => {
    const api = await withSandbox();
    if (api.recording.recording) api.recording.stop();
    await api.sandbox.stop();
  });

  it('exports every record of a resource in the view\'s filters as CSV, all pages', async () => {
    const api = await withSandbox();
    const sandbox = runningSandbox(api);
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 60 });
    const range = api.tree.dateRange;
    const file = join(folder, 'activity.csv');
    const [outcome] = (await vscode.commands.executeCommand('healthData.exportRecords', { kind: 'activity', format: 'csv', uri: file })) as Outcome[];
    const expected = sandbox.dataset.activity.filter((r) => r.date >= range.start && r.date <= range.end);
    assert.ok(expected.length > 50, 'more than one page of the default size');
    assert.equal(outcome.records, expected.length);
    const back = readCsv('activity', readFileSync(file, 'utf8')).records;
    assert.deepEqual(back.map((r) => r.id), expected.map((r) => r.id));
    assert.deepEqual(readdirSync(folder).filter((n) => n.includes('partial')), []);
  });

  it('asked which resource to export, names each one\'s records in the view\'s filters, and the filters', async () => {
    const api = await withSandbox();
    const sandbox = runningSandbox(api);
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 60 });
    await waitFor('every resource\'s total', () => RESOURCES.every((r) => api.tree.state(r.kind).total !== undefined));
    const win = vscode.window as unknown as { showQuickPick: (items: readonly vscode.QuickPickItem[], options?: vscode.QuickPickOptions) => Thenable<unknown> };
    const saved = win.showQuickPick;
    let offered: readonly vscode.QuickPickItem[] = [];
    let placeHolder: string | undefined;
    win.showQuickPick = (items, options) => {
      offered = items;
      placeHolder = options?.placeHolder;
      return Promise.resolve(undefined);
    };
    try {
      assert.equal(await vscode.commands.executeCommand('healthData.exportRecords'), undefined, 'dismissed: nothing exported');
    } finally {
      win.showQuickPick = saved;
    }
    const range = api.tree.dateRange;
    assert.deepEqual(
      offered.map((i) => [i.label, i.description]),
      RESOURCES.map((r) => [r.label, `${api.tree.state(r.kind).total} records`]),
    );
    // The count is the service's for the filters: every page, not the page loaded.
    assert.equal(offered[1].description, `${sandbox.dataset.activity.filter((r) => r.date >= range.start && r.date <= range.end).length} records`);
    assert.equal(placeHolder, `Every page in the Records view's filters: the last 60 days (${range.start} – ${range.end}) · all sources`);
  });

  it('exports in the view\'s human filter: that human\'s records only, every page', async () => {
    const api = await withSandbox();
    const sandbox = runningSandbox(api);
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 60 });
    const range = api.tree.dateRange;
    const human = sandbox.dataset.humans[0];
    await vscode.commands.executeCommand('healthData.setHumanFilter', { humanId: human });
    try {
      const file = join(folder, 'activity-human.csv');
      const [outcome] = (await vscode.commands.executeCommand('healthData.exportRecords', { kind: 'activity', format: 'csv', uri: file })) as Outcome[];
      const expected = sandbox.dataset.activity.filter((r) => r.date >= range.start && r.date <= range.end && r.humanId === human);
      assert.ok(expected.length > 0 && expected.length < sandbox.dataset.activity.filter((r) => r.date >= range.start && r.date <= range.end).length);
      assert.equal(outcome.records, expected.length);
      assert.deepEqual(readCsv('activity', readFileSync(file, 'utf8')).records.map((r) => r.id), expected.map((r) => r.id));
    } finally {
      await vscode.commands.executeCommand('healthData.clearHumanFilter');
    }
  });

  it('exports a date node of the Records view as NDJSON: every record of that date', async () => {
    const api = await withSandbox();
    const sandbox = runningSandbox(api);
    const root = await resourceRoot(api, 'bodyFat');
    const months = await api.tree.getChildren(root);
    const month = months.find((n) => n.type === 'month')!;
    const date = (await api.tree.getChildren(month)).find((n) => n.type === 'date')!;
    assert.equal(date.type, 'date');
    const file = join(folder, 'day.ndjson');
    const [outcome] = (await vscode.commands.executeCommand('healthData.exportRecords', date, [date], { uri: file })) as Outcome[];
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { id: string });
    const shown = await recordsUnder(api, date);
    assert.equal(outcome.records, lines.length);
    assert.deepEqual(lines.map((r) => r.id).sort(), shown.map((n) => (n.node.record as { id: string }).id).sort());
    assert.ok(lines.every((r) => sandbox.dataset.bodyFat.some((b) => b.id === r.id)));
  });

  it('exports one record node as JSON, and says "1 record"', async () => {
    const api = await withSandbox();
    const root = await resourceRoot(api, 'heartRate');
    const [record] = await recordsUnder(api, root);
    assert.ok(record, 'a heart rate record in the tree');
    const file = join(folder, 'one.json');
    const messages = captureMessages(['info']);
    try {
      const [outcome] = (await vscode.commands.executeCommand('healthData.exportRecords', record, [record], { uri: file, format: 'json' })) as Outcome[];
      assert.equal(outcome.records, 1);
      assert.deepEqual((JSON.parse(readFileSync(file, 'utf8')) as Array<{ id: string }>).map((r) => r.id), [(record.node.record as { id: string }).id]);
      assert.ok(messages.shown.some((m) => m.text === `Exported 1 record to ${file}.`), JSON.stringify(messages.shown));
    } finally {
      messages.restore();
    }
  });

  it('cancelled mid-export: no file, no partial file, and a message that says so', async () => {
    const api = await withSandbox();
    const sandbox = runningSandbox(api);
    // Pages after the first take 2 s: the cancel lands while the second is on its way. The range
    // is set here, not left to the tests before: it must hold more than one page of heart rate.
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 60 });
    const range = api.tree.dateRange;
    assert.ok(sandbox.dataset.heartRate.filter((r) => r.date >= range.start && r.date <= range.end).length > 50, 'more than one page');
    sandbox.addFault(parseFaultSpec('latency:ms=2000:path=offset='));
    const messages = captureMessages(['info', 'error']);
    const source = new vscode.CancellationTokenSource();
    try {
      const file = join(folder, 'cancelled.json');
      const before = sandbox.requests.length;
      const running = vscode.commands.executeCommand('healthData.exportRecords', { kind: 'heartRate', format: 'json', uri: file, cancellation: source.token });
      await waitFor('the first page answered', () => sandbox.requests.slice(before).filter((r) => r.path.includes('heart_rate')).length >= 1);
      source.cancel();
      await running;
      assert.equal(existsSync(file), false);
      assert.deepEqual(readdirSync(folder).filter((n) => n.includes('cancelled')), []);
      await waitFor('the cancel message', () => messages.shown.find((m) => /cancelled: no file was written/.test(m.text)));
    } finally {
      messages.restore();
      sandbox.clearFaults();
      source.dispose();
    }
  });

  it('records with Start/Stop Recording (status bar on meanwhile, 429s ridden out), and replays the recording', async () => {
    const api = await withSandbox();
    const sandbox = runningSandbox(api);
    const identifiers = originalIdentifiers(sandbox);
    sandbox.addFault(parseFaultSpec('429:retry-after=0:times=2:path=offset='));
    assert.equal(await vscode.commands.executeCommand('healthData.startRecording'), true);
    assert.match(api.recording.statusText ?? '', /Recording \(0\)/);
    const listed = (await vscode.commands.executeCommand('healthData.activity.list', { all: true })) as unknown;
    assert.ok(listed !== undefined);
    await vscode.commands.executeCommand('healthData.bodyFat.getLatest');
    await waitFor('exchanges counted', () => api.recording.count >= 3);
    assert.match(api.recording.statusText ?? '', /Recording \(\d+\)/);
    const file = join(folder, 'session.har');
    const saved = (await vscode.commands.executeCommand('healthData.stopRecording', { uri: file })) as { exchanges: number };
    assert.equal(api.recording.recording, false);
    assert.equal(api.recording.statusText, undefined, 'the status bar item is gone');
    sandbox.clearFaults();
    const text = readFileSync(file, 'utf8');
    const har = readHar(text, file);
    assert.equal(har.log.entries.length, saved.exchanges);
    await assertValidHar(har);
    assertNoLeak(text, 'the recording', [sandbox.clientSecret, ...[api.session.currentToken?.token].filter((t): t is string => Boolean(t))], identifiers);
    assert.ok(har.log.entries.some((e) => (e._attempts?.length ?? 0) > 1), 'the 429 retries are in the recording');

    // Replay: the same list gives back the recorded (pseudonymized) records.
    const replayed = (await vscode.commands.executeCommand('healthData.startSandboxFromRecording', { uris: [file] })) as { url: string; sources: string[] };
    assert.deepEqual(replayed.sources, ['session.har']);
    assert.ok(api.sandbox.running?.replay, 'the sandbox replays');
    const { client } = await api.session.connection();
    const list = await client.list('activity', {});
    assert.deepEqual(list.records, recordedListRecords(har, resource('activity').listPath));
    const latest = await client.getLatest('bodyFat');
    const recordedLatest = har.log.entries.find((e) => new URL(e.request.url).pathname === resource('bodyFat').latestPath)!;
    assert.equal(JSON.stringify(latest), recordedLatest.response.content.text);
    // An export from the replay holds no original identity either.
    const out = join(folder, 'from-replay.csv');
    await vscode.commands.executeCommand('healthData.exportRecords', { kind: 'activity', format: 'csv', uri: out, start: '2000-01-01', end: '2099-12-31' });
    assertNoLeak(readFileSync(out, 'utf8'), 'the export', [sandbox.clientSecret], identifiers);
    // Never recorded: a 404 that names the recording.
    await assert.rejects(client.list('heartRate', {}), /not.*recorded in session\.har|No heart rate summaries were recorded in session\.har/);
    await api.sandbox.stop();
  });
});
