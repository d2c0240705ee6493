// Bad input to the extension's commands (issue 6), in a real extension host, beyond what
// requests.test.ts and tree.test.ts already try: dates such as 26-1-1, ids that climb, filters
// that are not numbers, service addresses without a scheme, with a password inside, with /v1,
// with a path, or plain http to a host that is not loopback. Each is refused (or accepted) with a
// clear message, nothing is sent that should not be, and nothing the user had is lost.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEFAULT_ENVIRONMENT, SANDBOX_ENVIRONMENT } from '../../src/extension/account/environments';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import { Sandbox, startSandbox } from '../../src/sandbox/server';
import { captureMessages, resetSettings, runningSandbox, treeRoots, waitFor, withSandbox } from './support/extension';

const SECRET = 'hde-input-secret-93a1c7';

describe('reliability: bad input to the commands', function () {
  this.timeout(30_000);
  let api: HealthDataExtensionApi;
  let messages: ReturnType<typeof captureMessages>;
  const errors = () => messages.shown.filter((m) => m.level === 'error').map((m) => m.text);
  const sandbox = () => runningSandbox(api);

  before(async () => {
    await resetSettings();
    api = await withSandbox();
    // The Records view's loads after the reset are done before a test counts what it sent.
    await treeRoots(api);
  });

  beforeEach(() => {
    messages = captureMessages();
  });

  afterEach(() => messages.restore());

  after(async () => {
    await api.session.credentials.clear(DEFAULT_ENVIRONMENT);
    await resetSettings();
    await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: SANDBOX_ENVIRONMENT });
  });

  describe('requests and filters', () => {
    const refused: Array<[string, Record<string, unknown>, RegExp]> = [
      ['healthData.heartRate.getByDate', { date: '26-1-1' }, /"26-1-1" is not a date written YYYY-MM-DD/],
      ['healthData.activity.getByDate', { date: '2026-1-01' }, /"2026-1-01" is not a date written YYYY-MM-DD/],
      ['healthData.activity.list', { start: '26-1-1', end: '2026-01-02' }, /"26-1-1" is not a date written YYYY-MM-DD/],
      ['healthData.bodyFat.list', { start: '2026-01-01', end: '2026-02-30' }, /2026-02-30 is not a real calendar date/],
      ['healthData.heartRate.list', { start: ' ', end: '2026-01-02' }, /Give both a start and an end date, or neither/],
      ['healthData.activity.getById', { id: 42 }, /The argument "id" must be text, not number/],
      ['healthData.activity.list', { all: 'yes' }, /The argument "all" must be true or false/],
    ];
    for (const [command, args, pattern] of refused) {
      it(`${command} ${JSON.stringify(args)}: refused with a clear message, nothing sent`, async () => {
        const before = sandbox().requests.length;
        assert.equal(await vscode.commands.executeCommand(command, args), undefined);
        assert.ok(errors().some((t) => pattern.test(t)), JSON.stringify(messages.shown));
        assert.deepEqual(sandbox().requests.slice(before), []);
      });
    }

    it('an id that tries to climb to the token endpoint stays one segment: a plain "not found"', async () => {
      const before = sandbox().requests.length;
      await vscode.commands.executeCommand('healthData.activity.getById', { id: '../../../v1/admin/token' });
      const sent = sandbox().requests.slice(before).filter((r) => r.path.startsWith('/v1/human/activities/summaries/'));
      assert.deepEqual(sent.map((r) => [r.path, r.status]), [['/v1/human/activities/summaries/..%2F..%2F..%2Fv1%2Fadmin%2Ftoken', 404]]);
      assert.ok(sandbox().requests.slice(before).every((r) => r.path !== '/v1/admin/token' || r.method === 'POST'));
      assert.ok(messages.shown.some((m) => m.text === 'No activity summary with id "../../../v1/admin/token".'), JSON.stringify(messages.shown));
    });

    it('the tree\'s filters refuse what is not a range or a source, and keep theirs', async () => {
      assert.equal(await vscode.commands.executeCommand('healthData.setDateRange', { days: 30 }), true);
      const range = { ...api.tree.dateRange };
      for (const bad of [{ start: '26-1-1', end: '2026-01-02' }, { start: '  ', end: '  ' }, { days: 1.5 }, { days: -3 }, { days: '7' }, { days: 100_000 }]) {
        const before = sandbox().requests.length;
        assert.equal(await vscode.commands.executeCommand('healthData.setDateRange', bad), false, JSON.stringify(bad));
        assert.deepEqual({ ...api.tree.dateRange }, range);
        assert.equal(sandbox().requests.length, before);
      }
      for (const bad of ['fit bit', 'x'.repeat(101), 'fit\u0007bit']) {
        assert.equal(await vscode.commands.executeCommand('healthData.setSourceFilter', { source: bad }), false);
        assert.equal(api.tree.sourceFilter, undefined);
      }
      assert.equal(errors().length, 9, JSON.stringify(errors()));
      assert.ok(errors().every((t) => /^(Date range|Source filter) not changed: /.test(t)), JSON.stringify(errors()));
    });
  });

  describe('service addresses', () => {
    let service: Sandbox;

    before(async () => {
      service = await startSandbox({ port: 0, days: 5, seed: 'input', clientId: 'input-client', clientSecret: SECRET });
    });

    after(async () => service.close());

    afterEach(async () => {
      await api.session.credentials.clear(DEFAULT_ENVIRONMENT);
      await resetSettings();
      await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: SANDBOX_ENVIRONMENT });
    });

    const setUp = (baseUrl: string) =>
      vscode.commands.executeCommand('healthData.setCredentials', { baseUrl, clientId: 'input-client', clientSecret: SECRET });

    for (const [baseUrl, pattern] of [
      ['api.example.com', /The address "api\.example\.com" has no scheme/],
      ['admin:hunter2@api.example.com', /The address "…@api\.example\.com" has no scheme/],
      ['https://admin:hunter2@api.example.com', /must not contain a user name or password/],
      ['https://api.example.com/v1/', /must not end in \/v1/],
      ['file:///etc/passwd', /must start with http:\/\/ or https:\/\//],
    ] as const) {
      it(`Set Credentials with the address ${baseUrl}: refused, nothing stored, no password shown`, async () => {
        const requests = service.requests.length;
        await setUp(baseUrl);
        const error = errors().find((t) => pattern.test(t));
        assert.ok(error, JSON.stringify(messages.shown));
        assert.ok(!error.includes('hunter2') && !error.includes(SECRET));
        assert.equal(vscode.workspace.getConfiguration('healthData').get('baseUrl'), '');
        assert.equal(await api.session.credentials.get(DEFAULT_ENVIRONMENT, 'clientSecret'), undefined);
        assert.equal(service.requests.length, requests);
      });
    }

    it('an address with a path is kept, and the service is asked under it', async () => {
      await setUp(`${service.url}/api/`);
      assert.equal(vscode.workspace.getConfiguration('healthData').get('baseUrl'), `${service.url}/api`);
      await waitFor('the check to fail', () => errors().find((t) => /Credentials saved, but the check failed: POST \/api\/v1\/admin\/token: 404 Not Found/.test(t)));
      assert.equal(service.requests[0]?.path, '/api/v1/admin/token');
      assert.ok(service.requests.every((r) => r.path.startsWith('/api/v1/')), JSON.stringify(service.requests.map((r) => r.path)));
    });

    it('an environment whose address has no scheme shows an error node that says so, and sends nothing', async () => {
      const config = vscode.workspace.getConfiguration('healthData');
      await config.update('environments', [{ name: 'Broken', baseUrl: 'api.example.com', clientId: 'input-client' }], vscode.ConfigurationTarget.Global);
      await api.session.credentials.store('Broken', 'clientSecret', SECRET);
      const newestBefore = api.session.recentExchanges()[0]?.id;
      try {
        await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: 'Broken' });
        const activity = (await treeRoots(api)).find((n) => n.type === 'resource' && n.kind === 'activity');
        assert.ok(activity);
        const [node] = await api.tree.getChildren(activity);
        assert.equal(node?.type, 'error');
        assert.match(String(api.tree.getTreeItem(node).label), /Base URL of "Broken" "api\.example\.com" has no scheme/);
        assert.equal(await api.session.credentials.get('Broken', 'clientSecret'), SECRET, 'the secret was lost');
        assert.equal(api.session.recentExchanges()[0]?.id, newestBefore, 'a request was sent');
      } finally {
        await api.session.credentials.clear('Broken');
      }
    });

    it('plain http:// to a host that is not loopback: a warning that the secret would travel unencrypted', async () => {
      await vscode.workspace.getConfiguration('healthData').update('requestTimeout', 1_000, vscode.ConfigurationTarget.Global);
      await setUp('http://192.0.2.1:9');
      await waitFor('the check to end', () => errors().find((t) => /Credentials saved, but the check failed/.test(t)) ?? messages.shown.find((m) => /minted/.test(m.text)), 5_000);
      assert.ok(
        messages.shown.some((m) => m.level !== 'info' && /plain http:\/\/ to 192\.0\.2\.1: the client secret and tokens would travel unencrypted/.test(m.text)),
        `no warning before the secret went over plain http: ${JSON.stringify(messages.shown)}`,
      );
    });
  });
});
