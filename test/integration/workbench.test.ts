// The request workbench in a real extension host against the local sandbox: every kind of
// request the extension makes is kept as an exchange (tree loads, each list page, palette
// commands, Re-fetch, token mints, retries after a 429 with Retry-After, a truncated body), the
// record view knows the exchange that produced its record and opens it, a list page opens as its
// records, the history is kept in the workspace's memento without a credential and is cleared,
// and the New Request form's checks hold for every parameter.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { addDays } from '../../src/core/dates';
import { RESOURCES } from '../../src/core/resources';
import { HistoryEntry, STORED_BODY_LIMIT, SavedRunResult, endpointChoices, historyEntryOf, pathAndQuery } from '../../src/core/workbench';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import { HISTORY_KEY } from '../../src/extension/workbench';
import { defaultSavedName } from '../../src/extension/workbench/commands';
import type { ForeignImportResult } from '../../src/extension/workbench/foreignImport';
import type { HttpFileSendResult } from '../../src/extension/workbench/httpFileSend';
import { draftProblems, fieldProblem } from '../../src/extension/workbench/requestForm';
import { answerInputBox, answerQuickPick, captureMessages, closeUntitledEditors, loadMonthOfEverySource, recordTestRuns, resetSettings, runningSandbox, setSetting, treeRoots, waitFor, withSandbox } from './support/extension';

interface Rec {
  id: string;
  date?: string;
  humanId: string;
  value?: unknown;
}

describe('request workbench: exchanges, history, exchange view, New Request', function () {
  this.timeout(60_000);
  let api: HealthDataExtensionApi;
  let messages: ReturnType<typeof captureMessages>;
  const records = (kind: 'activity' | 'heartRate' | 'bodyFat'): Rec[] => (runningSandbox(api).dataset as unknown as Record<string, Rec[]>)[kind];
  /** The entries added to the history since it had `before` (newest first). */
  const since = (before: readonly HistoryEntry[]): HistoryEntry[] => {
    const known = new Set(before.map((e) => e.id));
    return api.history.all().filter((e) => !known.has(e.id));
  };
  const snapshot = () => [...api.history.all()];
  const errors = () => messages.shown.filter((m) => m.level === 'error').map((m) => m.text);

  before(async () => {
    await resetSettings();
    api = await withSandbox();
    await vscode.commands.executeCommand('healthData.clearHistory', { confirm: false });
  });

  beforeEach(() => {
    messages = captureMessages();
    runningSandbox(api).clearFaults();
  });

  afterEach(() => {
    messages.restore();
    runningSandbox(api).clearFaults();
  });

  after(async () => {
    api.exchangeViews.closeAll();
    api.recordViews.closeAll();
    await closeUntitledEditors();
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await api.tree.whenLoaded();
    await resetSettings();
    await vscode.workspace.getConfiguration('healthData').update('history.size', undefined, vscode.ConfigurationTarget.Global);
  });

  it('keeps the tree loads, a token mint first, one exchange per resource list', async () => {
    api.session.invalidate();
    const before = snapshot();
    await vscode.commands.executeCommand('healthData.refresh');
    await treeRoots(api);
    const added = since(before).reverse();
    assert.equal(added[0]?.endpoint, 'token', 'the first request of a new connection mints a token');
    for (const def of RESOURCES) {
      assert.ok(added.some((e) => e.endpoint === 'list' && e.resource === def.kind && e.status === 200), `no list exchange for ${def.kind}`);
    }
    for (const e of added) {
      assert.equal(e.environment, api.session.active?.name);
      assert.ok(e.attempts.length >= 1 && e.durationMs >= 0);
    }
  });

  it('keeps every page of a list from the palette, with its paging headers', async () => {
    await setSetting('pageSize', 5);
    const end = records('activity')[0].date!;
    const start = addDays(end, -20);
    const before = snapshot();
    const result = (await vscode.commands.executeCommand('healthData.activity.list', { start, end })) as { pages: number; records: unknown[] };
    // This command's pages, not the Records view's own reload after the page size changed.
    const pages = since(before).filter((e) => e.endpoint === 'list' && e.resource === 'activity' && e.url.includes(`start_date=${start}&end_date=${end}`));
    assert.equal(pages.length, result.pages);
    assert.ok(pages.length >= 3, `${pages.length} pages`);
    assert.ok(pages.every((p) => p.responseHeaders['x-total-count'] !== undefined));
    const kept = pages.reduce((n, p) => n + (JSON.parse(p.responseBody ?? '[]') as unknown[]).length, 0);
    assert.equal(kept, result.records.length);
    await setSetting('pageSize', 50);
  });

  it('keeps a palette command and a token mint; Show Request opens the exchange that produced the record', async () => {
    const rec = records('heartRate')[0];
    const before = snapshot();
    await vscode.commands.executeCommand('healthData.mintToken');
    await vscode.commands.executeCommand('healthData.heartRate.getByDate', { date: rec.date });
    const added = since(before);
    const mint = added.find((e) => e.endpoint === 'token');
    assert.ok(mint, 'the mint was not kept');
    assert.match(mint.requestBody ?? '', /"client_secret":\s*"\[redacted\]"/);
    const data = added.find((e) => e.endpoint === 'getByDate' && e.resource === 'heartRate');
    assert.ok(data && data.status === 200);
    const panel = api.recordViews.get(`heartRate/${rec.id}`);
    assert.ok(panel, 'no record panel');
    // The record panel knows which exchange produced it, and its action opens that exchange.
    assert.equal(panel.producedBy, data.id);
    await (panel as unknown as { act(a: string): Promise<unknown> }).act('showRequest');
    const view = await waitFor('the exchange panel to say ready', () => {
      const p = api.exchangeViews.get(data.id);
      return p && p.readyCount >= 1 && p;
    }, 20_000);
    const model = view.currentModel;
    assert.equal(model.body.type, 'record');
    assert.equal(model.status, 200);
    assert.ok(model.keyHeaders.some(([n]) => n === 'x-request-id'));
    assert.equal(model.requestHeaders.find(([n]) => n.toLowerCase() === 'authorization')?.[1], 'Bearer [redacted]');
    // Where the time went, measured in the extension host (behind VS Code's own agent patch):
    // the phases of the one attempt, on the connection to the sandbox.
    const timings = model.attempts[model.attempts.length - 1].timings;
    assert.ok(timings, 'the attempt has no timings');
    for (const phase of ['queuedMs', 'sendMs', 'firstByteMs', 'downloadMs'] as const) assert.equal(typeof timings[phase], 'number', phase);
    assert.match(timings.remote ?? '', /^127\.0\.0\.1:\d+$/);
    assert.equal(typeof mint.attempts[0].timings?.firstByteMs, 'number', 'the mint has its phases too');
    assert.deepEqual(errors(), []);
  });

  it('Re-fetch is kept too, and the record view then points at the new exchange', async () => {
    const rec = records('activity')[1];
    await vscode.commands.executeCommand('healthData.activity.getById', { id: rec.id });
    const panel = api.recordViews.get(`activity/${rec.id}`) as unknown as { producedBy?: string; refetch(loud: boolean): Promise<unknown> };
    const first = panel.producedBy;
    assert.ok(first);
    const before = snapshot();
    await panel.refetch(true);
    const refetched = since(before).find((e) => e.endpoint === 'getById' && e.resource === 'activity');
    assert.ok(refetched, 'the re-fetch was not kept');
    assert.equal(panel.producedBy, refetched.id);
  });

  it('a 429 with Retry-After then success: one exchange, two attempts, the wait and why', async () => {
    const rec = records('activity')[2];
    // The fault is for this request alone, not for a list the tree may load meanwhile.
    runningSandbox(api).addFault({ fault: '429', path: `/activities/summaries/${rec.date}`, retryAfter: 1, times: 1 });
    const before = snapshot();
    await vscode.commands.executeCommand('healthData.activity.getByDate', { date: rec.date });
    const e = since(before).find((x) => x.endpoint === 'getByDate' && x.resource === 'activity');
    assert.ok(e);
    assert.deepEqual(e.attempts.map((a) => a.status), [429, 200]);
    assert.match(e.attempts[0].retryReason ?? '', /429/);
    assert.ok((e.attempts[0].waitMs ?? 0) >= 900, `waited ${e.attempts[0].waitMs} ms for Retry-After: 1`);
    await vscode.commands.executeCommand('healthData.showExchange', { exchangeId: e.id });
    const view = await waitFor('the exchange panel', () => api.exchangeViews.get(e.id));
    assert.equal(view.currentModel.outcome, 'retried');
    assert.equal(view.currentModel.attempts.length, 2);
  });

  it('a truncated body: the exchange ends in the error, each attempt says it was cut short', async () => {
    await setSetting('requestTimeout', 5_000);
    const id = records('activity')[3].id;
    runningSandbox(api).addFault({ fault: 'truncated', path: `/activities/summaries/${encodeURIComponent(id)}` });
    const before = snapshot();
    await vscode.commands.executeCommand('healthData.activity.getById', { id });
    const e = since(before).find((x) => x.endpoint === 'getById' && x.resource === 'activity');
    assert.ok(e);
    assert.ok(e.attempts.length > 1 && e.attempts.every((a) => /cut short/.test(a.error ?? '')));
    assert.equal(e.error?.kind, 'network');
    assert.ok(errors().some((t) => /cut short/.test(t)), 'the user was told');
    await setSetting('requestTimeout', 30_000);
  });

  it('a list page opens as its records with the validation summary', async () => {
    api.exchangeViews.closeAll();
    api.recordViews.closeAll();
    const before = snapshot();
    await vscode.commands.executeCommand('healthData.bodyFat.list', { start: addDays(records('activity')[0].date!, -5), end: records('activity')[0].date! });
    // Only the body fat list: the tree may page another resource in the meantime.
    const page = since(before).find((e) => e.endpoint === 'list' && e.resource === 'bodyFat' && e.status === 200 && (JSON.parse(e.responseBody ?? '[]') as unknown[]).length > 0);
    assert.ok(page, 'no list page was kept');
    const id = await vscode.commands.executeCommand('healthData.showExchange', { exchangeId: page.id });
    assert.equal(id, page.id);
    const view = await waitFor(`the exchange panel of ${page.url} to say ready`, () => {
      const p = api.exchangeViews.get(page.id);
      return p && p.readyCount >= 1 && p;
    }, 45_000).catch((err: Error) => {
      const p = api.exchangeViews.get(page.id);
      throw new Error(`${err.message} (panel ${p ? `visible ${p.panel.visible}, active ${p.panel.active}` : 'missing'}; open: ${api.exchangeViews.ids().join(', ')})`);
    });
    const body = view.currentModel.body;
    assert.equal(body.type, 'records');
    assert.equal(body.type === 'records' && body.records.length, (JSON.parse(page.responseBody!) as unknown[]).length);
    // A row opens its record in the record view.
    await view.act('openRecord', 0);
    const first = (JSON.parse(page.responseBody!) as Rec[])[0];
    assert.ok(api.recordViews.get(`${page.resource}/${first.id}`), 'the record did not open');
    // The whole page opens in the record view as a list: one row per record, each validated.
    await view.act('openInRecordView');
    const list = api.recordViews.get(`payload:exchange:${page.id}`);
    assert.ok(list, 'the list did not open');
    const listed = JSON.parse(page.responseBody!) as Rec[];
    assert.equal(list.currentModel.records, listed.length);
    assert.equal(list.currentModel.rows?.total, listed.length + 2);
    assert.equal(list.currentModel.kind, 'bodyFat');
  });

  it('the History view: newest first, grouped by day, an icon per outcome, a click opens the exchange', async () => {
    const days = api.historyView.getChildren();
    assert.ok(days.length >= 1 && days[0].type === 'day');
    const rows = days.flatMap((d) => api.historyView.getChildren(d));
    assert.deepEqual(rows.map((r) => r.type === 'exchange' && r.entry.id), api.history.all().map((e) => e.id));
    const items = rows.map((r) => api.historyView.getTreeItem(r));
    const icons = new Set(items.map((i) => (i.iconPath as vscode.ThemeIcon).id));
    for (const icon of ['pass', 'history', 'error']) assert.ok(icons.has(icon), `no ${icon} icon among ${[...icons].join(', ')}`);
    const top = rows[0].type === 'exchange' ? rows[0].entry : undefined;
    assert.equal(items[0].label, `${top!.method} ${pathAndQuery(top!.url)}`);
    assert.deepEqual(items[0].command?.arguments, [{ exchangeId: top!.id }]);
  });

  it('persists the history in the workspace memento: capped bodies, no credential, the size setting, Clear History', async () => {
    await api.history.flush();
    const stored = api.workspaceState.get<HistoryEntry[]>(HISTORY_KEY);
    assert.ok(Array.isArray(stored) && stored.length === api.history.all().length, 'the history was not stored');
    const token = api.session.currentToken?.token;
    assert.ok(token);
    const text = JSON.stringify(stored);
    assert.ok(!text.includes(token), 'a token was stored');
    assert.ok(!/eyJ[\w-]{10,}\.eyJ/.test(text), 'something shaped like a JWT was stored');
    assert.ok(!text.includes(runningSandbox(api).clientSecret), 'the secret was stored');
    for (const e of stored) {
      for (const [name, value] of Object.entries(e.requestHeaders)) if (/^authorization$/i.test(name)) assert.match(value, /^(\w+ )?\[redacted\]$/);
      assert.ok((e.responseBody ?? '').length <= STORED_BODY_LIMIT);
    }
    // Each answered attempt's phases are kept, and read back as they were.
    const answered = stored.filter((e) => e.status !== undefined);
    assert.ok(answered.length > 0 && answered.every((e) => typeof e.attempts[e.attempts.length - 1].timings?.firstByteMs === 'number'), 'an answered exchange was stored without its timings');
    assert.deepEqual(historyEntryOf(answered[0])?.attempts, answered[0].attempts);
    await vscode.workspace.getConfiguration('healthData').update('history.size', 3, vscode.ConfigurationTarget.Global);
    await waitFor('the history to be cut to 3', () => api.history.all().length === 3);
    await api.history.flush();
    assert.equal(api.workspaceState.get<unknown[]>(HISTORY_KEY)?.length, 3);
    // The day's row counts its requests, one of them as one.
    const dayDescription = () => api.historyView.getChildren().map((d) => api.historyView.getTreeItem(d).description);
    assert.deepEqual(dayDescription(), ['3 requests']);
    assert.equal(api.historyView.view?.description, '3 requests', "the view's description counts them too");
    await vscode.workspace.getConfiguration('healthData').update('history.size', 1, vscode.ConfigurationTarget.Global);
    await waitFor('the history to be cut to 1', () => api.history.all().length === 1);
    assert.deepEqual(dayDescription(), ['1 request']);
    assert.equal(await vscode.commands.executeCommand('healthData.clearHistory', { confirm: false }), true);
    assert.equal(api.history.all().length, 0);
    assert.equal(api.workspaceState.get(HISTORY_KEY), undefined);
    assert.deepEqual(api.historyView.getChildren(), []);
    assert.equal(api.historyView.view?.description, undefined, 'an empty history has no count');
    await vscode.workspace.getConfiguration('healthData').update('history.size', undefined, vscode.ConfigurationTarget.Global);
  });

  it('New Request sends each endpoint of the service with the parameters given, the token added by the extension', async () => {
    const rec = records('activity')[0];
    const end = rec.date!;
    const list = (await vscode.commands.executeCommand('healthData.newRequest', {
      draft: { endpoint: 'list', kind: 'activity', params: { start_date: addDays(end, -10), end_date: end, limit: '3', offset: '2', source: ' ', updated_since: '' } },
    })) as HistoryEntry;
    assert.ok(list, 'nothing was sent');
    assert.match(list.url, /\/v1\/human\/activities\/summaries\?/);
    const query = new URL(list.url).searchParams;
    assert.equal(query.get('limit'), '3');
    assert.equal(query.get('offset'), '2');
    assert.equal(query.get('start_date'), addDays(end, -10));
    assert.equal(query.has('source'), false, 'a blank parameter is not sent');
    assert.equal(list.requestHeaders.Authorization, 'Bearer [redacted]');
    assert.equal((JSON.parse(list.responseBody!) as unknown[]).length, 3);
    assert.ok(api.exchangeViews.get(list.id), 'the exchange was not shown');

    const hostile = 'a/../b?c=d#e';
    const byId = (await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'getById', kind: 'heartRate', id: hostile } })) as HistoryEntry;
    assert.equal(byId.status, 404, 'a 404 is an exchange to see, not a failure to hide');
    assert.ok(byId.url.endsWith(`/v1/human/heart_rate/summaries/${encodeURIComponent(hostile)}`), byId.url);
    const mint = (await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'token' } })) as HistoryEntry;
    assert.equal(mint.endpoint, 'token');
    assert.equal(mint.status, 200);
    const latest = (await vscode.commands.executeCommand('healthData.editAndResend', { draft: { endpoint: 'getLatest', kind: 'bodyFat' } })) as HistoryEntry;
    assert.equal(latest.endpoint, 'getLatest');
    assert.deepEqual(errors(), []);
  });

  it("a single record's reply says its zeros from the Records view's records of its source, as the record view does, and again when those change", async () => {
    const { loaded, of } = await loadMonthOfEverySource(api, 'activity');
    const googlefit = of('googlefit');
    assert.ok(googlefit.length >= 4, `${googlefit.length} googlefit days`);
    const sent = (await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'getById', kind: 'activity', id: googlefit[0].id } })) as HistoryEntry;
    assert.equal(sent.status, 200);
    const panel = await waitFor('the exchange panel', () => api.exchangeViews.get(sent.id));
    const body = () => panel.currentModel.body;
    const b = body();
    assert.ok(b.type === 'record', b.type);
    assert.equal(b.record.findings.find((f) => f.path === '/steps')?.message, `0 — googlefit does not provide steps: 0 on all its ${googlefit.length - 1} other records loaded`);
    assert.equal(b.zeroBasis, `Zeros compared with the ${googlefit.length - 1} other googlefit activity summaries the Records view has loaded (${loaded.scope}).`);

    // The Records view loads a week: the open reply says its zeros again from those.
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 7 });
    await api.tree.whenLoaded();
    const week = api.tree.loadedOf('activity')!;
    const others = week.records.filter((r) => (r as { source?: string }).source === 'googlefit' && (r as Rec).id !== googlefit[0].id).length;
    await waitFor('the reply to compare again', () => {
      const now = body();
      return now.type === 'record' && now.zeroBasis?.includes('the last 7 days');
    });
    const again = body();
    assert.ok(again.type === 'record');
    assert.equal(again.zeroBasis, `Zeros compared with the ${others} other googlefit activity summaries the Records view has loaded (${week.scope}).`);
    assert.equal(again.record.findings.find((f) => f.path === '/steps')?.message, `0 — googlefit does not provide steps: 0 on all its ${others} other records loaded`);

    // A reply from another environment than the Records view's is not compared with its records.
    const staging = api.exchangeViews.createOrShow({ ...sent, id: `${sent.id}-staging`, environment: 'Staging' });
    const other = staging.currentModel.body;
    assert.ok(other.type === 'record');
    assert.equal(other.zeroBasis, `Zeros not compared: this record came from Staging, and the Records view shows ${week.environment}.`);
    assert.equal(other.record.findings.find((f) => f.path === '/steps')?.message, '0 — this source may not provide steps');
    // Open Record there: the record view says where the record came from, and does not compare it either.
    await staging.act('openRecord', 0);
    const recordPanel = () => api.recordViews.get(`activity/${googlefit[0].id}`)!;
    assert.equal(recordPanel().currentModel.zeroBasis, `Zeros not compared: this record came from Staging, and the Records view shows ${week.environment}.`);
    // From the reply of the environment in use: compared.
    await panel.act('openRecord', 0);
    assert.equal(recordPanel().currentModel.zeroBasis, `Zeros compared with the ${others} other googlefit activity summaries the Records view has loaded (${week.scope}).`);
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 30 });
    await api.tree.whenLoaded();
    assert.deepEqual(errors(), []);
  });

  it('New Request reads a pasted cURL command, URL or request line: the form filled in, what is not kept listed, sent with the extension\'s own token', async () => {
    const sandbox = runningSandbox(api);
    const rec = records('activity')[0];
    const end = rec.date!;
    const start = addDays(end, -6);
    const pasted = [
      `curl 'https://api.example.com/v1/human/activities/summaries?start_date=${start}&end_date=${end}&humanId=${rec.humanId}&limit=2&page_token=zz' \\`,
      `  -H 'accept: application/json' \\`,
      `  -H 'authorization: Bearer pasted-token-not-ours' \\`,
      `  -H 'x-request-id: 5f0c' \\`,
      `  --compressed`,
    ].join('\n');
    const sendRow = (items: readonly vscode.QuickPickItem[]) => items.find((i) => /^\$\((play|error)\) Send$/.test(i.label));
    // From a command's argument: the form, Send first; then the notes.
    const before = sandbox.requests.length;
    const { offered, result } = await answerQuickPick(sendRow, () => vscode.commands.executeCommand('healthData.newRequest', { curl: pasted }));
    const entry = result as HistoryEntry;
    assert.ok(entry, 'nothing was sent');
    assert.equal(sendRow(offered)!.description, `GET /v1/human/activities/summaries?start_date=${start}&end_date=${end}&humanId=${rec.humanId}&limit=2`);
    const notes = offered.filter((i) => i.label.startsWith('$(info) ')).map((i) => i.label.slice('$(info) '.length));
    const host = new URL(sandbox.baseUrl).host;
    assert.deepEqual(notes, [
      `Sent to ${api.session.active!.name} (${host}), not to api.example.com.`,
      "The command's token is left out: the extension adds its own.",
      'Headers left out (the extension sends its own): x-request-id.',
      'Parameters the endpoint does not take, left out: page_token.',
    ]);
    assert.ok(offered.some((i) => i.kind === vscode.QuickPickItemKind.Separator && i.label === 'Not kept'));
    const query = new URL(entry.url).searchParams;
    assert.equal(query.get('humanId'), rec.humanId);
    assert.equal(query.has('page_token'), false);
    const got = JSON.parse(entry.responseBody!) as Rec[];
    assert.ok(got.length > 0 && got.every((r) => r.humanId === rec.humanId), 'the human filter was sent');
    const seen = sandbox.requests.slice(before).filter((r) => r.path.endsWith('/activities/summaries'));
    assert.equal(seen.length, 1);
    assert.equal(seen[0].authorized, true, 'sent with the extension\'s token, not the pasted one');
    assert.ok(!JSON.stringify(api.history.all()).includes('pasted-token-not-ours'), 'the pasted token is kept nowhere');

    // New Request… from the palette: the endpoints, the clipboard not read (a browser would ask for it).
    const clipboardBefore = await vscode.env.clipboard.readText();
    try {
      await vscode.env.clipboard.writeText(`GET ${sandbox.baseUrl}/v1/human/heart_rate/summaries/${records('heartRate')[0].id} HTTP/1.1`);
      const plain = await answerQuickPick(() => undefined, () => vscode.commands.executeCommand('healthData.newRequest'));
      assert.equal(plain.offered.length, endpointChoices().length);
      assert.ok(plain.offered.every((i) => !i.label.startsWith('$(clippy)')));
    } finally {
      await vscode.env.clipboard.writeText(clipboardBefore);
    }

    // Texts that are no request of the service: said why, nothing sent.
    const count = sandbox.requests.length;
    for (const [arg, message] of [
      [{ curl: 'echo hello' }, /The text holds no curl command, URL or request line\./],
      [{ curl: `curl ${sandbox.baseUrl}/v1/human/heart_rate/summary` }, /is not one of the service's endpoints: did you mean \/v1\/human\/heart_rate\/summaries\?/],
      [{ curl: "curl 'http://h/v1/human/body_fat" }, /never closed/],
      [{ curl: 42 }, /curl must be the text of a cURL command, a URL or a request line/],
      [{ curl: `curl ${'x'.repeat(70_000)}` }, /longer than 64 KB/],
    ] as const) {
      messages.shown.length = 0;
      await vscode.commands.executeCommand('healthData.newRequest', arg);
      assert.equal(errors().length, 1, JSON.stringify(arg).slice(0, 80));
      assert.match(errors()[0], message);
    }
    assert.equal(sandbox.requests.length, count);
  });

  it('Send Again and Edit and Resend keep a human filter and created_since, and say which parameters they cannot send', async () => {
    const rec = records('activity')[0];
    const end = rec.date!;
    const list = (await vscode.commands.executeCommand('healthData.newRequest', {
      draft: { endpoint: 'list', kind: 'activity', params: { start_date: addDays(end, -6), end_date: end, humanId: rec.humanId, created_since: '2020-01-01', limit: '2' } },
    })) as HistoryEntry;
    const sent = new URL(list.url).searchParams;
    assert.equal(sent.get('humanId'), rec.humanId);
    assert.equal(sent.get('created_since'), '2020-01-01');
    const again = (await vscode.commands.executeCommand('healthData.sendAgain', { exchangeId: list.id })) as HistoryEntry;
    assert.equal(pathAndQuery(again.url), pathAndQuery(list.url));
    // An exchange whose URL had a parameter the service's endpoint does not take (a cursor a
    // service's Link header carried): sent without it, and said so.
    const withCursor = api.history.get(list.id)!;
    const stored = { ...withCursor, id: `${withCursor.id}-cursor`, url: `${withCursor.url}&page_token=zz` };
    api.history.add(stored);
    messages.shown.length = 0;
    {
      const resent = (await vscode.commands.executeCommand('healthData.sendAgain', { exchangeId: stored.id })) as HistoryEntry;
      assert.equal(new URL(resent.url).searchParams.has('page_token'), false);
      assert.deepEqual(messages.shown.filter((m) => m.level === 'warning').map((m) => m.text), ['Sent again without page_token, which GET /v1/human/activities/summaries does not take.']);
      const { offered } = await answerQuickPick(() => undefined, () => vscode.commands.executeCommand('healthData.editAndResend', { exchangeId: stored.id }));
      assert.ok(offered.some((i) => i.label === '$(info) Left out: page_token, which the endpoint does not take.'), offered.map((i) => i.label).join(' | '));
      assert.ok(offered.some((i) => i.label.endsWith(' humanId') && i.description === rec.humanId));
    }
    const problems = draftProblems({ endpoint: 'list', kind: 'activity', params: { created_since: 'last week', humanId: 'h'.repeat(201) } }).map((p) => p.message);
    assert.deepEqual(problems, [`humanId is at most 200 characters.`, `created_since is a date (YYYY-MM-DD) or an ISO date-time such as ${problems[1]?.match(/such as (\d{4}-\d{2}-\d{2})/)?.[1]}T00:00:00Z.`]);
  });

  it('Import Saved Requests… reads an .http file and a Postman collection: the service\'s requests sent once and saved by name, the others left out with why', async () => {
    const sandbox = runningSandbox(api);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hde-foreign-'));
    const day = records('heartRate')[0].date!;
    const httpFile = path.join(dir, 'health.http');
    fs.writeFileSync(
      httpFile,
      [
        '@base = https://api.example.com',
        '### Heart rate of a day',
        `GET {{base}}/v1/human/heart_rate/summaries/${day}`,
        'Authorization: Bearer {{token}}',
        '',
        '### Bad date',
        'GET {{base}}/v1/human/activities/summaries?start_date=2026-02-30&end_date=2026-03-01',
        '',
        '### Upload',
        'PUT {{base}}/v2/uploads',
      ].join('\n'),
    );
    const added: string[] = [];
    try {
      const before = sandbox.requests.length;
      const result = (await vscode.commands.executeCommand('healthData.importSavedRequests', { uri: httpFile, pick: false })) as ForeignImportResult;
      assert.deepEqual(result.added, ['Heart rate of a day']);
      added.push(...result.added);
      assert.deepEqual(result.unusable.map((u) => u.name), ['Bad date', 'Upload']);
      assert.match(result.unusable[0].problem, /2026-02-30 is not a real calendar date/);
      assert.equal(result.unusable[1].problem, "PUT /v2/uploads is not one of the service's endpoints.");
      const saved = api.history.saved().find((e) => e.savedAs === 'Heart rate of a day')!;
      assert.equal(saved.status, 200);
      assert.equal(saved.url, `${sandbox.baseUrl}/v1/human/heart_rate/summaries/${day}`, 'sent to the environment in use, not the file\'s host');
      const seen = sandbox.requests.slice(before).filter((r) => !r.path.endsWith('/token'));
      assert.deepEqual(seen.map((r) => r.path), [`/v1/human/heart_rate/summaries/${day}`]);
      assert.equal(seen[0].authorized, true);
      const warning = messages.shown.filter((m) => m.level === 'warning').map((m) => m.text);
      assert.equal(warning.length, 1);
      assert.match(warning[0], new RegExp(`^Imported 1 request from health\\.http under Saved, sent once through ${api.session.active!.name}\\. 2 left out: "Bad date": .*2026-02-30.* "Upload": PUT /v2/uploads is not one of the service's endpoints\\.$`));
      // The same file again: sent, but already saved.
      const again = (await vscode.commands.executeCommand('healthData.importSavedRequests', { uri: httpFile, pick: false })) as ForeignImportResult;
      assert.deepEqual([again.added, again.alreadySaved], [[], 1]);

      // A Postman collection through the pick: every request offered, picked; those unpicked not sent.
      const collectionFile = path.join(dir, 'health.postman_collection.json');
      fs.writeFileSync(
        collectionFile,
        JSON.stringify({
          info: { name: 'Health', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
          variable: [{ key: 'baseUrl', value: 'https://api.example.com' }],
          item: [
            { name: 'Activity', item: [{ name: 'List', request: { method: 'GET', auth: { type: 'bearer' }, url: { raw: '{{baseUrl}}/v1/human/activities/summaries?limit=2' } } }] },
            { name: 'Latest body fat', request: { method: 'GET', url: '{{baseUrl}}/v1/human/body_fat' } },
            { name: 'Heart rate of a day', request: { method: 'GET', url: '{{baseUrl}}/v1/human/heart_rate/summaries/no-such-id' } },
            { name: 'Mint', request: { method: 'POST', url: '{{baseUrl}}/v1/admin/token' } },
          ],
        }),
      );
      const win = vscode.window as unknown as { showQuickPick: (items: readonly vscode.QuickPickItem[], options: vscode.QuickPickOptions) => Thenable<unknown> };
      const real = win.showQuickPick;
      let offered: readonly vscode.QuickPickItem[] = [];
      let options: vscode.QuickPickOptions | undefined;
      win.showQuickPick = (items, o) => {
        offered = items;
        options = o;
        return Promise.resolve(items.filter((i) => i.label !== 'Mint'));
      };
      let picked: ForeignImportResult;
      try {
        picked = (await vscode.commands.executeCommand('healthData.importSavedRequests', { uri: collectionFile })) as ForeignImportResult;
      } finally {
        win.showQuickPick = real;
      }
      assert.equal(options?.canPickMany, true);
      assert.equal(options?.title, 'Import from health.postman_collection.json');
      assert.deepEqual(offered.map((i) => [i.label, i.description, i.picked]), [
        ['Activity / List', 'GET /v1/human/activities/summaries?limit=2', true],
        ['Latest body fat', 'GET /v1/human/body_fat', true],
        ['Heart rate of a day', 'GET /v1/human/heart_rate/summaries/no-such-id', true],
        ['Mint', 'POST /v1/admin/token', true],
      ]);
      assert.equal(offered[0].detail, "The request's token is left out: the extension adds its own.");
      // A name taken by another request: saved as `name (2)`; a 404 is saved with what it got.
      assert.deepEqual(picked.added, ['Activity / List', 'Latest body fat', 'Heart rate of a day (2)']);
      added.push(...picked.added);
      assert.deepEqual(picked.renamed, [{ from: 'Heart rate of a day', to: 'Heart rate of a day (2)' }]);
      assert.equal(api.history.saved().find((e) => e.savedAs === 'Heart rate of a day (2)')?.status, 404);
      assert.equal(api.history.saved().find((e) => e.savedAs === 'Activity / List')?.responseBody?.startsWith('['), true);

      // Files that are no collection: said what they are.
      for (const [name, text, message] of [
        ['old.postman_collection.json', '{"info": {"_postman_id": "x", "schema": "https://schema.getpostman.com/json/collection/v1.0.0/collection.json"}, "requests": []}', /old\.postman_collection\.json: The file is a Postman collection in format v1: export it from Postman as Collection v2\.1\./],
        ['empty.http', '# nothing\n', /empty\.http holds no request: nothing was imported\./],
        ['other.http', 'DELETE https://h/v9/x\n', /other\.http holds no request the service serves: nothing was imported\. Left out: "DELETE https:\/\/h\/v9\/x": DELETE \/v9\/x is not one of the service's endpoints\./],
      ] as const) {
        fs.writeFileSync(path.join(dir, name), text);
        messages.shown.length = 0;
        await vscode.commands.executeCommand('healthData.importSavedRequests', { uri: path.join(dir, name), pick: false });
        assert.equal(messages.shown.length, 1, name);
        assert.match(messages.shown[0].text, message);
      }
      messages.shown.length = 0;
      await vscode.commands.executeCommand('healthData.importSavedRequests', { uri: httpFile, pick: 'yes' });
      assert.match(errors()[0] ?? '', /pick must be true or false/);
    } finally {
      for (const name of added) {
        const entry = api.history.saved().find((e) => e.savedAs === name);
        if (entry) await vscode.commands.executeCommand('healthData.removeSavedRequest', { exchangeId: entry.id });
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('.http files: a code lens above each request of the service sends it through the environment in use or opens it in the form; one the form refuses says why; other services\' get none', async () => {
    const sandbox = runningSandbox(api);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hde-lens-'));
    const day = records('heartRate')[0].date!;
    const file = path.join(dir, 'checks.http');
    const text = [
      '@base = https://api.example.com',
      '### Heart rate of a day',
      `GET {{base}}/v1/human/heart_rate/summaries/${day}`,
      'Authorization: Bearer {{token}}',
      '',
      '### Too many',
      'GET {{base}}/v1/human/activities/summaries?limit=5000',
      '',
      '### Another service',
      'GET https://example.com/users',
      '',
      '### Body fat, as REST Client users write a host they keep in their settings',
      '{{host}}/v1/human/body_fat/readings?limit=2',
    ].join('\n');
    fs.writeFileSync(file, text);
    const lensesOf = async (uri: vscode.Uri) => ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? []).filter((l) => l.command?.command.startsWith('healthData.'));
    // No reply yet to any of the file's requests (the import above sent the first one).
    await vscode.commands.executeCommand('healthData.clearHistory', { confirm: false });
    try {
      const document = await vscode.workspace.openTextDocument(file);
      await vscode.window.showTextDocument(document);
      const all = await lensesOf(document.uri);
      const env = api.session.active!.name;
      // Two of them the form takes: Send All on the file's first line.
      const sendAll = all.filter((l) => l.command!.command === 'healthData.sendHttpFile');
      assert.deepEqual(sendAll.map((l) => [l.range.start.line, l.command!.title, l.command!.tooltip]), [[0, '$(run-all) Send All 2 with Health Data', `Sends the file's 2 requests of the service one after another through ${env}; each reply shows beside its request`]]);
      assert.equal(String(sendAll[0].command!.arguments?.[0]), document.uri.toString());
      const lenses = all.filter((l) => l.command!.command !== 'healthData.sendHttpFile');
      assert.deepEqual(
        lenses.map((l) => [l.range.start.line, l.command!.title]),
        [
          [2, '$(play) Send with Health Data'],
          [2, 'Edit…'],
          [6, '$(error) Health Data: limit is a whole number from 1 to 500.'],
          [12, '$(play) Send with Health Data'],
          [12, 'Edit…'],
        ],
      );
      assert.equal(lenses[0].command!.tooltip, `Sends GET /v1/human/heart_rate/summaries/${day} through ${env}; the extension adds its token. The request's token is left out: the extension adds its own.`);
      assert.equal(lenses[3].command!.tooltip, `Sends GET /v1/human/body_fat/readings?limit=2 through ${env}; the extension adds its token.`);
      assert.equal(lenses[2].command!.tooltip, 'Opens the request in the New Request form to fix it');

      // Send: to the environment in use (not the file's host), with the extension's token; the exchange opens.
      let before = sandbox.requests.length;
      const sent = (await vscode.commands.executeCommand(lenses[0].command!.command, ...(lenses[0].command!.arguments ?? []))) as HistoryEntry;
      assert.equal(sent.status, 200);
      assert.equal(sent.url, `${sandbox.baseUrl}/v1/human/heart_rate/summaries/${day}`);
      assert.ok(api.exchangeViews.get(sent.id), 'its exchange is shown');
      let seen = sandbox.requests.slice(before).filter((r) => !r.path.endsWith('/token'));
      assert.deepEqual(seen.map((r) => [r.path, r.authorized]), [[`/v1/human/heart_rate/summaries/${day}`, true]]);
      // Its last reply, beside them: the status and time, a click opens that exchange.
      const replyOf = async () => (await lensesOf(document.uri)).filter((l) => l.command!.command === 'healthData.showExchange');
      let replies = await waitFor('the last reply\'s lens', async () => ((await replyOf()).length === 1 ? replyOf() : undefined));
      assert.equal(replies[0].range.start.line, 2);
      assert.equal(replies[0].command!.title, `$(pass) 200 OK · ${sent.durationMs} ms`);
      assert.deepEqual(replies[0].command!.arguments, [{ exchangeId: sent.id }]);
      assert.match(replies[0].command!.tooltip ?? '', new RegExp(`^The last reply to this request through ${env}, at .+ \\(succeeded\\): opens its exchange$`));
      api.exchangeViews.closeAll();
      assert.equal(await vscode.commands.executeCommand(replies[0].command!.command, ...(replies[0].command!.arguments ?? [])), sent.id);
      assert.ok(api.exchangeViews.get(sent.id), 'the reply\'s lens opens its exchange');

      // Edit…: the form, filled in, with what the file's request had that is not sent; Send there sends it.
      before = sandbox.requests.length;
      const { offered, result } = await answerQuickPick(
        (items) => items.find((i) => /Send/.test(i.label)),
        () => vscode.commands.executeCommand(lenses[1].command!.command, ...(lenses[1].command!.arguments ?? [])),
      );
      assert.ok(offered.some((i) => i.label.includes("The request's token is left out: the extension adds its own.")), offered.map((i) => i.label).join(' | '));
      assert.equal((result as HistoryEntry).status, 200);
      seen = sandbox.requests.slice(before).filter((r) => !r.path.endsWith('/token'));
      assert.deepEqual(seen.map((r) => r.path), [`/v1/human/heart_rate/summaries/${day}`]);
      replies = await waitFor('the newer reply\'s lens', async () => {
        const now = await replyOf();
        return now.length === 1 && (now[0].command!.arguments as [{ exchangeId: string }])[0].exchangeId === (result as HistoryEntry).id ? now : undefined;
      });

      // The refused one: its lens opens the form at what must be fixed; dismissed, nothing is sent.
      before = sandbox.requests.length;
      const refused = await answerQuickPick(() => undefined, () => vscode.commands.executeCommand(lenses[2].command!.command, ...(lenses[2].command!.arguments ?? [])));
      assert.match(refused.offered[0].detail ?? '', /limit is a whole number from 1 to 500/);
      assert.equal(refused.result, undefined);
      assert.equal(sandbox.requests.length, before);

      // An edit moves the lenses with the text; the setting turns them off, and on again.
      const edit = new vscode.WorkspaceEdit();
      edit.insert(document.uri, new vscode.Position(0, 0), '# checks of the service\n\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.deepEqual((await lensesOf(document.uri)).map((l) => l.range.start.line), [0, 4, 4, 4, 8, 14, 14]);
      await setSetting('httpFiles.codeLens', false);
      assert.deepEqual(await lensesOf(document.uri), []);
      await setSetting('httpFiles.codeLens', undefined);
      assert.equal((await lensesOf(document.uri)).length, 7);

      // Send All: the two in the file's order through the environment in use, the refused one named, not sent.
      before = sandbox.requests.length;
      messages.shown.length = 0;
      const all2 = (await lensesOf(document.uri)).find((l) => l.command!.command === 'healthData.sendHttpFile')!;
      const batch = (await vscode.commands.executeCommand(all2.command!.command, ...(all2.command!.arguments ?? []))) as HttpFileSendResult;
      assert.deepEqual(batch.sent.map((r) => [r.name, r.target, r.status]), [
        ['Heart rate of a day', `GET /v1/human/heart_rate/summaries/${day}`, 200],
        ['Body fat, as REST Client users write a host they keep in their settings', 'GET /v1/human/body_fat/readings?limit=2', 200],
      ]);
      assert.deepEqual(batch.leftOut, [{ name: 'Too many', problem: 'limit is a whole number from 1 to 500.' }]);
      assert.equal(batch.cancelled, false);
      seen = sandbox.requests.slice(before).filter((r) => !r.path.endsWith('/token'));
      assert.deepEqual(seen.map((r) => [r.path, r.authorized]), [[`/v1/human/heart_rate/summaries/${day}`, true], ['/v1/human/body_fat/readings', true]]);
      const said = messages.shown.map((m) => `${m.level}: ${m.text}`);
      assert.deepEqual(said, [`warning: Sent 2 requests of checks.http through ${env}: every reply a success. Left out: "Too many": limit is a whole number from 1 to 500. Each reply is beside its request.`]);
      // Each line now has its reply, the newest exchange of each.
      const lastReplies = await waitFor('a reply beside each request sent', async () => {
        const now = await replyOf();
        return now.length === 2 ? now : undefined;
      });
      assert.deepEqual(lastReplies.map((l) => [l.range.start.line, (l.command!.arguments as [{ exchangeId: string }])[0].exchangeId]), [[4, batch.sent[0].exchangeId], [14, batch.sent[1].exchangeId]]);

      // The palette's form (the active editor's file), a file with none, and arguments that are no file.
      messages.shown.length = 0;
      const none = path.join(dir, 'none.http');
      fs.writeFileSync(none, '### Another service\nGET https://example.com/users\n');
      await vscode.commands.executeCommand('healthData.sendHttpFile', { uri: none });
      assert.deepEqual(messages.shown.map((m) => `${m.level}: ${m.text}`), ['warning: none.http holds no request of the service: nothing was sent.']);
      messages.shown.length = 0;
      await vscode.commands.executeCommand('healthData.sendHttpFile', { uri: 5 });
      assert.deepEqual(errors(), ['The argument must be { uri }.']);
      messages.shown.length = 0;
      await vscode.commands.executeCommand('healthData.sendHttpFile', { uri: path.join(dir, 'not-there.http') });
      assert.match(errors()[0] ?? '', /^not-there\.http cannot be read: /);
      messages.shown.length = 0;
      // The same text in a plain-text document is no .http file (no such name, no `http` language): no lenses.
      const untitled = await vscode.workspace.openTextDocument({ language: 'plaintext', content: text });
      assert.deepEqual(await lensesOf(untitled.uri), [], 'plain text is not an .http file');
      errors().forEach((e) => assert.fail(e));
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await closeUntitledEditors();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('New Request refuses bad input with the commands\' messages, and sends nothing', async () => {
    const sandbox = runningSandbox(api);
    const before = sandbox.requests.length;
    const bad: Array<[unknown, RegExp]> = [
      [{ endpoint: 'list', kind: 'activity', params: { start_date: '2026-02-30', end_date: '2026-03-01' } }, /2026-02-30 is not a real calendar date/],
      [{ endpoint: 'list', kind: 'activity', params: { start_date: '2026-03-01' } }, /both a start and an end date/],
      [{ endpoint: 'list', kind: 'activity', params: { start_date: '2026-03-05', end_date: '2026-03-01' } }, /start date 2026-03-05 is after the end date/],
      [{ endpoint: 'list', kind: 'activity', params: { limit: '0' } }, /limit is a whole number from 1 to 500/],
      [{ endpoint: 'list', kind: 'activity', params: { limit: '501' } }, /limit is a whole number from 1 to 500/],
      [{ endpoint: 'list', kind: 'activity', params: { limit: '1e3' } }, /limit is a whole number/],
      [{ endpoint: 'list', kind: 'activity', params: { offset: '-1' } }, /offset is a whole number/],
      [{ endpoint: 'list', kind: 'activity', params: { updated_since: 'yesterday' } }, /updated_since is a date/],
      [{ endpoint: 'list', kind: 'activity', params: { updated_since: '2026-13-01' } }, /updated_since is a date/],
      [{ endpoint: 'getByDate', kind: 'activity', date: '2026-2-1' }, /is not a date written YYYY-MM-DD/],
      [{ endpoint: 'getById', kind: 'activity', id: '   ' }, /The id cannot be empty/],
      [{ endpoint: 'getById', kind: 'activity', id: '2026-03-01' }, /written like a date/],
      [{ endpoint: 'getLatest', kind: 'activity' }, /names no endpoint of the service/],
      [{ endpoint: 'delete', kind: 'activity' }, /names no endpoint of the service/],
      [{ endpoint: 'list', kind: 'orders' }, /names no endpoint of the service/],
      ['GET http://evil.example/', /names no endpoint of the service/],
    ];
    for (const [draft, says] of bad) {
      messages.shown.length = 0;
      const result = await vscode.commands.executeCommand('healthData.newRequest', { draft });
      assert.equal(result, undefined, JSON.stringify(draft));
      assert.ok(errors().some((t) => says.test(t)), `${JSON.stringify(draft)}: ${errors().join(' | ') || 'no error shown'}`);
    }
    assert.equal(sandbox.requests.length, before, 'a request went out');
    // The form's own checks are these, field by field (what the input boxes show).
    const draft = { endpoint: 'list', kind: 'activity' } as const;
    assert.equal(fieldProblem(draft, 'limit', '500'), undefined);
    assert.equal(fieldProblem(draft, 'offset', '0'), undefined);
    assert.equal(fieldProblem(draft, 'updated_since', '2026-03-01T10:00:00+02:00'), undefined);
    assert.equal(fieldProblem(draft, 'start_date', ''), undefined);
    assert.deepEqual(draftProblems({ ...draft, params: { start_date: '2026-03-01', end_date: '2026-03-02' } }), []);
  });

  it('Save Request keeps a request by name under Saved, whatever the history size; rename, remove, and Clear History keeps it', async () => {
    const end = records('activity')[0].date!;
    const send = async (limit: string) =>
      (await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'list', kind: 'activity', params: { start_date: addDays(end, -5), end_date: end, limit } } })) as HistoryEntry;
    const first = await send('2');
    assert.equal(await vscode.commands.executeCommand('healthData.saveRequest', { exchangeId: first.id, name: '  Two activities ' }), true);
    assert.deepEqual(api.history.saved().map((e) => [e.id, e.savedAs]), [[first.id, 'Two activities']]);
    // The History view: Saved first, the request by its name, the request and status beside it.
    const root = api.historyView.getChildren();
    assert.equal(root[0].type, 'saved');
    assert.equal(api.historyView.getTreeItem(root[0]).description, '1 request');
    // The view's description counts the saved request apart from the others, as the view lists them.
    const others = api.history.all().length - 1;
    assert.equal(api.historyView.view?.description, others > 0 ? `${others === 1 ? '1 request' : `${others} requests`} · 1 saved` : '1 saved');
    const [row] = api.historyView.getChildren(root[0]);
    const item = api.historyView.getTreeItem(row);
    assert.equal(item.label, 'Two activities');
    assert.equal(item.description, `200 · GET ${pathAndQuery(first.url)}`);
    assert.equal(item.contextValue, 'savedExchange');
    assert.ok(root.slice(1).every((d) => d.type === 'day' && d.entries.every((e) => e.savedAs === undefined)), 'a saved request is listed once, under Saved');
    // Send Again: the same request, through the environment in use, shown; the saved one stays as it was.
    const sandbox = runningSandbox(api);
    const sent = sandbox.requests.length;
    const again = (await vscode.commands.executeCommand('healthData.sendAgain', row)) as HistoryEntry;
    assert.ok(again && again.id !== first.id, 'a new exchange');
    assert.equal(pathAndQuery(again.url), pathAndQuery(first.url));
    assert.equal(again.status, 200);
    assert.equal(again.savedAs, undefined);
    assert.ok(api.exchangeViews.get(again.id), 'the new exchange is shown');
    const asked = sandbox.requests.slice(sent).filter((r) => r.path.includes('/activities/'));
    assert.deepEqual(asked.map((r) => r.query), [{ start_date: addDays(end, -5), end_date: end, limit: '2' }]);
    assert.equal(api.history.get(first.id)?.savedAs, 'Two activities');

    // Bad names are refused with the reason, and change nothing.
    const second = await send('3');
    for (const [name, says] of [
      ['   ', /Not saved: Enter a name for the saved request\./],
      ['two ACTIVITIES', /Not saved: A saved request is already named "Two activities"\./],
      ['a\nb', /Not saved: A name cannot contain line breaks, direction marks or other control characters\./],
      ['evil\u202eeman', /Not saved: A name cannot contain line breaks, direction marks or other control characters\./],
      ['x'.repeat(81), /Not saved: A name is at most 80 characters\./],
    ] as const) {
      messages.shown.length = 0;
      assert.equal(await vscode.commands.executeCommand('healthData.saveRequest', { exchangeId: second.id, name }), undefined);
      assert.ok(errors().some((t) => says.test(t)), `${JSON.stringify(name)}: ${errors().join(' | ')}`);
    }
    messages.shown.length = 0;
    assert.equal(await vscode.commands.executeCommand('healthData.renameSavedRequest', { exchangeId: second.id, name: 'x' }), undefined);
    assert.ok(errors().some((t) => /is not a saved request: save it first/.test(t)), errors().join(' | '));
    assert.equal(api.history.saved().length, 1);

    // Asked for a name: the request itself is offered.
    const win = vscode.window as unknown as { showInputBox: (o: vscode.InputBoxOptions) => Thenable<string | undefined> };
    const showInputBox = win.showInputBox;
    let offered: vscode.InputBoxOptions | undefined;
    win.showInputBox = (o) => {
      offered = o;
      return Promise.resolve('Three activities');
    };
    let status: string | undefined;
    try {
      assert.equal(await vscode.commands.executeCommand('healthData.saveRequest', { exchangeId: second.id }), true);
      // What it asks, in words: the resource, the dates and the other parameters given.
      assert.equal(offered?.value, `Activity summaries, ${addDays(end, -5)} – ${end}, limit 3`);
      // The exchange view's Save Request… asks the same, offering the present name, and says where it went.
      const view = api.exchangeViews.get(second.id);
      assert.ok(view, 'the exchange view of the request sent');
      status = await view.act('saveRequest');
    } finally {
      win.showInputBox = showInputBox;
    }
    assert.equal(offered?.value, 'Three activities');
    assert.equal(status, 'Saved as "Three activities", under Saved in the History view.');
    assert.equal(await offered?.validateInput?.('two activities'), 'A saved request is already named "Two activities".');
    const at = (method: 'GET' | 'POST', path: string): HistoryEntry => ({ ...first, method, url: `${new URL(first.url).origin}${path}` });
    assert.equal(defaultSavedName(at('POST', '/v1/admin/token')), 'Token mint');
    assert.equal(defaultSavedName(at('GET', '/v1/human/heart_rate/summaries/2026-11-20')), 'Heart rate summaries 2026-11-20');
    assert.equal(defaultSavedName(at('GET', '/v1/human/body_fat/readings/a%0Ab')), 'Body fat readings a b', 'no line break in a name');
    assert.equal(defaultSavedName(at('GET', '/v1/human/elsewhere?x=1')), 'GET /v1/human/elsewhere?x=1');
    const long = defaultSavedName(at('GET', `/v1/human/activities/summaries?source=${'s'.repeat(200)}`));
    assert.equal(long.length, 80);
    assert.ok(long.startsWith('Activity summaries, source sss') && long.endsWith('…'), long);

    // Kept whatever the history's size, and in the workspace's storage.
    await vscode.workspace.getConfiguration('healthData').update('history.size', 1, vscode.ConfigurationTarget.Global);
    try {
      await send('4');
      await send('5');
      assert.deepEqual(api.history.all().filter((e) => e.savedAs === undefined).length, 1);
      assert.deepEqual(api.history.saved().map((e) => e.savedAs).sort(), ['Three activities', 'Two activities']);
      await api.history.flush();
      const stored = api.workspaceState.get<HistoryEntry[]>(HISTORY_KEY) ?? [];
      assert.deepEqual(stored.filter((e) => e.savedAs).map((e) => e.savedAs).sort(), ['Three activities', 'Two activities']);

      // Renamed, then Clear History: the saved ones stay.
      assert.equal(await vscode.commands.executeCommand('healthData.renameSavedRequest', { exchangeId: first.id, name: 'Activities, two' }), true);
      assert.equal(api.history.get(first.id)?.savedAs, 'Activities, two');
      // Listed by name, not by time (the renamed one is the older).
      const savedRows = api.historyView.getChildren(api.historyView.getChildren()[0]);
      assert.deepEqual(savedRows.map((r) => api.historyView.getTreeItem(r).label), ['Activities, two', 'Three activities']);
      assert.equal(await vscode.commands.executeCommand('healthData.clearHistory', { confirm: false }), true);
      assert.deepEqual(api.history.all().map((e) => e.id).sort(), [first.id, second.id].sort());
      assert.deepEqual(api.historyView.getChildren().map((n) => n.type), ['saved']);
      assert.equal(api.historyView.view?.description, '2 saved', 'only saved requests are left: the view says so');
      await api.history.flush();
      assert.equal(api.workspaceState.get<unknown[]>(HISTORY_KEY)?.length, 2);

      // Removed from Saved: back to the plain history, where the size setting holds.
      assert.equal(await vscode.commands.executeCommand('healthData.removeSavedRequest', { exchangeId: second.id }), true);
      assert.deepEqual(api.history.saved().map((e) => e.id), [first.id]);
      assert.deepEqual(api.history.all().map((e) => e.id).sort(), [first.id, second.id].sort());
      assert.equal(await vscode.commands.executeCommand('healthData.removeSavedRequest', { exchangeId: first.id }), true);
      assert.equal(api.history.saved().length, 0);
      assert.equal(api.history.all().length, 1, 'the size setting holds again');
      messages.shown.length = 0;
      assert.equal(await vscode.commands.executeCommand('healthData.removeSavedRequest'), false);
      assert.ok(messages.shown.some((m) => /No saved requests yet/.test(m.text)), JSON.stringify(messages.shown));

      // At most 100 saved: the next one is refused with the reason, and nothing is lost.
      const many = Array.from({ length: 100 }, (_, i): HistoryEntry => ({ ...first, id: `saved-${i}`, savedAs: undefined }));
      for (const [i, e] of many.entries()) {
        api.history.add(e);
        api.history.saveRequest(e.id, `Saved ${i}`);
      }
      const plain: HistoryEntry = { ...first, id: 'one-too-many', savedAs: undefined };
      api.history.add(plain);
      messages.shown.length = 0;
      assert.equal(await vscode.commands.executeCommand('healthData.saveRequest', { exchangeId: plain.id, name: 'One too many' }), undefined);
      assert.deepEqual(errors(), ['Not saved: Saved holds at most 100 requests: remove one first.']);
      assert.equal(api.history.saved().length, 100);
      for (const e of many) api.history.removeSaved(e.id);
      assert.equal(api.history.saved().length, 0);
    } finally {
      await vscode.workspace.getConfiguration('healthData').update('history.size', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Export Saved Requests writes them to a file without a credential or a reply; Import brings them back once, and they send', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hde-saved-'));
    const end = records('activity')[0].date!;
    const list = (await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'list', kind: 'activity', params: { start_date: addDays(end, -5), end_date: end, limit: '2' } } })) as HistoryEntry;
    const byDate = (await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'getByDate', kind: 'heartRate', date: records('heartRate')[0].date } })) as HistoryEntry;
    try {
      messages.shown.length = 0;
      assert.equal(await vscode.commands.executeCommand('healthData.exportSavedRequests', { uri: path.join(dir, 'none.json') }), undefined);
      assert.deepEqual(messages.shown.map((m) => m.text), ['No saved requests to export: Save Request… on a request of the History view keeps it by a name.']);
      assert.ok(!fs.existsSync(path.join(dir, 'none.json')));

      api.history.saveRequest(list.id, 'Two activities');
      api.history.saveRequest(byDate.id, 'Heart rate of a day');
      // Asked what goes in the file: the requests only is offered first.
      const file = path.join(dir, 'saved.json');
      messages.shown.length = 0;
      const { offered, result } = await answerQuickPick((items) => items[0], () => vscode.commands.executeCommand('healthData.exportSavedRequests', { uri: file }));
      assert.deepEqual(offered.map((i) => i.label), ['Requests only (recommended to share)', 'With their last replies']);
      assert.deepEqual(result, { uri: vscode.Uri.file(file).toString(), requests: 2, replies: false });
      assert.deepEqual(messages.shown.map((m) => [m.text, m.actions]), [['Exported 2 saved requests to saved.json. Import Saved Requests… reads it in another workspace.', ['Open']]]);
      const text = fs.readFileSync(file, 'utf8');
      const written = JSON.parse(text) as { kind: string; requests: HistoryEntry[] };
      assert.equal(written.kind, 'health-data-explorer.saved-requests');
      assert.deepEqual(written.requests.map((r) => [r.savedAs, r.responseBody, r.status]).sort(), [['Heart rate of a day', undefined, 200], ['Two activities', undefined, 200]]);
      assert.ok(!text.includes('sandbox-secret') && !/eyJ[\w-]{4,}\./.test(text), 'no secret, no token');
      assert.ok(text.includes('Bearer [redacted]'));
      // With the replies, when asked: the records are in the file.
      const withReplies = (await vscode.commands.executeCommand('healthData.exportSavedRequests', { uri: path.join(dir, 'replies.json'), replies: true })) as { replies: boolean };
      assert.equal(withReplies.replies, true);
      const repliesFile = JSON.parse(fs.readFileSync(path.join(dir, 'replies.json'), 'utf8')) as { requests: HistoryEntry[] };
      assert.equal((JSON.parse(repliesFile.requests.find((r) => r.savedAs === 'Two activities')!.responseBody!) as unknown[]).length, 2);

      // Another workspace: the saved requests are not there. Import brings them under Saved.
      api.history.removeSaved(list.id);
      api.history.removeSaved(byDate.id);
      messages.shown.length = 0;
      const imported = (await vscode.commands.executeCommand('healthData.importSavedRequests', { uri: file })) as { added: string[] };
      assert.deepEqual(imported.added.sort(), ['Heart rate of a day', 'Two activities']);
      assert.deepEqual(messages.shown.map((m) => [m.level, m.text]), [['info', 'Imported 2 saved requests from saved.json, under Saved in the History view.']]);
      const savedRows = api.historyView.getChildren(api.historyView.getChildren()[0]);
      assert.deepEqual(savedRows.map((r) => api.historyView.getTreeItem(r).label), ['Heart rate of a day', 'Two activities']);
      // An imported request sends as it was saved, through the environment in use.
      const sandbox = runningSandbox(api);
      const sent = sandbox.requests.length;
      const again = (await vscode.commands.executeCommand('healthData.sendAgain', savedRows[1])) as HistoryEntry;
      assert.equal(again.status, 200);
      assert.deepEqual(sandbox.requests.slice(sent).filter((r) => r.path.includes('/activities/')).map((r) => r.query), [{ start_date: addDays(end, -5), end_date: end, limit: '2' }]);

      // The same file again adds nothing; a request under a taken name is saved under a number.
      messages.shown.length = 0;
      await vscode.commands.executeCommand('healthData.importSavedRequests', { uri: file });
      assert.deepEqual(messages.shown.map((m) => m.text), ['Nothing imported from saved.json. 2 were already saved here.']);
      const other = { ...written, requests: [{ ...written.requests[0], url: written.requests[0].url.replace(/limit=2|$/, 'limit=9') }] };
      fs.writeFileSync(path.join(dir, 'other.json'), JSON.stringify(other));
      messages.shown.length = 0;
      await vscode.commands.executeCommand('healthData.importSavedRequests', { uri: path.join(dir, 'other.json') });
      const name = written.requests[0].savedAs!;
      assert.deepEqual(messages.shown.map((m) => m.text), [
        `Imported 1 saved request from other.json, under Saved in the History view. Names already taken, so saved under another: "${name}" as "${name} (2)".`,
      ]);

      // Files that are not one: each says what it is, and nothing changes.
      fs.writeFileSync(path.join(dir, 'broken.json'), '{"kind": ');
      fs.writeFileSync(path.join(dir, 'recording.har'), JSON.stringify({ log: { entries: [] } }));
      fs.writeFileSync(path.join(dir, 'latin1.json'), Buffer.from([0x7b, 0xe9, 0x7d]));
      fs.mkdirSync(path.join(dir, 'folder.json'));
      const before = api.history.saved().length;
      for (const [name, says] of [
        ['missing.json', /^missing\.json does not exist\.$/],
        ['folder.json', /^folder\.json is a folder: pick a file of saved requests\.$/],
        ['broken.json', /^broken\.json: The file is not JSON \(.+\), so it holds no saved requests\.$/],
        ['recording.har', /^recording\.har: The file is not a file of saved requests: Export Saved Requests… writes one/],
        ['latin1.json', /^latin1\.json is not UTF-8 text, so it is not a file of saved requests\.$/],
      ] as const) {
        messages.shown.length = 0;
        assert.equal(await vscode.commands.executeCommand('healthData.importSavedRequests', { uri: path.join(dir, name) }), undefined);
        assert.ok(errors().length === 1 && says.test(errors()[0]), `${name}: ${errors().join(' | ')}`);
      }
      assert.equal(api.history.saved().length, before);
      messages.shown.length = 0;
      // Beneath a file, where no file can be written.
      assert.equal(await vscode.commands.executeCommand('healthData.exportSavedRequests', { uri: path.join(file, 'x.json'), replies: false }), undefined);
      assert.equal(errors().length, 1);
      assert.match(errors()[0], /^x\.json could not be written: .*saved\.json.* not a directory\.$/);
    } finally {
      for (const e of api.history.saved()) api.history.removeSaved(e.id);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Run Saved Requests sends each saved request through the environment in use and judges it: PASS, or FAIL and why', async () => {
    const end = records('activity')[0].date!;
    const list = (await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'list', kind: 'activity', params: { start_date: addDays(end, -5), end_date: end, limit: '2' } } })) as HistoryEntry;
    const gone = (await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'getById', kind: 'heartRate', id: 'no-such-summary' } })) as HistoryEntry;
    assert.equal(gone.status, 404);
    const env = api.session.active!.name;
    messages.shown.length = 0;
    assert.equal(await vscode.commands.executeCommand('healthData.runSavedRequests', { showResults: false }), undefined);
    assert.deepEqual(messages.shown.map((m) => m.text), ['No saved requests to run: Save Request… on a request of the History view keeps it by a name.']);
    api.history.saveRequest(list.id, 'A passing list');
    api.history.saveRequest(gone.id, 'A missing summary');
    try {
      const sandbox = runningSandbox(api);
      const sent = sandbox.requests.length;
      messages.shown.length = 0;
      const results = (await vscode.commands.executeCommand('healthData.runSavedRequests', { showResults: false })) as SavedRunResult[];
      // By name, as the Saved group lists them.
      assert.deepEqual(results.map((r) => [r.name, r.verdict, r.status]), [['A missing summary', 'failed', 404], ['A passing list', 'passed', 200]]);
      assert.match(results[0].problem ?? '', /404 Not Found: No heart rate summary with id "no-such-summary"/);
      assert.equal(results[1].records, 2);
      assert.deepEqual(messages.shown.map((m) => [m.level, m.text]), [['warning', `1 of 2 saved requests failed against ${env}.`]]);
      // Sent again: new exchanges in the history, the saved ones as they were.
      for (const r of results) {
        const made = api.history.get(r.exchangeId!);
        assert.ok(made && made.savedAs === undefined && made.id !== list.id && made.id !== gone.id, r.name);
      }
      assert.deepEqual(sandbox.requests.slice(sent).filter((q) => q.path.includes('/activities/')).map((q) => q.query), [{ start_date: addDays(end, -5), end_date: end, limit: '2' }]);

      // Some of them by name; a name that is none says so.
      messages.shown.length = 0;
      const one = (await vscode.commands.executeCommand('healthData.runSavedRequests', { names: ['a PASSING list'], showResults: false })) as SavedRunResult[];
      assert.deepEqual(one.map((r) => r.verdict), ['passed']);
      assert.deepEqual(messages.shown.map((m) => [m.level, m.text]), [['info', `The saved request passed against ${env}.`]]);
      messages.shown.length = 0;
      await vscode.commands.executeCommand('healthData.runSavedRequests', { names: ['A missing summary'], showResults: false });
      assert.deepEqual(messages.shown.map((m) => [m.level, m.text]), [['warning', `The saved request failed against ${env}.`]]);
      messages.shown.length = 0;
      assert.equal(await vscode.commands.executeCommand('healthData.runSavedRequests', { names: ['nope'] }), undefined);
      assert.deepEqual(errors(), ['No saved request is named "nope".']);

      // Cancelled before it starts: nothing sent, and the message says so.
      const cancelled = new vscode.CancellationTokenSource();
      cancelled.cancel();
      messages.shown.length = 0;
      const none = (await vscode.commands.executeCommand('healthData.runSavedRequests', { showResults: false, cancellation: cancelled.token })) as SavedRunResult[];
      assert.deepEqual(none, []);
      assert.deepEqual(messages.shown.map((m) => m.text), ['Cancelled after 0 of 2 saved requests: 0 passed, 0 failed.']);

      // Show Results: a row per request, the failed one saying why; picking it opens its exchange.
      const win = vscode.window as unknown as { showWarningMessage: (...a: unknown[]) => Thenable<unknown> };
      const warn = win.showWarningMessage;
      win.showWarningMessage = () => Promise.resolve('Show Results');
      let picked: SavedRunResult[] = [];
      try {
        const { offered, result } = await answerQuickPick(
          (items) => items.find((i) => i.label.includes('A missing summary')),
          () => vscode.commands.executeCommand('healthData.runSavedRequests'),
        );
        picked = result as SavedRunResult[];
        assert.deepEqual(offered.map((i) => i.label), ['$(error) A missing summary', '$(pass) A passing list']);
        assert.match(offered[0].detail ?? '', /^Failed · 404 Not Found · \d+ ms · request id \w+ · GET \/v1\/human\/heart_rate\/summaries\/no-such-summary: 404 Not Found/);
        assert.match(offered[1].detail ?? '', /^Passed · 200 OK · 2 records · /);
      } finally {
        win.showWarningMessage = warn;
      }
      assert.ok(api.exchangeViews.get(picked[0].exchangeId!), 'the failed request\'s exchange is shown');
    } finally {
      for (const e of api.history.saved()) api.history.removeSaved(e.id);
    }
  });

  it('Set Expected Status makes a refusal saved on purpose a check: offered on saving, shown on its row, passed by a run only on that status', async () => {
    const gone = (await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'getById', kind: 'heartRate', id: 'not-there-on-purpose' } })) as HistoryEntry;
    assert.equal(gone.status, 404);
    const env = api.session.active!.name;
    const win = vscode.window as unknown as { showInformationMessage: (...a: unknown[]) => Thenable<unknown> };
    const info = win.showInformationMessage;
    const offered: Array<{ text: string; actions: unknown[] }> = [];
    // Saving a refusal says a run expects a 2xx, and offers to expect what it got; the button is taken.
    win.showInformationMessage = (text: unknown, ...actions: unknown[]) => {
      offered.push({ text: String(text), actions });
      return Promise.resolve(actions[0]);
    };
    try {
      assert.equal(await vscode.commands.executeCommand('healthData.saveRequest', { exchangeId: gone.id, name: 'Gone on purpose' }), true);
      await waitFor('the saved request to expect 404', () => api.history.get(gone.id)?.expectStatus === 404);
    } finally {
      win.showInformationMessage = info;
    }
    assert.deepEqual(offered, [{ text: 'Saved "Gone on purpose". A run expects a 2xx of it, and it got 404 Not Found.', actions: ['Expect 404'] }]);
    try {
      // Its row says what a run expects.
      const root = api.historyView.getChildren();
      const row = api.historyView.getChildren(root[0]).find((r) => r.type === 'exchange' && r.entry.id === gone.id)!;
      const item = api.historyView.getTreeItem(row);
      // The status first, so a narrow sidebar cuts the request; the refusal expected is a pass.
      assert.equal(item.description, `404 (expects 404) · GET ${pathAndQuery(gone.url)}`);
      assert.equal((item.iconPath as vscode.ThemeIcon).id, 'pass');
      assert.match(item.accessibilityInformation?.label ?? '', /, 404, expects 404, refused as expected, \d+ ms, /);
      assert.match(String(item.tooltip), /^Saved as: Gone on purpose\nA run expects: 404 Not Found\n/);

      // Run Saved Request, from its row: the refusal expected passes.
      messages.shown.length = 0;
      const [passed] = (await vscode.commands.executeCommand('healthData.runSavedRequest', { ...row, showResults: false })) as SavedRunResult[];
      assert.deepEqual([passed.name, passed.verdict, passed.status, passed.expectedStatus, passed.problem], ['Gone on purpose', 'passed', 404, 404, undefined]);
      assert.deepEqual(messages.shown.map((m) => [m.level, m.text]), [['info', `The saved request passed against ${env}.`]]);

      // The pick: any 2xx, then the refusals, the one expected now and its last reply marked; any 2xx picked.
      const { offered: items, result } = await answerQuickPick(
        (list) => list.find((i) => i.label.includes('Any success')),
        () => vscode.commands.executeCommand('healthData.setExpectedStatus', { exchangeId: gone.id }),
      );
      assert.equal(result, null);
      assert.deepEqual(items.slice(0, 4).map((i) => [i.label, i.description]), [
        ['$(pass) Any success (2xx)', undefined],
        ['Refused', undefined],
        ['404 Not Found', 'expected now · its last reply'],
        ['400 Bad Request', undefined],
      ]);
      assert.equal(items.filter((i) => i.label === '404 Not Found').length, 1, 'each status once');
      assert.equal(api.history.get(gone.id)?.expectStatus, undefined);
      // Expecting a 2xx again, its 404 is a warning on the row.
      const again = api.historyView.getChildren(api.historyView.getChildren()[0]).find((r) => r.type === 'exchange' && r.entry.id === gone.id)!;
      assert.equal((api.historyView.getTreeItem(again).iconPath as vscode.ThemeIcon).id, 'warning');
      assert.equal(api.historyView.getTreeItem(again).description, `404 · GET ${pathAndQuery(gone.url)}`);
      messages.shown.length = 0;
      const [failed] = (await vscode.commands.executeCommand('healthData.runSavedRequest', { exchangeId: gone.id, showResults: false })) as SavedRunResult[];
      assert.deepEqual([failed.verdict, failed.failure], ['failed', 'status']);
      assert.deepEqual(messages.shown.map((m) => [m.level, m.text]), [['warning', `The saved request failed against ${env}.`]]);

      // Given as an argument; a 2xx that does not come fails as a status; the export keeps the expectation.
      assert.equal(await vscode.commands.executeCommand('healthData.setExpectedStatus', { exchangeId: gone.id, status: 200 }), 200);
      const [wrong] = (await vscode.commands.executeCommand('healthData.runSavedRequest', { exchangeId: gone.id, showResults: false })) as SavedRunResult[];
      assert.equal(wrong.problem, 'Expected 200 OK; the service answered 404 Not Found: No heart rate summary with id "not-there-on-purpose".');
      await vscode.commands.executeCommand('healthData.setExpectedStatus', { exchangeId: gone.id, status: 404 });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hde-expect-'));
      try {
        await vscode.commands.executeCommand('healthData.exportSavedRequests', { uri: path.join(dir, 'expect.json'), replies: false });
        const file = JSON.parse(fs.readFileSync(path.join(dir, 'expect.json'), 'utf8')) as { requests: Array<{ savedAs: string; expectStatus?: number }> };
        assert.deepEqual(file.requests.filter((r) => r.savedAs === 'Gone on purpose').map((r) => r.expectStatus), [404]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }

      // What will not do says why, and changes nothing.
      messages.shown.length = 0;
      await vscode.commands.executeCommand('healthData.setExpectedStatus', { exchangeId: gone.id, status: 700 });
      const unsaved = api.history.all().find((e) => e.savedAs === undefined)!;
      await vscode.commands.executeCommand('healthData.setExpectedStatus', { exchangeId: unsaved.id, status: 404 });
      assert.deepEqual(errors(), ['status must be a status from 100 to 599, or null for any 2xx.', 'Only a saved request has an expected status: Save Request… first.']);
      assert.equal(api.history.get(gone.id)?.expectStatus, 404);
      assert.equal(api.history.get(unsaved.id)?.expectStatus, undefined);
      // Removed from Saved, it expects nothing any more.
      api.history.removeSaved(gone.id);
      assert.equal(api.history.get(gone.id)?.expectStatus, undefined);
    } finally {
      for (const e of api.history.saved()) api.history.removeSaved(e.id);
    }
  });

  it('Set Time Limit fails a run whose first byte comes later: the input box with the last reply\'s time, the row, the run, the Testing view\'s diff', async () => {
    // A day whose summaries all pass: about one day in ten the sandbox, as the service did, sends
    // a summary without its required `value`, and that run would fail on findings before its time.
    const day = records('heartRate')
      .map((r) => r.date!)
      .find((d) => records('heartRate').every((r) => r.date !== d || typeof r.value === 'number'))!;
    const sent = (await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'getByDate', kind: 'heartRate', date: day } })) as HistoryEntry;
    assert.equal(sent.status, 200);
    api.history.saveRequest(sent.id, 'Heart rate in time');
    try {
      const { asked, result } = await answerInputBox('100 ms', () => vscode.commands.executeCommand('healthData.setTimeLimit', { exchangeId: sent.id }));
      assert.equal(result, 100);
      // The box: no limit yet, what the last reply took, and what it takes.
      assert.equal(asked?.value, '');
      assert.match(asked?.prompt ?? '', /^How long a run of "Heart rate in time" may wait for the service's first byte: 500, 500 ms or 2 s\. Empty: no limit\. Its last reply's first byte came after [\d.]+ ms\.$/);
      const validate = asked!.validateInput!;
      assert.equal(await validate('0'), 'A limit is a time from 1 ms to 10 minutes: 500, 500 ms or 2 s.');
      assert.equal(await validate('fast'), 'A limit is a time from 1 ms to 10 minutes: 500, 500 ms or 2 s.');
      for (const good of ['2 s', '750', '']) assert.equal(await validate(good), undefined, good);
      assert.equal(api.history.get(sent.id)?.timeLimitMs, 100);

      // The row and its tooltip say it; the Testing view's item too.
      const row = () => api.historyView.getTreeItem(api.historyView.getChildren(api.historyView.getChildren()[0]).find((r) => r.type === 'exchange' && r.entry.id === sent.id)!);
      assert.equal(row().description, `200 (first byte ≤ 100 ms) · GET ${pathAndQuery(sent.url)}`);
      assert.match(String(row().tooltip), /\nA run expects: a 2xx whose records break no rule, the first byte within 100 ms\n/);
      assert.match(String(row().tooltip), /\nFirst byte after \d+(\.\d)? ms\n/);
      assert.equal(api.savedTests.controller.items.get(sent.id)?.description, `GET ${pathAndQuery(sent.url)} · first byte ≤ 100 ms`);

      // The sandbox holds the reply back: the run fails on the time, after every other check passed.
      runningSandbox(api).addFault({ fault: 'latency', path: `/heart_rate/summaries/${day}`, latencyMs: 400 });
      const [late] = (await vscode.commands.executeCommand('healthData.runSavedRequest', { exchangeId: sent.id, showResults: false })) as SavedRunResult[];
      assert.deepEqual([late.verdict, late.failure, late.status, late.timeLimitMs], ['failed', 'time', 200, 100]);
      assert.ok((late.firstByteMs ?? 0) >= 350, `first byte ${late.firstByteMs}`);
      assert.match(late.problem ?? '', /^The first byte came after \d+ ms; the limit is 100 ms\.$/);
      // In the Testing view, a diff of the limit and the time.
      const recorded = recordTestRuns(api.savedTests.controller);
      try {
        await api.savedTests.run(new vscode.TestRunRequest([api.savedTests.controller.items.get(sent.id)!]), new vscode.CancellationTokenSource().token);
        const failed = recorded.calls.find((c) => c[0] === 'failed');
        assert.ok(failed, JSON.stringify(recorded.calls.map((c) => c[0])));
        const message = failed[2] as vscode.TestMessage;
        assert.equal(message.expectedOutput, 'first byte ≤ 100 ms');
        assert.match(message.actualOutput ?? '', /^first byte after \d+(\.\d)? ms$/);
      } finally {
        recorded.restore();
      }

      // No limit again, by argument; what will not do says why.
      runningSandbox(api).clearFaults();
      assert.equal(await vscode.commands.executeCommand('healthData.setTimeLimit', { exchangeId: sent.id, ms: null }), null);
      assert.equal(api.history.get(sent.id)?.timeLimitMs, undefined);
      assert.equal(row().description, `200 · GET ${pathAndQuery(sent.url)}`);
      await vscode.commands.executeCommand('healthData.setTimeLimit', { exchangeId: sent.id, ms: 0 });
      const unsaved = api.history.all().find((e) => e.savedAs === undefined)!;
      await vscode.commands.executeCommand('healthData.setTimeLimit', { exchangeId: unsaved.id, ms: 500 });
      assert.deepEqual(errors(), ['ms must be a whole number from 1 to 600000, or null for no limit.', 'Only a saved request has a time limit: Save Request… first.']);
    } finally {
      // A failure above leaves neither the fault nor the saved request to the tests after it.
      runningSandbox(api).clearFaults();
      api.history.removeSaved(sent.id);
    }
  });

  it('Set Findings That Fail makes findings of the kinds picked fail a run as errors do: the pick, the row, the run, the file and back', async () => {
    const dates = records('activity').map((r) => r.date!).sort();
    const sent = (await vscode.commands.executeCommand('healthData.newRequest', {
      draft: { endpoint: 'list', kind: 'activity', params: { start_date: dates[0], end_date: dates.at(-1)!, limit: '5' } },
    })) as HistoryEntry;
    assert.equal(sent.status, 200);
    api.history.saveRequest(sent.id, 'Five activity summaries');
    const row = () => api.historyView.getTreeItem(api.historyView.getChildren(api.historyView.getChildren()[0]).find((r) => r.type === 'exchange' && r.entry.id === sent.id)!);
    const run = async () => ((await vscode.commands.executeCommand('healthData.runSavedRequest', { exchangeId: sent.id, showResults: false })) as SavedRunResult[])[0];
    try {
      // By default a run fails on errors alone: the sandbox's records pass, userId and all.
      const plain = await run();
      assert.equal(plain.verdict, 'passed', plain.problem);
      assert.ok((plain.counts?.deprecated ?? 0) > 0);

      // The pick: every kind --fail-on names, with what it catches; none checked yet. Two are taken.
      const win = vscode.window as unknown as { showQuickPick: (items: readonly vscode.QuickPickItem[], options: vscode.QuickPickOptions) => Thenable<unknown> };
      const show = win.showQuickPick;
      let offered: readonly vscode.QuickPickItem[] = [];
      let options: vscode.QuickPickOptions | undefined;
      const answer = (labels: string[] | undefined) => {
        win.showQuickPick = (items, o) => {
          offered = items;
          options = o;
          return Promise.resolve(labels && items.filter((i) => labels.includes(i.label)));
        };
      };
      try {
        answer(['deprecated', 'unusual']);
        assert.deepEqual(await vscode.commands.executeCommand('healthData.setFailOn', { exchangeId: sent.id }), ['unusual', 'deprecated']);
        assert.deepEqual(offered.map((i) => [i.label, i.description, i.picked]), [
          ['warning', 'a warning', false],
          ['zero', 'any 0', false],
          ['unusual', 'a 0 that stands out', false],
          ['deprecated', 'a deprecated field', false],
          ['unknown', 'a field the schema does not define', false],
        ]);
        assert.ok(offered.every((i) => (i.detail ?? '').length > 0));
        assert.equal(options?.canPickMany, true);
        assert.equal(options?.placeHolder, 'What fails "Five activity summaries" besides errors? None: errors alone');
        // Asked again, those set are checked; dismissed, nothing changes.
        answer(undefined);
        assert.equal(await vscode.commands.executeCommand('healthData.setFailOn', { exchangeId: sent.id }), undefined);
        assert.deepEqual(offered.filter((i) => i.picked).map((i) => i.label), ['unusual', 'deprecated']);
      } finally {
        win.showQuickPick = show;
      }
      assert.deepEqual(api.history.get(sent.id)?.failOn, ['unusual', 'deprecated']);

      // The row, its tooltip and the Testing view's item say it.
      assert.equal(row().description, `200 (fails on unusual, deprecated) · GET ${pathAndQuery(sent.url)}`);
      assert.match(String(row().tooltip), /\nA run also fails on: a 0 that stands out, a deprecated field\n/);
      assert.equal(api.savedTests.controller.items.get(sent.id)?.description, `GET ${pathAndQuery(sent.url)} · fails on unusual, deprecated`);

      // The run fails on the deprecated userId of every record, and says so.
      const failed = await run();
      assert.deepEqual([failed.verdict, failed.failure, failed.failOn], ['failed', 'findings', ['unusual', 'deprecated']]);
      assert.equal(failed.problem, `${failed.records} of ${failed.records} records break the rules that fail the run: ${failed.counts!.deprecated} deprecated.`);

      // Exported, the file keeps them; `health-data run` reads them from it (the CLI's own tests run it).
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hde-fail-on-')), 'saved.json');
      assert.ok(await vscode.commands.executeCommand('healthData.exportSavedRequests', { uri: file, replies: false }));
      const exported = JSON.parse(fs.readFileSync(file, 'utf8')) as { requests: Array<{ savedAs: string; failOn?: string[] }> };
      assert.deepEqual(exported.requests.find((r) => r.savedAs === 'Five activity summaries')?.failOn, ['unusual', 'deprecated']);

      // Errors alone again, by argument; what will not do says why.
      assert.deepEqual(await vscode.commands.executeCommand('healthData.setFailOn', { exchangeId: sent.id, failOn: null }), []);
      assert.equal(api.history.get(sent.id)?.failOn, undefined);
      assert.equal(row().description, `200 · GET ${pathAndQuery(sent.url)}`);
      assert.equal((await run()).verdict, 'passed');
      await vscode.commands.executeCommand('healthData.setFailOn', { exchangeId: sent.id, failOn: ['errors'] });
      const unsaved = api.history.all().find((e) => e.savedAs === undefined)!;
      await vscode.commands.executeCommand('healthData.setFailOn', { exchangeId: unsaved.id, failOn: ['zero'] });
      assert.deepEqual(errors().slice(-2), [
        'failOn must be a list of warning, zero, unusual, deprecated, unknown, or null for errors alone.',
        'Only a saved request has findings that fail it: Save Request… first.',
      ]);
    } finally {
      api.history.removeSaved(sent.id);
    }
    assert.equal(api.history.get(sent.id)?.failOn, undefined);
  });

  it('the Testing view lists the saved requests by name and runs them: passed, failed with why (a diff of the statuses), skipped when cancelled', async () => {
    const end = records('activity')[0].date!;
    const list = (await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'list', kind: 'activity', params: { start_date: addDays(end, -3), end_date: end, limit: '2' } } })) as HistoryEntry;
    const missing = (await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'getById', kind: 'heartRate', id: 'missing-for-tests' } })) as HistoryEntry;
    const expected = (await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'getById', kind: 'activity', id: 'gone-for-tests' } })) as HistoryEntry;
    const controller = api.savedTests.controller;
    const labels = () => {
      const out: Array<[string, string | undefined]> = [];
      controller.items.forEach((i) => out.push([i.label, i.description]));
      return out.sort((a, b) => a[0].localeCompare(b[0]));
    };
    // Every run's calls to the real TestRun, recorded as they pass through.
    const recorded = recordTestRuns(controller);
    const calls = recorded.calls;
    const runTests = async (request: vscode.TestRunRequest, token = new vscode.CancellationTokenSource().token) => {
      calls.length = 0;
      await api.savedTests.run(request, token);
      const of = (what: string) => calls.filter((c) => c[0] === what).map((c) => api.history.get(c[1])?.savedAs ?? c[1]);
      return { of, calls: [...calls] };
    };
    try {
      assert.deepEqual(labels(), []);
      api.history.saveRequest(list.id, 'A passing list');
      api.history.saveRequest(missing.id, 'A missing summary');
      api.history.saveRequest(expected.id, 'Gone, as expected');
      api.history.setExpectedStatus(expected.id, 404);
      assert.deepEqual(labels(), [
        ['A missing summary', `GET ${pathAndQuery(missing.url)}`],
        ['A passing list', `GET ${pathAndQuery(list.url)}`],
        ['Gone, as expected', `GET ${pathAndQuery(expected.url)} · expects 404`],
      ]);

      // Run all: each started in the view's order; two pass, one fails with the statuses as a diff.
      const all = await runTests(new vscode.TestRunRequest());
      // Test Results names the run by what ran where.
      assert.deepEqual(all.of('createTestRun'), [`Saved requests against ${api.session.active?.name}`]);
      assert.deepEqual(all.of('started'), ['A missing summary', 'A passing list', 'Gone, as expected']);
      assert.deepEqual(all.of('passed'), ['A passing list', 'Gone, as expected']);
      assert.deepEqual(all.of('failed'), ['A missing summary']);
      const message = all.calls.find((c) => c[0] === 'failed')![2] as vscode.TestMessage;
      assert.match(String(message.message), /^GET \/v1\/human\/heart_rate\/summaries\/missing-for-tests: 404 Not Found: No heart rate summary with id "missing-for-tests"/);
      assert.deepEqual([message.expectedOutput, message.actualOutput], ['a 2xx', '404 Not Found']);
      // Its context menu's Show Exchange opens what the service answered in this run.
      const shown = (await vscode.commands.executeCommand('healthData.showExchange', { test: controller.items.get(missing.id), message })) as string;
      assert.ok(shown !== missing.id && api.history.get(shown)?.status === 404 && api.exchangeViews.get(shown), `the run's exchange ${shown}`);
      const output = all.calls.filter((c) => c[0] === 'appendOutput').map((c) => c[1]).join('');
      assert.match(output, /^Running 3 saved requests against .+\r\n/);
      assert.match(output, /PASS {2}Gone, as expected {2}GET \/v1\/human\/activities\/summaries\/gone-for-tests\r\n {6}404 Not Found, as expected · /);
      assert.match(output, /2 passed, 1 failed\.\r\n$/);
      assert.equal(all.of('end').length, 1);

      // One item, or all but one; a request that expects 404 and gets a 200 fails on the status.
      const item = (id: string) => controller.items.get(id)!;
      assert.deepEqual((await runTests(new vscode.TestRunRequest([item(list.id)]))).of('passed'), ['A passing list']);
      const but = await runTests(new vscode.TestRunRequest(undefined, [item(missing.id)]));
      assert.deepEqual([but.of('passed'), but.of('failed')], [['A passing list', 'Gone, as expected'], []]);
      api.history.setExpectedStatus(list.id, 404);
      const wrong = await runTests(new vscode.TestRunRequest([item(list.id)]));
      const diff = wrong.calls.find((c) => c[0] === 'failed')![2] as vscode.TestMessage;
      assert.deepEqual([diff.message, diff.expectedOutput, diff.actualOutput], ['Expected 404 Not Found; the service answered 200 OK.', '404 Not Found', '200 OK']);

      // Cancelled before it starts: nothing sent, every item skipped.
      const cancelled = new vscode.CancellationTokenSource();
      cancelled.cancel();
      const sent = runningSandbox(api).requests.length;
      const none = await runTests(new vscode.TestRunRequest(), cancelled.token);
      assert.deepEqual([none.of('started'), none.of('skipped').length], [[], 3]);
      assert.equal(runningSandbox(api).requests.length, sent);

      // The items follow the history: renamed, removed.
      await vscode.commands.executeCommand('healthData.renameSavedRequest', { exchangeId: list.id, name: 'Two activities' });
      api.history.removeSaved(missing.id);
      assert.deepEqual(labels().map((l) => l[0]), ['Gone, as expected', 'Two activities']);

      // An item's context menu in the Testing view hands the item to the History's commands.
      assert.equal(await vscode.commands.executeCommand('healthData.showExchange', item(expected.id)), expected.id);
      assert.ok(api.exchangeViews.get(expected.id), 'its exchange is shown');
      const { result: set } = await answerQuickPick(
        (offered) => offered.find((i) => i.label === '409 Conflict'),
        () => vscode.commands.executeCommand('healthData.setExpectedStatus', item(expected.id)),
      );
      assert.equal(set, 409);
      assert.equal(item(expected.id).description, `GET ${pathAndQuery(expected.url)} · expects 409`);
      assert.equal(await vscode.commands.executeCommand('healthData.removeSavedRequest', item(expected.id)), true);
      assert.deepEqual(labels().map((l) => l[0]), ['Two activities']);
    } finally {
      recorded.restore();
      for (const e of api.history.saved()) api.history.removeSaved(e.id);
    }
    assert.deepEqual(labels(), []);
  });
});
