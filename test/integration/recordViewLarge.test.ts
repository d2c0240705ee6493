// Large payloads in the record view, in a real extension host: a JSON file of 100,000 records and
// a 50 MB heart rate summary (the sandbox's generator, as the benchmarks use) open with "Open in
// Record View"; the panel keeps the value and its findings and posts windows of rows — every
// message it posts is small, never the payload — and answers the webview's row requests.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { records, recordWithSamples } from '../../bench/datasets';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import type { RecordPanel } from '../../src/extension/recordView/recordPanel';
import { captureMessages, extensionApi, waitFor } from './support/extension';

/** The biggest message a panel may post: a window of rows and the findings list, not a payload. */
const MAX_MESSAGE_BYTES = 1_000_000;

describe('record view: large payloads', function () {
  this.timeout(180_000);
  let api: HealthDataExtensionApi;
  let dir: string;

  before(async () => {
    api = await extensionApi();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hde-large-'));
  });

  afterEach(() => api.recordViews.closeAll());
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function open(file: string): Promise<RecordPanel> {
    const opened = (await vscode.commands.executeCommand('healthData.openInRecordView', vscode.Uri.file(file))) as { key: string } | undefined;
    assert.ok(opened, 'the command opened no panel');
    const panel = api.recordViews.get(opened.key);
    assert.ok(panel, `no panel ${opened.key}`);
    // The webview ran its script under the CSP, said ready and was sent its render.
    await waitFor('the webview to be rendered', () => panel.readyCount > 0 && panel.posted.some((m) => m.type === 'render'), 60_000);
    return panel;
  }

  it('opens a list of 100,000 records as windows of rows, and finds a finding far down', async () => {
    const corpus = records(100_000);
    const text = `[${[corpus.texts.heartRate, corpus.texts.activity, corpus.texts.bodyFat].map((t) => t.slice(1, -1)).join(',')}]`;
    const file = path.join(dir, 'records.json');
    fs.writeFileSync(file, text);
    const panel = await open(file);
    const model = panel.currentModel;
    assert.equal(model.records, 100_000);
    // A file's payload: no id to fetch again and no request, so those buttons are not shown.
    assert.deepEqual(panel.unavailableActions, ['refetch', 'showRequest']);
    assert.equal(model.root, undefined, 'no tree: a virtual list');
    assert.ok(model.rows);
    assert.equal(model.rows.total, 100_002, 'one row per record, closed, and the brackets');
    assert.ok(model.rows.rows.length <= 200);
    assert.ok(model.findingsTotal > 0, 'the generated sources leave zeros and deprecated fields');
    // The webview asked for nothing beyond a window, and the host sent nothing larger.
    for (const m of panel.posted) assert.ok(m.bytes < MAX_MESSAGE_BYTES, `${m.type} of ${m.bytes} bytes for a ${text.length}-byte payload`);
    // Scrolled to the end: the last record's row, closed and labelled.
    const end = panel.rowsFor({ start: model.rows.total - 3, count: 3 });
    assert.equal(end?.window.rows[1].pointer, '/99999');
    assert.equal(end?.window.rows[1].open, false);
    assert.ok(end?.window.rows[1].label);
    // The last finding, whatever record holds it: its record opens and the window shows its row.
    const last = model.findingsTotal - 1;
    const answer = panel.rowsFor({ start: 0, count: 80, finding: last });
    assert.ok(answer?.finding && answer.revealed !== undefined);
    const row = answer.window.rows.find((r) => r.index === answer.revealed);
    assert.equal(row?.pointer, answer.finding.entry.path);
    assert.ok(answer.window.rows.length <= 80);
    assert.ok(row.marks?.some((mark) => mark.kind === answer.finding?.entry.kind));
  });

  it('opens a 50 MB record with its zones table, its sourceData closed, in windows', async () => {
    const text = recordWithSamples(50_000_000);
    const file = path.join(dir, 'large.health.json');
    fs.writeFileSync(file, text);
    const panel = await open(file);
    const model = panel.currentModel;
    assert.equal(model.kind, 'heartRate');
    assert.ok(model.rows, 'a virtual list past 2 MB');
    assert.ok(model.zones && model.zones.length > 0, 'the zones table still shows');
    for (const m of panel.posted) assert.ok(m.bytes < MAX_MESSAGE_BYTES, `${m.type} of ${m.bytes} bytes`);
    const sourceData = model.rows.rows.find((r) => r.pointer === '/sourceData');
    assert.ok(sourceData, 'sourceData has a row in the first window');
    // Opening sourceData and its samples: rows for every sample, but only a window is sent.
    assert.ok(panel.rowsFor({ start: 0, count: 50, toggle: { pointer: '/sourceData/intraday/samples', open: false } }));
    const samples = panel.rowsFor({ start: 0, count: 50, reveal: '/sourceData/intraday/samples/200000/bpm' });
    assert.ok(samples && samples.revealed !== undefined);
    assert.ok(samples.window.total > 200_000);
    assert.equal(samples.window.rows.find((r) => r.index === samples.revealed)?.pointer, '/sourceData/intraday/samples/200000/bpm');
  });

  it('restores a payload panel after a reload as the list it was, or says a large one must be opened again', async () => {
    const list = [{ id: 'a1', value: 1 }, { id: 'a2', value: 2 }];
    const small = vscode.window.createWebviewPanel('healthData.record', 'restoring', vscode.ViewColumn.Active, {});
    api.recordViews.revive(small, { persist: { key: 'payload:file:///x.json', title: 'x.json · 2 records', source: {}, record: list, payload: 'x.json' } });
    const panel = api.recordViews.get('payload:file:///x.json');
    assert.equal(panel?.currentModel.records, 2, 'restored as a list, not as one record');
    const large = vscode.window.createWebviewPanel('healthData.record', 'restoring', vscode.ViewColumn.Active, {});
    api.recordViews.revive(large, { persist: { key: 'payload:file:///big.json', title: 'big.json', source: {}, payload: 'big.json' } });
    assert.match(api.recordViews.get('payload:file:///big.json')?.currentModel.note ?? '', /big\.json was too large to keep across a reload/);
  });

  it('says clearly when the file is not JSON, and opens nothing', async () => {
    const file = path.join(dir, 'broken.json');
    fs.writeFileSync(file, '[{"id": 1},');
    const before = api.recordViews.panels().length;
    const messages = captureMessages(['error']);
    try {
      const result = await vscode.commands.executeCommand('healthData.openInRecordView', vscode.Uri.file(file));
      assert.equal(result, undefined);
      await waitFor('the error to be shown', () => messages.shown.length > 0);
    } finally {
      messages.restore();
    }
    assert.match(messages.shown[0].text, /broken\.json is not valid JSON/);
    assert.equal(api.recordViews.panels().length, before);
  });
  it('opens NDJSON as the list of its lines, and names a line that is not JSON', async () => {
    const list = records(3_000).lists.activity.slice(0, 300);
    const file = path.join(dir, 'export.ndjson');
    fs.writeFileSync(file, `${list.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const panel = await open(file);
    assert.equal(panel.currentModel.records, list.length);
    // A .json file whose text is NDJSON is read so too.
    const named = path.join(dir, 'export-as.json');
    fs.writeFileSync(named, `${list.slice(0, 3).map((r) => JSON.stringify(r)).join('\r\n')}\r\n`);
    assert.equal((await open(named)).currentModel.records, 3);

    const broken = path.join(dir, 'broken.ndjson');
    fs.writeFileSync(broken, `${JSON.stringify(list[0])}\n{"id": oops}\n${JSON.stringify(list[1])}\n`);
    const before = api.recordViews.panels().length;
    const messages = captureMessages(['error']);
    try {
      assert.equal(await vscode.commands.executeCommand('healthData.openInRecordView', vscode.Uri.file(broken)), undefined);
      await waitFor('the error to be shown', () => messages.shown.length > 0);
    } finally {
      messages.restore();
    }
    assert.match(messages.shown[0].text, /broken\.ndjson is NDJSON with a line that is not valid JSON \(.* at line 2, column 8\): fix it to see the records\./);
    assert.equal(api.recordViews.panels().length, before);
  });
});
