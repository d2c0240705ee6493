// `health-data run`: a file of saved requests (as Export Saved Requests… writes it, made here from
// real exchanges with the sandbox) sent again through the CLI's connection against the sandbox on
// loopback: a verdict per request in text, JSON and JUnit XML, exit 1 when any fails, the
// requests the sandbox received, and every wrong file or flag named before the environment.
import * as assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Exchange, HealthDataClient } from '../../../src/core/service';
import { HistoryEntry, savedRequestsFileText, toHistoryEntry } from '../../../src/core/workbench';
import { Sandbox, parseFaultSpec, startSandbox } from '../../../src/sandbox/server';
import { runCliInProcess } from '../support/cli';
import { notWornDay } from '../support/sandbox';

const SECRET = 'run-test-secret-7d2e01';

describe('health-data run: saved requests as checks', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  let file: string;
  let broken: { id: string; date: string };
  let heart: { date: string };
  const outputs: string[] = [];
  const cli = async (args: string[], environment: NodeJS.ProcessEnv = env) => {
    const r = await runCliInProcess(args, environment);
    outputs.push(r.stdout, r.stderr);
    return r;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hde-run-'));
    // One activity summary that breaks the schema (steps as text), on a day of its own.
    broken = { id: 'broken-activity', date: '2026-03-20' };
    sandbox = await startSandbox({
      port: 0,
      days: 20,
      seed: 'run-tests',
      clientSecret: SECRET,
      extraRecords: { activity: [{ id: broken.id, humanId: 'h-broken', source: 'fitbit', date: broken.date, steps: 'many', createdAt: '2026-03-20T10:00:00Z', updatedAt: '2026-03-20T10:00:00Z' }] },
    });
    env = { HEALTH_DATA_BASE_URL: sandbox.baseUrl, HEALTH_DATA_CLIENT_ID: sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: SECRET };
    // Real exchanges, kept and saved as the extension keeps them, then exported.
    const exchanges: Exchange[] = [];
    const client = new HealthDataClient({ authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl, clientId: sandbox.clientId, clientSecret: SECRET, retryBaseDelayMs: 5, onExchange: (e) => exchanges.push(e) });
    // A day whose summary has its value (about one day in ten the sandbox leaves it out) and a zone of 0 time, for --fail-on zero.
    heart = sandbox.dataset.heartRate.find((h) => typeof h.value === 'number' && h.zones.some((z) => z.duration === 0))!;
    await client.list('heartRate', { startDate: heart.date, endDate: heart.date, limit: 5, all: false });
    await client.getRecord('heartRate', heart.date);
    await client.getLatest('bodyFat');
    await client.getRecord('activity', broken.id);
    const token = client.currentToken!.token;
    const saved = (endpoint: string, name: string): HistoryEntry => ({
      ...toHistoryEntry(exchanges.find((e) => e.endpoint === endpoint && (endpoint !== 'getById' || e.url.includes(broken.id)))!, { secrets: [SECRET, token], bodyLimit: 1 << 16 }),
      savedAs: name,
    });
    const requests = [saved('list', 'Heart rate of a day'), saved('getByDate', 'Heart rate by date'), saved('getLatest', 'Latest body fat'), saved('token', 'Token mint')];
    file = join(dir, 'saved.json');
    writeFileSync(file, savedRequestsFileText(requests, { replies: false, secrets: [SECRET, token], exportedAt: '2026-03-15T00:00:00Z' }));
    const withBroken = [...requests, saved('getById', 'The broken summary'), { ...requests[1], id: 'gone', url: `${sandbox.baseUrl}/v1/human/heart_rate/summaries/no-such-id`, endpoint: 'getById' as const, savedAs: 'A summary that is gone' }];
    writeFileSync(join(dir, 'failing.json'), savedRequestsFileText(withBroken, { replies: false, secrets: [], exportedAt: '2026-03-15T00:00:00Z' }));
    // Expectations (Set Expected Status…): a refusal expected, a refusal that does not come, a 2xx named.
    const expecting: HistoryEntry[] = [
      { ...withBroken[5], expectStatus: 404 },
      { ...requests[2], savedAs: 'No body fat', expectStatus: 404 },
      { ...requests[1], expectStatus: 200 },
      { ...requests[2], savedAs: 'Body fat behind a proxy', expectStatus: 502 },
    ];
    writeFileSync(join(dir, 'expecting.json'), savedRequestsFileText(expecting, { replies: false, secrets: [], exportedAt: '2026-03-15T00:00:00Z' }));
    // Time limits (Set Time Limit…): a generous one, a tight one, one on a refusal expected.
    const timed: HistoryEntry[] = [
      { ...requests[1], savedAs: 'Heart rate in time', timeLimitMs: 60_000 },
      { ...requests[2], savedAs: 'Body fat held back', timeLimitMs: 100 },
      { ...withBroken[5], savedAs: 'Gone, held back', expectStatus: 404, timeLimitMs: 100 },
    ];
    writeFileSync(join(dir, 'timed.json'), savedRequestsFileText(timed, { replies: false, secrets: [], exportedAt: '2026-03-15T00:00:00Z' }));
  });

  it('fails a request whose first byte comes later than its time limit, after every other check, and says when it came', async () => {
    const timed = join(dir, 'timed.json');
    assert.deepEqual(
      (JSON.parse(readFileSync(timed, 'utf8')) as { requests: Array<{ timeLimitMs?: number }> }).requests.map((r) => r.timeLimitMs),
      [60_000, 100, 100],
      'the file keeps each limit',
    );
    // The sandbox holds back the body fat and the missing summary by 300 ms.
    sandbox.addFault({ fault: 'latency', path: '/body_fat', latencyMs: 300 });
    sandbox.addFault({ fault: 'latency', path: 'no-such-id', latencyMs: 300 });
    try {
      const r = await cli(['run', timed, '--no-color']);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stdout, /^PASS {2}Heart rate in time {2}GET \S+\n {6}200 OK · 1 record · .*first byte after [\d.]+ ms \(limit 60000 ms\)/m);
      assert.match(r.stdout, /^FAIL {2}Body fat held back {2}GET \/v1\/human\/body_fat\n {6}200 OK · .*first byte after \d+ ms \(limit 100 ms\).*\n {6}The first byte came after \d+ ms; the limit is 100 ms\.\n/m);
      // A refusal expected is held to its limit too.
      assert.match(r.stdout, /^FAIL {2}Gone, held back {2}GET \S+\n {6}404 Not Found, as expected · .*\n {6}The first byte came after \d+ ms; the limit is 100 ms\.\n/m);
      const json = await cli(['run', timed, '--json']);
      const requests = (JSON.parse(json.stdout) as { requests: Array<Record<string, unknown>> }).requests;
      assert.deepEqual(requests.map((q) => [q.name, q.verdict, q.failure, q.timeLimitMs]), [
        ['Heart rate in time', 'passed', undefined, 60_000],
        ['Body fat held back', 'failed', 'time', 100],
        ['Gone, held back', 'failed', 'time', 100],
      ]);
      assert.ok(requests.every((q) => typeof q.firstByteMs === 'number'));
      assert.ok((requests[1].firstByteMs as number) >= 250, `first byte ${String(requests[1].firstByteMs)}`);
      const out = join(dir, 'timed.xml');
      await cli(['run', timed, '--format', 'junit', '--out', out]);
      assert.match(readFileSync(out, 'utf8'), /<testcase name="Body fat held back" [^>]*>\n {6}<failure message="The first byte came after \d+ ms; the limit is 100 ms\." type="time">/);
    } finally {
      sandbox.clearFaults();
    }
  });

  after(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
    // No run ever printed the secret.
    for (const text of outputs) assert.ok(!text.includes(SECRET), text);
  });

  it('runs the requests of an .http file and a Postman collection that the service serves, and names the others on standard error', async () => {
    const http = join(dir, 'checks.http');
    writeFileSync(
      http,
      [
        '@base = https://api.example.com',
        '### Heart rate of the day',
        `GET {{base}}/v1/human/heart_rate/summaries/${heart.date}`,
        'Authorization: Bearer {{token}}',
        '',
        '### Upload',
        'PUT {{base}}/v2/uploads',
        '',
        '### The broken summary',
        `GET {{base}}/v1/human/activities/summaries/${broken.id}`,
      ].join('\n'),
    );
    const before = sandbox.requests.length;
    const r = await cli(['run', http, '--no-color']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, 'skipped "Upload": PUT /v2/uploads is not one of the service\'s endpoints.\n');
    assert.deepEqual(r.stdout.trimEnd().split('\n').filter((l) => /^(PASS|FAIL) /.test(l)), [
      `PASS  Heart rate of the day  GET /v1/human/heart_rate/summaries/${heart.date}`,
      `FAIL  The broken summary  GET /v1/human/activities/summaries/${broken.id}`,
    ]);
    assert.equal(r.stdout.trimEnd().split('\n').at(-1), '2 saved requests: 1 passed, 1 failed.');
    assert.deepEqual(sandbox.requests.slice(before).filter((q) => q.method === 'GET').map((q) => q.path), [`/v1/human/heart_rate/summaries/${heart.date}`, `/v1/human/activities/summaries/${broken.id}`]);
    const only = await cli(['run', http, '--only', 'heart rate of the day', '--json']);
    assert.equal(only.code, 0, only.stderr);
    assert.deepEqual((JSON.parse(only.stdout) as { requests: Array<{ name: string; verdict: string }> }).requests.map((q) => [q.name, q.verdict]), [['Heart rate of the day', 'passed']]);
    const collection = join(dir, 'checks.postman_collection.json');
    writeFileSync(
      collection,
      JSON.stringify({
        info: { name: 'Checks', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
        item: [{ name: 'Body fat', item: [{ name: 'Latest', request: { method: 'GET', url: 'https://api.example.com/v1/human/body_fat' } }] }],
      }),
    );
    const p = await cli(['run', collection, '--no-color']);
    assert.equal(p.code, 0, p.stderr);
    assert.match(p.stdout, /^PASS {2}Body fat \/ Latest {2}GET \/v1\/human\/body_fat\n/m);
    // Nothing the service serves: said, and nothing sent.
    const none = join(dir, 'none.http');
    writeFileSync(none, 'PUT https://h/v2/uploads\n');
    const n = await cli(['run', none]);
    assert.equal(n.code, 2);
    assert.match(n.stderr, /none\.http holds no request the service serves: nothing to run\. skipped "PUT https:\/\/h\/v2\/uploads": PUT \/v2\/uploads is not one of the service's endpoints\./);
  });

  it('reads httpYac\'s `?? status == N` in an .http file as the status a request expects; its other assertions are named as not checked', async () => {
    const http = join(dir, 'assertions.http');
    writeFileSync(
      http,
      [
        '### Not there, as expected',
        'GET https://api.example.com/v1/human/heart_rate/summaries/not-there',
        '?? status == 404',
        '',
        '### There, expected not to be',
        `GET https://api.example.com/v1/human/heart_rate/summaries/${heart.date}`,
        'Accept: application/json',
        '?? status == 404',
        '',
        '### Latest, with a duration check',
        'GET https://api.example.com/v1/human/body_fat',
        '',
        '?? status == 200',
        '?? duration < 300',
        '?? header content-type includes json',
      ].join('\n'),
    );
    const before = sandbox.requests.length;
    const r = await cli(['run', http, '--no-color']);
    assert.equal(r.code, 1, r.stderr);
    // The assertion lines are neither query nor body: each request sent as written.
    assert.deepEqual(sandbox.requests.slice(before).filter((q) => q.method === 'GET').map((q) => q.path), ['/v1/human/heart_rate/summaries/not-there', `/v1/human/heart_rate/summaries/${heart.date}`, '/v1/human/body_fat']);
    assert.deepEqual(r.stdout.trimEnd().split('\n').filter((l) => /^(PASS|FAIL) /.test(l)), [
      'PASS  Not there, as expected  GET /v1/human/heart_rate/summaries/not-there',
      `FAIL  There, expected not to be  GET /v1/human/heart_rate/summaries/${heart.date}`,
      'PASS  Latest, with a duration check  GET /v1/human/body_fat',
    ]);
    assert.match(r.stdout, /404 Not Found, as expected/);
    assert.match(r.stdout, /Expected 404 Not Found; the service answered 200 OK\./);
    assert.equal(r.stderr, '"Latest, with a duration check": Not checked: "?? duration < 300", "?? header content-type includes json" (the assertion read is "?? status == N").\n');
    const json = await cli(['run', http, '--json', '--only', 'Not there, as expected']);
    assert.equal(json.code, 0, json.stderr);
    assert.doesNotMatch(json.stderr, /Not checked/);
    assert.deepEqual((JSON.parse(json.stdout) as { requests: Array<{ expectedStatus?: number; verdict: string }> }).requests.map((q) => [q.expectedStatus, q.verdict]), [[404, 'passed']]);
  });

  it('sends each saved request through this connection and passes them, with what each reply held', async () => {
    const before = sandbox.requests.length;
    const r = await cli(['run', file, '--no-color']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.deepEqual(lines.filter((l) => /^(PASS|FAIL) /.test(l)).map((l) => l.split('  ').slice(0, 2).join('  ')), [
      'PASS  Heart rate of a day',
      'PASS  Heart rate by date',
      'PASS  Latest body fat',
      'PASS  Token mint',
    ]);
    assert.match(r.stdout, /PASS {2}Heart rate of a day {2}GET \/v1\/human\/heart_rate\/summaries\?start_date=\d{4}-\d\d-\d\d&end_date=\d{4}-\d\d-\d\d&limit=5\n {6}200 OK · \d+ records? · .*\d+ ms/);
    assert.match(r.stdout, /PASS {2}Token mint {2}POST \/v1\/admin\/token\n {6}200 OK · \d+ ms/);
    assert.equal(lines.at(-1), '4 saved requests: 4 passed, 0 failed.');
    // What the sandbox received: the same requests, in the file's order, the token minted once.
    const asked = sandbox.requests.slice(before).map((q) => `${q.method} ${q.path}`);
    assert.deepEqual(asked.filter((a) => !a.startsWith('POST')), [
      'GET /v1/human/heart_rate/summaries',
      `GET /v1/human/heart_rate/summaries/${heart.date}`,
      'GET /v1/human/body_fat',
    ]);
    assert.equal(sandbox.requests.slice(before).find((q) => q.path === '/v1/human/heart_rate/summaries')?.query.limit, '5');
  });

  it('Ctrl-C stops the run after the request under way, says how far it got, and exits 1 though nothing failed', async () => {
    // The third request (the latest body fat) is held back: the press comes while it is under way.
    sandbox.addFault(parseFaultSpec('latency:ms=3000:path=/body_fat'));
    try {
      const signals = new EventEmitter();
      const before = sandbox.requests.length;
      const pending = runCliInProcess(['run', file, '--no-color'], env, undefined, signals);
      while (sandbox.requests.slice(before).filter((q) => q.path.startsWith('/v1/human/heart_rate')).length < 2) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 100));
      signals.emit('SIGINT');
      const r = await pending;
      outputs.push(r.stdout, r.stderr);
      assert.equal(r.code, 1, r.stderr);
      assert.deepEqual(r.stdout.split('\n').filter((l) => /^(PASS|FAIL) /.test(l)).map((l) => l.split('  ').slice(0, 2).join('  ')), ['PASS  Heart rate of a day', 'PASS  Heart rate by date']);
      assert.match(`${r.stdout}${r.stderr}`, /Interrupted after 2 saved requests of 4: 2 passed, 0 failed\./);
    } finally {
      sandbox.clearFaults();
    }
  });

  it('fails a request whose reply is not a 2xx or whose record breaks the schema, says why, and exits 1', async () => {
    const r = await cli(['run', join(dir, 'failing.json'), '--no-color']);
    assert.equal(r.code, 1, r.stderr);
    const broke = /FAIL {2}The broken summary {2}GET \/v1\/human\/activities\/summaries\/broken-activity\n {6}200 OK · 1 record · (\d+) errors · .*\n {6}The record breaks the rules that fail the run: (\d+) errors\.\n/.exec(r.stdout);
    assert.ok(broke && broke[1] === broke[2], r.stdout);
    assert.match(r.stdout, /FAIL {2}A summary that is gone {2}GET \/v1\/human\/heart_rate\/summaries\/no-such-id\n {6}404 Not Found · \d+ ms.*\n {6}.*404.*\n/);
    assert.match(r.stdout, /\n6 saved requests: 4 passed, 2 failed\.\n$/);
    // --only runs the names given (in any case); --fail-on adds kinds that fail.
    const only = await cli(['run', join(dir, 'failing.json'), '--only', 'latest BODY fat', '--fail-on', 'deprecated', '--no-color']);
    assert.equal(only.code, 1);
    assert.match(only.stdout, /^FAIL {2}Latest body fat .*\n.*\d+ deprecated.*\n {6}The record breaks the rules that fail the run: 1 deprecated\.\n1 saved request: 0 passed, 1 failed\.\n$/);
  });

  it('passes a request that expects a refusal on that status alone, and only with the service\'s error body', async () => {
    const expecting = join(dir, 'expecting.json');
    const r = await cli(['run', expecting, '--only', 'A summary that is gone', '--only', 'No body fat', '--only', 'Heart rate by date', '--no-color']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^PASS {2}Heart rate by date {2}GET \S+\n {6}200 OK, as expected · 1 record · /m);
    assert.match(r.stdout, /^PASS {2}A summary that is gone {2}GET \/v1\/human\/heart_rate\/summaries\/no-such-id\n {6}404 Not Found, as expected · \d+ ms · request id \w+\n(?!\s{6}\S)/m);
    assert.match(r.stdout, /^FAIL {2}No body fat {2}GET \/v1\/human\/body_fat\n {6}200 OK · \d+ ms.*\n {6}Expected 404 Not Found; the service answered 200 OK\.\n/m);
    assert.match(r.stdout, /\n3 saved requests: 2 passed, 1 failed\.\n$/);

    // The status expected, but a proxy's HTML page rather than the service's error: a failure of the reply.
    sandbox.addFault({ fault: 'html', path: '/body_fat' });
    try {
      const proxied = await cli(['run', expecting, '--only', 'Body fat behind a proxy', '--json']);
      assert.equal(proxied.code, 1, proxied.stderr);
      const [request] = (JSON.parse(proxied.stdout) as { requests: Array<Record<string, unknown>> }).requests;
      assert.deepEqual([request.verdict, request.status, request.expectedStatus, request.failure], ['failed', 502, 502, 'reply']);
      assert.equal(request.problem, 'The 502 reply is an HTML page (a proxy\'s or a gateway\'s?), not the service\'s JSON error {statusCode, error, message}.');
    } finally {
      sandbox.clearFaults();
    }

    const out = join(dir, 'expecting.xml');
    const junit = await cli(['run', expecting, '--format', 'junit', '--out', out, '--only', 'No body fat', '--only', 'A summary that is gone']);
    assert.equal(junit.code, 1);
    const xml = readFileSync(out, 'utf8');
    assert.match(xml, /<testcase name="No body fat" [^>]*>\n {6}<failure message="Expected 404 Not Found; the service answered 200 OK\." type="status">/);
    assert.match(xml, /<testcase name="A summary that is gone" [^>]*>\n {6}<system-out>404 Not Found, as expected · /);
  });

  it('reports as JSON and JUnit XML, to standard output or --out, the closing line on standard error', async () => {
    const json = await cli(['run', join(dir, 'failing.json'), '--json']);
    assert.equal(json.code, 1);
    const report = JSON.parse(json.stdout) as { requests: Array<{ name: string; verdict: string; status?: number; records?: number; counts?: Record<string, number>; problem?: string }>; passed: number; failed: number };
    assert.deepEqual([report.passed, report.failed], [4, 2]);
    const gone = report.requests.find((q) => q.name === 'A summary that is gone')!;
    assert.deepEqual([gone.verdict, gone.status], ['failed', 404]);
    const bad = report.requests.find((q) => q.name === 'The broken summary')!;
    assert.deepEqual([bad.verdict, bad.records], ['failed', 1]);
    assert.ok((bad.counts?.error ?? 0) > 0 && bad.problem === `The record breaks the rules that fail the run: ${bad.counts!.error} errors.`, bad.problem);
    assert.equal(json.stderr.trim(), '6 saved requests: 4 passed, 2 failed.');

    const out = join(dir, 'report.xml');
    const junit = await cli(['run', join(dir, 'failing.json'), '--format', 'junit', '--out', out]);
    assert.equal(junit.code, 1);
    assert.equal(junit.stdout, '');
    assert.equal(junit.stderr.trim(), `6 saved requests: 4 passed, 2 failed. Report: ${out}`);
    const xml = readFileSync(out, 'utf8');
    assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="health-data run" tests="6" failures="2"/);
    assert.equal(xml.match(/<testcase /g)?.length, 6);
    assert.equal(xml.match(/<failure /g)?.length, 2);
    assert.match(xml, /<testcase name="The broken summary" classname="GET \/v1\/human\/activities\/summaries\/broken-activity" time="[\d.]+">\n {6}<failure message="The record breaks the rules that fail the run: \d+ errors\." type="findings">/);
    assert.match(xml, /<testcase name="A summary that is gone" [^>]*>\n {6}<failure message="[^"]*404[^"]*" type="status">/);
  });

  it("adds a saved request's own findings that fail it (Set Findings That Fail…) to --fail-on, and reads no rule it does not know", async () => {
    const text = readFileSync(file, 'utf8');
    const parsed = JSON.parse(text) as { requests: Array<Record<string, unknown>> };
    const latest = parsed.requests.find((r) => r.savedAs === 'Latest body fat')!;
    // The file a newer or hand-edited version wrote: an unknown rule and errors (which always fail) are left out.
    latest.failOn = ['deprecated', 'bogus', 'error', 'deprecated'];
    const own = join(dir, 'own-rules.json');
    writeFileSync(own, JSON.stringify(parsed));
    const r = await cli(['run', own, '--no-color']);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /\nFAIL {2}Latest body fat .*\n.*\d+ deprecated.*\n {6}The record breaks the rules that fail the run: 1 deprecated\.\n/);
    assert.match(r.stdout, /\nPASS {2}Heart rate by date /);
    const json = JSON.parse((await cli(['run', own, '--json'])).stdout) as { requests: Array<{ name: string; failOn?: string[] }> };
    assert.deepEqual(json.requests.map((q) => [q.name, q.failOn]), [
      ['Heart rate of a day', undefined],
      ['Heart rate by date', undefined],
      ['Latest body fat', ['deprecated']],
      ['Token mint', undefined],
    ]);
    // --fail-on adds to them: the heart rate summaries' own zeros fail the run too.
    const both = JSON.parse((await cli(['run', own, '--json', '--fail-on', 'zero'])).stdout) as { requests: Array<{ name: string; verdict: string; counts?: Record<string, number> }> };
    const withZeros = both.requests.filter((q) => (q.counts?.zero ?? 0) > 0);
    assert.ok(withZeros.length > 0, JSON.stringify(both.requests.map((q) => q.counts)));
    for (const q of withZeros) assert.equal(q.verdict, 'failed', q.name);
  });

  it("fails a list reply on a 0 that stands out among the page's records of its source with --fail-on unusual, and counts it without", async () => {
    // A day the tracker was not worn: a fitbit summary with steps 0, served among the generated ones.
    const plain = await startSandbox({ port: 0, days: 30, seed: 'run-tests', clientSecret: SECRET });
    const fitbit = (plain.dataset.activity as unknown as Array<Record<string, unknown>>).filter((r) => r.source === 'fitbit');
    const notWorn = notWornDay(fitbit);
    const served = await startSandbox({ port: 0, days: 30, seed: 'run-tests', clientSecret: SECRET, extraRecords: { activity: [notWorn] } });
    try {
      const dates = fitbit.map((r) => String(r.date)).sort();
      const exchanges: Exchange[] = [];
      const client = new HealthDataClient({ authUrl: served.authUrl, baseUrl: served.baseUrl, clientId: served.clientId, clientSecret: SECRET, retryBaseDelayMs: 5, onExchange: (e) => exchanges.push(e) });
      // The whole month on one page: a page of 100 can leave out a record of the oldest day, and the zeros counted change with it.
      const page = await client.list('activity', { startDate: dates[0], endDate: dates.at(-1)!, limit: 500, all: false });
      const onPage = page.records.filter((r) => (r as { source?: string }).source === 'fitbit').length;
      assert.ok(onPage >= 21 && page.records.some((r) => (r as { id?: string }).id === 'not-worn'), `${onPage} fitbit summaries on the page`);
      const token = client.currentToken!.token;
      const list = { ...toHistoryEntry(exchanges.find((e) => e.endpoint === 'list')!, { secrets: [SECRET, token], bodyLimit: 1 << 16 }), savedAs: 'A month of activity' };
      const saved = join(dir, 'not-worn.json');
      writeFileSync(saved, savedRequestsFileText([list], { replies: false, secrets: [SECRET, token], exportedAt: '2026-03-15T00:00:00Z' }));
      type Report = { requests: Array<{ verdict: string; failingRecords: number; unusual?: number; counts: Record<string, number>; problem?: string }> };
      const report = async (sandbox: Sandbox, ...flags: string[]) => {
        const r = await cli(['run', saved, '--json', ...flags], { ...env, HEALTH_DATA_BASE_URL: sandbox.baseUrl });
        return { code: r.code, request: (JSON.parse(r.stdout) as Report).requests[0] };
      };
      // The same request to the sandbox without that day: its own zeros that stand out (a quiet day's minutes), if any.
      const before = (await report(plain, '--fail-on', 'unusual')).request;
      const failingBefore = before.failingRecords;
      const unusual = (before.unusual ?? 0) + 1;

      // Without the flag it passes, and says how many of the zeros stand out.
      const passes = await cli(['run', saved, '--no-color'], { ...env, HEALTH_DATA_BASE_URL: served.baseUrl });
      assert.equal(passes.code, 0, passes.stdout + passes.stderr);
      assert.match(passes.stdout, new RegExp(`^PASS {2}A month of activity {2}GET .*\\n {6}200 OK · \\d+ records · (.* · )?\\d+ zero \\(${unusual} unusual\\)`));
      // With it, the run fails on those records, in words, in text and JSON.
      const fails = await cli(['run', saved, '--no-color', '--fail-on', 'unusual'], { ...env, HEALTH_DATA_BASE_URL: served.baseUrl });
      assert.equal(fails.code, 1, fails.stdout);
      const zeros = `${unusual} unusual zero${unusual === 1 ? '' : 's'}`;
      assert.match(fails.stdout, new RegExp(`\\n {6}${failingBefore + 1} of \\d+ records? breaks? the rules that fail the run: ${zeros}\\.\\n`));
      const json = await report(served, '--fail-on', 'unusual');
      assert.deepEqual([json.code, json.request.verdict, json.request.failingRecords, json.request.unusual], [1, 'failed', failingBefore + 1, unusual]);
      assert.ok(json.request.counts.zero > unusual);
      // --fail-on zero fails on every record with a 0, the unusual ones among them.
      const zero = (await report(served, '--fail-on', 'zero')).request;
      assert.ok(zero.failingRecords > failingBefore + 1 && !zero.problem!.includes('unusual'), zero.problem);
    } finally {
      await served.close();
      await plain.close();
    }
  });

  it('names a wrong file or flag before the address and the credentials, and exits 2', async () => {
    writeFileSync(join(dir, 'recording.har'), JSON.stringify({ log: { entries: [] } }));
    writeFileSync(join(dir, 'empty.json'), JSON.stringify({ kind: 'health-data-explorer.saved-requests', version: 1, requests: [] }));
    for (const [args, says] of [
      [['run'], /^health-data: Name the file of saved requests to run \(Export Saved Requests… in the extension writes one\)\.$/],
      [['run', join(dir, 'missing.json')], /^health-data: .*missing\.json does not exist\.$/],
      [['run', dir], /^health-data: .*hde-run-\w+ is a folder\.$/],
      [['run', join(dir, 'recording.har')], /^health-data: .*recording\.har: The file is not a file of saved requests: Export Saved Requests… writes one/],
      [['run', join(dir, 'empty.json')], /^health-data: .*empty\.json holds no saved request: nothing to run\.$/],
      [['run', file, '--only', 'Nothing by that name'], /^health-data: --only "Nothing by that name": .*saved\.json has no saved request of that name \(it has "Heart rate of a day", "Heart rate by date", "Latest body fat", "Token mint"\)\.$/],
      [['run', file, '--format', 'sarif'], /^health-data: --format for run is text, json or junit, not "sarif"\.$/],
      [['run', file, '--fail-on', 'everything'], /^health-data: --fail-on takes error, warning, zero, deprecated, unknown, unusual \(one or more, comma-separated\), not "everything"/],
      [['run', file, '--out', join(dir, 'no-folder', 'r.xml')], /^health-data: --out .*r\.xml: no such folder/],
      [['run', file, '--format', 'junit', '--out', file], /^health-data: --out .*saved\.json is the file of saved requests: write the report elsewhere\.$/],
    ] as const) {
      const r = await cli([...args], {});
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      const first = r.stderr.split('\n')[0];
      assert.match(first, says, args.join(' '));
      assert.ok(!/HEALTH_DATA|--base-url|credentials/.test(r.stderr), `${args.join(' ')} names the environment: ${r.stderr}`);
    }
    // With a good file and no environment, the address is what is missing.
    const r = await cli(['run', file], {});
    assert.equal(r.code, 2);
    assert.match(r.stderr, /No service address: pass --base-url or set HEALTH_DATA_BASE_URL/);
  });
});
