// The command palette requests against the local sandbox, in a real extension host: each
// endpoint with its arguments given, the checks that keep bad input from being sent, ids that
// must stay one path segment, 404s, cancellation, a change of environment mid-request, and the
// prompts themselves driven through the quick input.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { addDays, localDateOf } from '../../src/core/dates';
import { recordTitle } from '../../src/core/views';
import { RESOURCES, ResourceKind } from '../../src/core/resources';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import { dateProblem, idProblem, rangeProblem } from '../../src/extension/requests/prompts';
import { MessageLevel as Level, captureMessages, closeUntitledEditors, resetSettings, waitFor, withSandbox } from './support/extension';


interface Rec {
  id: string;
  humanId: string;
  date?: string;
  timestamp?: string;
  source: string;
}

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('command palette requests', function () {
  this.timeout(30_000);
  let api: HealthDataExtensionApi;
  let messages: ReturnType<typeof captureMessages>;

  const sandbox = () => {
    const running = api.sandbox.running;
    assert.ok(running, 'the sandbox is not running');
    return running;
  };
  const records = (kind: ResourceKind): Rec[] => (sandbox().dataset as unknown as Record<ResourceKind, Rec[]>)[kind];
  const firstHuman = (): string => sandbox().dataset.humans[0];
  const requestCount = (): number => sandbox().requests.length;
  const dataRequestsSince = (n: number) => sandbox().requests.slice(n).filter((r) => r.path.startsWith('/v1/human/'));
  /** Requests for one record since the n-th; the tree's own list loads (a reveal starts them) are left out. */
  const itemRequestsSince = (n: number) => dataRequestsSince(n).filter((r) => !RESOURCES.some((d) => d.listPath === r.path));
  const said = (level: Level, pattern: RegExp | string) =>
    messages.shown.find((m) => m.level === level && (typeof pattern === 'string' ? m.text.includes(pattern) : pattern.test(m.text)));

  /** The record panel showing this record (by its kind and id), with the title it should have. */
  const panelWith = (kind: ResourceKind, record: Rec) => {
    const panel = api.recordViews.panels().find((p) => p.key === `${kind}/${record.id}`);
    return panel && panel.title === recordTitle(record, kind) ? panel : undefined;
  };

  /** The untitled JSON document whose content is `value`. */
  const jsonDocumentWith = (value: unknown) =>
    vscode.workspace.textDocuments.find((d) => {
      if (!d.isUntitled || d.languageId !== 'json') return false;
      try {
        return JSON.stringify(JSON.parse(d.getText())) === JSON.stringify(value);
      } catch {
        return false;
      }
    });

  before(async () => {
    await resetSettings();
    api = await withSandbox();
  });

  beforeEach(() => {
    messages = captureMessages();
    sandbox().clearFaults();
  });

  afterEach(() => {
    messages.restore();
    sandbox().clearFaults();
  });

  after(async () => {
    // Revealing records opened the Records view; close it again so the suites after this one
    // start from the same workbench as when run alone (a visible view loads on its own).
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await api.tree.whenLoaded();
    api.recordViews.closeAll();
    await closeUntitledEditors();
  });

  for (const def of RESOURCES.filter((r) => r.byDate)) {
    it(`${def.kind}.getByDate returns the sandbox's record of that date, opens it and reveals it`, async () => {
      const expected = records(def.kind).find((r) => r.humanId === firstHuman());
      assert.ok(expected?.date);
      const before = requestCount();
      const record = await vscode.commands.executeCommand(`healthData.${def.kind}.getByDate`, { date: expected.date });
      assert.deepEqual(record, plain(expected));
      assert.deepEqual(itemRequestsSince(before).map((r) => [r.path, r.status]), [[`${def.itemPath}/${expected.date}`, 200]]);
      assert.ok(panelWith(def.kind, expected), 'no record panel shows the record');
      await assertRevealed(def.kind, expected.id);
      assert.deepEqual(messages.shown.filter((m) => m.level === 'error'), []);
    });
  }

  for (const def of RESOURCES) {
    it(`${def.kind}.getById returns the sandbox's record with that id`, async () => {
      // A record of another human too: by id is not limited to the first human.
      const list = records(def.kind);
      const expected = list[Math.floor(list.length / 2)];
      const record = await vscode.commands.executeCommand(`healthData.${def.kind}.getById`, { id: expected.id });
      assert.deepEqual(record, plain(expected));
      assert.ok(panelWith(def.kind, expected), 'no record panel shows the record');
      assert.deepEqual(messages.shown.filter((m) => m.level === 'error'), []);
    });
  }

  for (const def of RESOURCES.filter((r) => r.latestPath)) {
    it(`${def.kind}.getLatest returns the newest record of the first human`, async () => {
      const own = records(def.kind).filter((r) => r.humanId === firstHuman());
      const record = (await vscode.commands.executeCommand(`healthData.${def.kind}.getLatest`)) as Rec;
      assert.ok(record, 'no record returned');
      const expected = own.find((r) => r.id === record.id);
      assert.deepEqual(record, plain(expected));
      const newest = own.map((r) => Date.parse(r.timestamp ?? r.date ?? '')).reduce((a, b) => Math.max(a, b));
      assert.equal(Date.parse(record.timestamp ?? record.date ?? ''), newest);
      assert.ok(expected && panelWith(def.kind, expected), 'no record panel shows the record');
      await assertRevealed(def.kind, record.id);
    });
  }

  for (const def of RESOURCES) {
    it(`${def.kind}.list returns every record of a date range, opens them and says how it went`, async () => {
      const end = records(def.kind)[0].date ?? localDateOf(records(def.kind)[0], def.kind);
      assert.ok(end);
      const start = addDays(end, -6);
      const expected = records(def.kind).filter((r) => {
        const d = localDateOf(r, def.kind);
        return d !== undefined && d >= start && d <= end;
      });
      const before = requestCount();
      const result = (await vscode.commands.executeCommand(`healthData.${def.kind}.list`, { start, end })) as {
        records: Rec[];
        complete: boolean;
        pages: number;
      };
      assert.ok(result, 'no list returned');
      assert.equal(result.complete, true);
      assert.deepEqual(result.records.map((r) => r.id).sort(), expected.map((r) => r.id).sort());
      const sent = dataRequestsSince(before);
      assert.ok(sent.length >= 1 && sent.every((r) => r.path === def.listPath && r.query.start_date === start && r.query.end_date === end));
      const doc = jsonDocumentWith(result.records);
      assert.ok(doc, 'no untitled JSON document holds the list');
      // Plain words: how many of what, which dates, how many requests, what the validator found.
      const summary = said('info', `${expected.length} ${def.label.toLowerCase()} from ${start} to ${end}, in `);
      assert.ok(summary, `no summary among ${JSON.stringify(messages.shown)}`);
      assert.doesNotMatch(summary.text, /page\(s\)|bare array/);
      assert.match(summary.text, result.pages === 1 ? /, in one request;/ : new RegExp(`, in ${result.pages} requests;`));
      assert.match(summary.text, /validated, findings in the Problems panel: .*deprecated: \d+/);
      // The document is validated like a *.health.json file: one deprecated userId per record.
      const diagnostics = await waitFor('the list document validated', () => {
        const found = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'Health Data');
        return found.length > 0 && found;
      });
      assert.equal(diagnostics.filter((d) => d.tags?.includes(vscode.DiagnosticTag.Deprecated)).length, expected.length);
    });
  }

  it('a list of one record says "1 heart rate summary", not "summaries"', async () => {
    const byDate = new Map<string, number>();
    for (const r of records('heartRate')) byDate.set(r.date!, (byDate.get(r.date!) ?? 0) + 1);
    const date = [...byDate].find(([, n]) => n === 1)?.[0];
    assert.ok(date, 'a date with one heart rate summary');
    const result = (await vscode.commands.executeCommand('healthData.heartRate.list', { start: date, end: date })) as { records: Rec[] };
    assert.equal(result.records.length, 1);
    assert.ok(said('info', `1 heart rate summary from ${date} to ${date}, in one request;`), JSON.stringify(messages.shown));
  });

  it('a list with all: false reads one page only, and a source filter is sent', async () => {
    const before = requestCount();
    const result = (await vscode.commands.executeCommand('healthData.activity.list', { all: false, source: 'fitbit' })) as {
      records: Rec[];
      pages: number;
    };
    assert.equal(result.pages, 1);
    assert.ok(result.records.length > 0 && result.records.every((r) => r.source === 'fitbit'));
    const sent = dataRequestsSince(before);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].query.source, 'fitbit');
  });

  const refused: Array<[string, Record<string, unknown>, string]> = [
    ['healthData.activity.getByDate', { date: '2026-02-30' }, '2026-02-30 is not a real calendar date'],
    ['healthData.heartRate.getByDate', { date: '20/11/2026' }, 'is not a date written YYYY-MM-DD'],
    ['healthData.heartRate.getByDate', { date: '   ' }, 'Enter a date written YYYY-MM-DD'],
    ['healthData.activity.getById', { id: '   ' }, 'The id cannot be empty'],
    ['healthData.bodyFat.getById', { id: '' }, 'The id cannot be empty'],
    ['healthData.activity.getById', { id: '2026-11-20' }, 'is written like a date'],
    ['healthData.activity.list', { start: '2026-01-01' }, 'Give both a start and an end date'],
    ['healthData.bodyFat.list', { start: '2026-01-10', end: '2026-01-01' }, 'is after the end date'],
    ['healthData.heartRate.list', { start: '2026-02-29', end: '2026-03-01' }, '2026-02-29 is not a real calendar date'],
    ['healthData.activity.getByDate', { date: 20261120 }, 'must be text'],
  ];
  for (const [command, args, message] of refused) {
    it(`${command} ${JSON.stringify(args)} is refused before anything is sent`, async () => {
      const before = requestCount();
      const result = await vscode.commands.executeCommand(command, args);
      assert.equal(result, undefined);
      assert.ok(said('error', message), `expected an error "${message}", got ${JSON.stringify(messages.shown)}`);
      assert.deepEqual(sandbox().requests.slice(before), []);
    });
  }

  it('the checks the input boxes run are real-calendar checks, shared with the arguments', () => {
    assert.equal(dateProblem('2028-02-29'), undefined);
    assert.equal(dateProblem(' 2026-11-20 '), undefined);
    assert.match(dateProblem('2026-02-29') ?? '', /2026-02-29 is not a real calendar date/);
    assert.match(dateProblem('2026-13-01') ?? '', /not a real calendar date/);
    assert.match(dateProblem('2026-1-1') ?? '', /not a date written YYYY-MM-DD/);
    const activity = RESOURCES.find((r) => r.kind === 'activity');
    const bodyFat = RESOURCES.find((r) => r.kind === 'bodyFat');
    assert.ok(activity && bodyFat);
    assert.equal(idProblem('a/b?c#d', activity), undefined);
    assert.match(idProblem(' \t ', activity) ?? '', /cannot be empty/);
    // Body fat readings have no records by date, so a date-like id is just an id there.
    assert.equal(idProblem('2026-11-20', bodyFat), undefined);
    assert.equal(rangeProblem(undefined, undefined), undefined);
    assert.equal(rangeProblem('2026-11-01', '2026-11-01'), undefined);
  });

  it('an id with / ? # and dots reaches the sandbox as one encoded path segment, and its 404 is a message', async () => {
    const id = 'a/b?c=1#d ../e';
    const before = requestCount();
    const result = await vscode.commands.executeCommand('healthData.activity.getById', { id });
    assert.equal(result, undefined);
    const sent = itemRequestsSince(before);
    assert.deepEqual(sent.map((r) => [r.path, r.status]), [['/v1/human/activities/summaries/a%2Fb%3Fc%3D1%23d%20..%2Fe', 404]]);
    assert.deepEqual(sent[0].query, {});
    assert.ok(said('info', `No activity summary with id "${id}".`), JSON.stringify(messages.shown));
    assert.equal(messages.shown.filter((m) => m.level === 'error').length, 0);
  });

  it('the id ".." stays a segment (%2E%2E) instead of climbing a level', async () => {
    const before = requestCount();
    await vscode.commands.executeCommand('healthData.bodyFat.getById', { id: '..' });
    assert.deepEqual(itemRequestsSince(before).map((r) => [r.path, r.status]), [['/v1/human/body_fat/readings/%2E%2E', 404]]);
    assert.ok(said('info', 'No body fat reading with id ".."'), JSON.stringify(messages.shown));
  });

  it('a date without a record is a plain message, not an error', async () => {
    const result = await vscode.commands.executeCommand('healthData.activity.getByDate', { date: '2000-01-01' });
    assert.equal(result, undefined);
    assert.ok(said('info', 'No activity summary for 2000-01-01.'), JSON.stringify(messages.shown));
    assert.equal(messages.shown.filter((m) => m.level === 'error').length, 0);
  });

  it('a server error is shown as an error with the service message', async () => {
    sandbox().addFault({ fault: '500', path: '/activities/summaries/' });
    const date = records('activity')[0].date;
    const result = await vscode.commands.executeCommand('healthData.activity.getByDate', { date });
    assert.equal(result, undefined);
    assert.ok(said('error', '500'), JSON.stringify(messages.shown));
  });

  it('cancelling stops the request at once and says nothing', async () => {
    // The cancellation argument is wired into the same AbortController as the notification's
    // Cancel button; the sandbox holds the answer back for a minute, longer than the test may take.
    sandbox().addFault({ fault: 'latency', latencyMs: 60_000, path: '/heart_rate/summaries/' });
    const date = records('heartRate')[0].date;
    const cancel = new vscode.CancellationTokenSource();
    const running = vscode.commands.executeCommand('healthData.heartRate.getByDate', { date, cancellation: cancel.token });
    await new Promise((r) => setTimeout(r, 400));
    cancel.cancel();
    const result = await running;
    assert.equal(result, undefined);
    assert.deepEqual(messages.shown, []);
    cancel.dispose();
  });

  it('an answer that arrives after the environment changed is dropped with a message', async () => {
    sandbox().addFault({ fault: 'latency', latencyMs: 1_500, path: '/activities/summaries/' });
    // A day no other test asks for, so no document of an earlier test holds its record.
    const date = records('activity').filter((r) => r.humanId === firstHuman())[10].date;
    const running = vscode.commands.executeCommand('healthData.activity.getByDate', { date });
    await new Promise((r) => setTimeout(r, 400));
    api.session.invalidate();
    const result = await running;
    assert.equal(result, undefined);
    assert.ok(said('info', 'its answer was dropped'), JSON.stringify(messages.shown));
    assert.equal(messages.shown.filter((m) => m.level === 'error').length, 0);
    const dropped = records('activity').find((r) => r.date === date && r.humanId === firstHuman());
    assert.ok(dropped);
    assert.equal(panelWith('activity', dropped), undefined);
  });

  it('mints a client token', async () => {
    const before = requestCount();
    const result = (await vscode.commands.executeCommand('healthData.mintToken')) as { expiresAt: number };
    assert.ok(result && result.expiresAt > Date.now() + 3_600_000, JSON.stringify(result));
    const sent = sandbox().requests.slice(before);
    assert.deepEqual(sent.map((r) => [r.method, r.path, r.status]), [['POST', '/v1/admin/token', 200]]);
    assert.ok(said('info', 'Client token minted'));
  });

  it('asks for the date when none is given: picking "Yesterday" requests that date', async () => {
    const before = requestCount();
    const running = vscode.commands.executeCommand('healthData.activity.getByDate');
    await new Promise((r) => setTimeout(r, 500));
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    // Three activity summaries share the date (one per source): the next question, once the
    // answers are in, is which one; the first offered is the one the service answers by date.
    let settled = false;
    void Promise.resolve(running).finally(() => (settled = true));
    for (let i = 0; i < 100 && !settled; i++) {
      await new Promise((r) => setTimeout(r, 300));
      if (!settled) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    await running;
    const now = new Date();
    const localToday = new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
    const sent = itemRequestsSince(before);
    assert.deepEqual(sent.map((r) => r.path), [`/v1/human/activities/summaries/${addDays(localToday, -1)}`]);
  });

  it('a dismissed prompt sends nothing and shows nothing', async () => {
    const before = requestCount();
    const running = vscode.commands.executeCommand('healthData.bodyFat.list');
    await new Promise((r) => setTimeout(r, 500));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await running, undefined);
    assert.deepEqual(sandbox().requests.slice(before), []);
    assert.deepEqual(messages.shown, []);
  });

  /** The Records view comes to select the record (RecordsTreeProvider passes its TreeView's selection on). */
  async function assertRevealed(kind: ResourceKind, id: string): Promise<void> {
    await waitFor(`the ${kind} record ${id} selected in the Records view`, () =>
      api.tree.selection.some((n) => n.type === 'record' && n.node.kind === kind && n.node.id === id),
    );
  }
});
