// The insights commands in a real extension host against the local sandbox: Show Data Coverage
// (palette argument and the Records view's resource node) counts every record of the view's
// range as the core does over the sandbox's own data; a cell lists its records and opens one;
// Show Trends draws the three resources for one human, refuses a bad range, opens a point's record;
// a failing service becomes a message in the panel, not an unhandled rejection; Cancel while
// every page loads stops the requests at once and the panel says so; a coverage or trends panel
// restored after a reload loads its own range, source and human again from the environment it
// came from, or says it came from elsewhere and asks nothing until Reload.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { localDateOf } from '../../src/core/dates';
import { computeCoverage } from '../../src/core/insights';
import type { ResourceKind } from '../../src/core/resources';
import type { CoverageViewModel, InsightsHostMessage, TrendsViewModel } from '../../src/core/views';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import { parseFaultSpec, startSandbox } from '../../src/sandbox/server';
import { DEFAULT_ENVIRONMENT, SANDBOX_ENVIRONMENT } from '../../src/extension/account/environments';
import { resetSettings, runningSandbox, setSetting, treeRoots, waitFor, withSandbox } from './support/extension';

describe('insights: data coverage and trends', function () {
  this.timeout(60_000);
  let api: HealthDataExtensionApi;

  /** The sandbox's records of a kind inside the Records view's range: what the panels must count. */
  const inRange = (kind: ResourceKind): unknown[] => {
    const { start, end } = api.tree.dateRange;
    return (runningSandbox(api).dataset[kind] as unknown[]).filter((r) => {
      const date = localDateOf(r, kind);
      return date !== undefined && date >= start && date <= end;
    });
  };

  before(async () => {
    await resetSettings();
    api = await withSandbox();
    await treeRoots(api);
  });

  afterEach(() => {
    runningSandbox(api).clearFaults();
    api.recordViews.closeAll();
  });

  after(() => {
    api.insights.coverage.close();
    api.insights.trends.close();
  });

  it('Show Data Coverage on the activity node counts every record of the range, as the core does over the sandbox data', async () => {
    const roots = await treeRoots(api);
    const node = roots.find((n) => n.type === 'resource' && n.kind === 'activity');
    assert.ok(node, 'the activity root');
    const model = (await vscode.commands.executeCommand('healthData.showCoverage', node)) as CoverageViewModel;
    assert.ok(model.report, `no report: ${JSON.stringify(model.status)}`);
    const { start, end } = api.tree.dateRange;
    const expected = computeCoverage('activity', inRange('activity'), { from: start, to: end });
    // Every page was loaded (more than one page of the default 50), and nothing counted twice.
    assert.ok(expected.records > 50, `records in range: ${expected.records}`);
    assert.deepEqual(model.report, expected);
    // The real cases: the phone never sends steps; the step counter's days reported twice.
    const googlefit = model.report.sources.find((s) => s.source === 'googlefit');
    assert.equal(googlefit?.fields.find((f) => f.field === 'steps')?.verdict, 'never');
    assert.equal(model.report.sources.find((s) => s.source === 'fitbit')?.fields.find((f) => f.field === 'steps')?.verdict, 'provided');
    // The step counter's human: the phone beside the counter (moves, or misfit about one day in eight).
    const counter = runningSandbox(api).dataset.humans[2];
    assert.ok(model.report.overlaps.length > 0);
    for (const o of model.report.overlaps) assert.ok(o.humanId === counter && o.sources.includes('googlefit') && (o.sources.includes('moves') || o.sources.includes('misfit')), JSON.stringify(o));
    assert.ok(model.report.notes.some((n) => n.kind === 'unknownFields' && n.source === 'moves' && n.items.some((i) => i.name === 'activeMinutes')));
    // The matrix names the schema's deprecated field so.
    assert.deepEqual(model.deprecatedFields, ['userId']);
    // Its counts of the schema's numbers say "non-zero", of other fields "sent".
    assert.deepEqual(model.numericFields, ['duration', 'distance', 'steps', 'vigorous', 'moderate', 'light', 'sedentary', 'calories']);
    const panel = api.insights.coverage.currentPanel;
    assert.ok(panel);
    await waitFor('the coverage webview to say ready', () => panel.readyCount > 0, 20_000);
    assert.equal(panel.panel.title, 'Data Coverage');
  });

  it('a cell lists its records, and one opens in the record view', async () => {
    const model = (await vscode.commands.executeCommand('healthData.showCoverage', 'activity')) as CoverageViewModel;
    assert.ok(model.report);
    const view = api.insights.coverage;
    const panel = view.currentPanel!;
    view.handleMessage({ type: 'cell', source: 'googlefit', field: 'steps', which: 'zero' });
    const listed = panel.posted.at(-1);
    assert.ok(listed && listed.type === 'cellRecords');
    const googlefit = model.report.sources.find((s) => s.source === 'googlefit')!;
    assert.equal(listed.records.length + listed.more, googlefit.fields.find((f) => f.field === 'steps')!.zero);
    assert.ok(listed.records.every((r) => r.label.includes('googlefit')));
    view.handleMessage({ type: 'open', kind: 'activity', ref: listed.records[0].ref });
    const opened = await waitFor('the record view', () => api.recordViews.panels().find((p) => p.kind === 'activity'));
    assert.match(opened.title, /^Activity \d{4}-\d{2}-\d{2} · googlefit$/);
  });

  it('Show Data Coverage of body fat notes readings without tzOffset and the units per source', async () => {
    const model = (await vscode.commands.executeCommand('healthData.showCoverage', { kind: 'bodyFat' })) as CoverageViewModel;
    assert.ok(model.report);
    assert.equal(model.report.records, inRange('bodyFat').length);
    const noTz = model.report.notes.find((n) => n.kind === 'noTzOffset');
    assert.equal(noTz?.source, 'omron');
    assert.deepEqual(model.report.notes.filter((n) => n.kind === 'units').map((n) => [n.source, n.items.map((i) => i.name)]), [['omron', ['%']], ['withings', ['percent']]]);
  });

  it('a failing service becomes a message in the coverage panel', async () => {
    runningSandbox(api).addFault({ fault: '500', path: '/heart_rate' });
    const model = (await vscode.commands.executeCommand('healthData.showCoverage', 'heartRate')) as CoverageViewModel;
    assert.equal(model.report, undefined);
    assert.equal(model.status?.state, 'error');
    assert.match(model.status!.message, /heart_rate\/summaries: 500 Internal Server Error/);
  });

  /**
   * Runs `command` with a cancellation token while pages after the first are slow, cancels once
   * the first page of `path` is answered, and returns the model shown plus the list requests that
   * started at the sandbox after the cancel (there must be none).
   */
  /**
   * Runs `command` and cancels it mid-load: once the first page of `path` is answered and the next
   * page (slowed down) is in flight, or with `onReply`, as the client hands on the first reply of
   * `path`. A list of one page (heart rate over the view's 30 days) leaves no moment between its
   * reply and the next resource's first request for a test to wait for: the cancel comes from the
   * history's listener, in the same turn as the reply.
   */
  const cancelWhileLoading = async <M>(command: string, arg: Record<string, unknown>, path: string, options: { onReply?: boolean } = {}) => {
    const sandbox = runningSandbox(api);
    // The Records view's own list loads (after an earlier test's setting change) are done first:
    // only the panel's requests are counted.
    await treeRoots(api);
    const latencyMs = 1500;
    sandbox.addFault(parseFaultSpec(`latency:ms=${latencyMs}:path=offset=`));
    const source = new vscode.CancellationTokenSource();
    let cancelledAt = 0;
    const cancel = () => {
      if (cancelledAt) return;
      cancelledAt = Date.now();
      source.cancel();
    };
    const startedAt = Date.now();
    const onReply = options.onReply
      ? api.history.onDidChange(() => {
          const newest = api.history.all()[0];
          if (newest && newest.url.includes(path) && Date.parse(newest.startedAt) >= startedAt) cancel();
        })
      : undefined;
    try {
      const before = sandbox.requests.length;
      const running = vscode.commands.executeCommand(command, { ...arg, cancellation: source.token });
      if (!onReply) {
        await waitFor('the first page answered', () => sandbox.requests.slice(before).some((r) => r.path.includes(path) && r.status === 200));
        cancel();
      }
      const model = (await running) as M;
      assert.ok(cancelledAt > 0, 'cancelled while loading');
      // A loop that went on would ask for the next page as soon as the slow one came back.
      await new Promise((resolve) => setTimeout(resolve, latencyMs * 2));
      const lists = sandbox.requests.slice(before).filter((r) => /summaries|readings/.test(r.path));
      // Asked for after the cancel, by the client's own clock (the same thread as this test): a
      // page the client sent just before the cancel may reach the sandbox just after it.
      const after = api.history.all().filter((e) => /summaries|readings/.test(e.url) && Date.parse(e.startedAt) > cancelledAt);
      // The slowed pages (those with an offset) in flight at the cancel: the cancel ends them (no
      // reply), it does not wait them out. A page without the fault's latency that the client sent
      // just before the cancel may reach the sandbox just after it and be answered at once, before
      // the sandbox sees the connection close (seen once in about 25 runs): it was never waited out.
      const answered = lists.filter((r) => r.query.offset !== undefined && r.startedAt >= cancelledAt && r.status !== 0);
      assert.deepEqual(answered, [], 'the pages in flight at the cancel are ended, not answered');
      return { model, lists, after };
    } finally {
      onReply?.dispose();
      sandbox.clearFaults();
      source.dispose();
    }
  };

  it('Cancel while coverage loads every page: no request after it, and the panel says loading was cancelled', async () => {
    // A new panel: nothing loaded before to keep showing.
    api.insights.coverage.close();
    const { model, lists, after } = await cancelWhileLoading<CoverageViewModel>('healthData.showCoverage', { kind: 'activity' }, '/activities/');
    assert.deepEqual(after, [], 'no page asked for after the cancel');
    assert.ok(lists.length >= 1, 'the first page was asked for');
    assert.equal(model.report, undefined);
    assert.equal(model.status?.state, 'cancelled');
    assert.equal(model.status?.message, 'Loading was cancelled. Reload to try again.');
    const view = api.insights.coverage;
    const shown = view.currentPanel!.posted.at(-1);
    assert.ok(shown && shown.type === 'coverage' && shown.model.status?.state === 'cancelled', 'the panel shows the cancel');
    // Nothing lost: Reload in the panel loads the whole range again.
    view.handleMessage({ type: 'reload' });
    const reloaded = await waitFor('the reloaded report', () => view.currentModel?.report, 30_000);
    assert.equal(reloaded.records, inRange('activity').length);
  });

  it('a cancelled or failed reload keeps the counts of the last complete load, marked, and its cells still open', async () => {
    const complete = (await vscode.commands.executeCommand('healthData.showCoverage', 'activity')) as CoverageViewModel;
    assert.ok(complete.report);
    const { model, after } = await cancelWhileLoading<CoverageViewModel>('healthData.showCoverage', { kind: 'activity' }, '/activities/');
    assert.deepEqual(after, [], 'no page asked for after the cancel');
    assert.deepEqual(model.report, complete.report, 'the counts of the complete load');
    assert.equal(model.status?.state, 'cancelled');
    assert.match(model.status!.message, /^Loading was cancelled\. Still showing what was loaded at \S.*\.$/);
    const view = api.insights.coverage;
    view.handleMessage({ type: 'cell', source: 'googlefit', field: 'steps', which: 'zero' });
    const listed = view.currentPanel!.posted.at(-1);
    assert.ok(listed && listed.type === 'cellRecords' && listed.records.length > 0, 'the kept counts still list their records');
    // A failing service: the same, with the failure named.
    runningSandbox(api).addFault({ fault: '500', path: '/activities' });
    const failed = (await vscode.commands.executeCommand('healthData.showCoverage', 'activity')) as CoverageViewModel;
    assert.deepEqual(failed.report, complete.report);
    assert.equal(failed.status?.state, 'error');
    assert.match(failed.status!.message, /^Loading failed: .*500 Internal Server Error.* Still showing what was loaded at \S.*\.$/);
    // Another resource's failure does not show activity's counts.
    runningSandbox(api).addFault({ fault: '500', path: '/body_fat' });
    const other = (await vscode.commands.executeCommand('healthData.showCoverage', 'bodyFat')) as CoverageViewModel;
    assert.equal(other.report, undefined);
  });

  it('Cancel while trends load: the other resources are never asked for, and the panel says loading was cancelled', async () => {
    const { model, lists, after } = await cancelWhileLoading<TrendsViewModel>('healthData.showTrends', {}, '/heart_rate', { onReply: true });
    assert.deepEqual(after, [], 'no page asked for after the cancel');
    assert.ok(lists.every((r) => r.path.includes('/heart_rate')), lists.map((r) => r.path).join(', '));
    assert.deepEqual(model.sections, []);
    assert.equal(model.status?.state, 'cancelled');
    assert.equal(model.status?.message, 'Loading was cancelled. Reload to try again.');
    const trends = api.insights.trends;
    trends.handleMessage({ type: 'reload' });
    const reloaded = await waitFor('the reloaded charts', () => (trends.currentModel?.sections.length ? trends.currentModel : undefined), 30_000);
    assert.deepEqual(reloaded.sections.map((s) => s.kind), ['heartRate', 'activity', 'bodyFat']);
  });

  it('Show Trends draws the three resources for the human with most records; a point opens its record', async () => {
    const model = (await vscode.commands.executeCommand('healthData.showTrends')) as TrendsViewModel;
    assert.equal(model.status, undefined, JSON.stringify(model.status));
    assert.deepEqual(model.sections.map((s) => s.kind), ['heartRate', 'activity', 'bodyFat']);
    assert.equal(model.humanId, model.humans[0].humanId);
    const activity = model.sections.find((s) => s.kind === 'activity')!;
    assert.deepEqual(activity.charts.map((c) => c.id), ['steps', 'calories', 'distance']);
    const steps = activity.charts[0];
    const own = inRange('activity').filter((r) => (r as { humanId: string }).humanId === model.humanId);
    assert.equal(steps.xs.length, new Set(own.map((r) => (r as { date: string }).date)).size);
    // A point opens the record behind it.
    const series = steps.series.find((s) => s.values.some((v) => v !== null))!;
    const at = series.values.findIndex((v) => v !== null);
    const trends = api.insights.trends;
    await waitFor('the trends webview to say ready', () => trends.currentPanel!.readyCount > 0, 20_000);
    trends.handleMessage({ type: 'open', kind: 'activity', ref: series.refs[at] });
    const opened = await waitFor('the record view', () => api.recordViews.panels().find((p) => p.kind === 'activity'));
    assert.ok(opened.title.includes(series.source), opened.title);
  });

  it('a cancelled reload of the trends keeps the charts of the last complete load, marked', async () => {
    const complete = (await vscode.commands.executeCommand('healthData.showTrends')) as TrendsViewModel;
    assert.equal(complete.status, undefined);
    const { model, after } = await cancelWhileLoading<TrendsViewModel>('healthData.showTrends', {}, '/heart_rate', { onReply: true });
    assert.deepEqual(after, [], 'no page asked for after the cancel');
    assert.deepEqual(model.sections, complete.sections, 'the charts of the complete load');
    assert.equal(model.humanId, complete.humanId);
    assert.equal(model.status?.state, 'cancelled');
    assert.match(model.status!.message, /^Loading was cancelled\. Still showing what was loaded at \S.*\.$/);
  });

  it('Show Trends over another human: the phone that never sends steps draws only marked gaps', async () => {
    await vscode.commands.executeCommand('healthData.showTrends');
    const trends = api.insights.trends;
    const third = runningSandbox(api).dataset.humans[2];
    trends.handleMessage({ type: 'selectHuman', humanId: third });
    const model = await waitFor('the third human', () => (trends.currentModel?.humanId === third ? trends.currentModel : undefined));
    const steps = model.sections.find((s) => s.kind === 'activity')!.charts.find((c) => c.id === 'steps')!;
    const phone = steps.series.find((s) => s.source === 'googlefit')!;
    assert.equal(phone.never, true);
    assert.ok(phone.values.every((v) => v === null));
    assert.ok(phone.gaps.length > 0);
    const moves = steps.series.find((s) => s.source === 'moves')!;
    assert.equal(moves.never, false);
    // A point of this human opens this human's record (of that source and day), not another's.
    const at = moves.values.length - 1 - [...moves.values].reverse().findIndex((v) => v !== null);
    const day = new Date(steps.xs[at] * 1000).toISOString().slice(0, 10);
    const expected = inRange('activity').find((r) => {
      const o = r as { humanId: string; source: string; date: string };
      return o.humanId === third && o.source === 'moves' && o.date === day;
    }) as { id: string } | undefined;
    assert.ok(expected, `the sandbox has a moves record of the third human on ${day}`);
    await waitFor('the trends webview to say ready', () => trends.currentPanel!.readyCount > 0, 20_000);
    trends.handleMessage({ type: 'open', kind: 'activity', ref: moves.refs[at] });
    await waitFor(`the record view of ${expected.id}`, () => api.recordViews.panels().find((p) => p.key === `activity/${expected.id}`));
  });

  it('Show Trends refuses a range that is no range, and takes a good one', async () => {
    await vscode.commands.executeCommand('healthData.showTrends');
    const trends = api.insights.trends;
    const before = trends.currentModel;
    trends.handleMessage({ type: 'setRange', start: '2026-02-30', end: '2026-03-01' });
    const refused = trends.currentPanel!.posted.at(-1);
    assert.ok(refused && refused.type === 'rangeRefused');
    assert.match(refused.message, /2026-02-30 is not a real calendar date/);
    assert.equal(trends.currentModel, before, 'the charts stay');
    const { end } = api.tree.dateRange;
    const model = (await vscode.commands.executeCommand('healthData.showTrends', { start: end, end })) as TrendsViewModel;
    assert.equal(model.start, end);
    assert.ok(model.sections.find((s) => s.kind === 'activity')!.charts[0].xs.length <= 1);
  });

  it('coverage and trends follow the Records view\'s human filter: one human\'s records, named in the heading', async () => {
    const human = runningSandbox(api).dataset.humans[1];
    await vscode.commands.executeCommand('healthData.setHumanFilter', { humanId: human });
    try {
      const before = runningSandbox(api).requests.length;
      const model = (await vscode.commands.executeCommand('healthData.showCoverage', 'activity')) as CoverageViewModel;
      assert.ok(model.report, JSON.stringify(model.status));
      const { start, end } = api.tree.dateRange;
      const own = inRange('activity').filter((r) => (r as { humanId: string }).humanId === human);
      assert.ok(own.length > 0);
      assert.deepEqual(model.report, computeCoverage('activity', own, { from: start, to: end }));
      assert.ok(model.heading.includes(`human ${human}`), model.heading);
      const pages = runningSandbox(api).requests.slice(before).filter((r) => r.path.includes('/activities/'));
      assert.ok(pages.length > 0 && pages.every((r) => r.query.humanId === human));
      const trends = (await vscode.commands.executeCommand('healthData.showTrends')) as TrendsViewModel;
      assert.deepEqual(trends.humans.map((h) => h.humanId), [human]);
      assert.equal(trends.humanId, human);
      assert.ok(trends.heading.includes(`human ${human}`), trends.heading);
    } finally {
      await vscode.commands.executeCommand('healthData.clearHumanFilter');
    }
    // Every human again, and the panel keeps the human it showed; the tests after this one start
    // from the human with most records, as a new panel does.
    const all = (await vscode.commands.executeCommand('healthData.showTrends')) as TrendsViewModel;
    assert.ok(all.humans.length > 1);
    assert.equal(all.humanId, human);
    assert.ok(!all.heading.includes('human'), all.heading);
    api.insights.trends.handleMessage({ type: 'selectHuman', humanId: all.humans[0].humanId });
    await waitFor('the human with most records', () => api.insights.trends.currentModel?.humanId === all.humans[0].humanId);
  });

  describe('restored after a reload', () => {
    /** The list requests the sandbox answered since `from`. */
    const listsSince = (from: number) => runningSandbox(api).requests.slice(from).filter((r) => /summaries|readings/.test(r.path));
    const restoredPanel = (viewType: string) => vscode.window.createWebviewPanel(viewType, 'restoring', vscode.ViewColumn.Active, {});
    const lastPersist = (posted: readonly InsightsHostMessage[]) => {
      const last = posted.at(-1);
      return last && (last.type === 'coverage' || last.type === 'trends') ? last.persist : undefined;
    };

    it('the coverage panel keeps its resource, range, source, human and environment, and loads them again from there', async () => {
      await vscode.commands.executeCommand('healthData.showCoverage', 'bodyFat');
      const view = api.insights.coverage;
      const kept = lastPersist(view.currentPanel!.posted);
      const { start, end } = api.tree.dateRange;
      assert.deepEqual(
        { ...kept, host: undefined, description: undefined },
        { kind: 'bodyFat', start, end, source: api.tree.sourceFilter, human: api.tree.humanFilter, environment: api.session.active?.name, host: undefined, description: undefined },
      );
      assert.match(kept?.host ?? '', /^127\.0\.0\.1:\d+$/);
      view.close();
      // A narrower range and one source than the Records view's: the panel keeps its own.
      // And one human's records, as the Records view's human filter had them.
      // The newest day of the range with a fitbit record: the range's end is the local date, which
      // on a machine ahead of UTC is a day the sandbox (dating by UTC) has no data for yet.
      const fitbitThatDay = inRange('activity')
        .filter((r) => (r as { source: string }).source === 'fitbit')
        .sort((a, b) => ((a as { date: string }).date < (b as { date: string }).date ? 1 : -1))[0] as { date: string; humanId: string } | undefined;
      const day = fitbitThatDay?.date ?? 'no fitbit record in the range';
      const human = fitbitThatDay?.humanId ?? 'no fitbit record in the range';
      const persist = { ...kept, kind: 'activity', start: day, end: day, source: 'fitbit', human, description: undefined };
      const before = runningSandbox(api).requests.length;
      const model = await view.revive(restoredPanel('healthData.coverage'), { persist });
      assert.ok(model?.report, JSON.stringify(model?.status));
      const expected = inRange('activity').filter((r) => {
        const o = r as { date: string; source: string; humanId: string };
        return o.date === day && o.source === 'fitbit' && o.humanId === human;
      });
      assert.ok(expected.length > 0, 'fitbit has a record of that human that day');
      assert.equal(model.report.records, expected.length);
      assert.ok(model.heading.includes('fitbit') && model.heading.includes(`human ${human}`) && model.heading.includes(api.session.active!.name), model.heading);
      const lists = listsSince(before);
      assert.ok(lists.length > 0 && lists.every((r) => r.path.includes('/activities/') && r.query.start_date === day && r.query.end_date === day && r.query.source === 'fitbit' && r.query.humanId === human), JSON.stringify(lists.map((r) => r.query)));
      assert.equal(view.currentPanel?.panel.title, 'Data Coverage');
      await waitFor('the restored webview to say ready', () => view.currentPanel!.readyCount > 0, 20_000);
    });

    it('a coverage panel from an environment that is not in use says so, asks nothing, and Reload loads from the one in use', async () => {
      const view = api.insights.coverage;
      view.close();
      const { start, end } = api.tree.dateRange;
      const before = runningSandbox(api).requests.length;
      const model = await view.revive(restoredPanel('healthData.coverage'), { persist: { kind: 'heartRate', start, end, environment: 'Staging', host: 'staging.example.com' } });
      assert.equal(model?.report, undefined);
      assert.equal(model?.status?.state, 'elsewhere');
      assert.equal(model?.status?.message, `Not loaded: this panel showed data from Staging, which no longer exists. Reload loads the same range from ${api.session.active!.name}.`);
      const shown = view.currentPanel!.posted.at(-1);
      assert.ok(shown?.type === 'coverage' && shown.model.status?.state === 'elsewhere', 'the panel shows it');
      assert.deepEqual(listsSince(before), [], 'nothing asked of the service in use');
      // The action is the user's: Reload loads the same range from the environment in use.
      view.handleMessage({ type: 'reload' });
      const reloaded = await waitFor('the reloaded report', () => view.currentModel?.report, 30_000);
      assert.equal(reloaded.records, inRange('heartRate').length);
      assert.equal(lastPersist(view.currentPanel!.posted)?.environment, api.session.active!.name);
    });

    it('a panel from an environment that exists (or comes back) but is not in use offers Switch to it, which loads from there and from nowhere else', async () => {
      const view = api.insights.coverage;
      view.close();
      const local = runningSandbox(api);
      const host = new URL(local.url).host;
      const { start, end } = api.tree.dateRange;
      // Another service with other data becomes the Default environment, and the one in use.
      const other = await startSandbox({ port: 0, days: 5, seed: 'another-service', clientId: 'other-client', clientSecret: 'other-secret-5e1a' });
      try {
        await setSetting('baseUrl', other.url);
        await vscode.commands.executeCommand('healthData.setCredentials', { environment: DEFAULT_ENVIRONMENT, clientId: other.clientId, clientSecret: other.clientSecret, skipCheck: true });
        assert.equal(api.session.active?.name, DEFAULT_ENVIRONMENT);
        // After a window reload the sandbox's environment appears only once the extension has
        // attached to it again: the panel first says it is gone, then offers to switch to it.
        const sandboxEnvironment = api.session.environments.find((e) => e.name === SANDBOX_ENVIRONMENT);
        assert.ok(sandboxEnvironment);
        api.session.setSandbox(undefined);
        const gone = await view.revive(restoredPanel('healthData.coverage'), { persist: { kind: 'activity', start, end, environment: SANDBOX_ENVIRONMENT, host } });
        assert.equal(gone?.status?.message, `Not loaded: this panel showed data from ${SANDBOX_ENVIRONMENT}, which no longer exists. Reload loads the same range from ${DEFAULT_ENVIRONMENT}.`);
        assert.equal(gone?.status?.switchBack, undefined);
        api.session.setSandbox(sandboxEnvironment);
        const model = await waitFor('the panel to offer Switch to', () => (view.currentModel?.status?.switchBack ? view.currentModel : undefined));
        assert.equal(model.report, undefined);
        const shown = view.currentPanel!.posted.at(-1);
        assert.ok(shown?.type === 'coverage' && shown.model.status?.switchBack === `Switch to ${SANDBOX_ENVIRONMENT}`, 'the panel shows it');
        assert.deepEqual(model.status, {
          state: 'elsewhere',
          message: `Not loaded: this panel showed data from ${SANDBOX_ENVIRONMENT}, but ${DEFAULT_ENVIRONMENT} is in use. Reload loads the same range from ${DEFAULT_ENVIRONMENT}; Switch to ${SANDBOX_ENVIRONMENT} loads it from ${SANDBOX_ENVIRONMENT} again.`,
          switchBack: `Switch to ${SANDBOX_ENVIRONMENT}`,
        });
        // Each setSandbox above invalidated the session, and the Records view loads its lists
        // again from the service in use (the other one) with the same range: that load is the
        // view's, not the panel's, so it is let finish before the panel's requests are counted.
        await treeRoots(api);
        const otherBefore = other.requests.length;
        const localBefore = local.requests.length;
        // The button's message: back to the sandbox, and the panel loads from it on its own.
        view.handleMessage({ type: 'switchEnvironment' });
        const report = await waitFor('the report from the environment switched back to', () => view.currentModel?.report, 30_000).catch((err: Error) => {
          throw new Error(`${err.message}: in use ${api.session.active?.name}, status ${JSON.stringify(view.currentModel?.status)}`);
        });
        assert.equal(api.session.active?.name, SANDBOX_ENVIRONMENT);
        assert.equal(report.records, inRange('activity').length);
        assert.ok(listsSince(localBefore).some((r) => r.path.includes('/activities/') && r.query.start_date === start && r.query.end_date === end), 'loaded from the sandbox');
        assert.deepEqual(
          other.requests.slice(otherBefore).filter((r) => r.path.includes('/activities/') && r.query.start_date === start && r.query.end_date === end && r.query.offset === undefined),
          [],
          'the panel asked nothing of the other service',
        );
        assert.equal(lastPersist(view.currentPanel!.posted)?.environment, SANDBOX_ENVIRONMENT);
      } finally {
        await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: SANDBOX_ENVIRONMENT });
        await api.session.credentials.clear(DEFAULT_ENVIRONMENT);
        await setSetting('baseUrl', undefined);
        await other.close();
        // Each of these made the Records view load its lists again: done before the next test
        // counts the sandbox's requests.
        await new Promise((resolve) => setTimeout(resolve, 250));
        await treeRoots(api);
      }
    });

    it('the trends panel comes back with its range and human; from elsewhere it only says so; a state that is no state closes it', async () => {
      const trends = api.insights.trends;
      trends.close();
      const { end } = api.tree.dateRange;
      const third = runningSandbox(api).dataset.humans[2];
      const here = api.session.active!;
      const before = runningSandbox(api).requests.length;
      const model = await trends.revive(restoredPanel('healthData.trends'), { persist: { start: end, end, humanId: third, environment: here.name } });
      assert.equal(model?.status, undefined, JSON.stringify(model?.status));
      assert.equal(model?.start, end);
      assert.equal(model?.humanId, third);
      assert.deepEqual(model?.sections.map((s) => s.kind), ['heartRate', 'activity', 'bodyFat']);
      assert.ok(listsSince(before).every((r) => r.query.start_date === end && r.query.end_date === end));
      assert.equal(lastPersist(trends.currentPanel!.posted)?.humanId, third);
      trends.close();

      const quiet = runningSandbox(api).requests.length;
      const elsewhere = await trends.revive(restoredPanel('healthData.trends'), { persist: { start: end, end, environment: 'Production', host: 'api.example.com' } });
      assert.equal(elsewhere?.status?.state, 'elsewhere');
      assert.match(elsewhere!.status!.message, /^Not loaded: this panel showed data from Production/);
      assert.deepEqual(listsSince(quiet), []);
      trends.close();

      const broken = restoredPanel('healthData.trends');
      let closed = false;
      broken.onDidDispose(() => (closed = true));
      assert.equal(await trends.revive(broken, { persist: { start: 'yesterday', end } }), undefined);
      assert.equal(closed, true);
      assert.equal(trends.currentPanel, undefined);
    });

    it('activation is declared for a coverage or trends panel, so a window reload can restore one (the restore itself: the e2e reload tests)', () => {
      const ext = vscode.extensions.all.find((e) => e.packageJSON?.name === 'health-data-explorer');
      const events = (ext?.packageJSON as { activationEvents?: string[] } | undefined)?.activationEvents ?? [];
      assert.ok(events.includes('onWebviewPanel:healthData.coverage') && events.includes('onWebviewPanel:healthData.trends'), events.join(', '));
    });
  });
});
