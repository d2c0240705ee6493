// The Records view tells the whole truth (issue 12), in a real extension host against sandboxes
// on loopback: the filters named above the tree, empty results that name the filter that emptied
// them and offer actions, the newest records first from a service that pages oldest first,
// days that may lack records marked, icons that never call a record with findings clean, and
// get by date when several records share the date.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { localDateOf } from '../../src/core/dates';
import { ResourceKind, resource } from '../../src/core/resources';
import { compareZeros, recordNode, statusOf } from '../../src/core/views';
import { validate } from '../../src/core/validation';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import type { TreeItemNode } from '../../src/extension/tree/nodes';
import { Sandbox, startSandbox } from '../../src/sandbox/server';
import { answerQuickPick, captureMessages, expectedRecords, recordsUnder, resetSettings, resourceRoot, runningSandbox, setSetting, treeRoots, withSandbox } from './support/extension';

type Rec = { id: string; source: string; humanId: string; date?: string };

describe('records tree: the whole truth', function () {
  this.timeout(60_000);
  let api: HealthDataExtensionApi;

  const tree = () => api.tree;
  const sandbox = () => runningSandbox(api);
  const item = (node: TreeItemNode) => tree().getTreeItem(node);
  const label = (node: TreeItemNode) => String(item(node).label);
  const children = (node: TreeItemNode) => tree().getChildren(node);
  const root = (kind: ResourceKind) => resourceRoot(api, kind);
  const iconId = (node: TreeItemNode) => (item(node).iconPath as vscode.ThemeIcon | undefined)?.id;
  const newestFirst = (dates: string[]) => [...dates].sort().reverse();

  /** Uses `other` as the active environment while `run` runs. */
  async function withService(other: Sandbox, run: () => Promise<void>): Promise<void> {
    const name = 'Older service';
    await setSetting('environments', [{ name, baseUrl: other.baseUrl, authUrl: other.authUrl, clientId: other.clientId }]);
    try {
      await vscode.commands.executeCommand('healthData.setCredentials', { environment: name, clientId: other.clientId, clientSecret: other.clientSecret, skipCheck: true });
      assert.equal(api.session.active?.name, name);
      await run();
    } finally {
      await vscode.commands.executeCommand('healthData.clearCredentials', { environment: name, confirm: false });
      await setSetting('environments', undefined);
      await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: 'Local sandbox' });
    }
  }

  before(async () => {
    await resetSettings();
    api = await withSandbox();
    await setSetting('pageSize', 500);
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 30 });
  });

  afterEach(async () => {
    sandbox().clearFaults();
    await tree().whenLoaded();
  });

  after(async () => {
    await vscode.commands.executeCommand('healthData.setSourceFilter', { source: '' });
    await vscode.commands.executeCommand('healthData.clearHumanFilter');
    await resetSettings();
  });

  it('names the environment, the range with its dates and the source above the tree', async () => {
    await treeRoots(api);
    const { start, end } = tree().dateRange;
    assert.equal(tree().viewText.message, `Showing Local sandbox · the last 30 days (${start} – ${end}) · all sources`);
    assert.equal(tree().viewText.description, 'last 30 days · all sources');
    await vscode.commands.executeCommand('healthData.setSourceFilter', { source: 'fitbit' });
    assert.equal(tree().viewText.message, `Showing Local sandbox · the last 30 days (${start} – ${end}) · source: fitbit`);
    assert.equal(tree().viewText.description, 'last 30 days · source: fitbit');
    assert.equal(await vscode.commands.executeCommand('healthData.clearSourceFilter'), true);
    assert.equal(tree().sourceFilter, undefined);
    assert.match(tree().viewText.message ?? '', /· all sources$/);
  });

  it('an empty resource says the source filter emptied it, and offers to clear it', async () => {
    await vscode.commands.executeCommand('healthData.setSourceFilter', { source: 'nosuchsource' });
    try {
      const kids = await children(await root('activity'));
      assert.equal(kids.length, 1, kids.map((k) => k.type).join());
      const empty = kids[0];
      assert.equal(empty.type, 'empty');
      assert.equal(label(empty), 'No records from source nosuchsource, at any date');
      assert.equal(item(empty).collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
      const actions = await children(empty);
      assert.deepEqual(actions.map(label), ['Clear the source filter (nosuchsource)', 'Set Date Range…']);
      const clear = item(actions[0]).command!;
      await vscode.commands.executeCommand(clear.command, ...(clear.arguments ?? []));
      assert.equal(tree().sourceFilter, undefined);
      assert.ok((await recordsUnder(api, await root('activity'))).length > 0);
    } finally {
      await vscode.commands.executeCommand('healthData.setSourceFilter', { source: '' });
    }
  });

  it('a human filter: only that human\'s records, asked of the service, named above the tree; a record\'s menu picks its human', async () => {
    await treeRoots(api);
    const { start, end } = tree().dateRange;
    const humans = tree().humansSeen();
    assert.ok(humans.length >= 2, JSON.stringify(humans));
    // Most records first, each counted over the three resources as loaded.
    for (let i = 1; i < humans.length; i++) assert.ok(humans[i - 1].records >= humans[i].records);
    const [first, second] = humans;
    const before = sandbox().requests.length;
    try {
      assert.equal(await vscode.commands.executeCommand('healthData.setHumanFilter', { humanId: first.humanId }), true);
      assert.equal(tree().humanFilter, first.humanId);
      assert.equal(tree().viewText.message, `Showing Local sandbox · the last 30 days (${start} – ${end}) · all sources · human: ${first.humanId}`);
      assert.equal(tree().viewText.description, `last 30 days · all sources · human: ${first.humanId.slice(0, 10)}…`);
      let total = 0;
      for (const kind of ['heartRate', 'activity', 'bodyFat'] as const) {
        const shown = (await recordsUnder(api, await root(kind))).map((n) => n.node.record as Rec);
        assert.ok(shown.every((r) => r.humanId === first.humanId), kind);
        assert.deepEqual(shown.map((r) => r.id).sort(), expectedRecords(api, kind).map((r) => r.id).sort(), kind);
        total += shown.length;
      }
      assert.equal(total, first.records, 'as many records as the pick list said');
      const lists = sandbox().requests.slice(before).filter((r) => /summaries|readings/.test(r.path));
      assert.ok(lists.length >= 3 && lists.every((r) => r.query.humanId === first.humanId), JSON.stringify(lists.map((r) => r.query)));
      // The pick list, while the filter is on, still offers every human of the records loaded
      // before it (the loaded records are all the filtered human's), with their counts.
      const pick = await answerQuickPick(
        (items) => items.find((i) => i.label === second.humanId),
        () => vscode.commands.executeCommand('healthData.setHumanFilter'),
      );
      assert.equal(pick.result, true);
      const offered = pick.offered.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator || i.label);
      assert.deepEqual(offered.map((i) => i.label), ['Every human', 'Humans in the records loaded before the human filter', ...humans.map((h) => h.humanId), '$(edit) Other…']);
      assert.equal(offered.find((i) => i.label === first.humanId)?.description, `${first.records} records · current`);
      assert.equal(tree().humanFilter, second.humanId);
      assert.ok((await recordsUnder(api, await root('activity'))).every((n) => (n.node.record as Rec).humanId === second.humanId));
      // A record's menu: that record's human, no question asked.
      const other = (sandbox().dataset.activity as unknown as Rec[]).find((r) => r.humanId === first.humanId)!;
      assert.equal(await vscode.commands.executeCommand('healthData.filterByRecordHuman', { type: 'record', node: { kind: 'activity', record: other } }), true);
      assert.equal(tree().humanFilter, first.humanId);
      assert.ok((await recordsUnder(api, await root('activity'))).every((n) => (n.node.record as Rec).humanId === first.humanId));
      assert.deepEqual(tree().humansSeen(), humans, 'the humans from before the filter, still');
      // Bad input changes nothing and says why.
      const messages = captureMessages(['error']);
      try {
        assert.equal(await vscode.commands.executeCommand('healthData.setHumanFilter', { humanId: 'two words' }), false);
        assert.equal(await vscode.commands.executeCommand('healthData.filterByRecordHuman', { type: 'record', node: { kind: 'activity', record: { id: 'x' } } }), false);
      } finally {
        messages.restore();
      }
      assert.deepEqual(messages.shown.map((m) => m.text), [
        'Human filter not changed: A human id cannot contain spaces or control characters.',
        'Human filter not changed: this record has no humanId.',
      ]);
      assert.equal(tree().humanFilter, first.humanId);
    } finally {
      assert.equal(await vscode.commands.executeCommand('healthData.clearHumanFilter'), true);
    }
    assert.equal(tree().humanFilter, undefined);
    assert.equal(tree().viewText.description, 'last 30 days · all sources');
  });

  it('an empty resource says the human filter emptied it, and offers to clear it', async () => {
    await vscode.commands.executeCommand('healthData.setHumanFilter', { humanId: 'nosuchhuman' });
    try {
      const empty = (await children(await root('activity')))[0];
      assert.equal(empty.type, 'empty');
      assert.equal(label(empty), 'No records of human nosuchhuman, at any date');
      assert.match(String(item(empty).tooltip), /The human filter emptied this list: the service has no activity summaries of human nosuchhuman at all\./);
      const actions = await children(empty);
      assert.deepEqual(actions.map(label), ['Clear the human filter (nosuchhuman)', 'Set Date Range…']);
      const clear = item(actions[0]).command!;
      await vscode.commands.executeCommand(clear.command, ...(clear.arguments ?? []));
      assert.equal(tree().humanFilter, undefined);
      assert.ok((await recordsUnder(api, await root('activity'))).length > 0);
    } finally {
      await vscode.commands.executeCommand('healthData.clearHumanFilter');
    }
  });

  it('a source that has records on other dates: both filters named, the jump offered', async () => {
    // Body fat readings come from scales only: fitbit has none of them, at any date.
    await vscode.commands.executeCommand('healthData.setSourceFilter', { source: 'fitbit' });
    try {
      const bodyFat = (await children(await root('bodyFat')))[0];
      assert.equal(label(bodyFat), 'No records from source fitbit, at any date');
      // Narrow the dates to one before the sandbox's data: now the dates empty fitbit's activity too.
      await vscode.commands.executeCommand('healthData.setDateRange', { start: '2001-01-01', end: '2001-01-30' });
      const empty = (await children(await root('activity')))[0];
      assert.equal(label(empty), 'No records from source fitbit in 2001-01-01 – 2001-01-30');
      const fitbit = (sandbox().dataset.activity as unknown as Rec[]).filter((r) => r.source === 'fitbit').map((r) => r.date!).sort();
      assert.equal(item(empty).description, `records from ${fitbit[0]} to ${fitbit.at(-1)}`);
      const labels = (await children(empty)).map(label);
      assert.ok(labels[0].startsWith(`Jump to `) && labels[0].includes(fitbit.at(-1)!), labels.join(' | '));
      assert.ok(labels.includes('Clear the source filter (fitbit)'), labels.join(' | '));
    } finally {
      await vscode.commands.executeCommand('healthData.setSourceFilter', { source: '' });
      await vscode.commands.executeCommand('healthData.setDateRange', { days: 30 });
    }
  });

  it('a service whose data is older than the range: the range named, the newest date found, the jump works', async () => {
    const older = await startSandbox({ seed: 'older-service', days: 60, today: '2025-03-14' });
    try {
      await withService(older, async () => {
        const { start, end } = tree().dateRange;
        for (const kind of ['heartRate', 'activity', 'bodyFat'] as const) {
          const empty = (await children(await root(kind)))[0];
          assert.equal(empty.type, 'empty', `${kind}: ${label(empty)}`);
          assert.equal(label(empty), `No records in the last 30 days (${start} – ${end})`);
          const dates = (older.dataset[kind] as unknown as Rec[]).map((r) => localDateOf(r, kind)!).sort();
          assert.equal(item(empty).description, `records from ${dates[0]} to ${dates.at(-1)}`);
          assert.match(String(item(empty).tooltip), /The date range emptied this list/);
        }
        // Grouped by date first, each empty resource says so at the top, by name.
        await vscode.commands.executeCommand('healthData.groupByDate');
        try {
          const top = await treeRoots(api);
          assert.deepEqual(top.map(label), ['heartRate', 'activity', 'bodyFat'].map((k) => `${resource(k as ResourceKind).label}: No records in the last 30 days (${start} – ${end})`));
          assert.ok(top.every((n) => n.type === 'empty'));
        } finally {
          await vscode.commands.executeCommand('healthData.groupByResource');
        }
        const empty = (await children(await root('activity')))[0];
        const actions = await children(empty);
        assert.deepEqual(actions.map(label), [
          'Jump to 2025-02-13 – 2025-03-14 (the newest 30 days with records)',
          `Show every date with records: 2025-01-14 – 2025-03-14`,
          'Set Date Range…',
        ]);
        const jump = item(actions[0]).command!;
        assert.equal(await vscode.commands.executeCommand(jump.command, ...(jump.arguments ?? [])), true);
        assert.deepEqual({ ...tree().dateRange }, { start: '2025-02-13', end: '2025-03-14' });
        const shown = await recordsUnder(api, await root('activity'));
        assert.ok(shown.length > 0);
        assert.ok(shown.every((n) => n.node.date! >= '2025-02-13' && n.node.date! <= '2025-03-14'));
      });
    } finally {
      await older.close();
      await vscode.commands.executeCommand('healthData.setDateRange', { days: 30 });
    }
  });

  it('shows the newest records first from a service that pages oldest first, and Load More walks back', async () => {
    await setSetting('pageSize', 20);
    try {
      sandbox().addFault({ fault: 'oldest-first', path: '/activities' });
      const requests = sandbox().requests.length;
      await vscode.commands.executeCommand('healthData.refresh');
      const rootNode = await root('activity');
      const expected = expectedRecords(api, 'activity') as unknown as Rec[];
      const newestDates = newestFirst(expected.map((r) => r.date!));
      const firstScreen = await recordsUnder(api, rootNode);
      assert.equal(firstScreen.length, 20);
      // The newest twenty records of the range, not the oldest.
      assert.deepEqual(firstScreen.map((n) => n.node.date).sort().reverse(), newestDates.slice(0, 20));
      // What it cost: the first page (found running oldest first), then the last page.
      const lists = sandbox().requests.slice(requests).filter((r) => r.path === resource('activity').listPath);
      assert.deepEqual(lists.map((r) => r.query.offset ?? '0'), ['0', String(expected.length - 20)]);
      let more: TreeItemNode | undefined;
      let clicks = 0;
      while ((more = (await children(rootNode)).find((n) => n.type === 'loadMore'))) {
        await vscode.commands.executeCommand('healthData.loadMore', more);
        clicks++;
        const shown = await recordsUnder(api, rootNode);
        // Every click adds the next older records, never a gap.
        assert.deepEqual(shown.map((n) => n.node.date).sort().reverse(), newestDates.slice(0, shown.length));
      }
      assert.equal(clicks, Math.ceil(expected.length / 20) - 1);
      assert.deepEqual((await recordsUnder(api, rootNode)).map((n) => n.node.id).sort(), expected.map((r) => r.id).sort());
      assert.equal(tree().state('activity').incomplete, undefined);
    } finally {
      sandbox().clearFaults();
      await setSetting('pageSize', 500);
    }
  });

  it('reads the whole range from a service that pages oldest first and sends no count', async () => {
    const uncounted = await startSandbox({ seed: 'uncounted', days: 40, paging: 'offset', faults: [{ fault: 'oldest-first' }] });
    try {
      await withService(uncounted, async () => {
        await setSetting('pageSize', 10);
        const rootNode = await root('activity');
        const shown = await recordsUnder(api, rootNode);
        const { start, end } = tree().dateRange;
        const expected = (uncounted.dataset.activity as unknown as Rec[]).filter((r) => r.date! >= start && r.date! <= end);
        assert.deepEqual(shown.map((n) => n.node.id).sort(), expected.map((r) => r.id).sort());
        assert.ok((await children(rootNode)).every((n) => n.type !== 'loadMore'));
      });
    } finally {
      await setSetting('pageSize', 500);
      await uncounted.close();
    }
  });

  it('grouped by date, marks the days and months that may hold records not loaded yet, and loads them there', async () => {
    await setSetting('pageSize', 20);
    await vscode.commands.executeCommand('healthData.groupByDate');
    try {
      await treeRoots(api);
      const state = tree().state('activity');
      assert.ok(state.hasMore && state.loadedFrom, 'activity has more pages');
      const total = state.total!;
      const roots = await treeRoots(api);
      const months = roots.filter((n) => n.type === 'month');
      let marked = 0;
      for (const month of months) {
        for (const date of await children(month)) {
          assert.ok(date.type === 'date');
          const description = String(item(date).description);
          const incomplete = date.date.date <= state.loadedFrom!;
          if (incomplete) {
            marked++;
            assert.match(description, new RegExp(`^\\d+ · incomplete: (.*; )?20 of ${total} activity summaries loaded`));
            assert.match(String(item(date).tooltip), /^May hold (.*, )?activity summaries(, .*)? not loaded yet/);
            const more = (await children(date)).find((n) => n.type === 'loadMore' && n.kind === 'activity');
            assert.ok(more, `no Load more under ${date.date.date}`);
            assert.equal(label(more), `Load more activity summaries (20 of ${total})`);
          } else {
            assert.doesNotMatch(description, /incomplete/, date.date.date);
          }
        }
      }
      assert.ok(marked >= 1);
      // Load More where the day shows it brings the next page of that resource.
      const oldest = state.loadedFrom!;
      const month = months.find((m) => m.type === 'month' && m.month.month === oldest.slice(0, 7))!;
      const day = (await children(month)).find((d) => d.type === 'date' && d.date.date === oldest)!;
      const more = (await children(day)).find((n) => n.type === 'loadMore' && n.kind === 'activity')!;
      await vscode.commands.executeCommand('healthData.loadMore', more);
      assert.equal(tree().state('activity').records.length, 40);
      assert.ok(tree().state('activity').loadedFrom! < oldest);
    } finally {
      await vscode.commands.executeCommand('healthData.groupByResource');
      await setSetting('pageSize', 500);
    }
  });

  it('never calls a record with zeros or a deprecated field clean: its own icon, words and tooltip marks', async () => {
    const shown = await recordsUnder(api, await root('activity'));
    const googlefit = shown.find((n) => (n.node.record as Rec).source === 'googlefit');
    assert.ok(googlefit);
    assert.equal(statusOf(recordNode('activity', googlefit.node.record, 0)), 'notes');
    assert.equal(iconId(googlefit), 'info');
    const it = item(googlefit);
    assert.equal(it.description, '5 zeros · deprecated');
    assert.match(it.accessibilityInformation!.label, /notes: 5 zero fields, 1 deprecated field$/);
    const tooltip = (tree().resolveTreeItem(it, googlefit) as vscode.TreeItem).tooltip as vscode.MarkdownString;
    // The zero said from googlefit's other records loaded: it never sends steps.
    const others = shown.filter((n) => (n.node.record as Rec).source === 'googlefit').length - 1;
    assert.ok(others >= 3, `${others} other googlefit records`);
    assert.ok(tooltip.value.split('\n').includes(`- steps: 0 — 0 zero: 0 — googlefit does not provide steps: 0 on all its ${others} other records loaded`), tooltip.value);
    assert.match(tooltip.value, /^- ~~userId~~: .* — ⊘ deprecated: userId is deprecated: use humanId$/m);
    // Its label is not "0 steps", a number it never sends, but its calories; the step counters keep their steps.
    for (const n of shown) {
      const r = n.node.record as Record<string, unknown>;
      const text = String(item(n).label);
      if (r.source === 'googlefit') assert.equal(text, `googlefit · ${(r.calories as number).toLocaleString('en-US')} kcal`);
      else if (r.source === 'fitbit' || r.source === 'moves') assert.equal(text, `${r.source as string} · ${(r.steps as number).toLocaleString('en-US')} steps`);
    }
    assert.ok(shown.every((n) => iconId(n) !== 'pass' || statusOf(n.node) === 'clean'));
    // A wrist tracker's day with 0 steps, shown in the tree (revealed: the filter does not bring it), stands out.
    // A copy of a fitbit day with no 0 of its own (on about a third of days its vigorous or
    // moderate minutes are 0), so the copy's one zero is its steps.
    const fitbit = shown.find((n) => (n.node.record as Rec).source === 'fitbit' && validate(n.node.record, 'activity').findings.every((f) => f.kind !== 'zero'))!;
    const zeroDay = { ...(fitbit.node.record as Record<string, unknown>), id: 'tree-zero-steps', steps: 0 };
    await tree().reveal('activity', zeroDay);
    const revealed = (await recordsUnder(api, await root('activity'))).find((n) => n.node.id === 'tree-zero-steps');
    assert.ok(revealed, 'the revealed record is not in the tree');
    const zeroItem = item(revealed);
    assert.match(String(zeroItem.description), /^unusual 0: steps · 1 zero( · deprecated)?$/);
    assert.match(zeroItem.accessibilityInformation!.label, /, unusual 0: steps$/);
    const fitbits = (await recordsUnder(api, await root('activity'))).filter((n) => (n.node.record as Rec).source === 'fitbit');
    const sent = fitbits.filter((n) => n !== revealed && typeof (n.node.record as Record<string, unknown>).steps === 'number' && (n.node.record as Record<string, unknown>).steps !== 0).length;
    const zeroTip = ((tree().resolveTreeItem(zeroItem, revealed) as vscode.TreeItem).tooltip as vscode.MarkdownString).value;
    assert.ok(zeroTip.split('\n').some((l) => l.startsWith(`- steps: 0 — 0 zero: 0 — unusual for fitbit: steps is not 0 on ${sent === fitbits.length - 1 ? 'all' : `${sent} of`} its ${fitbits.length - 1} other`)), zeroTip);
    // Every other record is marked exactly when one of its zeros stands out among its source's others (counted apart, by compareZeros).
    const all = (await recordsUnder(api, await root('activity'))).map((n) => n.node.record);
    for (const n of await recordsUnder(api, await root('activity'))) {
      const stands = compareZeros(n.node.record, validate(n.node.record, 'activity').findings, all).unusual > 0;
      assert.equal(String(item(n).description).includes('unusual 0'), stands, `${label(n)}: ${String(item(n).description)}`);
    }
    // Heart rate labels say which number they show.
    const hr = await recordsUnder(api, await root('heartRate'));
    assert.ok(hr.every((n) => /· (resting|value|average) \d+ bpm$|no value$/.test(label(n))), hr.map(label).join(' | '));
  });

  it('get by date with several records on the date: says how many, opens one or all', async () => {
    const all = sandbox().dataset.activity as unknown as Rec[];
    const date = all[0].date!;
    const sharing = all.filter((r) => r.date === date);
    assert.ok(sharing.length >= 3);
    const messages = captureMessages(['info']);
    try {
      const one = (await vscode.commands.executeCommand('healthData.activity.getByDate', { date })) as Rec;
      assert.ok(one && !Array.isArray(one));
      const said = messages.shown.find((m) => m.text.startsWith(`${sharing.length} activity summaries are dated ${date} (`));
      assert.ok(said, JSON.stringify(messages.shown));
      assert.match(said.text, new RegExp(`; opened the one from ${one.source}\\.$`));
      const every = (await vscode.commands.executeCommand('healthData.activity.getByDate', { date, pick: 'all' })) as Rec[];
      assert.deepEqual(every.map((r) => r.id).sort(), sharing.map((r) => r.id).sort());
      for (const r of sharing) assert.ok(api.recordViews.panels().some((p) => p.key === `activity/${r.id}`), `no panel for ${r.source}`);
      const other = sharing.find((r) => r.id !== one.id)!;
      const picked = (await vscode.commands.executeCommand('healthData.activity.getByDate', { date, pick: other.id })) as Rec;
      assert.equal(picked.id, other.id);
    } finally {
      messages.restore();
      api.recordViews.closeAll();
    }
  });
});
