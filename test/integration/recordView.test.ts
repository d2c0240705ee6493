// The record view in a real extension host against the local sandbox: a record opens in its
// own panel (from the tree's item, the command, a palette request), titled for what it is,
// reused when it opens again; its webview loads under the CSP and says 'ready'; Re-fetch and
// the serializer's revive work.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { recordTitle } from '../../src/core/views';
import { ResourceKind } from '../../src/core/resources';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import type { TreeItemNode } from '../../src/extension/tree/nodes';
import { loadMonthOfEverySource, resetSettings, setSetting, waitFor, withSandbox } from './support/extension';

interface Rec {
  id: string;
  humanId: string;
  date?: string;
  source: string;
}

/** The webview tabs of the record view, with their labels as the workbench shows them. */
function recordTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('healthData.record'));
}

describe('record view panel', function () {
  this.timeout(40_000);
  let api: HealthDataExtensionApi;

  const sandbox = () => {
    assert.ok(api.sandbox.running, 'the sandbox is not running');
    return api.sandbox.running;
  };
  const records = (kind: ResourceKind): Rec[] => (sandbox().dataset as unknown as Record<ResourceKind, Rec[]>)[kind];
  const panels = () => api.recordViews.panels();

  before(async () => {
    await resetSettings();
    api = await withSandbox();
    api.recordViews.closeAll();
  });

  afterEach(() => api.recordViews.closeAll());

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await api.tree.whenLoaded();
  });

  it('opens a record clicked in the tree in a panel titled for it, whose webview says ready', async () => {
    // The tree item's own command and arguments, as a click runs them.
    await api.tree.getChildren();
    await api.tree.whenLoaded();
    const roots = await api.tree.getChildren();
    const activity = roots.find((n) => n.type === 'resource' && n.kind === 'activity');
    assert.ok(activity);
    const findRecord = async (node: TreeItemNode): Promise<Extract<TreeItemNode, { type: 'record' }> | undefined> => {
      for (const child of await api.tree.getChildren(node)) {
        if (child.type === 'record') return child;
        const found = child.type === 'month' || child.type === 'date' ? await findRecord(child) : undefined;
        if (found) return found;
      }
      return undefined;
    };
    const node = await findRecord(activity);
    assert.ok(node, 'no activity record in the tree');
    const command = api.tree.getTreeItem(node).command;
    assert.equal(command?.command, 'healthData.openRecord');
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));

    const title = recordTitle(node.node.record, 'activity');
    assert.match(title, /^Activity \d{4}-\d{2}-\d{2} · \S+/);
    assert.deepEqual(panels().map((p) => [p.key, p.title]), [[`activity/${node.node.id}`, title]]);
    await waitFor('the record tab', () => recordTabs().some((t) => t.label === title && t.isActive));
    const panel = api.recordViews.get(`activity/${node.node.id}`);
    assert.ok(panel);
    // The script loaded under the CSP, asked for the record and got it.
    await waitFor('the webview to say ready', () => panel.readyCount >= 1, 20_000);
    assert.equal(panel.currentModel.title, title);
    assert.equal(panel.currentModel.kind, 'activity');
    // A record of the service, with the request that brought it: every action applies.
    assert.deepEqual(panel.unavailableActions, []);
  });

  it('reuses the panel when the same record opens again, and opens another record in a second panel', async () => {
    const [first, second] = records('activity');
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'activity', record: first });
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'heartRate', record: records('heartRate')[0] });
    assert.equal(panels().length, 2);
    // The first record again: no third panel, and its panel comes to the front.
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'activity', record: first });
    assert.deepEqual(panels().map((p) => p.key).sort(), [`activity/${first.id}`, `heartRate/${records('heartRate')[0].id}`].sort());
    await waitFor('the first record active again', () => panels().find((p) => p.key === `activity/${first.id}`)?.active);
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'activity', record: second });
    assert.equal(panels().length, 3);
    // The workbench tells tabs to the extension host a moment later.
    await waitFor('three record tabs', () => recordTabs().length === 3);
    await waitFor('the second record tab', () => recordTabs().some((t) => t.label === recordTitle(second, 'activity')));
  });

  it('opens what a palette request fetched in the panel', async () => {
    const expected = records('heartRate').find((r) => r.humanId === sandbox().dataset.humans[0]);
    assert.ok(expected?.date);
    const reply = await vscode.commands.executeCommand('healthData.heartRate.getByDate', { date: expected.date });
    assert.deepEqual(reply, JSON.parse(JSON.stringify(expected)));
    const key = `heartRate/${expected.id}`;
    assert.deepEqual(panels().find((p) => p.key === key)?.title, recordTitle(expected, 'heartRate'));
    const panel = api.recordViews.get(key);
    assert.ok(panel);
    // A heart rate summary gets its zones table.
    assert.equal(panel.currentModel.zones?.length, (expected as unknown as { zones: unknown[] }).zones.length);
    await waitFor('the webview to say ready', () => panel.readyCount >= 1, 20_000);
  });

  it('Re-fetch asks the service for the record by id and shows the answer', async () => {
    const record = records('bodyFat')[3];
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'bodyFat', record: { ...record, value: 99 } });
    const panel = api.recordViews.get(`bodyFat/${record.id}`);
    assert.ok(panel);
    const before = sandbox().requests.length;
    await panel.refetch(true);
    const sent = sandbox().requests.slice(before).filter((r) => r.path.startsWith('/v1/human/'));
    assert.deepEqual(sent.map((r) => [r.path, r.status]), [[`/v1/human/body_fat/readings/${encodeURIComponent(record.id)}`, 200]]);
    assert.deepEqual(panel.currentRecord, JSON.parse(JSON.stringify(record)));
  });

  it('Validate says in the status line what the record has, each kind counted, one as one', async () => {
    const record = records('activity')[2];
    const open = async (r: object, id: string) => {
      await vscode.commands.executeCommand('healthData.openRecord', { kind: 'activity', record: { ...r, id } });
      const panel = api.recordViews.get(`activity/${id}`);
      assert.ok(panel);
      return panel;
    };
    // The record without the deprecated field and without a field of its source's own (some
    // sources send activeMinutes, so whether the sandbox's record has it depends on the day).
    const { userId: _dropped, activeMinutes: _own, ...clean } = record as unknown as Record<string, unknown>;
    // steps -1 (one error), every zero-default number 0, userId (deprecated), a field of the source's own.
    const zeros = { distance: 0, vigorous: 0, moderate: 0, light: 0, sedentary: 0, calories: 0 };
    const marked = await open({ ...clean, ...zeros, duration: 600, steps: -1, userId: 'u1', vendorScore: 3 }, 'validate-status-1');
    assert.equal(marked.validateAgain(), 'Validated: 1 error, 6 zero, 1 deprecated, 1 unknown.');
    const plain = await open({ ...clean, duration: 600, steps: 1, distance: 1, vigorous: 1, moderate: 1, light: 1, sedentary: 1, calories: 1 }, 'validate-status-2');
    assert.equal(plain.validateAgain(), 'Validated: no findings.');
  });

  it('says whether a 0 is a field the source never sends or one that stands out, from the Records view\'s records of that source', async () => {
    // The last 30 days of every source and human, in one page: every fitbit day of them is compared with.
    const { loaded, of } = await loadMonthOfEverySource(api, 'activity');
    const googlefit = of('googlefit');
    const fitbit = of('fitbit');
    // Twenty or more fitbit days: enough for a 0 to be called unusual.
    assert.ok(googlefit.length >= 4 && fitbit.length >= 20, `googlefit ${googlefit.length}, fitbit ${fitbit.length}`);
    const zeroOf = (key: string, field: string) => api.recordViews.get(key)!.currentModel.findings.find((f) => f.kind === 'zero' && f.path === `/${field}`)?.message;

    // The phone platform never sends steps: said so, with what it was compared with.
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'activity', record: googlefit[0] });
    const key = `activity/${googlefit[0].id}`;
    assert.equal(zeroOf(key, 'steps'), `0 — googlefit does not provide steps: 0 on all its ${googlefit.length - 1} other records loaded`);
    assert.equal(zeroOf(key, 'duration'), undefined);
    const basis = api.recordViews.get(key)!.currentModel.zeroBasis;
    assert.equal(basis, `Zeros compared with the ${googlefit.length - 1} other googlefit activity summaries the Records view has loaded (${loaded.scope}).`);
    assert.match(basis!, /^Zeros compared with the \d+ other googlefit activity summaries the Records view has loaded \(Local sandbox · the last 30 days \(\d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}\) · all sources\)\.$/);
    await waitFor('the webview to say ready', () => api.recordViews.get(key)!.readyCount >= 1, 20_000);

    // The Records view loads other records (a narrower range): the open panel says its zeros again from them.
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 7 });
    await api.tree.whenLoaded();
    const week = api.tree.loadedOf('activity')!;
    const weekGooglefit = week.records.filter((r) => (r as Rec).source === 'googlefit' && (r as Rec).id !== googlefit[0].id).length;
    await waitFor('the panel to compare again', () => api.recordViews.get(key)!.currentModel.zeroBasis?.includes('the last 7 days'));
    assert.equal(api.recordViews.get(key)!.currentModel.zeroBasis, `Zeros compared with the ${weekGooglefit} other googlefit activity summaries the Records view has loaded (${week.scope}).`);
    assert.equal(zeroOf(key, 'steps'), `0 — googlefit does not provide steps: 0 on all its ${weekGooglefit} other records loaded`);
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 30 });
    await api.tree.whenLoaded();

    // A wrist tracker's day with 0 steps stands out.
    const zeroDay = { ...fitbit[0], id: 'zero-steps-day', steps: 0 };
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'activity', record: zeroDay });
    const sent = fitbit.filter((r) => typeof r.steps === 'number' && r.steps !== 0).length;
    assert.equal(sent, fitbit.length);
    assert.equal(zeroOf('activity/zero-steps-day', 'steps'), `0 — unusual for fitbit: steps is not 0 on all its ${fitbit.length} other records loaded`);

    // A source with no other record loaded: not compared, and said so.
    const lone = { ...fitbit[0], id: 'lone-source', source: 'lone-band', steps: 0 };
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'activity', record: lone });
    assert.equal(zeroOf('activity/lone-source', 'steps'), '0 — this source may not provide steps');
    assert.equal(api.recordViews.get('activity/lone-source')!.currentModel.zeroBasis, `Zeros not compared: the Records view has no other lone-band activity summary loaded (${loaded.scope}).`);

    // A list opened whole: each record's zeros said from the list's other records of its source.
    const listFile = vscode.Uri.file(path.join(os.tmpdir(), `hde-zero-list-${process.pid}.json`));
    const list = [...googlefit, zeroDay, ...fitbit];
    await vscode.workspace.fs.writeFile(listFile, Buffer.from(JSON.stringify({ data: list })));
    try {
      const opened = (await vscode.commands.executeCommand('healthData.openInRecordView', listFile)) as { key: string };
      const model = api.recordViews.get(opened.key)!.currentModel;
      assert.equal(model.records, list.length);
      assert.equal(model.zeroBasis, 'Each 0 compared with the other records of its source in this list.');
      const at = (i: number, field: string) => model.findings.find((f) => f.kind === 'zero' && f.path === `/data/${i}/${field}`)?.message;
      assert.equal(at(0, 'steps'), `0 — googlefit does not provide steps: 0 on all its ${googlefit.length - 1} other records in this list`);
      assert.equal(at(googlefit.length, 'steps'), `0 — unusual for fitbit: steps is not 0 on all its ${fitbit.length} other records in this list`);
    } finally {
      await vscode.workspace.fs.delete(listFile);
    }

    // The same record from a file is not compared with the service's records.
    const file = vscode.Uri.file(path.join(os.tmpdir(), `hde-zero-${process.pid}.json`));
    await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify(googlefit[0])));
    try {
      const opened = (await vscode.commands.executeCommand('healthData.openInRecordView', file)) as { key: string };
      const fromFile = api.recordViews.get(opened.key)!.currentModel;
      assert.equal(fromFile.findings.find((f) => f.path === '/steps')?.message, '0 — this source may not provide steps');
      assert.equal(fromFile.zeroBasis, undefined);
    } finally {
      await vscode.workspace.fs.delete(file);
    }
    await setSetting('pageSize', undefined);
  });

  it('restores a panel from its webview state after a reload', async () => {
    const record = records('activity')[5];
    const restored = vscode.window.createWebviewPanel('healthData.record', 'restoring', vscode.ViewColumn.Active, {});
    const key = `activity/${record.id}`;
    api.recordViews.revive(restored, { persist: { kind: 'activity', key, title: 'old title', source: { id: record.id }, record } });
    const panel = api.recordViews.get(key);
    assert.ok(panel);
    assert.equal(restored.title, recordTitle(record, 'activity'));
    await waitFor('the restored webview to say ready', () => panel.readyCount >= 1, 20_000);
    // A state without the record (too large to keep) is fetched again from the service.
    const big = records('activity')[6];
    const bare = vscode.window.createWebviewPanel('healthData.record', 'restoring', vscode.ViewColumn.Active, {});
    api.recordViews.revive(bare, { persist: { kind: 'activity', key: `activity/${big.id}`, title: 'Activity', source: { id: big.id } } });
    await waitFor('the record fetched again', () => JSON.stringify(api.recordViews.get(`activity/${big.id}`)?.currentRecord) === JSON.stringify(big));
    // A state that is not ours closes the panel instead of showing a blank one.
    const junk = vscode.window.createWebviewPanel('healthData.record', 'junk', vscode.ViewColumn.Active, {});
    // As VS Code hands over a restored panel: shown already (closing one mid-creation logs noise).
    await waitFor('the junk panel shown', () => junk.visible && recordTabs().some((t) => t.label === 'junk'));
    let closed = false;
    junk.onDidDispose(() => (closed = true));
    api.recordViews.revive(junk, { persist: { kind: 'nonsense', key: 1 } });
    assert.equal(closed, true);
  });
});
