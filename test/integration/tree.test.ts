// The Records view against the local sandbox, in a real extension host: the tree the provider
// hands VS Code (roots, months, dates, records with their labels and icons), its filters and
// grouping, paging, and what it does when loads fail, overlap or outlive their environment.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { addDays, localDateOf } from '../../src/core/dates';
import { RESOURCES, ResourceKind, resource } from '../../src/core/resources';
import { monthLabel, recordNode, statusOf } from '../../src/core/views';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import type { TreeItemNode } from '../../src/extension/tree/nodes';
import { startSandbox } from '../../src/sandbox/server';
import { ExpectedRecord, answerQuickPick, captureMessages, expectedRecords, recordsUnder, resetSettings, resourceRoot, runningSandbox, setSetting, treeRoots, waitFor, withSandbox } from './support/extension';

type Rec = ExpectedRecord;

const ICON_OF_STATUS = { error: 'error', warning: 'warning', notes: 'info', clean: 'pass' } as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('records tree', function () {
  this.timeout(40_000);
  let api: HealthDataExtensionApi;

  const tree = () => api.tree;
  const sandbox = () => runningSandbox(api);
  const item = (node: TreeItemNode) => tree().getTreeItem(node);
  const label = (node: TreeItemNode) => String(item(node).label);
  const iconId = (node: TreeItemNode) => (item(node).iconPath as vscode.ThemeIcon | undefined)?.id;

  /** The roots once every load the view started has finished. */
  const roots = () => treeRoots(api);
  const root = (kind: ResourceKind) => resourceRoot(api, kind);

  async function children(node: TreeItemNode): Promise<TreeItemNode[]> {
    return tree().getChildren(node);
  }

  /** The sandbox's records of a kind in the tree's range (and source filter). */
  const expected = (kind: ResourceKind): Rec[] => expectedRecords(api, kind);

  const ids = (list: ReadonlyArray<{ id: string } | { node: { id?: string } }>) =>
    list.map((x) => ('node' in x ? x.node.id : x.id)).sort();

  before(async () => {
    await resetSettings();
    api = await withSandbox();
    await setSetting('pageSize', 500);
  });

  beforeEach(() => sandbox().clearFaults());

  afterEach(async () => {
    sandbox().clearFaults();
    await tree().whenLoaded();
  });

  after(async () => {
    await resetSettings();
  });

  it('shows the three resources as roots, each with the count of its records', async () => {
    const list = await roots();
    assert.deepEqual(
      list.map((n) => (n.type === 'resource' ? n.kind : n.type)),
      RESOURCES.map((r) => r.kind),
    );
    for (const node of list) {
      assert.ok(node.type === 'resource');
      const it = item(node);
      assert.equal(it.label, resource(node.kind).label);
      assert.equal((it.iconPath as vscode.ThemeIcon).id, resource(node.kind).icon);
      assert.equal(it.id, `root/${node.kind}`);
      assert.equal(it.description, String(expected(node.kind).length));
    }
  });

  it('lists months newest first, and in each month its dates newest first', async () => {
    assert.equal(await vscode.commands.executeCommand('healthData.setDateRange', { days: 90 }), true);
    for (const { kind } of RESOURCES) {
      const months = (await children(await root(kind))).filter((n) => n.type === 'month');
      const wanted = [...new Set(expected(kind).map((r) => localDateOf(r, kind)!.slice(0, 7)))].sort().reverse();
      assert.deepEqual(months.map((m) => (m.type === 'month' ? m.month.month : '')), wanted);
      assert.deepEqual(months.map(label), wanted.map(monthLabel));
      for (const month of months) {
        assert.equal(iconId(month), 'calendar');
        const dates = await children(month);
        const dateTexts = dates.map((d) => (d.type === 'date' ? d.date.date : ''));
        assert.ok(dateTexts.every((d) => d.startsWith(month.type === 'month' ? month.month.month : '?')), dateTexts.join());
        assert.deepEqual(dateTexts, [...dateTexts].sort().reverse());
        const first = dates[0];
        assert.ok(first.type === 'date');
        assert.match(label(first), /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}$/);
        const count = expected(kind).filter((r) => localDateOf(r, kind) === first.date.date).length;
        assert.equal(item(first).description, String(count));
      }
    }
  });

  it('labels each record with its source and headline, and its icon with its validation', async () => {
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 30 });
    for (const { kind } of RESOURCES) {
      const shown = await recordsUnder(api, await root(kind));
      const want = expected(kind);
      assert.deepEqual(ids(shown), ids(want));
      const byId = new Map(want.map((r, i) => [r.id, recordNode(kind, r, i)]));
      // A source with 0 steps on all of its four or more records loaded does not provide them: its label shows its calories.
      const noSteps = new Set(
        [...new Set(want.map((r) => r.source))].filter((s) => {
          const of = want.filter((r) => r.source === s) as unknown as Array<Record<string, unknown>>;
          return kind === 'activity' && of.length >= 4 && of.every((r) => r.steps === 0);
        }),
      );
      if (kind === 'activity') assert.ok(noSteps.has('googlefit'), [...noSteps].join());
      for (const node of shown) {
        const model = byId.get(node.node.id!)!;
        const it = item(node);
        const r = node.node.record as Record<string, unknown>;
        const calories = r.calories as number;
        assert.equal(it.label, noSteps.has(r.source as string) && calories > 0 ? `${r.source as string} · ${calories.toLocaleString('en-US')} kcal` : model.label);
        assert.equal(iconId(node), ICON_OF_STATUS[statusOf(model)]);
        assert.equal(it.contextValue, 'record');
        assert.equal(it.command?.command, 'healthData.openRecord');
        assert.equal(it.id, node.id);
      }
      // The headline number is there: bpm, steps (kcal for a source without steps), %.
      assert.ok(shown.every((n) => label(n).includes(resource(kind).headline.unit) || label(n).includes('no value') || (noSteps.size > 0 && label(n).endsWith(' kcal'))));
    }
    // A heart rate summary without `value` breaks the schema: its icon says so.
    const hr = await recordsUnder(api, await root('heartRate'));
    for (const node of hr) {
      const record = node.node.record as Record<string, unknown>;
      if (!('value' in record)) assert.equal(iconId(node), 'error');
    }
    // The tooltip is resolved lazily, as Markdown that cannot run anything.
    const first = hr[0];
    const resolved = tree().resolveTreeItem(item(first), first);
    const tooltip = resolved?.tooltip as vscode.MarkdownString;
    assert.ok(tooltip instanceof vscode.MarkdownString);
    assert.equal(tooltip.isTrusted, false);
    assert.equal(tooltip.supportHtml, false);
    assert.match(tooltip.value, /Findings: /);
    assert.ok(tooltip.value.includes((first.node.record as Rec).source));
  });

  it('groups by date first: each date holds that day of every resource', async () => {
    assert.equal(await vscode.commands.executeCommand('healthData.groupByDate'), true);
    try {
      assert.equal(tree().groupBy, 'date');
      assert.equal(vscode.workspace.getConfiguration('healthData').get('tree.groupBy'), 'date');
      const top = await roots();
      assert.ok(top.length > 0 && top.every((n) => n.type === 'month'), top.map((n) => n.type).join());
      const month = top[0];
      const dates = await children(month);
      const date = dates[0];
      assert.ok(date.type === 'date');
      const records = await children(date);
      const want = RESOURCES.flatMap(({ kind }) => expected(kind).filter((r) => localDateOf(r, kind) === date.date.date));
      assert.deepEqual(ids(records as Array<Extract<TreeItemNode, { type: 'record' }>>), ids(want));
      // Each record says which resource it is.
      for (const r of records) {
        assert.ok(r.type === 'record');
        assert.ok(label(r).startsWith(`${resource(r.node.kind).shortLabel} · `), label(r));
      }
      assert.deepEqual(
        [...new Set(records.map((r) => (r.type === 'record' ? r.node.kind : '')))],
        RESOURCES.map((r) => r.kind).filter((k) => want.some((w) => (sandbox().dataset[k] as unknown as Rec[]).includes(w))),
      );
    } finally {
      await vscode.commands.executeCommand('healthData.groupByResource');
    }
    assert.equal(tree().groupBy, 'resource');
    assert.ok((await roots()).every((n) => n.type === 'resource'));
  });

  it('filters by date range: the last 7 days, a custom range, and refuses a bad range', async () => {
    const errors = captureMessages(['error']);
    try {
      assert.equal(await vscode.commands.executeCommand('healthData.setDateRange', { days: 7 }), true);
      const range = tree().dateRange;
      assert.equal(range.days, 7);
      assert.equal(addDays(range.start, 6), range.end);
      for (const { kind } of RESOURCES) {
        const shown = await recordsUnder(api, await root(kind));
        assert.ok(shown.every((n) => n.node.date! >= range.start && n.node.date! <= range.end));
        assert.deepEqual(ids(shown), ids(expected(kind)));
      }
      const sent = sandbox().requests.filter((r) => r.path === resource('activity').listPath).at(-1);
      assert.equal(sent?.query.start_date, range.start);
      assert.equal(sent?.query.end_date, range.end);

      const end = addDays(range.end, -10);
      const start = addDays(end, -4);
      assert.equal(await vscode.commands.executeCommand('healthData.setDateRange', { start, end }), true);
      assert.deepEqual({ ...tree().dateRange }, { start, end });
      const activity = await recordsUnder(api, await root('activity'));
      assert.ok(activity.length > 0);
      assert.deepEqual(ids(activity), ids(expected('activity')));
      assert.ok(activity.every((n) => n.node.date! >= start && n.node.date! <= end));

      for (const bad of [{ start: '2025-02-30', end }, { start: end, end: start }, { start: '2010-01-01', end: '2020-01-02' }, { days: 0 }]) {
        const requests = sandbox().requests.length;
        assert.equal(await vscode.commands.executeCommand('healthData.setDateRange', bad), false, JSON.stringify(bad));
        assert.deepEqual({ ...tree().dateRange }, { start, end });
        assert.equal(sandbox().requests.length, requests);
      }
      assert.equal(errors.shown.length, 4);
      assert.match(errors.shown[0].text, /not a real calendar date/);
      assert.match(errors.shown[1].text, /after the end date/);
      assert.match(errors.shown[2].text, /at most 10 years/);
    } finally {
      errors.restore();
      await vscode.commands.executeCommand('healthData.setDateRange', { days: 30 });
    }
  });

  it('filters by source, and an empty source clears the filter', async () => {
    assert.ok(tree().sourcesSeen().includes('fitbit'));
    assert.equal(await vscode.commands.executeCommand('healthData.setSourceFilter', { source: 'fitbit' }), true);
    assert.equal(tree().sourceFilter, 'fitbit');
    for (const { kind } of RESOURCES) {
      const shown = await recordsUnder(api, await root(kind));
      assert.ok(shown.every((n) => (n.node.record as Rec).source === 'fitbit'));
      assert.deepEqual(ids(shown), ids(expected(kind)));
    }
    assert.equal(sandbox().requests.filter((r) => r.path.startsWith('/v1/human/')).at(-1)?.query.source, 'fitbit');
    assert.equal((await recordsUnder(api, await root('bodyFat'))).length, 0);
    // The pick list, while the filter is on, offers the sources loaded before it, not only fitbit.
    const seen = tree().sourcesSeen();
    assert.ok(seen.length > 1 && seen.includes('fitbit'), seen.join());
    const pick = await answerQuickPick(
      () => undefined,
      () => vscode.commands.executeCommand('healthData.setSourceFilter'),
    );
    assert.equal(pick.result, false, 'dismissed: nothing changes');
    assert.deepEqual(pick.offered.map((i) => i.label).slice(0, 2 + seen.length), ['Any source', 'Sources in the records loaded before the source filter', ...seen]);
    assert.equal(tree().sourceFilter, 'fitbit');
    await vscode.commands.executeCommand('healthData.setSourceFilter', { source: '' });
    assert.equal(tree().sourceFilter, undefined);
    assert.deepEqual(ids(await recordsUnder(api, await root('activity'))), ids(expected('activity')));
  });

  it('refreshes: every resource is asked again and shows the same records', async () => {
    const before = await recordsUnder(api, await root('activity'));
    const n = sandbox().requests.length;
    assert.equal(await vscode.commands.executeCommand('healthData.refresh'), true);
    const lists = sandbox().requests.slice(n).filter((r) => r.method === 'GET').map((r) => r.path).sort();
    assert.deepEqual(lists, RESOURCES.map((r) => r.listPath).sort());
    assert.deepEqual(ids(await recordsUnder(api, await root('activity'))), ids(before));
  });

  it('loads more, a page at a time, until the count matches', async () => {
    await setSetting('pageSize', 5);
    try {
      const total = expected('activity').length;
      assert.ok(total > 10, `only ${total} activity summaries in range`);
      const rootNode = await root('activity');
      let more = (await children(rootNode)).find((n) => n.type === 'loadMore');
      assert.ok(more, 'no Load more node');
      assert.equal(label(more), `Load more (5 of ${total})`);
      assert.equal(item(more).contextValue, 'loadMore');
      assert.equal(item(rootNode).description, `5 of ${total}`);
      assert.equal((await recordsUnder(api, rootNode)).length, 5);

      const n = sandbox().requests.length;
      await vscode.commands.executeCommand('healthData.loadMore', more);
      assert.equal(sandbox().requests.slice(n).find((r) => r.path === resource('activity').listPath)?.query.offset, '5');
      more = (await children(rootNode)).find((n) => n.type === 'loadMore');
      assert.ok(more);
      assert.equal(label(more), `Load more (10 of ${total})`);
      while ((more = (await children(rootNode)).find((n) => n.type === 'loadMore'))) {
        await vscode.commands.executeCommand('healthData.loadMore', more);
      }
      const shown = await recordsUnder(api, rootNode);
      assert.equal(shown.length, total);
      assert.deepEqual(ids(shown), ids(expected('activity')));
      assert.equal(new Set(ids(shown)).size, total);
      assert.equal(tree().state('activity').incomplete, undefined);
    } finally {
      await setSetting('pageSize', 500);
    }
  });

  it('keeps what was loaded when a next page fails, says so, and Retry asks for that page again', async () => {
    await setSetting('pageSize', 5);
    try {
      const rootNode = await root('activity');
      const more = (await children(rootNode)).find((n) => n.type === 'loadMore');
      assert.ok(more);
      sandbox().addFault({ fault: '500', path: 'offset=5' });
      await vscode.commands.executeCommand('healthData.loadMore', more);
      let kids = await children(rootNode);
      const error = kids.find((n) => n.type === 'error');
      assert.ok(error, kids.map((n) => n.type).join());
      assert.match(label(error), /^Loading more failed: .*500/);
      assert.equal((await recordsUnder(api, rootNode)).length, 5);
      assert.ok(kids.some((n) => n.type === 'loadMore'), 'Load more is still offered');

      sandbox().clearFaults();
      const n = sandbox().requests.length;
      await vscode.commands.executeCommand('healthData.retry', error);
      assert.equal(sandbox().requests.slice(n).find((r) => r.path === resource('activity').listPath)?.query.offset, '5');
      kids = await children(rootNode);
      assert.ok(kids.every((k) => k.type !== 'error'));
      const shown = ids(await recordsUnder(api, rootNode));
      const want = new Set(ids(expected('activity')));
      assert.equal(new Set(shown).size, 10);
      assert.ok(shown.every((id) => want.has(id!)));
    } finally {
      await setSetting('pageSize', 500);
    }
  });

  it('pages over a list whose pages repeat records: each record once, none skipped', async () => {
    await setSetting('pageSize', 8);
    try {
      sandbox().addFault({ fault: 'repeat-page', path: '/activities' });
      const rootNode = await root('activity');
      let more: TreeItemNode | undefined;
      while ((more = (await children(rootNode)).find((n) => n.type === 'loadMore'))) {
        await vscode.commands.executeCommand('healthData.loadMore', more);
      }
      const shown = await recordsUnder(api, rootNode);
      assert.deepEqual(ids(shown), ids(expected('activity')));
      assert.equal(tree().state('activity').incomplete, undefined);
    } finally {
      await setSetting('pageSize', 500);
    }
  });

  it('shows a failed load as an error node with Retry, and Retry loads once the fault is gone', async () => {
    sandbox().addFault({ fault: '500', path: '/activities' });
    // A new range drops what was shown: the failure has nothing to fall back on.
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 14 });
    const rootNode = await root('activity');
    const kids = await children(rootNode);
    assert.equal(kids.length, 1, kids.map((k) => k.type).join());
    const error = kids[0];
    assert.equal(error.type, 'error');
    const it = item(error);
    assert.equal(it.contextValue, 'error');
    assert.equal(iconId(error), 'error');
    assert.match(String(it.label), /500/);
    assert.match(String(it.tooltip), /activities/);
    // The other resources are not affected.
    assert.deepEqual(ids(await recordsUnder(api, await root('heartRate'))), ids(expected('heartRate')));

    sandbox().clearFaults();
    assert.equal(await vscode.commands.executeCommand('healthData.retry', error), true);
    const after = await children(rootNode);
    assert.ok(after.every((n) => n.type !== 'error'));
    assert.deepEqual(ids(await recordsUnder(api, rootNode)), ids(expected('activity')));
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 30 });
  });

  it('keeps data shown when a refresh fails, marked stale, until a refresh succeeds', async () => {
    const shown = ids(await recordsUnder(api, await root('activity')));
    assert.ok(shown.length > 0);
    sandbox().addFault({ fault: '500', path: '/activities' });
    await vscode.commands.executeCommand('healthData.refresh');
    const rootNode = await root('activity');
    assert.match(String(item(rootNode).description), /\(stale: refresh failed\)/);
    const kids = await children(rootNode);
    assert.equal(kids[0].type, 'error');
    assert.match(label(kids[0]), /Refresh failed/);
    assert.deepEqual(ids(await recordsUnder(api, rootNode)), shown);
    assert.equal(tree().state('activity').stale, true);
    // Only the failed resource is stale.
    assert.doesNotMatch(String(item(await root('heartRate')).description), /stale/);

    sandbox().clearFaults();
    await vscode.commands.executeCommand('healthData.retry', kids[0]);
    assert.equal(tree().state('activity').stale, false);
    assert.doesNotMatch(String(item(await root('activity')).description), /stale/);
    assert.ok((await children(await root('activity'))).every((n) => n.type !== 'error'));
  });

  it('two refreshes at once give one result: the older is superseded, its failure never shown', async () => {
    await roots();
    // The first refresh's activity list is slow and then fails; the second's is answered at once.
    sandbox().addFault({ fault: 'latency', latencyMs: 1_000, path: '/activities', times: 1 });
    sandbox().addFault({ fault: '500', path: '/activities', times: 1 });
    const first = vscode.commands.executeCommand('healthData.refresh');
    // The second starts once the first's activity list is at the sandbox (both faults taken by
    // it), not after a fixed pause that a loaded machine may not honour.
    await waitFor('the first refresh\'s activity list at the sandbox', () => sandbox().faults.length === 0);
    const second = vscode.commands.executeCommand('healthData.refresh');
    await Promise.all([first, second]);
    await sleep(1_200);
    await tree().whenLoaded();
    const state = tree().state('activity');
    assert.equal(state.error, undefined);
    assert.equal(state.stale, false);
    const shown = await recordsUnder(api, await root('activity'));
    assert.deepEqual(ids(shown), ids(expected('activity')));
    assert.equal(new Set(ids(shown)).size, shown.length);
  });

  it('drops an answer from the previous environment after a switch mid-load', async () => {
    const other = await startSandbox({ seed: 'another-service', days: 40 });
    const name = 'Second service';
    try {
      await setSetting('environments', [{ name, baseUrl: other.baseUrl, authUrl: other.authUrl, clientId: other.clientId }]);
      await roots();
      // The old environment answers late; meanwhile the user switches to the other one.
      sandbox().addFault({ fault: 'latency', latencyMs: 1_500, path: '/v1/human/' });
      const refreshing = vscode.commands.executeCommand('healthData.refresh');
      await sleep(300);
      await vscode.commands.executeCommand('healthData.setCredentials', { environment: name, clientId: other.clientId, clientSecret: other.clientSecret, skipCheck: true });
      assert.equal(api.session.active?.name, name);
      await refreshing;
      await sleep(1_500);
      await tree().whenLoaded();
      const oldIds = new Set((sandbox().dataset.activity as unknown as Rec[]).map((r) => r.id));
      const newIds = new Set((other.dataset.activity as unknown as Rec[]).map((r) => r.id));
      const shown = await recordsUnder(api, await root('activity'));
      assert.ok(shown.length > 0, 'nothing shown from the new environment');
      assert.ok(shown.every((n) => newIds.has(n.node.id!) && !oldIds.has(n.node.id!)));
    } finally {
      await vscode.commands.executeCommand('healthData.clearCredentials', { environment: name, confirm: false });
      await setSetting('environments', undefined);
      await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: 'Local sandbox' });
      await other.close();
    }
    assert.equal(api.session.active?.name, 'Local sandbox');
    assert.deepEqual(ids(await recordsUnder(api, await root('activity'))), ids(expected('activity')));
  });

  it('reveals a record outside the range: it is added and selected', async () => {
    const all = sandbox().dataset.bodyFat as unknown as Rec[];
    const old = all[all.length - 1];
    assert.ok(localDateOf(old, 'bodyFat')! < tree().dateRange.start);
    await tree().reveal('bodyFat', old);
    await waitFor('the record selected', () => tree().selection.some((n) => n.type === 'record' && n.node.id === old.id));
    assert.equal(await vscode.commands.executeCommand('healthData.copyId'), old.id);
    assert.equal(await vscode.env.clipboard.readText(), old.id);
    await vscode.commands.executeCommand('healthData.copyJson');
    assert.deepEqual(JSON.parse(await vscode.env.clipboard.readText()), JSON.parse(JSON.stringify(old)));
  });

  it('says when the local sandbox is not running, and shows nothing when nothing is set up', async () => {
    await vscode.commands.executeCommand('healthData.stopSandbox');
    try {
      await setSetting('activeEnvironment', 'Local sandbox');
      const list = await tree().getChildren();
      assert.equal(list.length, 1);
      assert.equal(label(list[0]), 'The local sandbox is not running');
      assert.equal(item(list[0]).command?.command, 'healthData.startSandbox');
      await setSetting('activeEnvironment', undefined);
      assert.deepEqual(await tree().getChildren(), []);
    } finally {
      await withSandbox();
    }
    assert.ok((await roots()).every((n) => n.type === 'resource'));
  });
});
