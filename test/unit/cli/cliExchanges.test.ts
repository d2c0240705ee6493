// `health-data get|list --verbose` (the exchanges on stderr) and `--curl` (the request as a cURL
// command, nothing sent), against the sandbox; no output ever holds the secret or a token.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox } from '../../../src/sandbox/server';
import { CliRun, runCliInProcess } from '../support/cli';
import { SECRET, TODAY, sandboxWith } from '../support/client';
import { runProgram } from '../support/programs';

const USER_TOKEN = 'cli-user-token-93be01d7';
const JWT = /eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]+/;

describe('cli: --verbose and --curl', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  const runs: CliRun[] = [];
  let env: NodeJS.ProcessEnv;
  const cli = async (args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliRun> => {
    const run = await runCliInProcess(args, { ...env, ...extra });
    runs.push(run);
    return run;
  };

  before(async () => {
    sandbox = await sandboxWith({ userAccessTokens: [USER_TOKEN] });
    env = { HEALTH_DATA_BASE_URL: sandbox.baseUrl, HEALTH_DATA_CLIENT_ID: sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: SECRET, NO_COLOR: '1' };
  });
  afterEach(() => sandbox.clearFaults());
  after(async () => {
    await sandbox.close();
    // No run printed the secret, the user token or any token the sandbox issued.
    for (const run of runs) {
      for (const text of [run.stdout, run.stderr]) {
        assert.ok(!text.includes(SECRET) && !text.includes(USER_TOKEN), `a credential in the output of ${run.args.join(' ')}`);
        assert.doesNotMatch(text, JWT, `a token in the output of ${run.args.join(' ')}`);
      }
    }
  });

  it('get --verbose: the record on stdout as without it, the mint and the request on stderr, redacted', async () => {
    const plain = await cli(['get', 'activity', TODAY, '--json']);
    const verbose = await cli(['get', 'activity', TODAY, '--json', '--verbose']);
    assert.equal(verbose.code, 0, verbose.stderr);
    assert.equal(verbose.stdout, plain.stdout);
    assert.match(verbose.stderr, /^> POST http:\/\/127\.0\.0\.1:\d+\/v1\/admin\/token$/m);
    assert.match(verbose.stderr, /"client_secret":\s*"\[redacted\]"/);
    // The mint's reply: its status line right after the request's lines; its body (the token) not shown.
    assert.match(verbose.stderr, /^> POST [^\n]*\/v1\/admin\/token\n(?:> [^\n]*\n)+< 200 OK · /m);
    assert.doesNotMatch(verbose.stderr, JWT);
    assert.match(verbose.stderr, new RegExp(`^> GET ${sandbox.baseUrl.replace(/[.]/g, '\\.')}/v1/human/activities/summaries/${TODAY}$`, 'm'));
    assert.match(verbose.stderr, /^> Authorization: Bearer \[redacted\]$/m);
    assert.match(verbose.stderr, /^< 200 OK · \d+ ms · [\d.]+ k?B · 1 attempt · request id \w+$/m);
    assert.match(verbose.stderr, /^< content-type: application\/json/m);
    assert.equal(plain.stderr, '', 'nothing on stderr without --verbose');
  });

  it('list --verbose: every page, retries and their reasons; a failure shows its exchange and exits 1', async () => {
    sandbox.addFault({ fault: '429', path: '/activities', retryAfter: 1, times: 1 });
    const run = await cli(['list', 'activity', '--from', '2026-03-01', '--to', TODAY, '--limit', '5', '--all', '--verbose']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((run.stderr.match(/^> GET .*\/activities\/summaries\?/gm) ?? []).length, 3, run.stderr);
    assert.match(run.stderr, /^< x-total-count: 15$/m);
    assert.match(run.stderr, /attempt 1: 429 · \d+ ms · retried after \d+ ms: 429/);
    assert.match(run.stdout, /15 activity summaries/);

    sandbox.addFault({ fault: '500', path: '/activities' });
    const failed = await cli(['list', 'activity', '--verbose']);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /^< 500 Internal Server Error/m);
    assert.match(failed.stderr, /failed \(http\): .*500/);
  });

  it('--curl prints the command and sends nothing; run, it gets what get --json gets', async () => {
    const before = sandbox.requests.length;
    const curl = await cli(['get', 'heart-rate', TODAY, '--curl'], { HEALTH_DATA_CLIENT_ID: '', HEALTH_DATA_CLIENT_SECRET: '' });
    assert.equal(curl.code, 0, curl.stderr);
    assert.equal(sandbox.requests.length, before, 'nothing was sent');
    assert.match(curl.stdout, /export HEALTH_DATA_TOKEN="\$\(curl -sS -X POST/);
    assert.match(curl.stdout, /-H "Authorization: Bearer \$HEALTH_DATA_TOKEN"/);
    const json = await cli(['get', 'heart-rate', TODAY, '--json']);
    const out = await runProgram('bash', ['-c', curl.stdout], { HEALTH_DATA_CLIENT_ID: sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: SECRET });
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(JSON.parse(out.stdout), JSON.parse(json.stdout));

    const list = await cli(['list', 'body-fat', '--limit', '4', '--token-in-query', '--curl']);
    assert.match(list.stdout, /readings\?limit=4&access_token='"\$HEALTH_DATA_TOKEN"/);
    const listed = await runProgram('bash', ['-c', list.stdout], { HEALTH_DATA_CLIENT_ID: sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: SECRET });
    assert.equal((JSON.parse(listed.stdout) as unknown[]).length, 4);
    const latest = await cli(['get', 'body-fat', '--curl', '--auth-header', 'X-Token', '--auth-scheme', '']);
    assert.match(latest.stdout, /\/v1\/human\/body_fat' \\\n {2}-H 'Accept: application\/json' \\\n {2}-H "X-Token: \$HEALTH_DATA_TOKEN"\n$/);
  });

  it('--curl with a hostile id: one quoted argument, the plain 404 when run, nothing else run', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'hde-cli-curl-')), 'pwned');
    for (const id of [`'$(touch ${marker})'`, `\`touch ${marker}\``, `"; touch ${marker}; "`, 'a\nb\\c']) {
      const run = await cli(['get', 'body-fat', id, '--curl']);
      assert.equal(run.code, 0, run.stderr);
      const out = await runProgram('bash', ['-c', run.stdout], { HEALTH_DATA_CLIENT_ID: sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: SECRET });
      assert.equal(out.code, 0, out.stderr);
      const body = JSON.parse(out.stdout) as { statusCode: number; message: string };
      assert.equal(body.statusCode, 404);
      assert.ok(body.message.includes(id.trim()), body.message);
    }
    assert.equal(existsSync(marker), false);
  });

  it('--curl checks input as sending would; with a user access token it exports that, never printing it', async () => {
    const badDate = await cli(['get', 'activity', '2026-02-30', '--curl']);
    assert.equal(badDate.code, 2);
    assert.equal(badDate.stdout, '');
    const badRange = await cli(['list', 'activity', '--from', '2026-03-10', '--to', '2026-03-01', '--curl']);
    assert.equal(badRange.code, 2);
    const both = await cli(['get', 'activity', TODAY, '--curl', '--verbose']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--curl sends nothing/);
    const user = await cli(['get', 'activity', TODAY, '--curl'], { HEALTH_DATA_ACCESS_TOKEN: USER_TOKEN });
    assert.equal(user.code, 0);
    assert.match(user.stdout, /export HEALTH_DATA_TOKEN="\$HEALTH_DATA_ACCESS_TOKEN"/);
    assert.doesNotMatch(user.stdout, /admin\/token/);
    const out = await runProgram('bash', ['-c', user.stdout], { HEALTH_DATA_ACCESS_TOKEN: USER_TOKEN });
    assert.equal((JSON.parse(out.stdout) as { date: string }).date, TODAY);
  });
});
