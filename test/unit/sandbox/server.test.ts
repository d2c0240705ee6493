// The sandbox over real HTTP on loopback: tokens, presenting them, the ten endpoints, filters
// and query validation. Paging, faults and the admin side have files of their own.
import * as assert from 'node:assert/strict';
import { localDateOf } from '../../../src/core/dates';
import { decodeJwtClaims } from '../../../src/core/service';
import { RESOURCES } from '../../../src/core/resources';
import type { RecordBase } from '../../../src/core/types';
import { checkClientTokenReply } from '../../../src/core/validation';
import { startSandbox } from '../../../src/sandbox/server';
import { TODAY, call, get, ids, mint, mintRequest, useSandbox } from '../support/sandbox';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('sandbox: tokens', () => {
  const ctx = useSandbox({ days: 10 });

  it('mints an HS256 JWT with expires_in 86400 and the error-free reply shape', async () => {
    const reply = await mintRequest(ctx.sandbox);
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get('content-type')!, /^application\/json; charset=utf-8$/);
    assert.match(reply.headers.get('x-request-id')!, /^[0-9a-f]{16}$/);
    const body = reply.json as { client_token: string; expires_in: number };
    assert.equal(body.expires_in, 86400);
    assert.deepEqual(checkClientTokenReply(body).filter((f) => f.kind === 'error'), []);
    const parts = body.client_token.split('.');
    assert.equal(parts.length, 3);
    assert.deepEqual(JSON.parse(Buffer.from(parts[0], 'base64url').toString()), { alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwtClaims(body.client_token)!;
    assert.equal(claims.sub, ctx.sandbox.clientId);
    assert.equal(claims.exp! - claims.iat!, 86400);
    assert.ok(Math.abs(claims.iat! - Date.now() / 1000) < 5);
  });

  it('answers 400 for a bad body, 401 for wrong credentials, 415 for another content type', async () => {
    const { sandbox } = ctx;
    const good = { type: 'client', client_id: sandbox.clientId, client_secret: sandbox.clientSecret };
    const cases: Array<[unknown, number, RegExp]> = [
      ['{not json', 400, /not valid JSON/],
      [[good], 400, /JSON object/],
      [{ ...good, type: 'user' }, 400, /type must be "client"/],
      [{ client_id: good.client_id, client_secret: good.client_secret }, 400, /type must be "client"/],
      [{ type: 'client', client_secret: good.client_secret }, 400, /client_id is required/],
      [{ type: 'client', client_id: good.client_id }, 400, /client_secret is required/],
      [{ ...good, client_secret: 42 }, 400, /client_secret is required/],
      [{ ...good, client_secret: 'wrong' }, 401, /Invalid client credentials/],
      [{ ...good, client_id: 'someone-else' }, 401, /Invalid client credentials/],
    ];
    for (const [body, status, message] of cases) {
      const reply = await mintRequest(sandbox, body);
      assert.equal(reply.status, status, JSON.stringify(body));
      const error = reply.json as Record<string, unknown>;
      assert.equal(error.statusCode, status);
      assert.equal(typeof error.error, 'string');
      assert.match(String(error.message), message);
      assert.equal(error.requestId, reply.headers.get('x-request-id'));
      assert.ok(!reply.text.includes(sandbox.clientSecret), 'the secret never comes back');
    }
    const plain = await mintRequest(sandbox, good, { 'Content-Type': 'text/plain' });
    assert.equal(plain.status, 415);
    const asGet = await call(`${sandbox.authUrl}/v1/admin/token`);
    assert.equal(asGet.status, 405);
    assert.equal(asGet.headers.get('allow'), 'POST');
  });

  it('rejects a token after its lifetime (401, expired)', async () => {
    const sandbox = await startSandbox({ today: TODAY, days: 2, tokenLifetimeSeconds: 1 });
    try {
      const token = await mint(sandbox);
      assert.equal((await get(sandbox, '/v1/human/activities/summaries', token)).status, 200);
      await sleep(1100);
      const late = await get(sandbox, '/v1/human/activities/summaries', token);
      assert.equal(late.status, 401);
      assert.match(String((late.json as { message: string }).message), /expired/);
      assert.match(late.headers.get('www-authenticate')!, /invalid_token/);
    } finally {
      await sandbox.close();
    }
  });

  it('rejects every token minted before a revocation, and accepts new ones', async () => {
    const { sandbox } = ctx;
    const before = await mint(sandbox);
    sandbox.revokeTokens();
    const reply = await get(sandbox, '/v1/human/activities/summaries', before);
    assert.equal(reply.status, 401);
    assert.match(String((reply.json as { message: string }).message), /revoked/);
    assert.equal((await get(sandbox, '/v1/human/activities/summaries', await mint(sandbox))).status, 200);
  });
});

describe('sandbox: presenting the token', () => {
  const ctx = useSandbox({ days: 5, userAccessTokens: ['user-token-of-human-1'] });
  const path = '/v1/human/activities/summaries';

  it('answers 401 JSON without a token, with a bad one, a forged one, or the wrong scheme', async () => {
    const { sandbox } = ctx;
    const token = await mint(sandbox);
    const [head, payload] = token.split('.');
    const forged = `${head}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    const replies = [
      await get(sandbox, path),
      await get(sandbox, path, 'garbage'),
      await get(sandbox, path, forged),
      await get(sandbox, path, undefined, { Authorization: `Basic ${token}` }),
      await get(sandbox, path, undefined, { Authorization: 'Bearer' }),
    ];
    for (const reply of replies) {
      assert.equal(reply.status, 401);
      assert.equal((reply.json as { statusCode: number }).statusCode, 401);
    }
    assert.match(String((replies[0].json as { message: string }).message), /No access token/);
  });

  it('accepts ?access_token= and records requests without the token', async () => {
    const { sandbox } = ctx;
    const token = await mint(sandbox);
    const reply = await get(sandbox, `${path}?access_token=${encodeURIComponent(token)}&limit=2`);
    assert.equal(reply.status, 200);
    assert.equal((reply.json as unknown[]).length, 2);
    const logged = sandbox.requests.at(-1)!;
    assert.equal(logged.query.access_token, '[redacted]');
    assert.equal(logged.authorized, true);
    assert.ok(!JSON.stringify(sandbox.requests).includes(token));
  });

  it('scopes a user access token to its human', async () => {
    const { sandbox } = ctx;
    const [first, second] = sandbox.dataset.humans;
    const reply = await get(sandbox, path, 'user-token-of-human-1');
    assert.equal(reply.status, 200);
    // The very list the client token gets for that human: not empty, and no one else's.
    const ids = (json: unknown) => (json as RecordBase[]).map((r) => r.id);
    const asked = await get(sandbox, `${path}?humanId=${first}`, await mint(sandbox));
    assert.equal(asked.status, 200);
    assert.ok(ids(asked.json).length > 0);
    assert.deepEqual(ids(reply.json), ids(asked.json));
    assert.ok((reply.json as RecordBase[]).every((r) => r.humanId === first));
    assert.equal((await get(sandbox, `${path}?humanId=${second}`, 'user-token-of-human-1')).status, 403);
    const other = sandbox.dataset.activity.find((r) => r.humanId === second)!;
    assert.equal((await get(sandbox, `${path}/${other.id}`, 'user-token-of-human-1')).status, 404);
  });

  it('reads the token from a custom header and scheme', async () => {
    const sandbox = await startSandbox({ today: TODAY, days: 2, tokenHeader: { name: 'X-Api-Key', scheme: '' } });
    try {
      const token = await mint(sandbox);
      assert.equal((await get(sandbox, path, undefined, { 'X-Api-Key': token })).status, 200);
      const bearer = await get(sandbox, path, token);
      assert.equal(bearer.status, 401, 'Authorization is not where this deployment looks');
      assert.match(String((bearer.json as { message: string }).message), /X-Api-Key: <token>/);
    } finally {
      await sandbox.close();
    }
  });
});

describe('sandbox: the endpoints', () => {
  const ctx = useSandbox({ days: 30, humans: 3 });
  let token = '';
  before(async () => {
    token = await mint(ctx.sandbox);
  });

  for (const def of RESOURCES) {
    it(`${def.listPath}: lists, and gets one by id${def.byDate ? ' and by date' : ''}${def.latestPath ? ' and the latest' : ''}`, async () => {
      const { sandbox } = ctx;
      const records = sandbox.dataset[def.kind] as RecordBase[];
      const list = await get(sandbox, `${def.listPath}?limit=500`, token);
      assert.equal(list.status, 200);
      assert.deepEqual(list.json, records, 'all humans, newest first');
      assert.equal(list.headers.get('x-total-count'), String(records.length));

      const some = records[7];
      const one = await get(sandbox, `${def.itemPath}/${encodeURIComponent(some.id)}`, token);
      assert.equal(one.status, 200);
      assert.deepEqual(one.json, some);
      const missing = await get(sandbox, `${def.itemPath}/no-such-id`, token);
      assert.equal(missing.status, 404);
      assert.match(String((missing.json as { message: string }).message), /no-such-id/);

      const [first, second] = sandbox.dataset.humans;
      if (def.byDate) {
        const date = '2026-11-03';
        const byDate = await get(sandbox, `${def.itemPath}/${date}`, token);
        assert.equal(byDate.status, 200);
        const expected = records.find((r) => r.humanId === first && localDateOf(r, def.kind) === date);
        assert.deepEqual(byDate.json, expected, 'a client token gets the first human');
        const ofSecond = records.find((r) => r.humanId === second && localDateOf(r, def.kind) === date);
        const asked = await get(sandbox, `${def.itemPath}/${date}?humanId=${second}`, token);
        assert.equal(asked.status, ofSecond ? 200 : 404);
        if (ofSecond) assert.deepEqual(asked.json, ofSecond);
        assert.equal((await get(sandbox, `${def.itemPath}/2020-01-01`, token)).status, 404);
        assert.equal((await get(sandbox, `${def.itemPath}/2026-02-30`, token)).status, 400);
        assert.equal((await get(sandbox, `${def.itemPath}/${date}?humanId=nobody`, token)).status, 404);
      } else {
        // Not a by-date resource: a date-shaped segment is just an id that does not exist.
        assert.equal((await get(sandbox, `${def.itemPath}/2026-11-03`, token)).status, 404);
      }
      if (def.latestPath) {
        const latest = await get(sandbox, def.latestPath, token);
        assert.equal(latest.status, 200);
        assert.deepEqual(latest.json, records.find((r) => r.humanId === first));
        const ofSecond = await get(sandbox, `${def.latestPath}?humanId=${second}`, token);
        assert.deepEqual(ofSecond.json, records.find((r) => r.humanId === second));
      }
    });
  }

  it('answers unknown paths 404 and other methods 405, in JSON', async () => {
    const { sandbox } = ctx;
    const unknown = await get(sandbox, '/v1/human/blood_pressure', token);
    assert.equal(unknown.status, 404);
    assert.equal((unknown.json as { statusCode: number }).statusCode, 404);
    const post = await call(`${sandbox.baseUrl}/v1/human/activities/summaries`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET');
    assert.match(post.headers.get('content-type')!, /application\/json/);
    assert.ok(post.headers.get('x-request-id'));
  });

  it('filters by date range (inclusive, on the local date), source, humanId and since', async () => {
    const { sandbox } = ctx;
    const q = (query: string): Promise<RecordBase[]> => get(sandbox, `${query}&limit=500`, token).then((r) => r.json as RecordBase[]);
    const range = await q('/v1/human/activities/summaries?start_date=2026-11-10&end_date=2026-11-12');
    assert.equal(range.length, 9);
    assert.deepEqual([...new Set(range.map((r) => r.date))], ['2026-11-12', '2026-11-11', '2026-11-10']);
    // A reading at 19:00 or later at -05:00 is the next day in UTC but belongs to its local date.
    const late = sandbox.dataset.bodyFat.find((r) => r.tzOffset && localDateOf(r, 'bodyFat') !== r.createdAt.slice(0, 10) && localDateOf(r, 'bodyFat')! < TODAY)!;
    const day = localDateOf(late, 'bodyFat')!;
    const readings = await q(`/v1/human/body_fat/readings?start_date=${day}&end_date=${day}`);
    assert.ok(ids(readings).includes(late.id));
    assert.ok(readings.every((r) => localDateOf(r, 'bodyFat') === day));

    const fitbit = await q('/v1/human/activities/summaries?source=fitbit');
    assert.equal(fitbit.length, 30);
    assert.ok(fitbit.every((r) => r.source === 'fitbit'));
    const second = sandbox.dataset.humans[1];
    const ofSecond = await q(`/v1/human/activities/summaries?humanId=${second}`);
    assert.ok(ofSecond.length === 30 && ofSecond.every((r) => r.humanId === second));
    assert.deepEqual(await q('/v1/human/activities/summaries?humanId=nobody'), []);
    const since = '2026-11-15T00:00:00Z';
    const updated = await q(`/v1/human/heart_rate/summaries?updated_since=${since}`);
    assert.deepEqual(ids(updated), ids(sandbox.dataset.heartRate.filter((r) => r.updatedAt >= '2026-11-15T00:00:00.000Z')));
    const created = await q('/v1/human/heart_rate/summaries?created_since=2026-11-15');
    assert.deepEqual(ids(created), ids(sandbox.dataset.heartRate.filter((r) => r.createdAt >= '2026-11-15T00:00:00.000Z')));
  });

  it('answers 400 for query values that are not what the conventions allow', async () => {
    const bad: Array<[string, RegExp]> = [
      ['limit=0', /limit/], ['limit=abc', /limit/], ['limit=1.5', /limit/], ['limit=-3', /limit/], ['limit=', /limit/],
      ['offset=-1', /offset/], ['offset=x', /offset/],
      ['start_date=2026-11-01', /end_date is missing/], ['end_date=2026-11-01', /start_date is missing/],
      ['start_date=2026-02-30&end_date=2026-03-02', /start_date must be a real date/],
      ['start_date=2026-11-01&end_date=11/20/2026', /end_date must be a real date/],
      ['start_date=2026-11-20&end_date=2026-11-01', /after end_date/],
      ['updated_since=yesterday', /updated_since/], ['created_since=2026-13-01', /created_since/],
    ];
    for (const [query, message] of bad) {
      const reply = await get(ctx.sandbox, `/v1/human/activities/summaries?${query}`, token);
      assert.equal(reply.status, 400, query);
      assert.match(String((reply.json as { message: string }).message), message, query);
    }
  });
});
