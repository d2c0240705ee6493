// The `health-data` CLI against bad input and a misbehaving service (issue 6): dates that are
// not dates, ids that try to leave their path segment, empty input, risky addresses, payload
// files that are not JSON or far too large, and every fault of the sandbox. Each gets one clear
// line and the right exit code, no partial list is printed as if complete, files are left as
// they were, and neither the secret nor a token is ever printed (the last test searches every
// line this file made the CLI write).
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultRule, Sandbox, startSandbox } from '../../../src/sandbox/server';
import { CliRun as Run, runCliInProcess } from '../support/cli';

const SECRET = 'reliability-cli-secret-5b8e07d2';
const USER_TOKEN = 'reliability-user-token-31c9aa6e';

const runs: Run[] = [];

/** Runs the CLI in this process and keeps the run, for the search for secrets at the end. */
async function cli(args: string[], env: NodeJS.ProcessEnv = {}, input = ''): Promise<Run> {
  const run = await runCliInProcess(args, env, input);
  runs.push(run);
  return run;
}

/** One line on stderr (and the usage hint for usage errors), no stack trace. */
function assertOneLine(r: Run, pattern: RegExp, code: number): void {
  assert.equal(r.code, code, `${r.args.join(' ')}: exit ${r.code}: ${r.stderr}`);
  const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('warning: '));
  assert.equal(lines.length, code === 2 ? 2 : 1, r.stderr);
  assert.match(lines[0], /^health-data: /);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'a stack trace');
}

describe('CLI reliability: bad input, faults and secrets', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let env: NodeJS.ProcessEnv;
  const dir = mkdtempSync(join(tmpdir(), 'hde-reliability-cli-'));
  const sent = () => sandbox.requests.length;

  before(async () => {
    sandbox = await startSandbox({ port: 0, days: 20, seed: 'reliability-cli', clientSecret: SECRET, userAccessTokens: [USER_TOKEN] });
    env = { HEALTH_DATA_BASE_URL: sandbox.url, HEALTH_DATA_CLIENT_ID: sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: SECRET };
  });

  after(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('dates', () => {
    for (const [flags, pattern] of [
      [['--from', '26-1-1', '--to', '2026-01-02'], /--from must be a real calendar date YYYY-MM-DD, got "26-1-1"/],
      [['--from', '2026-01-01', '--to', '2026-02-30'], /--to must be a real calendar date YYYY-MM-DD, got "2026-02-30"/],
      [['--from', '2026-13-01', '--to', '2026-13-02'], /--from must be a real calendar date/],
      [['--from', '2026-1-1', '--to', '2026-01-02'], /--from must be a real calendar date YYYY-MM-DD, got "2026-1-1"/],
      [['--from', '', '--to', '2026-01-02'], /--from must be a real calendar date/],
      [['--from', '2026-01-05', '--to', '2026-01-01'], /--from 2026-01-05 is after --to 2026-01-01/],
    ] as const) {
      it(`list ${flags.join(' ')} is refused before anything is sent`, async () => {
        const before = sent();
        assertOneLine(await cli(['list', 'activity', ...flags], env), pattern, 2);
        assert.equal(sent(), before);
      });
    }

    it('get with 26-1-1 is refused as a loosely written date, and nothing is sent', async () => {
      const before = sent();
      const r = await cli(['get', 'heart-rate', '26-1-1'], env);
      assertOneLine(r, /"26-1-1" looks like a date: write dates as YYYY-MM-DD/, 2);
      assert.equal(r.stdout, '');
      assert.equal(sent(), before);
    });

    it('get with 2024-02-29 (a leap day) is a date; 2026-02-29 is refused', async () => {
      assertOneLine(await cli(['get', 'activity', '2026-02-29'], env), /2026-02-29 is not a real calendar date/, 2);
      const leap = await cli(['get', 'activity', '2024-02-29'], env);
      // The sandbox has 20 days of data: a 404 for that date, asked as a date.
      assertOneLine(leap, /summaries\/2024-02-29: 404 Not Found: No activity summary for 2024-02-29/, 1);
    });
  });

  describe('ids', () => {
    for (const [id, segment] of [
      ['..', '%2E%2E'],
      ['.', '%2E'],
      ['../../admin/token', '..%2F..%2Fadmin%2Ftoken'],
      ['a/b?c=1#d', 'a%2Fb%3Fc%3D1%23d'],
      ['%2e%2e%2f', '%252e%252e%252f'],
    ]) {
      it(`get activity "${id}" stays one path segment (${segment}) and is a plain 404`, async () => {
        const before = sent();
        const r = await cli(['get', 'activity', id], env);
        assertOneLine(r, /404 Not Found: No activity summary with id/, 1);
        const gets = sandbox.requests.slice(before).filter((q) => q.method === 'GET');
        assert.deepEqual(gets.map((q) => [q.path, q.status]), [[`/v1/human/activities/summaries/${segment}`, 404]]);
        assert.ok(sandbox.requests.slice(before).every((q) => q.method === 'GET' || q.path === '/v1/admin/token'));
      });
    }
  });

  describe('empty and whitespace input', () => {
    const cases: Array<[string, string[], NodeJS.ProcessEnv | undefined, RegExp]> = [
      ['an empty id', ['get', 'activity', ''], undefined, /The id or date is empty/],
      ['a blank id', ['get', 'activity', ' \t '], undefined, /The id or date is empty/],
      ['a blank resource', ['get', '   '], undefined, /Unknown resource "   "/],
      ['a blank source', ['list', 'activity', '--source', '   '], undefined, /--source is empty/],
      ['a blank limit', ['list', 'activity', '--limit', ' '], undefined, /--limit must be a whole number from 1 to 500, got " "/],
      ['a blank timeout', ['list', 'activity', '--timeout', ' '], undefined, /Timeout must be a whole number of milliseconds/],
      ['a blank base URL', ['list', 'activity', '--base-url', '   '], undefined, /Base URL is empty/],
      ['a blank secret', ['token'], { HEALTH_DATA_CLIENT_SECRET: '   ' }, /No credentials: set HEALTH_DATA_CLIENT_ID and HEALTH_DATA_CLIENT_SECRET/],
      ['a blank kind', ['validate', '-', '--kind', ' '], undefined, /Unknown resource " "/],
    ];
    for (const [what, args, extra, pattern] of cases) {
      it(`${what} is a usage error, and nothing is sent`, async () => {
        const before = sent();
        assertOneLine(await cli(args, { ...env, ...extra }), pattern, 2);
        assert.equal(sent(), before);
      });
    }

    it('blank standard input is "empty", not a JSON error', async () => {
      const r = await cli(['validate', '-', '--no-color'], {}, '   \n\t\r\n');
      assert.equal(r.code, 1);
      assert.match(r.stdout, /standard input is empty/);
    });
  });

  describe('base URLs', () => {
    for (const [url, pattern] of [
      ['api.example.com', /Base URL "api\.example\.com" has no scheme/],
      ['127.0.0.1:8787', /has no scheme/],
      ['//api.example.com', /has no scheme/],
      ['admin:hunter2@api.example.com', /Base URL "…@api\.example\.com" has no scheme/],
      ['https://admin:hunter2@api.example.com', /must not contain a user name or password/],
      ['https://admin@api.example.com', /must not contain a user name or password/],
      ['https://:hunter2@api.example.com', /must not contain a user name or password/],
      ['https://admin:hunter2@', /Base URL "https:\/\/…@" is not a valid URL/],
      ['ftp://api.example.com', /must start with http:\/\/ or https:\/\//],
      ['https://api.example.com/v1', /must not end in \/v1/],
      ['https://api.example.com/v1/', /must not end in \/v1/],
      ['https://api.example.com/api/V1', /must not end in \/v1/],
      ['https://api.example.com/?x=1', /must not have a query string or fragment/],
    ] as const) {
      it(`--base-url ${url} is refused with what is wrong, never echoing a password`, async () => {
        const before = sent();
        const r = await cli(['list', 'activity', '--base-url', url], env);
        assertOneLine(r, pattern, 2);
        assert.ok(!r.stderr.includes('hunter2'), r.stderr);
        assert.equal(sent(), before);
      });
    }

    it('--auth-url is checked the same way, and named', async () => {
      assertOneLine(await cli(['token', '--auth-url', `${sandbox.url}/v1`], env), /Auth URL must not end in \/v1/, 2);
    });

    it('a trailing path is kept: a service under /api is asked at /api/v1/…', async () => {
      const before = sent();
      const r = await cli(['token', '--base-url', `${sandbox.url}/api/`], env);
      assertOneLine(r, /POST \/api\/v1\/admin\/token: 404 Not Found: No endpoint at \/api\/v1\/admin\/token/, 1);
      assert.deepEqual(sandbox.requests.slice(before).map((q) => q.path), ['/api/v1/admin/token']);
    });

    it('plain http:// to a host that is not loopback warns first; loopback and https do not', async () => {
      const far = await cli(['token', '--base-url', 'http://192.0.2.1:9', '--timeout', '300'], env);
      const lines = far.stderr.trim().split('\n');
      // The warnings come first, before the request that would carry the secret is even made.
      assert.match(lines[0], /^warning: Base URL uses plain http:\/\/ to 192\.0\.2\.1: the client secret and tokens would travel unencrypted/);
      assert.match(lines[1], /^warning: Auth URL uses plain http:\/\/ to 192\.0\.2\.1/);
      assert.match(lines[2], /^health-data: POST \/v1\/admin\/token: /);
      assert.equal(far.code, 1);
      const auth = await cli(['token', '--auth-url', 'http://192.0.2.1:9', '--timeout', '300'], env);
      assert.match(auth.stderr, /^warning: Auth URL uses plain http:\/\/ to 192\.0\.2\.1/);
      for (const url of [sandbox.url, sandbox.url.replace('127.0.0.1', 'localhost')]) {
        const near = await cli(['token', '--base-url', url], env);
        assert.equal(near.code, 0, near.stderr);
        assert.doesNotMatch(near.stderr, /warning/);
      }
      const tls = await cli(['token', '--base-url', 'https://192.0.2.1:9', '--timeout', '300'], env);
      assert.doesNotMatch(tls.stderr, /warning/);
    });
  });

  describe('payload files', () => {
    const file = (name: string, content: string | Buffer): string => {
      const p = join(dir, name);
      writeFileSync(p, content);
      return p;
    };

    it('a 200 MB file of NUL bytes is streamed and refused at its first byte (no size limit, nothing kept), and left as it was', async () => {
      // Sparse: 200 MB long, no disk used. There is no size limit: it is refused for what it holds.
      const big = file('big.json', '');
      truncateSync(big, 200 * 1024 * 1024);
      const r = await cli(['validate', big, '--no-color']);
      assert.equal(r.code, 1);
      assert.match(r.stdout, /big\.json is not valid JSON \(unexpected character 0x00 at line 1, column 1\)/);
      assert.equal(statSync(big).size, 200 * 1024 * 1024);
    });

    it('files that are not JSON, empty, a directory, or not records each get their own message; the rest are validated', async () => {
      const good = file('good.json', JSON.stringify(sandbox.dataset.activity[0]));
      const bom = file('bom.json', `\ufeff${JSON.stringify(sandbox.dataset.bodyFat[0])}`);
      // Cut right after a key of the second record, whatever today's records hold (a cut at a fixed
      // length fell inside a string on some days: another message).
      const list = JSON.stringify(sandbox.dataset.activity);
      const cutAt = list.indexOf('"steps":', list.indexOf('},{')) + '"steps":'.length;
      const inputs = [
        file('html.json', '<!doctype html><html><body>502 Bad Gateway</body></html>'),
        file('nul.json', Buffer.from([0, 0, 0, 0])),
        file('trailing.json', '{"id": "x"} {"id": "y"}'),
        file('cut.json', list.slice(0, cutAt)),
        file('blank.json', '\n\n   \n'),
        file('empty-list.json', '[]'),
        file('string.json', '"<script>alert(1)</script>"'),
        (mkdirSync(join(dir, 'folder.json'), { recursive: true }), join(dir, 'folder.json')),
        join(dir, 'missing.json'),
        good,
        bom,
      ];
      const before = inputs.map((p) => (statSync(p, { throwIfNoEntry: false })?.isFile() ? readFileSync(p) : undefined));
      const r = await cli(['validate', ...inputs, '--no-color']);
      assert.equal(r.code, 1);
      for (const pattern of [
        /html\.json is not valid JSON/, /nul\.json is not valid JSON/, /trailing\.json is not valid JSON/, /cut\.json is not valid JSON/,
        /blank\.json is empty/, /empty-list\.json holds an empty list: nothing to validate/, /a record must be a JSON object, got "<script>alert\(1\)<\/script>"/,
        /folder\.json is a folder with no \.json, \.ndjson or \.jsonl files in it/, /missing\.json does not exist/, /good\.json/, /bom\.json/,
      ]) assert.match(r.stdout, pattern);
      // A file cut short loses nothing: the records before the cut are reported, then where it broke.
      assert.match(r.stdout, new RegExp(`cut\\.json: 1 record, all valid\\n {2}#0 Activity summary (?:[^\\n]*\\n {2}[^\\n]*)*\\n[^\\n]*cut\\.json is not valid JSON \\(a value is expected at line 1, column ${cutAt + 1}\\)\\n`));
      // cut.json had a record validated before its cut: validated in part, not one of the files not validated.
      assert.match(r.stdout, /4 records in 11 files, 1 invalid, 7 files not validated, 1 file validated only in part$/m);
      inputs.forEach((p, i) => before[i] && assert.deepEqual(readFileSync(p), before[i], `${p} changed`));
    });

    it('a payload nested 100,000 deep is validated without overflowing the stack', async () => {
      const deep = file('deep.json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
      const r = await cli(['validate', deep, '--json']);
      assert.equal(r.code, 1);
      assert.equal((JSON.parse(r.stdout) as { files: Array<{ records: unknown[] }> }).files[0].records.length, 1);
    });
  });

  describe('faults of the service', () => {
    interface FaultCase {
      name: string;
      faults: FaultRule[];
      args: string[];
      code: number;
      /** What stderr says (failures), or what stdout shows (faults the CLI rides out). */
      says: RegExp;
      user?: boolean;
      /** Checked after the rest; a failure (exit 1) is checked to have printed nothing first. */
      check?: (r: Run, service: Sandbox) => void;
    }
    const list = ['list', 'activity', '--all', '--limit', '7', '--json'];
    // `list --all --json` streams page by page: a failure after the first page leaves a JSON
    // array that is never closed, so no script can take part of the list for the whole of it.
    const failed = (r: Run) => {
      if (r.stdout !== '') assert.throws(() => JSON.parse(r.stdout), SyntaxError, 'a list that parses although the call failed');
    };
    const tokenRequests = (s: Sandbox) => s.requests.filter((q) => q.path === '/v1/admin/token').length;
    const cases: FaultCase[] = [
      { name: 'latency past the timeout', faults: [{ fault: 'latency', latencyMs: 120_000, path: '/activities' }], args: [...list, '--timeout', '500'], code: 1, says: /GET \/v1\/human\/activities\/summaries: no complete reply within 500 ms \(timed out\)/ },
      { name: 'a body trickling past the timeout', faults: [{ fault: 'slow-body', latencyMs: 120_000, path: '/activities' }], args: [...list, '--timeout', '500'], code: 1, says: /timed out/ },
      { name: '429 without Retry-After, every time', faults: [{ fault: '429', path: '/activities' }], args: list, code: 1, says: /429 Too Many Requests: Too many requests.*\(request id \w+; 4 attempts\)/ },
      { name: '429 with Retry-After, every time', faults: [{ fault: '429', retryAfter: 1, path: '/activities' }], args: list, code: 1, says: /429 Too Many Requests.*4 attempts/ },
      { name: '429 with Retry-After, once', faults: [{ fault: '429', retryAfter: 1, path: '/activities', times: 1 }], args: list, code: 0, says: /^\[/ },
      { name: '500', faults: [{ fault: '500', path: '/activities' }], args: list, code: 1, says: /GET \/v1\/human\/activities\/summaries: 500 Internal Server Error: The service failed to answer \(sandbox fault 500\) \(request id \w+\)$/m },
      { name: '502, every time', faults: [{ fault: '502', path: '/activities' }], args: list, code: 1, says: /502 Bad Gateway.*4 attempts/ },
      { name: '503, every time', faults: [{ fault: '503', path: '/activities' }], args: list, code: 1, says: /503 Service Unavailable.*4 attempts/ },
      { name: '503, once', faults: [{ fault: '503', path: '/activities', times: 1 }], args: list, code: 0, says: /^\[/ },
      { name: 'an HTML error page', faults: [{ fault: 'html', path: '/activities' }], args: list, code: 1, says: /502 Bad Gateway: the server answered with an HTML page, not JSON/ },
      { name: 'malformed JSON', faults: [{ fault: 'malformed-json', path: '/activities' }], args: list, code: 1, says: /GET \/v1\/human\/activities\/summaries: the reply is not valid JSON/ },
      { name: 'a truncated body', faults: [{ fault: 'truncated', path: '/activities' }], args: list, code: 1, says: /the reply was cut short after 200 OK \(truncated body/ },
      { name: 'a connection reset', faults: [{ fault: 'reset', path: '/activities' }], args: list, code: 1, says: /GET \/v1\/human\/activities\/summaries: network error: .*(reset|closed|hang up)/i },
      { name: 'a later page failing: no list that parses', faults: [{ fault: '500', path: 'offset=' }], args: list, code: 1, says: /500 Internal Server Error/ },
      { name: 'an error status in a 200 body', faults: [{ fault: 'status-in-body', path: '/activities' }], args: list, code: 1, says: /401 Unauthorized: Unauthorized \(in the body of a 200 reply\)/ },
      { name: 'an expired token, once: one re-mint', faults: [{ fault: 'expired-token', times: 1 }], args: list, code: 0, says: /^\[/, check: (_r, s) => assert.equal(tokenRequests(s), 2) },
      { name: 'a revoked token, every time', faults: [{ fault: 'revoked-token' }], args: list, code: 1, says: /401 Unauthorized: The access token has been revoked.*a freshly minted client token was rejected too/, check: (_r, s) => assert.equal(tokenRequests(s), 2, 'the client re-minted more than once') },
      { name: 'the user access token rejected', faults: [{ fault: 'expired-token' }], args: list, user: true, code: 1, says: /401 Unauthorized: The access token has expired.*the user access token was rejected/ },
      { name: 'a token reply without expires_in', faults: [{ fault: 'no-expires-in' }], args: ['token'], code: 0, says: /expires in\s+24h 0m .*\[assumed: the reply had no expires_in\]/ },
      { name: 'a token that is not a JWT', faults: [{ fault: 'non-jwt-token' }], args: ['token'], code: 0, says: /claims\s+none: the token is not a JWT/ },
      { name: 'a token that is not a JWT, used', faults: [{ fault: 'non-jwt-token' }], args: list, code: 0, says: /^\[/ },
      { name: 'the token endpoint failing', faults: [{ fault: '503', path: '/v1/admin/token' }], args: list, code: 1, says: /POST \/v1\/admin\/token: 503 Service Unavailable/ },
      { name: 'pages that repeat records', faults: [{ fault: 'repeat-page' }], args: list, code: 0, says: /^\[/ },
      { name: 'a Link header that loops back', faults: [{ fault: 'link-loop' }], args: list, code: 0, says: /^\[/ },
      { name: 'a Link header that loops back, the token in the query', faults: [{ fault: 'link-loop' }], args: [...list, '--token-in-query'], code: 0, says: /^\[/ },
    ];

    /** Each case against a sandbox of its own, a few at a time: retries wait seconds, not work. */
    const results = new Map<string, { run: Run; service: Sandbox }>();
    before(async function () {
      this.timeout(120_000);
      const queue = [...cases];
      const worker = async () => {
        for (let c = queue.shift(); c; c = queue.shift()) {
          const service = await startSandbox({ port: 0, days: 20, seed: 'reliability-cli', clientSecret: SECRET, userAccessTokens: [USER_TOKEN], faults: c.faults });
          const caseEnv = { HEALTH_DATA_BASE_URL: service.url, HEALTH_DATA_CLIENT_ID: service.clientId, HEALTH_DATA_CLIENT_SECRET: SECRET, ...(c.user ? { HEALTH_DATA_ACCESS_TOKEN: USER_TOKEN } : {}) };
          const run = await cli(c.args, caseEnv);
          results.set(c.name, { run, service });
          await service.close();
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
    });

    for (const c of cases) {
      it(`${c.name}: ${c.code === 0 ? 'ridden out' : 'one line that names what failed, exit 1'}`, () => {
        const { run, service } = results.get(c.name)!;
        if (c.code === 0) {
          assert.equal(run.code, 0, run.stderr);
          assert.match(run.stdout, c.says);
          if (run.stdout.startsWith('[')) {
            // A list: every record of the service once, whatever the pages did.
            const ids = (JSON.parse(run.stdout) as Array<{ id: string }>).map((r) => r.id);
            assert.deepEqual([...ids].sort(), service.dataset.activity.map((r) => r.id).sort());
          }
        } else {
          assertOneLine(run, c.says, 1);
          failed(run);
        }
        c.check?.(run, service);
      });
    }
  });

  // A suite of its own so that it runs after the others (mocha runs a suite's own tests first).
  describe('secrets', () => {
    it('no output of any run holds the secret, the user token or a token the sandbox minted', () => {
      assert.ok(runs.length > 60, `only ${runs.length} runs`);
      for (const r of runs) {
        for (const text of [r.stdout, r.stderr]) {
          assert.ok(!text.includes(SECRET), `${r.args.join(' ')} printed the secret`);
          assert.ok(!text.includes(USER_TOKEN), `${r.args.join(' ')} printed the user access token`);
          assert.doesNotMatch(text, /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/, `${r.args.join(' ')} printed a JWT`);
          // The non-JWT tokens of the sandbox are 40 hex digits.
          assert.doesNotMatch(text, /\b[0-9a-f]{40}\b/, `${r.args.join(' ')} printed an opaque token`);
        }
      }
    });
  });
});
