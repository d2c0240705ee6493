// The secrets sweep of issue 6, in a real extension host: a known client secret and a known user
// access token are stored, every command the extension contributes runs (with arguments, so no
// prompt waits), every fault of the sandbox is met, and then every sink is searched for the
// secret and for every token: all configuration scopes, the mementos (when the API exposes
// them), the output channel's log and every other file under the profile, notifications,
// progress titles, status bar messages, the tree, the status bar, webview HTML and messages,
// open documents, diagnostics and the clipboard. Zero hits.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { comparableExchanges } from '../../src/core/exchanges';
import { Exchange, decodeJwtClaims } from '../../src/core/service';
import { RESOURCES, ResourceKind } from '../../src/core/resources';
import { DEFAULT_ENVIRONMENT } from '../../src/extension/account/environments';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import type { TreeItemNode } from '../../src/extension/tree/nodes';
import { HISTORY_KEY } from '../../src/extension/workbench';
import { FaultRule, Sandbox, startSandbox } from '../../src/sandbox/server';
import { EXTENSION_ID, closeUntitledEditors, extensionApi, filesUnder, recordTestRuns, resetSettings, trackUnhandledRejections, waitFor } from './support/extension';

const SECRET = 'hde-sweep-secret-6f2d91c4a7e8';
const USER_TOKEN = 'hde-sweep-user-token-0b7e35a9d2c1';
const SANDBOX_ISSUER = 'health-data-sandbox';
/** Where the sweep's recording and export go: the workspace folder (searched with the profile), else a temporary folder. */
let out: string | undefined;
const outDir = (): string => (out ??= vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? mkdtempSync(join(tmpdir(), 'hde-sweep-')));

/** Every text a sink showed, with where it was shown. */
const shown: Array<[string, string]> = [];
const note = (where: string, value: unknown) => {
  if (value === undefined || value === null) return;
  shown.push([where, typeof value === 'string' ? value : value instanceof vscode.MarkdownString ? value.value : JSON.stringify(value)]);
};

/** Replaces functions of `vscode.window` (shared with the extension) so that what they show is kept. */
function captureWindow(): () => void {
  const win = vscode.window as unknown as Record<string, (...args: unknown[]) => unknown>;
  const names = ['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'showInputBox', 'showQuickPick', 'withProgress', 'setStatusBarMessage', 'createWebviewPanel'];
  const saved = Object.fromEntries(names.map((n) => [n, win[n]]));
  for (const name of ['showInformationMessage', 'showWarningMessage', 'showErrorMessage']) {
    win[name] = (...args: unknown[]) => {
      for (const a of args) note(name, typeof a === 'object' && a !== null && 'title' in a ? (a as { title: string }).title : a);
      return Promise.resolve(undefined);
    };
  }
  // Nothing should ask: every command gets its arguments. A prompt is noted and dismissed.
  for (const name of ['showInputBox', 'showQuickPick']) {
    win[name] = (...args: unknown[]) => {
      note(`${name} (unexpected)`, args);
      return Promise.resolve(undefined);
    };
  }
  win.withProgress = (options: unknown, task: unknown) => {
    note('progress title', (options as { title?: string }).title);
    const report = (value: { message?: string }) => note('progress message', value.message);
    return saved.withProgress(options, (progress: unknown, token: unknown) => (task as (...a: unknown[]) => unknown)({ ...(progress as object), report }, token));
  };
  win.setStatusBarMessage = (text: unknown, ...rest: unknown[]) => {
    note('status bar message', text);
    return saved.setStatusBarMessage(text, ...rest);
  };
  win.createWebviewPanel = (...args: unknown[]) => {
    const panel = saved.createWebviewPanel(...args) as vscode.WebviewPanel;
    const post = panel.webview.postMessage.bind(panel.webview);
    (panel.webview as { postMessage: (m: unknown) => Thenable<boolean> }).postMessage = (message: unknown) => {
      note('webview message', message);
      return post(message);
    };
    return panel;
  };
  return () => Object.assign(win, saved);
}

describe('reliability: no secret or token in any sink', function () {
  // Every command and every fault, twice over for some: minutes on a busy machine.
  this.timeout(360_000);
  let api: HealthDataExtensionApi;
  let service: Sandbox;
  let restoreWindow: () => void;
  const tokens = new Set<string>();
  let rejections: ReturnType<typeof trackUnhandledRejections>;
  /** The .http file the sweep writes, the secret and a token in it as a user's file may hold them. */
  let httpFile: string | undefined;
  const rememberToken = () => api.session.currentToken && tokens.add(api.session.currentToken.token);
  const run = async (command: string, ...args: unknown[]) => {
    const result = await vscode.commands.executeCommand(command, ...args);
    rememberToken();
    note(`result of ${command}`, command === 'healthData.copyToken' ? undefined : result);
    return result;
  };

  /**
   * Copy as Code of the session's exchanges, one of each kind (token or data, endpoint, status,
   * attempts, token in the query), in every language, the clipboard noted each time; and all
   * the exchanges kept, as they are.
   */
  const copyEveryExchange = async () => {
    const exchanges = api.session.recentExchanges();
    assert.ok(exchanges.length > 0, 'no exchange was kept');
    note('the session\'s exchanges', exchanges);
    const kinds = new Map<string, (typeof exchanges)[number]>();
    for (const e of exchanges) {
      const kind = [e.purpose, e.endpoint, e.status, e.attempts.length > 1, e.url.includes('access_token'), e.error?.kind].join('|');
      if (!kinds.has(kind)) kinds.set(kind, e);
    }
    for (const exchange of [...kinds.values()].slice(0, 20)) {
      for (const language of ['curl', 'fetch', 'python']) {
        await run('healthData.copyAsCode', { exchangeId: exchange.id }, { language, includeLiveToken: false });
        note(`clipboard after Copy as Code (${language})`, await vscode.env.clipboard.readText());
      }
    }
  };
  /** Compare on pairs of replies of the same endpoint (and one pair that is not), their diff documents noted. */
  const compareEveryPair = async () => {
    const exchanges = api.session.recentExchanges().filter((e) => e.purpose === 'data' && e.responseBody !== undefined);
    const pairs: Array<[Exchange, Exchange]> = [];
    for (const [i, left] of exchanges.entries()) {
      const right = exchanges.slice(i + 1).find((e) => comparableExchanges(left, e));
      if (right && pairs.length < 6) pairs.push([left, right]);
    }
    const other = exchanges.find((e) => !comparableExchanges(exchanges[0], e));
    if (other) pairs.push([exchanges[0], other]);
    let compared = 0;
    for (const [left, right] of pairs) {
      const result = (await run('healthData.compareExchanges', left, right)) as { left: vscode.Uri; right: vscode.Uri } | undefined;
      if (!result) continue;
      compared++;
      for (const uri of [result.left, result.right]) note(`compare document ${uri.toString()}`, (await vscode.workspace.openTextDocument(uri)).getText());
    }
    assert.ok(compared > 0, 'nothing was compared');
  };

  before(async () => {
    rejections = trackUnhandledRejections();
    api = await extensionApi();
    await api.sandbox.stop();
    await resetSettings();
    service = await startSandbox({ port: 0, days: 15, seed: 'sweep', clientId: 'sweep-client', clientSecret: SECRET, userAccessTokens: [USER_TOKEN] });
    api.session.onDidChangeToken((t) => t && tokens.add(t.token));
    restoreWindow = captureWindow();
  });

  after(async () => {
    restoreWindow();
    rejections.stop();
    api.recordViews.closeAll();
    api.exchangeViews.closeAll();
    await closeUntitledEditors();
    await api.session.credentials.clear(DEFAULT_ENVIRONMENT);
    await resetSettings();
    await service.close();
  });

  it('runs every command the extension contributes, and meets every fault, with the secret and a user token stored', async () => {
    const activity = service.dataset.activity[0];
    const heartRate = service.dataset.heartRate[0];
    const bodyFat = service.dataset.bodyFat[0];
    const end = activity.date;
    const start = service.dataset.activity[service.dataset.activity.length - 1].date;
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify([activity, heartRate, bodyFat], null, 2) });
    const config = vscode.workspace.getConfiguration('healthData');
    const sample: Record<ResourceKind, { id: string; date?: string }> = { heartRate, activity, bodyFat };
    let savedFile: string | undefined;
    const plan: Record<string, () => Promise<unknown>> = {
      'healthData.setCredentials': () => run('healthData.setCredentials', { baseUrl: service.url, clientId: service.clientId, clientSecret: SECRET }),
      'healthData.mintToken': () => run('healthData.mintToken'),
      // Early, so that the history fills again with everything after it before the search.
      'healthData.clearHistory': () => run('healthData.clearHistory', { confirm: false }),
      'healthData.newRequest': async () => {
        await run('healthData.newRequest', { draft: { endpoint: 'token' } });
        await run('healthData.newRequest', { draft: { endpoint: 'list', kind: 'activity', params: { start_date: start, end_date: end, limit: '5' } } });
      },
      'healthData.editAndResend': () => run('healthData.editAndResend', { draft: { endpoint: 'getById', kind: 'bodyFat', id: bodyFat.id } }),
      // The token mint saved by name: what storage and the History view keep of it is searched too.
      'healthData.saveRequest': async () => {
        const mint = api.history.all().find((e) => e.endpoint === 'token');
        assert.ok(mint, 'no token mint in the history');
        assert.equal(await run('healthData.saveRequest', { exchangeId: mint.id, name: 'The mint' }), true);
      },
      'healthData.renameSavedRequest': async () => {
        const saved = api.history.saved()[0];
        assert.equal(await run('healthData.renameSavedRequest', { exchangeId: saved.id, name: 'The token mint' }), true);
        for (const node of api.historyView.getChildren()) for (const row of api.historyView.getChildren(node)) note('history view', api.historyView.getTreeItem(row));
      },
      'healthData.sendAgain': async () => {
        const saved = api.history.saved()[0];
        assert.ok(await run('healthData.sendAgain', { exchangeId: saved.id }), 'sent again');
      },
      // Saved requests run as checks, then to a file with their replies (the mint's held a token) and back.
      'healthData.runSavedRequests': () => run('healthData.runSavedRequests', { showResults: false }),
      // The mint expected to be refused (it is not): the run's failure names the statuses, never the token.
      'healthData.setExpectedStatus': async () => {
        assert.equal(await run('healthData.setExpectedStatus', { exchangeId: api.history.saved()[0].id, status: 401 }), 401);
      },
      // A limit of 1 ms: the run's verdict says when the first byte came, never the token.
      'healthData.setTimeLimit': async () => {
        assert.equal(await run('healthData.setTimeLimit', { exchangeId: api.history.saved()[0].id, ms: 1 }), 1);
      },
      // Findings that fail it too: the token reply's unknown fields, said in the verdict and the row, never with the token.
      'healthData.setFailOn': async () => {
        assert.deepEqual(await run('healthData.setFailOn', { exchangeId: api.history.saved()[0].id, failOn: ['unknown', 'warning'] }), ['warning', 'unknown']);
      },
      'healthData.runSavedRequest': async () => {
        const [result] = (await run('healthData.runSavedRequest', { exchangeId: api.history.saved()[0].id, showResults: false })) as Array<{ problem?: string }>;
        note('run result', result);
        // The Testing view's run of it too: its output and messages go where VS Code keeps test results.
        await api.savedTests.run(new vscode.TestRunRequest(), new vscode.CancellationTokenSource().token);
        await run('healthData.setExpectedStatus', { exchangeId: api.history.saved()[0].id, status: null });
        await run('healthData.setTimeLimit', { exchangeId: api.history.saved()[0].id, ms: null });
        await run('healthData.setFailOn', { exchangeId: api.history.saved()[0].id, failOn: null });
      },
      'healthData.exportSavedRequests': async () => {
        const file = (savedFile = join(mkdtempSync(join(tmpdir(), 'hde-sweep-saved-')), 'saved.json'));
        assert.ok(await run('healthData.exportSavedRequests', { uri: file, replies: true }), 'exported');
        const text = readFileSync(file, 'utf8');
        note('saved requests file', text);
        // The same requests under another name, for Import to add.
        writeFileSync(file, text.replace(/"savedAs": "([^"]*)"/g, '"savedAs": "$1, imported"'));
      },
      'healthData.importSavedRequests': async () => {
        const file = savedFile;
        assert.ok(file, 'exported first');
        const imported = (await run('healthData.importSavedRequests', { uri: file })) as { added: string[] };
        assert.equal(imported.added.length, 1);
        await api.history.flush();
        note('history storage after import', api.workspaceState.get(HISTORY_KEY));
        for (const e of api.history.saved()) if (e.savedAs?.endsWith(', imported')) api.history.removeSaved(e.id);
      },
      // An .http file that holds the secret and the user token, as people's files do: its lenses
      // (titles, tooltips, the drafts they carry), Send All and its replies' lenses say what
      // they send without either.
      'healthData.sendHttpFile': async () => {
        const file = (httpFile = join(mkdtempSync(join(tmpdir(), 'hde-sweep-http-')), 'sweep.http'));
        writeFileSync(
          file,
          ['### Mint', `POST ${service.url}/v1/admin/token`, 'Content-Type: application/json', '', JSON.stringify({ type: 'client', client_id: service.clientId, client_secret: SECRET }), '', '### Activity', `GET ${service.url}/v1/human/activities/summaries?limit=2`, `Authorization: Bearer ${USER_TOKEN}`, ''].join('\n'),
        );
        const uri = vscode.Uri.file(file);
        await vscode.workspace.openTextDocument(uri);
        const lensesOf = async () => ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? []).map((l) => ({ title: l.command?.title, tooltip: l.command?.tooltip, arguments: l.command?.arguments }));
        const before = await lensesOf();
        assert.ok(before.some((l) => l.title?.includes('Send All 2')), JSON.stringify(before.map((l) => l.title)));
        note('http file lenses', before);
        const result = (await run('healthData.sendHttpFile', { uri: file })) as { sent: Array<{ status?: number }> };
        assert.deepEqual(result.sent.map((r) => r.status), [200, 200]);
        note('http file lenses after Send All', await waitFor('the replies beside the requests', async () => {
          const after = await lensesOf();
          return after.filter((l) => / · \d+ ms$/.test(l.title ?? '')).length === 2 ? after : undefined;
        }));
        // The same file in the Testing view: its items (labels, descriptions) and a run of them
        // (the messages, the output, the run's name) say what they send without either.
        const document = await vscode.workspace.openTextDocument(uri);
        api.httpFileTests.update(uri, document.getText());
        const fileItem = api.httpFileTests.controller.items.get(uri.toString());
        assert.ok(fileItem, 'the .http file is not in the Testing view');
        const items: Array<[string, string | undefined, string | vscode.MarkdownString | undefined]> = [];
        fileItem.children.forEach((c) => items.push([c.label, c.description, c.error]));
        note('http file tests', { label: fileItem.label, description: fileItem.description, items });
        const recorded = recordTestRuns(api.httpFileTests.controller);
        try {
          await api.httpFileTests.run(new vscode.TestRunRequest([fileItem]), new vscode.CancellationTokenSource().token);
          assert.equal(recorded.calls.filter((c) => c[0] === 'passed').length, 2, JSON.stringify(recorded.calls.map((c) => c[0])));
          note('http file test run', recorded.calls.map(([what, id, arg]) => [what, id, arg instanceof vscode.TestMessage ? { message: arg.message, expected: arg.expectedOutput, actual: arg.actualOutput, contextValue: arg.contextValue } : arg]));
        } finally {
          recorded.restore();
        }
      },
      'healthData.removeSavedRequest': async () => {
        await api.history.flush();
        note('history storage', api.workspaceState.get(HISTORY_KEY));
        assert.equal(await run('healthData.removeSavedRequest', { exchangeId: api.history.saved()[0].id }), true);
      },
      'healthData.showExchange': async () => {
        // The token mint's exchange: its request held the secret and its reply the token.
        const mint = api.history.all().find((e) => e.endpoint === 'token');
        assert.ok(mint, 'no token mint in the history');
        await run('healthData.showExchange', { exchangeId: mint.id });
        await waitFor('the exchange view to say ready', () => (api.exchangeViews.get(mint.id)?.readyCount ?? 0) >= 1, 20_000);
      },
      // On from here to stopRecording: the recording sees the client token, the user token, the query presentation.
      'healthData.startRecording': () => run('healthData.startRecording'),
      'healthData.copyToken': async () => {
        await run('healthData.copyToken');
        // Copied because it was asked for; then gone again.
        assert.equal(await vscode.env.clipboard.readText(), api.session.currentToken?.token);
        await vscode.env.clipboard.writeText('');
      },
      'healthData.showLog': () => run('healthData.showLog'),
      'healthData.refresh': () => run('healthData.refresh'),
      'healthData.setDateRange': () => run('healthData.setDateRange', { days: 7 }),
      'healthData.setSourceFilter': async () => {
        await run('healthData.setSourceFilter', { source: 'fitbit' });
        await run('healthData.setSourceFilter', { source: '' });
      },
      'healthData.changeSourceFilter': () => run('healthData.changeSourceFilter', { source: 'googlefit' }),
      'healthData.clearSourceFilter': () => run('healthData.clearSourceFilter'),
      'healthData.setHumanFilter': async () => {
        await run('healthData.setHumanFilter', { humanId: activity.humanId });
        await run('healthData.setHumanFilter', { humanId: '' });
      },
      'healthData.changeHumanFilter': () => run('healthData.changeHumanFilter', { humanId: activity.humanId }),
      'healthData.filterByRecordHuman': () => run('healthData.filterByRecordHuman', { type: 'record', node: { kind: 'activity', record: activity } }),
      'healthData.clearHumanFilter': () => run('healthData.clearHumanFilter'),
      'healthData.groupByDate': () => run('healthData.groupByDate'),
      'healthData.groupByResource': () => run('healthData.groupByResource'),
      'healthData.loadMore': () => run('healthData.loadMore', { kind: 'activity' }),
      'healthData.retry': () => run('healthData.retry', { kind: 'activity' }),
      'healthData.openRecord': async () => {
        await run('healthData.openRecord', { kind: 'activity', record: activity });
        // Its webview loads, says ready and is sent the record: a message to search.
        await waitFor('the record view to say ready', () => (api.recordViews.get(`activity/${activity.id}`)?.readyCount ?? 0) >= 1, 20_000);
      },
      'healthData.openAsJson': () => run('healthData.openAsJson', { kind: 'heartRate', record: heartRate }),
      'healthData.copyJson': () => run('healthData.copyJson', { kind: 'bodyFat', record: bodyFat }),
      'healthData.copyId': () => run('healthData.copyId', { kind: 'bodyFat', record: bodyFat }),
      // Each resource's commands, in the order of RESOURCES: by date or the latest, by id, a list.
      ...Object.fromEntries(
        RESOURCES.flatMap(({ kind, byDate, latestPath }) => {
          const calls: Array<[string, unknown[]]> = [];
          if (byDate) calls.push(['getByDate', [{ date: sample[kind].date }]]);
          if (latestPath) calls.push(['getLatest', []]);
          calls.push(['getById', [{ id: sample[kind].id }]], ['list', [{ start, end }]]);
          return calls.map(([name, args]): [string, () => Promise<unknown>] => [`healthData.${kind}.${name}`, () => run(`healthData.${kind}.${name}`, ...args)]);
        }),
      ),
      'healthData.validatePayload': () => run('healthData.validatePayload', { uri: doc.uri }),
      'healthData.openInRecordView': () => run('healthData.openInRecordView', doc.uri),
      // Into the workspace folder, whose files the search below reads.
      'healthData.exportValidationReport': () =>
        run('healthData.exportValidationReport', { uris: [doc.uri], target: vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'sweep-report.sarif') }),
      'healthData.setUserAccessToken': async () => {
        await run('healthData.setUserAccessToken', { token: USER_TOKEN });
        await run('healthData.activity.getByDate', { date: activity.date });
      },
      // The files it writes are searched too, with the rest of the workspace folder.
      'healthData.stopRecording': () => run('healthData.stopRecording', { uri: join(outDir(), 'sweep.har') }),
      'healthData.exportRecords': () => run('healthData.exportRecords', { kind: 'activity', start, end, format: 'csv', uri: join(outDir(), 'sweep.csv') }),
      'healthData.startSandboxFromRecording': async () => {
        await run('healthData.startSandboxFromRecording', { uris: [join(outDir(), 'sweep.har')] });
        await run('healthData.activity.list', { all: true });
        await run('healthData.stopSandbox');
        await run('healthData.selectEnvironment', { environment: DEFAULT_ENVIRONMENT });
      },
      'healthData.selectEnvironment': () => run('healthData.selectEnvironment', { environment: DEFAULT_ENVIRONMENT }),
      'healthData.startSandbox': () => run('healthData.startSandbox'),
      'healthData.stopSandbox': async () => {
        await run('healthData.stopSandbox');
        await run('healthData.selectEnvironment', { environment: DEFAULT_ENVIRONMENT });
      },
      'healthData.clearCredentials': () => run('healthData.clearCredentials', { environment: DEFAULT_ENVIRONMENT, confirm: false }),
      'healthData.showCoverage': async () => {
        for (const { kind } of RESOURCES) await run('healthData.showCoverage', kind);
      },
      'healthData.showTrends': () => run('healthData.showTrends'),
      'healthData.copyAsCode': () => copyEveryExchange(),
      'healthData.compareExchanges': () => compareEveryPair(),
    };
    const contributed = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.commands as Array<{ command: string }>).map((c) => c.command);
    assert.deepEqual(contributed.filter((c) => !plan[c]), [], 'commands this sweep does not run');

    // Every command but clearing, with the client token; the data commands again with the user token.
    for (const [command, go] of Object.entries(plan)) if (command !== 'healthData.clearCredentials') await go();
    for (const command of ['healthData.refresh', 'healthData.activity.list', 'healthData.bodyFat.getLatest', 'healthData.openRecord']) await plan[command]();
    await run('healthData.setUserAccessToken', { token: '' });

    // Every fault on data calls: a list command (its messages name the request), and for those
    // not retried a refresh of the tree too; some again with the token in the query string.
    await config.update('requestTimeout', 2_000, vscode.ConfigurationTarget.Global);
    const quick: FaultRule[] = [
      { fault: '500' }, { fault: 'malformed-json' }, { fault: 'status-in-body' }, { fault: 'expired-token' }, { fault: 'revoked-token' },
      { fault: 'repeat-page' }, { fault: 'link-loop' }, { fault: 'oldest-first' }, { fault: '429', retryAfter: 1, times: 1 }, { fault: '503', times: 1 },
    ];
    const slow: FaultRule[] = [
      { fault: 'latency', latencyMs: 60_000 }, { fault: 'slow-body', latencyMs: 60_000 }, { fault: '429' }, { fault: '502' }, { fault: '503' },
      { fault: 'html' }, { fault: 'truncated' }, { fault: 'reset' },
    ];
    const meet = async (fault: FaultRule, refresh: boolean) => {
      service.addFault({ ...fault, path: fault.fault === 'expired-token' || fault.fault === 'revoked-token' ? undefined : '/activities' });
      await run('healthData.activity.list', { start, end });
      if (refresh) await run('healthData.refresh');
      service.clearFaults();
    };
    for (const fault of quick) await meet(fault, true);
    for (const fault of slow) await meet(fault, false);
    await config.update('token.presentation', 'query', vscode.ConfigurationTarget.Global);
    for (const fault of [...quick.slice(0, 7), slow[5]]) await meet(fault, true);
    // Every exchange so far (faults, retries, the token in the query) copied as code and compared.
    await copyEveryExchange();
    await compareEveryPair();
    await config.update('token.presentation', undefined, vscode.ConfigurationTarget.Global);
    for (const fault of ['no-expires-in', 'non-jwt-token', '500', 'html', 'latency', 'reset'] as const) {
      service.addFault({ fault, path: '/v1/admin/token', ...(fault === 'latency' ? { latencyMs: 60_000 } : {}) });
      await run('healthData.mintToken');
      await run('healthData.refresh');
      service.clearFaults();
    }
    service.revokeTokens();
    await run('healthData.refresh');
    await run('healthData.setUserAccessToken', { token: USER_TOKEN });
    service.addFault({ fault: 'revoked-token' });
    await run('healthData.activity.getById', { id: activity.id });
    service.clearFaults();
    await run('healthData.setUserAccessToken', { token: '' });
    await run('healthData.setCredentials', { environment: DEFAULT_ENVIRONMENT, clientId: service.clientId, clientSecret: `${SECRET}-wrong` });
    await run('healthData.mintToken');
    await run('healthData.setCredentials', { environment: DEFAULT_ENVIRONMENT, clientId: service.clientId, clientSecret: SECRET });
    await run('healthData.refresh');
    await api.tree.whenLoaded();
    assert.ok(tokens.size >= 5, `only ${tokens.size} tokens were seen`);
    assert.ok([...tokens].some((t) => decodeJwtClaims(t) === undefined), 'the non-JWT token was not seen');
    // Every command got what it needed from its arguments: one that prompted was dismissed and
    // did nothing, so its sinks were never searched.
    const prompted = shown.filter(([where]) => where.endsWith('(unexpected)'));
    assert.deepEqual(prompted, [], 'a command prompted instead of taking its arguments');
  });

  it('finds neither the secret nor any token in any sink', async () => {
    const needles: Array<[string, string]> = [['the client secret', SECRET], ['the user access token', USER_TOKEN], ...[...tokens].map((t, i): [string, string] => [`token #${i + 1}`, t])];
    const hits: string[] = [];
    const search = (where: string, text: string) => {
      for (const [what, needle] of needles) if (text.includes(needle)) hits.push(`${what} in ${where}`);
      for (const m of text.matchAll(/eyJ[\w-]{10,}\.eyJ[\w-]{10,}\.[\w-]+/g)) {
        if (decodeJwtClaims(m[0])?.iss === SANDBOX_ISSUER) hits.push(`a token of the sandbox in ${where}`);
      }
    };

    // What the tree, the status bar, the record views, the editors and the Problems panel show now.
    const walk = async (node?: TreeItemNode): Promise<void> => {
      for (const child of await api.tree.getChildren(node)) {
        const item = api.tree.resolveTreeItem(api.tree.getTreeItem(child), child);
        note('tree', [item.label, item.description, item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : item.tooltip]);
        if (child.type !== 'record') await walk(child);
      }
    };
    await run('healthData.groupByDate');
    await walk();
    await run('healthData.groupByResource');
    await walk();
    for (const { kind } of RESOURCES) note('tree state', api.tree.state(kind));
    note('status bar', [api.statusBar.text, api.statusBar.tooltipText]);
    assert.ok(api.recordViews.panels().length > 0, 'no record view was opened');
    // The exchange views, and the history as the workspace keeps it (its memento, flushed).
    assert.ok(api.exchangeViews.ids().length > 0, 'no exchange view was opened');
    for (const id of api.exchangeViews.ids()) {
      const panel = api.exchangeViews.get(id)!;
      note('webview html', panel.panel.webview.html);
      note('exchange view model', panel.currentModel);
    }
    await api.history.flush();
    const stored = api.workspaceState.get<unknown[]>(HISTORY_KEY) ?? [];
    assert.ok(stored.length >= 20 && stored.some((e) => (e as { endpoint?: string }).endpoint === 'token'), `the history holds ${stored.length} entries`);
    note('history storage', stored);
    for (const info of api.recordViews.panels()) {
      const panel = api.recordViews.get(info.key)!;
      note('webview html', panel.panel.webview.html);
      note('record view model', panel.currentModel);
    }
    for (const view of [api.insights.coverage, api.insights.trends]) {
      assert.ok(view.currentModel, 'an insights panel was shown');
      note('insights model', view.currentModel);
      const panel = view.currentPanel;
      if (panel) note('insights webview html and posted messages', [panel.panel.webview.html, panel.posted]);
    }
    // Every document but the .http file the sweep wrote with the secret in it (the user's own words, not a sink).
    for (const d of vscode.workspace.textDocuments) if (d.uri.fsPath !== httpFile) note(`document ${d.uri.toString()}`, d.getText());
    for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) note(`diagnostics of ${uri.toString()}`, diagnostics.map((d) => d.message));
    note('clipboard', await vscode.env.clipboard.readText());
    // Every setting of the extension, in every scope, language-specific values included.
    const properties = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.configuration.properties as Record<string, unknown>;
    for (const key of Object.keys(properties)) note(`setting ${key}`, vscode.workspace.getConfiguration().inspect(key));
    // The mementos, when the API hands them out (extension.ts: globalState, workspaceState).
    const mementos = api as unknown as Partial<Record<'globalState' | 'workspaceState', vscode.Memento>>;
    for (const name of ['globalState', 'workspaceState'] as const) {
      const memento = mementos[name];
      if (memento) for (const key of memento.keys()) note(`${name}.${key}`, memento.get(key));
    }
    for (const name of ['sweep.har', 'sweep.csv']) {
      const file = join(outDir(), name);
      assert.ok(existsSync(file), `${name} was not written`);
      note(`file ${name}`, readFileSync(file, 'latin1'));
    }
    for (const [where, text] of shown) search(where, text);

    // Then every file under the profile: the output channel's log, settings, global and
    // workspace storage, and the workspace folder (the runner keeps them side by side).
    await run('healthData.clearCredentials', { environment: DEFAULT_ENVIRONMENT, confirm: false });
    // A control: a marker written to the request log must be found on disk, or the search is blind.
    const marker = `sweep-control-${Date.now().toString(36)}`;
    api.session.log.info(marker);
    await new Promise((r) => setTimeout(r, 1_500)); // the log is written to disk in batches
    const userData = join(api.logUri.fsPath, '..', '..', '..', '..');
    const root = basename(userData) === 'user-data' ? dirname(userData) : userData;
    let files = 0;
    let logged = false;
    // Latin1 text: the needles are ASCII.
    for (const [file, text] of filesUnder(root, 'latin1')) {
      files++;
      logged ||= file.startsWith(api.logUri.fsPath) && text.includes(marker) && /GET \/v1\/human\/activities\/summaries/.test(text);
      search(file, text);
    }
    assert.ok(files > 5 && existsSync(api.logUri.fsPath) && logged, `the request log under ${api.logUri.fsPath} was not found among ${files} files`);
    assert.ok(shown.length > 200, `only ${shown.length} texts were captured`);
    for (const sink of ['showInformationMessage', 'showErrorMessage', 'progress title', 'webview message', 'webview html', 'tree', 'status bar message']) {
      assert.ok(shown.some(([where]) => where === sink), `nothing was captured from ${sink}`);
    }
    assert.deepEqual([...new Set(hits)], []);
  });

  it('left no promise unhandled', () => rejections.assertNone());
});
