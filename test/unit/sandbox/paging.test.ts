// The sandbox's list replies: Link and X-Total-Count paging, offset mode, the limit cap and the
// wrapper modes, over real HTTP on loopback.
import * as assert from 'node:assert/strict';
import type { RecordBase } from '../../../src/core/types';
import { startSandbox } from '../../../src/sandbox/server';
import { TODAY, call, get, ids, mint, parseLinks, useSandbox } from '../support/sandbox';

describe('sandbox: paging', () => {
  const ctx = useSandbox({ days: 90, humans: 1 });

  it('follows Link rel="next" over several pages, keeping the other query parameters', async () => {
    const { sandbox } = ctx;
    const token = await mint(sandbox);
    let url: string | undefined = `${sandbox.baseUrl}/v1/human/activities/summaries?limit=40&source=fitbit&access_token=${token}`;
    const seen: string[] = [];
    let pages = 0;
    while (url) {
      const reply = await call(url);
      assert.equal(reply.status, 200);
      assert.equal(reply.headers.get('x-total-count'), '90');
      const links = parseLinks(reply.headers.get('link'));
      assert.equal(new URL(links.last).searchParams.get('offset'), '80');
      seen.push(...ids(reply.json));
      url = links.next;
      if (url) {
        const next = new URL(url);
        assert.equal(next.origin, sandbox.baseUrl, 'absolute URLs');
        assert.equal(next.searchParams.get('source'), 'fitbit');
        assert.equal(next.searchParams.get('limit'), '40');
      }
      pages++;
    }
    assert.equal(pages, 3);
    assert.deepEqual(seen, ids(sandbox.dataset.activity));
  });

  it('defaults to 50 a page and caps limit at maxLimit', async () => {
    const token = await mint(ctx.sandbox);
    const reply = await get(ctx.sandbox, '/v1/human/heart_rate/summaries', token);
    assert.equal((reply.json as unknown[]).length, 50);
    const capped = await startSandbox({ today: TODAY, days: 30, humans: 1, maxLimit: 10 });
    try {
      const r = await get(capped, '/v1/human/activities/summaries?limit=500', await mint(capped));
      assert.equal((r.json as unknown[]).length, 10);
      assert.equal(new URL(parseLinks(r.headers.get('link')).next).searchParams.get('limit'), '10');
    } finally {
      await capped.close();
    }
  });

  it('sends neither Link nor X-Total-Count in offset mode; offset still pages', async () => {
    const sandbox = await startSandbox({ today: TODAY, days: 30, humans: 1, paging: 'offset' });
    try {
      const token = await mint(sandbox);
      const page = await get(sandbox, '/v1/human/activities/summaries?limit=20&offset=20', token);
      assert.equal(page.headers.get('link'), null);
      assert.equal(page.headers.get('x-total-count'), null);
      assert.deepEqual(ids(page.json), ids(sandbox.dataset.activity.slice(20, 30)));
      const beyond = await get(sandbox, '/v1/human/activities/summaries?limit=20&offset=40', token);
      assert.deepEqual(beyond.json, []);
    } finally {
      await sandbox.close();
    }
  });

  for (const wrapper of ['data', 'items', 'results'] as const) {
    it(`wraps lists in {"${wrapper}": [...]} when asked`, async () => {
      const sandbox = await startSandbox({ today: TODAY, days: 3, humans: 1, wrapper });
      try {
        const reply = await get(sandbox, '/v1/human/body_fat/readings', await mint(sandbox));
        assert.deepEqual(Object.keys(reply.json as object), [wrapper]);
        assert.deepEqual((reply.json as Record<string, unknown>)[wrapper], sandbox.dataset.bodyFat);
        const one = await get(sandbox, '/v1/human/body_fat', await mint(sandbox));
        assert.equal((one.json as RecordBase).id, sandbox.dataset.bodyFat[0].id, 'single records are never wrapped');
      } finally {
        await sandbox.close();
      }
    });
  }
});
