// The client token against the sandbox: minted as the spec says, cached, shared, re-minted ahead
// of expiry and once after a 401, never in a loop.
import * as assert from 'node:assert/strict';
import { Sandbox } from '../../../../src/sandbox/server';
import { LeakWatch, TODAY, mints, requestsTo, sandboxForSuite, sandboxWith, sleep } from '../../support/client';

describe('client: the client token', () => {
  const watch = new LeakWatch();
  let sandbox: Sandbox;

  sandboxForSuite(watch, (started) => (sandbox = started));

  it('is minted once and used for many calls', async () => {
    const before = mints(sandbox);
    const client = watch.client(sandbox);
    await client.list('activity');
    await client.getRecord('heartRate', TODAY);
    await client.getLatest('bodyFat');
    await client.list('bodyFat', { limit: 10 });
    assert.equal(mints(sandbox), before + 1);
    const token = client.currentToken!;
    assert.equal(token.expiresIn, 86400);
    assert.equal(token.expiresAt, token.mintedAt + 86400_000);
    assert.equal(token.expiresInAssumed, undefined);
    assert.equal(token.claims?.sub, sandbox.clientId);
    assert.equal(requestsTo(sandbox, '/v1/admin/token', 'POST').at(-1)!.status, 200);
  });

  it('concurrent callers share one mint', async () => {
    const before = mints(sandbox);
    const client = watch.client(sandbox);
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => client.getRecord('activity', TODAY)),
      client.getClientToken(),
      client.mintClientToken(),
    ]);
    assert.equal(results.length, 8);
    assert.equal(mints(sandbox), before + 1);
    await client.mintClientToken();
    assert.equal(mints(sandbox), before + 2, 'mintClientToken mints when none is in flight');
  });

  it('is re-minted refreshMarginSeconds ahead of expiry', async () => {
    const sb = await sandboxWith({ tokenLifetimeSeconds: 600 });
    try {
      let now = Date.parse('2026-03-15T12:00:00Z');
      const client = watch.client(sb, { refreshMarginSeconds: 300, now: () => now });
      await client.getRecord('activity', TODAY);
      const first = client.currentToken!;
      assert.equal(first.expiresAt - first.mintedAt, 600_000);
      now += 299_000;
      await client.getRecord('activity', TODAY);
      assert.equal(mints(sb), 1, '301 s before expiry the token is still used');
      now += 2_000;
      await client.getRecord('activity', TODAY);
      assert.equal(mints(sb), 2, '299 s before expiry it is re-minted');
      assert.notEqual(client.currentToken!.token, first.token);
    } finally {
      await sb.close();
    }
  });

  it('a token shorter-lived than the margin is used for half its life, not re-minted each call', async () => {
    const sb = await sandboxWith({ tokenLifetimeSeconds: 1 });
    try {
      const client = watch.client(sb, { refreshMarginSeconds: 300 });
      await client.getRecord('activity', TODAY);
      await client.getRecord('activity', TODAY);
      assert.equal(mints(sb), 1);
      await sleep(600);
      await client.getRecord('activity', TODAY);
      assert.equal(mints(sb), 2);
      assert.ok(requestsTo(sb, '/activities').every((r) => r.status === 200));
    } finally {
      await sb.close();
    }
  });

  it('after a revocation, one new mint and the call succeeds', async () => {
    const client = watch.client(sandbox);
    await client.getRecord('activity', TODAY);
    const before = mints(sandbox);
    sandbox.revokeTokens();
    const record = (await client.getRecord('activity', TODAY)) as { date: string };
    assert.equal(record.date, TODAY);
    assert.equal(mints(sandbox), before + 1);
    assert.deepEqual(requestsTo(sandbox, `/${TODAY}`).slice(-2).map((r) => r.status), [401, 200]);
  });

  it('after a revocation, parallel calls that all get 401 still cost one mint', async () => {
    const client = watch.client(sandbox);
    await client.getClientToken();
    sandbox.revokeTokens();
    const before = mints(sandbox);
    await Promise.all(Array.from({ length: 5 }, () => client.getRecord('heartRate', TODAY)));
    assert.equal(mints(sandbox), before + 1);
  });

  it('a token rejected for ever: exactly one re-mint, then an auth error, no loop', async () => {
    const client = watch.client(sandbox);
    await client.getClientToken();
    const before = mints(sandbox);
    const calls = requestsTo(sandbox, '/activities/summaries/').length;
    sandbox.addFault({ fault: 'expired-token' });
    const err = await watch.rejects(client.getRecord('activity', TODAY), 'auth', /401 Unauthorized: The access token has expired/);
    assert.equal(err.status, 401);
    assert.match(err.message, /freshly minted client token was rejected too/);
    assert.equal(mints(sandbox), before + 1);
    assert.equal(requestsTo(sandbox, '/activities/summaries/').length, calls + 2);
  });

  it('a reply without expires_in: 86400 assumed, and said so', async () => {
    sandbox.addFault({ fault: 'no-expires-in', times: 1 });
    const client = watch.client(sandbox);
    const token = await client.getClientToken();
    assert.equal(token.expiresInAssumed, true);
    assert.equal(token.expiresIn, 86400);
    assert.equal(token.expiresAt - token.mintedAt, 86400_000);
    await client.getRecord('activity', TODAY);
  });

  it('a token that is not a JWT is accepted, without claims', async () => {
    sandbox.addFault({ fault: 'non-jwt-token', times: 1 });
    const client = watch.client(sandbox);
    const token = await client.getClientToken();
    assert.equal(token.claims, undefined);
    assert.doesNotMatch(token.token, /^eyJ/);
    watch.credentials.add(token.token);
    const record = (await client.getRecord('activity', TODAY)) as { date: string };
    assert.equal(record.date, TODAY);
    // The opaque token is hidden by value, as no pattern could recognise it.
    sandbox.revokeTokens();
    sandbox.addFault({ fault: 'non-jwt-token' });
    sandbox.addFault({ fault: 'expired-token' });
    await watch.rejects(client.getRecord('activity', TODAY), 'auth');
  });

  it('the mint is never retried', async () => {
    sandbox.addFault({ fault: '503', path: '/v1/admin/token', times: 5 });
    const before = mints(sandbox);
    const err = await watch.rejects(watch.client(sandbox).getClientToken(), 'http', /^POST \/v1\/admin\/token: 503 Service Unavailable/);
    assert.equal(err.status, 503);
    assert.equal(mints(sandbox), before + 1);
  });

  it('a caller cancelling its wait does not cancel the mint shared with others', async () => {
    sandbox.addFault({ fault: 'latency', path: '/v1/admin/token', latencyMs: 200, times: 1 });
    const client = watch.client(sandbox);
    const impatient = new AbortController();
    const first = client.getClientToken({ signal: impatient.signal });
    const second = client.getClientToken();
    setTimeout(() => impatient.abort(), 50);
    await watch.rejects(first, 'cancelled');
    const token = await second;
    assert.ok(token.token);
    assert.equal(client.currentToken, token);
  });
});
