// The client against the sandbox: every endpoint, how ids and dates reach the path, bad input
// refused before any request, and the ways a token can be presented.
import * as assert from 'node:assert/strict';
import { Sandbox } from '../../../../src/sandbox/server';
import { LeakWatch, SECRET, TODAY, ids, mints, requestsTo, sandboxForSuite, sandboxWith } from '../../support/client';

describe('client: endpoints', () => {
  const watch = new LeakWatch();
  let sandbox: Sandbox;

  sandboxForSuite(watch, (started) => (sandbox = started));

  for (const kind of ['heartRate', 'activity'] as const) {
    it(`${kind}: list, by id and by date`, async () => {
      const client = watch.client(sandbox);
      const list = await client.list(kind);
      const expected = sandbox.dataset[kind];
      assert.equal(list.records.length, expected.length);
      assert.deepEqual(new Set(ids(list.records)), new Set(expected.map((r) => r.id)));
      assert.equal(list.complete, true);
      assert.equal(list.wrapper, 'array');
      const dates = list.records.map((r) => (r as { date: string }).date);
      assert.deepEqual(dates, [...dates].sort().reverse(), 'newest first, as the service orders them');

      const record = expected[3];
      assert.deepEqual(await client.getRecord(kind, record.id), record);
      const byDate = (await client.getRecord(kind, record.date)) as { date: string; id: string };
      assert.equal(byDate.date, record.date);
      assert.equal(requestsTo(sandbox, `/${record.date}`).at(-1)?.status, 200);
    });
  }

  it('bodyFat: latest, list and by id; a date-shaped id is an id there', async () => {
    const client = watch.client(sandbox);
    const latest = (await client.getLatest('bodyFat')) as { timestamp: string; id: string };
    const all = sandbox.dataset.bodyFat;
    const newest = all.reduce((a, b) => (Date.parse(b.timestamp) > Date.parse(a.timestamp) ? b : a));
    assert.equal(latest.id, newest.id);
    const list = await client.list('bodyFat');
    assert.equal(list.records.length, all.length);
    assert.deepEqual(await client.getRecord('bodyFat', all[5].id), all[5]);
    // Body fat has no by-date endpoint: 2026-03-01 is sent as an id and is simply not found.
    const err = await watch.rejects(client.getRecord('bodyFat', '2026-03-01'), 'http', /404 Not Found/);
    assert.equal(err.status, 404);
    assert.equal(requestsTo(sandbox, '/readings/2026-03-01').length, 1);
    await watch.rejects(client.getLatest('activity'), 'usage', /no "latest" endpoint/);
  });

  it('list filters go out as the service names them', async () => {
    const client = watch.client(sandbox);
    const list = await client.list('activity', { startDate: '2026-03-01', endDate: '2026-03-10', source: 'fitbit' });
    assert.equal(list.records.length, 10);
    for (const r of list.records as Array<{ date: string }>) assert.ok(r.date >= '2026-03-01' && r.date <= '2026-03-10');
    const q = requestsTo(sandbox, '/activities/summaries').at(-1)!.query;
    assert.equal(q.start_date, '2026-03-01');
    assert.equal(q.end_date, '2026-03-10');
    assert.equal(q.source, 'fitbit');
    await client.list('activity', { updatedSince: '2026-01-01T00:00:00Z', createdSince: '2026-01-01', humanId: sandbox.dataset.humans[0] });
    const q2 = requestsTo(sandbox, '/activities/summaries').at(-1)!.query;
    assert.equal(q2.updated_since, '2026-01-01T00:00:00Z');
    assert.equal(q2.created_since, '2026-01-01');
    assert.equal(q2.humanId, sandbox.dataset.humans[0]);
  });

  it('bad input is refused before any request', async () => {
    const client = watch.client(sandbox);
    await client.getClientToken();
    const before = sandbox.requests.length;
    await watch.rejects(client.getRecord('activity', '2026-02-30'), 'usage', /2026-02-30 is not a real calendar date/);
    await watch.rejects(client.getRecord('heartRate', '   '), 'usage', /empty/);
    await watch.rejects(client.getRecord('activity', ''), 'usage');
    await watch.rejects(client.list('activity', { startDate: '2026-03-01' }), 'usage', /go together/);
    await watch.rejects(client.list('activity', { endDate: '2026-03-01' }), 'usage', /go together/);
    await watch.rejects(client.list('activity', { startDate: '2026-02-29', endDate: '2026-03-01' }), 'usage', /2026-02-29/);
    await watch.rejects(client.list('activity', { startDate: '2026-03-02', endDate: '2026-03-01' }), 'usage', /after/);
    await watch.rejects(client.list('activity', { limit: 0 }), 'usage', /limit/);
    await watch.rejects(client.list('activity', { offset: -1 }), 'usage', /offset/);
    await watch.rejects(client.list('activity', { updatedSince: 'yesterday' }), 'usage', /updated_since/);
    assert.equal(sandbox.requests.length, before, 'no request went out');
  });

  it('ids with / ? # reach the server as one encoded segment', async () => {
    const client = watch.client(sandbox);
    const err = await watch.rejects(client.getRecord('activity', 'a/b?c#d'), 'http', /404/);
    assert.match(err.serviceMessage ?? '', /a\/b\?c#d/, 'the server decoded the whole id');
    assert.equal(sandbox.requests.at(-1)!.path, '/v1/human/activities/summaries/a%2Fb%3Fc%23d');
    assert.deepEqual(sandbox.requests.at(-1)!.query, {});
  });

  it('the ids . and .. do not climb the path', async () => {
    const client = watch.client(sandbox);
    await watch.rejects(client.getRecord('bodyFat', '..'), 'http', /404/);
    assert.equal(sandbox.requests.at(-1)!.path, '/v1/human/body_fat/readings/%2E%2E');
    await watch.rejects(client.getRecord('activity', '.'), 'http', /404/);
    assert.equal(sandbox.requests.at(-1)!.path, '/v1/human/activities/summaries/%2E');
  });

  it('a 200 whose body says 401 is an error: one re-mint, then an auth error', async () => {
    const client = watch.client(sandbox);
    await client.getClientToken();
    const minted = mints(sandbox);
    sandbox.addFault({ fault: 'status-in-body', path: '/activities/' });
    const err = await watch.rejects(client.getRecord('activity', TODAY), 'auth', /401 Unauthorized: Unauthorized \(in the body of a 200 reply\)/);
    assert.equal(err.status, 401);
    assert.equal(mints(sandbox), minted + 1);
  });

  it('a wrong secret is an auth error, a missing one makes no request', async () => {
    const wrong = 'wrong-secret-Kq3m9';
    watch.credentials.add(wrong);
    const before = sandbox.requests.length;
    const err = await watch.rejects(watch.client(sandbox, { clientSecret: wrong }).list('activity'), 'auth', /401 Unauthorized: Invalid client credentials/);
    assert.match(err.message, /check the client id and client secret/);
    assert.ok(err.requestId);
    assert.deepEqual(sandbox.requests.slice(before).map((r) => `${r.method} ${r.path} ${r.status}`), ['POST /v1/admin/token 401']);

    const now = sandbox.requests.length;
    await watch.rejects(watch.client(sandbox, { clientSecret: '' }).list('activity'), 'auth', /No client secret is set/);
    await watch.rejects(watch.client(sandbox, { clientSecret: async () => undefined }).getClientToken(), 'auth', /No client secret/);
    await watch.rejects(watch.client(sandbox, { clientSecret: async () => '  ' }).getRecord('activity', TODAY), 'auth', /No client secret/);
    assert.equal(sandbox.requests.length, now);
  });

  it('the secret getter is read when minting', async () => {
    const client = watch.client(sandbox, { clientSecret: async () => SECRET });
    const token = await client.getClientToken();
    assert.ok(token.claims?.exp);
  });
});

describe('client: presenting the token', () => {
  const watch = new LeakWatch();
  const userToken = 'user-access-token-7Hq2Lw';
  let sandbox: Sandbox;
  let custom: Sandbox;

  before(async () => {
    sandbox = await sandboxWith({ userAccessTokens: [userToken] });
    custom = await sandboxWith({ tokenHeader: { name: 'X-Api-Key', scheme: '' } });
  });
  after(async () => {
    await sandbox.close();
    await custom.close();
    watch.assertClean();
  });

  it('a user access token replaces the client token on data calls', async () => {
    for (const userAccessToken of [userToken, async () => userToken]) {
      const before = mints(sandbox);
      const client = watch.client(sandbox, { userAccessToken });
      const list = await client.list('activity');
      assert.equal(list.records.length, sandbox.dataset.activity.length);
      assert.equal(mints(sandbox), before, 'no client token was minted');
      assert.ok(requestsTo(sandbox, '/activities').at(-1)!.authorized);
    }
  });

  it('a 403 is an auth error, and no reason to mint', async () => {
    const before = mints(sandbox);
    const err = await watch.rejects(watch.client(sandbox, { userAccessToken: userToken }).list('activity', { humanId: 'someone-else' }), 'auth', /403 Forbidden: This access token may read its own human only/);
    assert.equal(err.status, 403);
    assert.equal(mints(sandbox), before);
  });

  it('an empty user access token falls back to the client token', async () => {
    const before = mints(sandbox);
    await watch.client(sandbox, { userAccessToken: async () => '' }).getRecord('activity', TODAY);
    assert.equal(mints(sandbox), before + 1);
  });

  it('a rejected user access token is an auth error that says so, without a mint', async () => {
    const bad = 'not-a-user-token-55xq';
    watch.credentials.add(bad);
    const before = mints(sandbox);
    const err = await watch.rejects(watch.client(sandbox, { userAccessToken: bad }).getRecord('activity', TODAY), 'auth', /user access token was rejected/);
    assert.equal(err.status, 401);
    assert.equal(mints(sandbox), before);
    assert.equal(requestsTo(sandbox, `/${TODAY}`).at(-1)!.status, 401);
  });

  it('as a query parameter, redacted in the log', async () => {
    const entries: string[] = [];
    const client = watch.client(sandbox, { presentation: { mode: 'query', parameter: 'access_token' }, onRequest: (e) => entries.push(e.path) });
    const list = await client.list('heartRate', { limit: 10 });
    assert.equal(list.records.length, sandbox.dataset.heartRate.length);
    const seen = requestsTo(sandbox, '/heart_rate/summaries').at(-1)!;
    assert.equal(seen.authorized, true);
    assert.equal(seen.query.access_token, '[redacted]');
    assert.ok(entries.filter((p) => p.startsWith('/v1/human')).every((p) => p.includes('access_token=[redacted]')), entries.join('\n'));
  });

  it('in a custom header, with or without a scheme', async () => {
    const client = watch.client(custom, { presentation: { mode: 'header', headerName: 'X-Api-Key', scheme: '' } });
    assert.equal((await client.list('activity')).records.length, custom.dataset.activity.length);
    assert.ok(requestsTo(custom, '/activities').every((r) => r.authorized));
    // The default Authorization header is not what this deployment reads: 401, re-mint, 401.
    const err = await watch.rejects(watch.client(custom).getRecord('activity', TODAY), 'auth', /freshly minted client token was rejected too/);
    assert.equal(err.status, 401);
  });
});
