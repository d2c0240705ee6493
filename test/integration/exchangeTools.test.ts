// Copy as Code and Compare Responses in a real extension host, against the local sandbox: the
// copied cURL run by bash gets the body the extension got; the token is on the clipboard only
// when asked for; the diff editor opens on normalized read-only documents with a summary;
// both commands driven from the palette through their quick picks too.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Exchange } from '../../src/core/service';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import type { CompareResult } from '../../src/extension/compare/commands';
import { COMPARE_SCHEME } from '../../src/extension/compare/compareDocuments';
import type { CopyAsCodeResult } from '../../src/extension/copyAsCode/commands';
import { repoRoot } from '../unit/support/repo';
import { captureMessages, resetSettings, runningSandbox, waitFor, withSandbox } from './support/extension';

function bash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Accepts the selected item of each quick pick that comes up until `running` settles. */
async function acceptEachPick<T>(running: Thenable<T>): Promise<T> {
  let done = false;
  let value: T | undefined;
  void Promise.resolve(running).then((v) => {
    value = v;
    done = true;
  });
  await waitFor('the command to finish through its quick picks', async () => {
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await new Promise((r) => setTimeout(r, 250));
    return done;
  }, 20_000);
  return value as T;
}

describe('copy as code and compare', function () {
  this.timeout(60_000);
  let api: HealthDataExtensionApi;
  let messages: ReturnType<typeof captureMessages>;
  const latest = (endpoint: Exchange['endpoint']) => api.session.recentExchanges().find((e) => e.endpoint === endpoint)!;

  before(async () => {
    await resetSettings();
    api = await withSandbox();
  });
  beforeEach(() => (messages = captureMessages()));
  afterEach(() => messages.restore());
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.env.clipboard.writeText('');
  });

  it('copies a request as cURL that, run with the client id and secret, gets the same body', async () => {
    const sandbox = runningSandbox(api);
    const record = sandbox.dataset.activity[0];
    await vscode.commands.executeCommand('healthData.activity.getByDate', { date: record.date });
    const exchange = latest('getByDate');
    assert.ok(exchange && exchange.status === 200, 'the request was kept as an exchange');
    const result = (await vscode.commands.executeCommand('healthData.copyAsCode', { exchangeId: exchange.id }, { language: 'curl', includeLiveToken: false })) as CopyAsCodeResult;
    assert.deepEqual(result, { language: 'curl', includesLiveToken: false });
    const snippet = await vscode.env.clipboard.readText();
    const token = api.session.currentToken!.token;
    assert.ok(!snippet.includes(token) && !snippet.includes(sandbox.clientSecret), 'no token, no secret');
    assert.match(snippet, /\$HEALTH_DATA_TOKEN/);
    const run = await bash(snippet, { HEALTH_DATA_CLIENT_ID: sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: sandbox.clientSecret });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), JSON.parse(exchange.responseBody!));
    assert.ok(messages.shown.some((m) => m.level === 'info' && /cURL copied/.test(m.text)), JSON.stringify(messages.shown));

    for (const language of ['fetch', 'python'] as const) {
      await vscode.commands.executeCommand('healthData.copyAsCode', exchange, { language, includeLiveToken: false });
      const text = await vscode.env.clipboard.readText();
      assert.match(text, language === 'fetch' ? /process\.env\.HEALTH_DATA_TOKEN/ : /os\.environ\['HEALTH_DATA_TOKEN'\]/);
      assert.ok(!text.includes(token));
    }
  });

  it('copies a request as a health-data command that, run with the client id and secret, gets the same records', async () => {
    const sandbox = runningSandbox(api);
    const to = sandbox.dataset.activity[0].date;
    const from = sandbox.dataset.activity[sandbox.dataset.activity.length - 1].date;
    await vscode.commands.executeCommand('healthData.activity.list', { start: from, end: to });
    // The first page of the list.
    const exchange = api.session.recentExchanges().find((e) => e.endpoint === 'list' && e.url.includes(`start_date=${from}`) && !e.url.includes('offset='))!;
    assert.ok(exchange && exchange.status === 200, 'the first page was kept as an exchange');
    const result = (await vscode.commands.executeCommand('healthData.copyAsCode', exchange, { language: 'cli', includeLiveToken: false })) as CopyAsCodeResult;
    assert.deepEqual(result, { language: 'cli', includesLiveToken: false });
    const command = await vscode.env.clipboard.readText();
    assert.match(command, new RegExp(`^export HEALTH_DATA_BASE_URL='${sandbox.baseUrl}'$`, 'm'));
    assert.match(command, new RegExp(`^health-data list activity --from ${from} --to ${to}( --limit \\d+)?$`, 'm'));
    assert.ok(!command.includes(api.session.currentToken!.token) && !command.includes(sandbox.clientSecret), 'no token, no secret');
    // Run as a user would, with health-data being this build's CLI, and --json: the records the exchange got.
    const sameRecords = async (copied: string, of: Exchange): Promise<void> => {
      const cli = join(repoRoot, 'dist', 'cli.js');
      const run = await bash(`health-data() { ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} "$@"; }\n${copied.trimEnd()} --json`, {
        HEALTH_DATA_CLIENT_ID: sandbox.clientId,
        HEALTH_DATA_CLIENT_SECRET: sandbox.clientSecret,
        ELECTRON_RUN_AS_NODE: '1',
      });
      assert.equal(run.code, 0, run.stderr);
      const body = JSON.parse(of.responseBody!) as unknown;
      assert.deepEqual(JSON.parse(run.stdout), Array.isArray(body) ? body : (body as { data: unknown }).data);
    };
    await sameRecords(command, exchange);
    assert.ok(messages.shown.some((m) => m.level === 'info' && /health-data CLI copied/.test(m.text)), JSON.stringify(messages.shown));
    assert.ok(!messages.shown.some((m) => /no option for some/.test(m.text)), 'every parameter was carried over');

    // A later page, sent with New Request: its offset and updated_since are options of the CLI too.
    await vscode.commands.executeCommand('healthData.newRequest', { draft: { endpoint: 'list', kind: 'activity', params: { start_date: from, end_date: to, limit: '5', offset: '5', updated_since: from } } });
    const page = api.session.recentExchanges()[0];
    assert.match(page.url, /offset=5/);
    await vscode.commands.executeCommand('healthData.copyAsCode', page, { language: 'cli', includeLiveToken: false });
    const pageCommand = await vscode.env.clipboard.readText();
    assert.match(pageCommand, new RegExp(`^health-data list activity --from ${from} --to ${to} --limit 5 --offset 5 --updated-since ${from}$`, 'm'));
    await sameRecords(pageCommand, page);
    // A parameter the CLI has no option for (an exchange from elsewhere): named in a comment, and the message says so.
    await vscode.commands.executeCommand('healthData.copyAsCode', { ...page, url: `${page.url}&sort=desc` }, { language: 'cli', includeLiveToken: false });
    assert.match(await vscode.env.clipboard.readText(), /^# Not carried over \(the CLI has no option for them\): sort=desc\nhealth-data list activity /m);
    assert.ok(messages.shown.some((m) => m.level === 'info' && /health-data CLI copied\..*no option for some of the request's parameters: the comment above the command names them/.test(m.text)), JSON.stringify(messages.shown));
  });

  it('includes the live token only when that is chosen, and says to treat it like a password', async () => {
    await vscode.commands.executeCommand('healthData.bodyFat.getLatest');
    const exchange = latest('getLatest');
    await vscode.commands.executeCommand('healthData.copyAsCode', exchange, { language: 'curl', includeLiveToken: true });
    const text = await vscode.env.clipboard.readText();
    assert.ok(text.includes(api.session.currentToken!.token));
    assert.doesNotMatch(text, /admin\/token/);
    assert.ok(messages.shown.some((m) => /treat it like a password/.test(m.text)));
    await vscode.env.clipboard.writeText('');
  });

  it('from the palette: picks the newest request, cURL, and the token variable', async () => {
    await vscode.commands.executeCommand('healthData.heartRate.list', { start: runningSandbox(api).dataset.heartRate[3].date, end: runningSandbox(api).dataset.heartRate[0].date });
    const newest = api.session.recentExchanges()[0];
    const result = await acceptEachPick(vscode.commands.executeCommand<CopyAsCodeResult>('healthData.copyAsCode'));
    assert.deepEqual(result, { language: 'curl', includesLiveToken: false });
    const text = await vscode.env.clipboard.readText();
    assert.ok(text.includes(newest.url.replace(/'/g, `'\\''`)), text);
  });

  it('the exchange view\'s Copy as Code… asks the language and the token\'s way, then copies that exchange', async () => {
    await vscode.commands.executeCommand('healthData.bodyFat.getLatest');
    const exchange = latest('getLatest');
    await vscode.commands.executeCommand('healthData.showExchange', { exchangeId: exchange.id });
    // As every other webview's wait: a webview's first load can take more than 10 s on a loaded machine.
    const view = await waitFor(
      'the exchange view to say ready',
      () => {
        const v = api.exchangeViews.get(exchange.id);
        return v && v.readyCount >= 1 && v;
      },
      20_000,
    );
    await vscode.env.clipboard.writeText('');
    await acceptEachPick(view.act('copyAsCode'));
    const text = await vscode.env.clipboard.readText();
    // The first language (cURL) and the recommended token variable, of this exchange's URL.
    assert.ok(text.includes(exchange.url.replace(/'/g, `'\\''`)), text);
    assert.match(text, /\$HEALTH_DATA_TOKEN/);
    assert.ok(messages.shown.some((m) => m.level === 'info' && /cURL copied/.test(m.text)), JSON.stringify(messages.shown));
  });

  it('an exchange no longer kept, or a bad argument: a clear message, nothing copied', async () => {
    await vscode.env.clipboard.writeText('unchanged');
    assert.equal(await vscode.commands.executeCommand('healthData.copyAsCode', { exchangeId: 'x-gone' }, { language: 'curl' }), undefined);
    assert.equal(await vscode.commands.executeCommand('healthData.copyAsCode', { exchangeId: latest('getLatest').id }, { language: 'cobol', includeLiveToken: false }), undefined);
    assert.equal(await vscode.env.clipboard.readText(), 'unchanged');
    const errors = messages.shown.filter((m) => m.level === 'error').map((m) => m.text);
    assert.ok(errors.some((t) => /no longer among the latest requests/.test(t)), errors.join('\n'));
    assert.ok(errors.some((t) => /no snippet language "cobol"/.test(t)), errors.join('\n'));
  });

  it('compares two replies of the same list: the diff editor on normalized documents, no differences', async () => {
    const sandbox = runningSandbox(api);
    const range = { start: sandbox.dataset.activity[9].date, end: sandbox.dataset.activity[0].date };
    await vscode.commands.executeCommand('healthData.activity.list', range);
    const first = latest('list');
    await vscode.commands.executeCommand('healthData.activity.list', range);
    const second = latest('list');
    assert.notEqual(first.id, second.id);
    const result = (await vscode.commands.executeCommand('healthData.compareExchanges', { exchangeId: first.id }, { exchangeId: second.id })) as CompareResult;
    assert.equal(result.summary.identical, true, result.message);
    assert.match(result.message, /^No differences/);
    const tab = await waitFor('the diff editor', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === result.right.toString()),
    );
    assert.match(tab.label, /No differences/);
    assert.equal(result.left.scheme, COMPARE_SCHEME);
    const left = await vscode.workspace.openTextDocument(result.left);
    const ids = (JSON.parse(left.getText()) as Array<{ id: string }>).map((r) => r.id);
    assert.deepEqual(ids, [...ids].sort(), 'records in id order');
    assert.ok(!left.getText().includes(api.session.currentToken!.token));
  });

  it('compares a reply with a JSON file: one changed field, records in another order', async () => {
    const list = latest('list');
    const records = JSON.parse(list.responseBody!) as Array<Record<string, unknown>>;
    const edited = records.map((r) => ({ ...r })).reverse();
    edited[1] = { ...edited[1], steps: Number(edited[1].steps) + 1 };
    const file = join(mkdtempSync(join(tmpdir(), 'hde-compare-')), 'saved.json');
    writeFileSync(file, JSON.stringify({ data: edited }));
    const result = (await vscode.commands.executeCommand('healthData.compareExchanges', list, { file: vscode.Uri.file(file) })) as CompareResult;
    assert.deepEqual([result.summary.changed, result.summary.added, result.summary.removed], [1, 0, 0]);
    assert.deepEqual(result.summary.changedPaths, [{ path: '/steps', records: 1 }]);
    assert.ok(messages.shown.some((m) => m.level === 'info' && m.text === result.message));

    writeFileSync(file, '{"data": [');
    assert.equal(await vscode.commands.executeCommand('healthData.compareExchanges', list, { file }), undefined);
    assert.ok(messages.shown.some((m) => m.level === 'error' && /saved\.json is not JSON/.test(m.text)), JSON.stringify(messages.shown));
  });

  it('refuses replies of different endpoints; from the palette, offers those of the same endpoint', async () => {
    assert.equal(await vscode.commands.executeCommand('healthData.compareExchanges', latest('list'), latest('getLatest')), undefined);
    assert.ok(messages.shown.some((m) => m.level === 'error' && /not replies of the same endpoint/.test(m.text)), JSON.stringify(messages.shown));
    // The newest reply first, then the newest other reply of its endpoint.
    const result = await acceptEachPick(vscode.commands.executeCommand<CompareResult | undefined>('healthData.compareExchanges'));
    assert.ok(result, JSON.stringify(messages.shown));
    assert.ok(result.summary.unchanged + result.summary.changed + result.summary.added > 0, result.message);
  });
});
