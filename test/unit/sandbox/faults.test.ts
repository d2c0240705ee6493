// The sandbox's faults: how they are written (parseFaultSpec), that each one is observable over
// real HTTP, and how rules match by path and run out after `times`.
import * as assert from 'node:assert/strict';
import { FAULT_NAMES, FaultRule, formatFaultRule, parseFaultSpec } from '../../../src/sandbox/server';
import { call, get, ids, mint, mintRequest, parseLinks, useSandbox } from '../support/sandbox';

describe('sandbox: parseFaultSpec', () => {
  it('reads a name and name=value parameters after ":" or ";"', () => {
    assert.deepEqual(parseFaultSpec('503'), { fault: '503' });
    assert.deepEqual(parseFaultSpec('429:retry-after=2'), { fault: '429', retryAfter: 2 });
    assert.deepEqual(parseFaultSpec('latency:ms=3000'), { fault: 'latency', latencyMs: 3000 });
    assert.deepEqual(parseFaultSpec('503:times=2:path=/activities'), { fault: '503', times: 2, path: '/activities' });
    assert.deepEqual(parseFaultSpec(' slow-body;ms=10;times=1 '), { fault: 'slow-body', latencyMs: 10, times: 1 });
    assert.deepEqual(parseFaultSpec('repeat-page:path=/summaries?offset=50'), { fault: 'repeat-page', path: '/summaries?offset=50' });
    for (const name of FAULT_NAMES) assert.deepEqual(parseFaultSpec(name), { fault: name });
  });

  it('writes a rule back in the form it reads', () => {
    const rules: FaultRule[] = [{ fault: '503', times: 2, path: '/activities' }, { fault: '429', retryAfter: 1 }, { fault: 'latency', latencyMs: 5 }];
    for (const rule of rules) assert.deepEqual(parseFaultSpec(formatFaultRule(rule)), rule);
  });

  it('throws a clear Error for unknown names and parameters, and bad values', () => {
    const bad: Array<[string, RegExp]> = [
      ['504', /unknown fault "504"; known: latency, 429/],
      ['', /unknown fault ""/],
      ['503:foo=1', /unknown fault parameter "foo"/],
      ['503:times', /must be written name=value/],
      ['503:times=0', /times must be a whole number from 1/],
      ['503:times=two', /times must be a whole number/],
      ['latency:ms=-5', /ms must be a whole number/],
      ['503:ms=5', /ms applies to latency and slow-body, not to 503/],
      ['500:retry-after=1', /retry-after applies to 429 and 503/],
      ['429:path=', /path must be a non-empty string/],
    ];
    for (const [spec, message] of bad) assert.throws(() => parseFaultSpec(spec), message, spec);
  });
});

describe('sandbox: each fault is observable', () => {
  const ctx = useSandbox({ days: 60, humans: 1 });
  const list = '/v1/human/activities/summaries';
  let token = '';
  before(async () => {
    token = await mint(ctx.sandbox);
  });
  const faulted = (fault: string, path = list): ReturnType<typeof get> => get(ctx.sandbox, path, token, { 'X-Sandbox-Fault': fault });

  it('latency delays the reply', async () => {
    const started = Date.now();
    const reply = await faulted('latency;ms=300');
    assert.equal(reply.status, 200);
    assert.ok(Date.now() - started >= 290, `${Date.now() - started} ms`);
  });

  it('429 with and without Retry-After', async () => {
    const withHeader = await faulted('429;retry-after=2');
    assert.equal(withHeader.status, 429);
    assert.equal(withHeader.headers.get('retry-after'), '2');
    assert.equal((withHeader.json as { statusCode: number }).statusCode, 429);
    assert.equal((await faulted('429')).headers.get('retry-after'), null);
  });

  it('500, 502 and 503 answer with the JSON error body', async () => {
    for (const status of [500, 502, 503]) {
      const reply = await faulted(String(status));
      assert.equal(reply.status, status);
      assert.match(reply.headers.get('content-type')!, /application\/json/);
      const body = reply.json as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), ['statusCode', 'error', 'message', 'requestId']);
      assert.equal(body.statusCode, status);
      assert.equal(body.requestId, reply.headers.get('x-request-id'));
    }
  });

  it('html answers 502 with a proxy\'s HTML page', async () => {
    const reply = await faulted('html');
    assert.equal(reply.status, 502);
    assert.match(reply.headers.get('content-type')!, /^text\/html/);
    assert.match(reply.text, /<html>[\s\S]*502 Bad Gateway/);
    assert.equal(reply.json, undefined);
  });

  it('malformed-json answers 200 with a body that does not parse', async () => {
    for (const path of [list, `${list}/2026-11-01`]) {
      const reply = await faulted('malformed-json', path);
      assert.equal(reply.status, 200);
      assert.ok(reply.text.length > 0);
      assert.throws(() => JSON.parse(reply.text));
    }
  });

  it('truncated promises more than it sends and hangs up', async () => {
    const res = await fetch(`${ctx.sandbox.baseUrl}${list}`, { headers: { Authorization: `Bearer ${token}`, 'X-Sandbox-Fault': 'truncated' } });
    assert.equal(res.status, 200);
    assert.ok(Number(res.headers.get('content-length')) > 100);
    await assert.rejects(res.text());
  });

  it('slow-body sends the headers, then the body in trickles', async () => {
    const started = Date.now();
    const res = await fetch(`${ctx.sandbox.baseUrl}${list}`, { headers: { Authorization: `Bearer ${token}`, 'X-Sandbox-Fault': 'slow-body;ms=400' } });
    const headersAfter = Date.now() - started;
    const records = (await res.json()) as unknown[];
    const bodyAfter = Date.now() - started;
    // The body took at least the trickle's time, and most of it came after the headers.
    assert.ok(bodyAfter >= 300, `body after ${bodyAfter} ms`);
    assert.ok(bodyAfter - headersAfter >= 200, `headers after ${headersAfter} ms, body after ${bodyAfter} ms`);
    assert.equal(records.length, 50);
  });

  it('reset drops the connection without a reply', async () => {
    await assert.rejects(faulted('reset'));
    assert.equal(ctx.sandbox.requests.at(-1)!.status, 0);
  });

  it('expired-token and revoked-token answer 401 for a good token', async () => {
    for (const [fault, word] of [['expired-token', /expired/], ['revoked-token', /revoked/]] as const) {
      const reply = await faulted(fault);
      assert.equal(reply.status, 401);
      assert.match(String((reply.json as { message: string }).message), word);
    }
    assert.equal((await get(ctx.sandbox, list, token)).status, 200, 'the token itself is still good');
  });

  it('status-in-body answers 200 with {"status": 401}', async () => {
    const reply = await faulted('status-in-body');
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json, { status: 401, message: 'Unauthorized' });
  });

  it('no-expires-in and non-jwt-token change the token reply; the token still works', async () => {
    const noExpiry = await mintRequest(ctx.sandbox, undefined, { 'X-Sandbox-Fault': 'no-expires-in' });
    assert.equal(noExpiry.status, 200);
    assert.deepEqual(Object.keys(noExpiry.json as object), ['client_token']);
    const opaque = await mintRequest(ctx.sandbox, undefined, { 'X-Sandbox-Fault': 'non-jwt-token' });
    const { client_token, expires_in } = opaque.json as { client_token: string; expires_in: number };
    assert.equal(client_token.split('.').length, 1);
    assert.equal(expires_in, 86400);
    assert.equal((await get(ctx.sandbox, list, client_token)).status, 200);
  });

  it('repeat-page repeats records of the previous page (and within the first page)', async () => {
    const all = ids(ctx.sandbox.dataset.activity);
    const second = ids((await faulted('repeat-page', `${list}?limit=20&offset=20`)).json);
    assert.deepEqual(second, [...all.slice(15, 20), ...all.slice(20, 40)]);
    const first = ids((await faulted('repeat-page', `${list}?limit=20`)).json);
    assert.deepEqual(first, [...all.slice(0, 20), ...all.slice(0, 5)]);
  });

  it('link-loop points rel="next" back at the first page', async () => {
    const reply = await faulted('link-loop', `${list}?limit=20&offset=40&source=fitbit`);
    const next = new URL(parseLinks(reply.headers.get('link')).next);
    assert.equal(next.searchParams.get('offset'), '0');
    assert.equal(next.searchParams.get('source'), 'fitbit');
  });

  it('oldest-first pages the same list oldest first, with the same paging headers', async () => {
    const all = ids(ctx.sandbox.dataset.activity);
    const first = await faulted('oldest-first', `${list}?limit=20`);
    assert.deepEqual(ids(first.json), [...all].reverse().slice(0, 20));
    assert.equal(first.headers.get('x-total-count'), String(all.length));
    const last = new URL(parseLinks(first.headers.get('link')).last);
    const tail = await faulted('oldest-first', `${list}${last.search}`);
    assert.deepEqual(ids(tail.json), [...all].reverse().slice(Number(last.searchParams.get('offset'))));
    assert.equal(ids(tail.json).at(-1), all[0], 'the newest record ends the last page');
  });

  it('answers 400 for an X-Sandbox-Fault it cannot read', async () => {
    const reply = await faulted('teapot');
    assert.equal(reply.status, 400);
    assert.match(String((reply.json as { message: string }).message), /X-Sandbox-Fault: unknown fault "teapot"/);
  });

  it('applies the header to its own request only, and can combine latency with another fault', async () => {
    const started = Date.now();
    const reply = await faulted('latency;ms=150, 503');
    assert.equal(reply.status, 503);
    assert.ok(Date.now() - started >= 140);
    assert.equal((await get(ctx.sandbox, list, token)).status, 200);
  });
});

describe('sandbox: fault rules match by path and run out', () => {
  const ctx = useSandbox({ days: 10, humans: 1 });
  let token = '';
  beforeEach(async () => {
    ctx.sandbox.clearFaults();
    token = await mint(ctx.sandbox);
  });

  it('runs a rule `times` times, then it is used up', async () => {
    ctx.sandbox.addFault({ fault: '503', times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(ctx.sandbox, '/v1/human/heart_rate/summaries', token)).status);
    assert.deepEqual(statuses, [503, 503, 200]);
    assert.deepEqual(ctx.sandbox.faults, []);
  });

  it('applies a rule only where the path and query contain its path', async () => {
    ctx.sandbox.addFault(parseFaultSpec('503:path=/activities'));
    ctx.sandbox.addFault(parseFaultSpec('429:times=1:path=offset=10'));
    assert.equal((await get(ctx.sandbox, '/v1/human/heart_rate/summaries', token)).status, 200);
    assert.equal((await get(ctx.sandbox, '/v1/human/activities/summaries', token)).status, 503);
    assert.equal((await get(ctx.sandbox, '/v1/human/body_fat/readings?limit=10&offset=10', token)).status, 429);
    assert.equal((await get(ctx.sandbox, '/v1/human/body_fat/readings?limit=10&offset=10', token)).status, 200);
  });

  it('keeps a bare rule off the token endpoint unless its path names it', async () => {
    ctx.sandbox.addFault({ fault: '503', times: 1 });
    assert.equal((await mintRequest(ctx.sandbox)).status, 200);
    assert.equal((await get(ctx.sandbox, '/v1/human/heart_rate/summaries', token)).status, 503);
    ctx.sandbox.addFault({ fault: '500', times: 1, path: '/v1/admin/token' });
    assert.equal((await mintRequest(ctx.sandbox)).status, 500);
    assert.equal((await mintRequest(ctx.sandbox)).status, 200);
  });

  it('spends a rule only on requests it can apply to', async () => {
    ctx.sandbox.addFault({ fault: 'repeat-page', times: 1 });
    ctx.sandbox.addFault({ fault: 'non-jwt-token', times: 1 });
    const one = ctx.sandbox.dataset.activity[0];
    assert.deepEqual((await get(ctx.sandbox, `/v1/human/activities/summaries/${one.id}`, token)).json, one, 'not a list');
    const page = (await get(ctx.sandbox, '/v1/human/activities/summaries?limit=4', token)).json as unknown[];
    assert.equal(page.length, 5, 'the list got the repeat');
    const minted = (await mintRequest(ctx.sandbox)).json as { client_token: string };
    assert.ok(!minted.client_token.includes('.'), 'the token endpoint got its own fault');
    assert.deepEqual(ctx.sandbox.faults, []);
  });

  it('takes rules given at start', async () => {
    const { startSandbox } = await import('../../../src/sandbox/server');
    const sandbox = await startSandbox({ days: 2, faults: [parseFaultSpec('502:times=1')] });
    try {
      const reply = await call(`${sandbox.baseUrl}/v1/human/activities/summaries`, { headers: { Authorization: `Bearer ${await mint(sandbox)}` } });
      assert.equal(reply.status, 502);
    } finally {
      await sandbox.close();
    }
  });
});
