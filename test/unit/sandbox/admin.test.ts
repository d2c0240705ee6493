// The sandbox's own endpoints (/__sandbox/), its log, describeSandbox(), option checks and close().
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { describeSandbox, startSandbox } from '../../../src/sandbox/server';
import { TODAY, call, get, mint, useSandbox } from '../support/sandbox';
import { repoRoot } from '../support/repo';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('sandbox: admin endpoints, log, describe, close', () => {
  const ctx = useSandbox({ days: 5 });

  it('adds, lists and clears faults; revokes tokens; shows and clears the request log', async () => {
    const { sandbox } = ctx;
    const admin = (method: string, path: string, body?: unknown): Promise<Awaited<ReturnType<typeof call>>> =>
      call(`${sandbox.url}/__sandbox${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    assert.equal((await admin('DELETE', '/requests')).status, 200);
    const added = await admin('POST', '/faults', { fault: '503', times: 1, path: '/heart_rate' });
    assert.equal(added.status, 201);
    assert.deepEqual(added.json, { fault: '503', times: 1, path: '/heart_rate' });
    assert.equal((await admin('POST', '/faults', '429:retry-after=1:path=/nowhere')).status, 201);
    assert.deepEqual((await admin('GET', '/faults')).json, [{ fault: '503', times: 1, path: '/heart_rate' }, { fault: '429', retryAfter: 1, path: '/nowhere' }]);
    const bad = await admin('POST', '/faults', { fault: '504' });
    assert.equal(bad.status, 400);
    assert.match(String((bad.json as { message: string }).message), /unknown fault "504"/);

    const token = await mint(sandbox);
    assert.equal((await get(sandbox, '/v1/human/heart_rate/summaries', token)).status, 503);
    assert.equal((await get(sandbox, '/v1/human/heart_rate/summaries', token)).status, 200, 'used up');
    assert.deepEqual((await admin('DELETE', '/faults')).json, { cleared: 1 });
    assert.deepEqual(sandbox.faults, []);

    assert.equal((await admin('POST', '/revoke')).status, 200);
    assert.equal((await get(sandbox, '/v1/human/heart_rate/summaries', token)).status, 401);
    await get(sandbox, '/v1/human/heart_rate/summaries');

    const log = (await admin('GET', '/requests')).json as Array<{ method: string; path: string; status: number; authorized: boolean; fault?: string }>;
    assert.deepEqual(log.map((e) => [e.method, e.path, e.status, e.authorized, e.fault]), [
      ['POST', '/v1/admin/token', 200, true, undefined],
      ['GET', '/v1/human/heart_rate/summaries', 503, true, '503'],
      ['GET', '/v1/human/heart_rate/summaries', 200, true, undefined],
      ['GET', '/v1/human/heart_rate/summaries', 401, false, undefined],
      ['GET', '/v1/human/heart_rate/summaries', 401, false, undefined],
    ]);
    assert.equal((await admin('PUT', '/faults')).status, 405);
    assert.equal((await admin('GET', '/nothing')).status, 404);
  });

  it('logs through options.log only, never the secret or a token', async () => {
    const lines: string[] = [];
    const sandbox = await startSandbox({ today: TODAY, days: 2, clientSecret: 'very-secret-value', log: (line) => lines.push(line) });
    try {
      const token = await mint(sandbox);
      await get(sandbox, `/v1/human/activities/summaries?access_token=${token}`);
      await get(sandbox, '/v1/human/activities/summaries', token);
    } finally {
      await sandbox.close();
    }
    assert.ok(lines.some((l) => l.includes('/v1/human/activities/summaries') && l.includes('200')));
    assert.ok(lines.every((l) => !l.includes('very-secret-value') && !l.includes('eyJ')), lines.join('\n'));
  });

  it('refuses options out of range before listening', async () => {
    await assert.rejects(startSandbox({ days: 0 }), /days must be a whole number from 1 to 3650/);
    await assert.rejects(startSandbox({ humans: 11 }), /humans/);
    await assert.rejects(startSandbox({ today: '2026-02-30' }), /today must be a real date/);
    await assert.rejects(startSandbox({ port: 70000 }), /port/);
    await assert.rejects(startSandbox({ maxLimit: 0 }), /maxLimit/);
    await assert.rejects(startSandbox({ paging: 'cursor' as 'link' }), /paging/);
    await assert.rejects(startSandbox({ tokenHeader: { name: 'Bad Header', scheme: '' } }), /tokenHeader.name/);
    await assert.rejects(startSandbox({ humans: 2, userAccessTokens: { t: 2 } }), /human index/);
    await assert.rejects(startSandbox({ faults: [{ fault: 'nope' as '503' }] }), /unknown fault "nope"/);
  });

  it('describes itself: address, auth_url, base_url, credentials, an example', () => {
    const text = describeSandbox(ctx.sandbox).join('\n');
    const { url, clientId, clientSecret } = ctx.sandbox;
    assert.match(text, new RegExp(`auth_url\\s+${url}`));
    assert.match(text, new RegExp(`base_url\\s+${url}`));
    assert.ok(text.includes(clientId) && text.includes(clientSecret));
    assert.ok(text.includes(`curl -s -X POST ${url}/v1/admin/token`));
    assert.ok(text.includes(`${url}/v1/human/activities/summaries?limit=5`));
  });

  it('close() ends keep-alive connections and requests waiting on a latency fault', async () => {
    const sandbox = await startSandbox({ today: TODAY, days: 2, faults: [{ fault: 'latency', latencyMs: 60_000, path: '/slow' }] });
    const agent = new Agent({ keepAlive: true });
    const status = await new Promise<number>((resolve, reject) => {
      request(`${sandbox.url}/__sandbox/faults`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      }).on('error', reject).end();
    });
    assert.equal(status, 200);
    const socketClosed = new Promise<void>((resolve) => {
      const sockets = Object.values(agent.freeSockets).flat();
      assert.equal(sockets.length, 1, 'one idle keep-alive socket');
      sockets[0]!.once('close', () => resolve());
    });
    const pending = call(`${sandbox.url}/v1/human/activities/summaries?x=/slow`).then(() => 'answered', () => 'cut off');
    await sleep(50);
    // The slow request's latency is a minute: close() must not wait for it.
    await sandbox.close();
    await socketClosed;
    assert.equal(await pending, 'cut off');
    agent.destroy();
  });

  it('lets the process exit once closed, even with a latency fault pending', async () => {
    const server = join(repoRoot, 'out', 'src', 'sandbox', 'server.js');
    const script = `
      const { startSandbox } = require(${JSON.stringify(server)});
      startSandbox({ days: 2, faults: [{ fault: 'latency', latencyMs: 60000 }] }).then(async (s) => {
        fetch(s.url + '/v1/human/activities/summaries').catch(() => {});
        await new Promise((r) => setTimeout(r, 100));
        await s.close();
      });`;
    // A pending 60 s timer that kept the process alive would make this outlast the test's timeout.
    const code = await new Promise<number | null>((resolve) => spawn(process.execPath, ['-e', script], { stdio: 'ignore' }).on('exit', resolve));
    assert.equal(code, 0);
  });
});
