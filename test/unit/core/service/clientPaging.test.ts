// Whole lists from the sandbox: Link paging, offset paging, a server that caps `limit`, pages in
// parallel when the total is known, wrappers, repeated records and a looping next link.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { HealthDataClient, splitUrl, idsSeen, keepFirstOfEachId, textHash, parseLinkHeader } from '../../../../src/core/service';
import { Sandbox } from '../../../../src/sandbox/server';
import { LeakWatch, ids, requestsTo, sandboxWith, throughFront } from '../../support/client';

const LIST = '/v1/human/activities/summaries';

describe('client: paging', () => {
  const watch = new LeakWatch();
  const sandboxes: Sandbox[] = [];
  const start = async (options: Parameters<typeof sandboxWith>[0]) => {
    const sb = await sandboxWith({ days: 200, ...options });
    sandboxes.push(sb);
    return sb;
  };
  /** The list in one page straight from the service: what every way of paging must give back. */
  const reference = async (client: HealthDataClient) => ids((await client.list('activity', { limit: 500, all: false })).records);
  const listRequests = (sb: Sandbox) => requestsTo(sb, LIST).filter((r) => r.path === LIST);

  after(async () => {
    await Promise.all(sandboxes.map((s) => s.close()));
    watch.assertClean();
  });

  it('follows Link rel="next" over many pages', async () => {
    const sb = await start({ paging: 'link' });
    const client = watch.client(sb, { pageSize: 7, concurrency: 1 });
    const expected = await reference(client);
    assert.equal(expected.length, 200);
    const before = listRequests(sb).length;
    const seenPages: number[] = [];
    const result = await client.list('activity', {}, { onPage: (records, page) => seenPages.push(page, records.length) });
    assert.deepEqual(ids(result.records), expected);
    assert.equal(result.pages, 29);
    assert.equal(result.total, 200);
    assert.equal(result.complete, true);
    assert.equal(result.duplicatesDropped, 0);
    assert.equal(listRequests(sb).length - before, 29);
    assert.deepEqual(seenPages.slice(0, 4), [1, 7, 2, 7]);
    assert.deepEqual(seenPages.slice(-2), [29, 4]);
  });

  it('pages by offset when the service sends neither Link nor a total', async () => {
    const sb = await start({ paging: 'offset' });
    for (const [pageSize, requests] of [[7, 29], [8, 26]] as const) {
      const client = watch.client(sb, { pageSize });
      const expected = await reference(client);
      const before = listRequests(sb).length;
      const result = await client.list('activity');
      assert.deepEqual(ids(result.records), expected);
      assert.equal(result.total, undefined);
      assert.equal(result.complete, true);
      // 200 = 28 * 7 + 4 ends on a short page; 200 = 25 * 8 needs one empty page to know.
      assert.equal(listRequests(sb).length - before, requests);
    }
  });

  for (const paging of ['link', 'offset'] as const) {
    for (const concurrency of [1, 4]) {
      it(`a server that caps limit at 20 while 50 are asked (${paging}, concurrency ${concurrency}): nothing missing, nothing twice`, async () => {
        const sb = await start({ paging, maxLimit: 20 });
        const client = watch.client(sb, { pageSize: 50, concurrency });
        // One page cannot hold them all here: the expected list comes from the dataset itself.
        const expected = [...sb.dataset.activity].sort((a, b) => b.date.localeCompare(a.date)).map((r) => r.id);
        assert.equal(expected.length, 200);
        const result = await client.list('activity');
        assert.deepEqual(ids(result.records), expected);
        assert.equal(new Set(ids(result.records)).size, 200);
        assert.equal(result.duplicatesDropped, 0);
        assert.equal(result.complete, true);
      });
    }
  }

  it('with X-Total-Count, fetches the remaining pages side by side and gets what one-by-one gets', async () => {
    const sb = await start({ paging: 'link' });
    const oneByOne = await watch.client(sb, { pageSize: 10, concurrency: 1 }).list('activity');
    const before = listRequests(sb).length;
    const parallel = await watch.client(sb, { pageSize: 10, concurrency: 4 }).list('activity');
    assert.deepEqual(parallel.records, oneByOne.records);
    assert.equal(parallel.pages, 20);
    const offsets = listRequests(sb).slice(before).map((r) => Number(r.query.offset ?? 0)).sort((a, b) => a - b);
    assert.deepEqual(offsets, Array.from({ length: 20 }, (_, i) => i * 10));

    // With each page slowed down, pages overlap in flight, but never more than four at a time.
    sb.addFault({ fault: 'latency', path: LIST, latencyMs: 150 });
    const first = listRequests(sb).length;
    const slow = await watch.client(sb, { pageSize: 25, concurrency: 4 }).list('activity');
    sb.clearFaults();
    assert.deepEqual(slow.records, oneByOne.records);
    const spans = listRequests(sb).slice(first).map((r) => [r.startedAt, r.startedAt + r.durationMs] as const);
    const inFlight = (t: number): number => spans.filter(([from, to]) => from <= t && t < to).length;
    const most = Math.max(...spans.map(([from]) => inFlight(from)));
    assert.ok(most > 1, 'pages were fetched in parallel');
    assert.ok(most <= 4, `at most four pages in flight, saw ${most}`);
  });

  it('pages read side by side all reach onPage, each record once, before the list settles; an onPage that throws fails the list with its error', async () => {
    const sb = await start({ paging: 'link' });
    const client = watch.client(sb, { pageSize: 10, concurrency: 4 });
    const delivered: unknown[] = [];
    const pages: number[] = [];
    const result = await client.list('activity', {}, { onPage: (records, page) => (delivered.push(...records), pages.push(page)) });
    assert.equal(result.pages, 20);
    assert.deepEqual(pages, Array.from({ length: 20 }, (_, i) => i + 1), 'every page, numbered as it arrived');
    assert.deepEqual(ids(delivered).sort(), ids(result.records).sort(), 'every record of the list, once');

    let calls = 0;
    const failing = client.list('activity', {}, {
      onPage: (_records, page) => {
        calls++;
        if (page === 3) throw new Error('onPage broke on page 3');
      },
    });
    await assert.rejects(failing, /onPage broke on page 3/);
    assert.ok(calls >= 3);
  });

  it('cancelling a list in parallel stops every page at once', async () => {
    const sb = await start({ paging: 'link' });
    // Every later page would take a minute: only the abort can end the list in time.
    sb.addFault({ fault: 'latency', path: 'offset=', latencyMs: 60_000 });
    const ctrl = new AbortController();
    const sent: string[] = [];
    const pending = watch.client(sb, { pageSize: 10, concurrency: 4, onRequest: (e) => sent.push(e.path) }).list('activity', {}, { signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 150);
    await watch.rejects(pending, 'cancelled');
    // Each page asked for was hung up on by the client, not left to run its minute: the sandbox
    // logs a request when its connection closes, with no reply (status 0).
    const later = sent.filter((p) => p.includes('offset='));
    assert.ok(later.length >= 2, `${later.length} pages were under way at the cancel`);
    const hungUp = () => listRequests(sb).filter((r) => r.query.offset !== undefined);
    for (let waited = 0; hungUp().length < later.length && waited < 5_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    assert.equal(hungUp().length, later.length, 'every page under way ended at the sandbox');
    assert.ok(hungUp().every((r) => r.status === 0), 'no page was answered');
  });

  it('a list cancelled between its first page and the rest sends, logs and records no other page', async () => {
    const sb = await start({ paging: 'link' });
    const exchanges: string[] = [];
    const logged: string[] = [];
    const ctrl = new AbortController();
    const client = watch.client(sb, { pageSize: 10, concurrency: 4, onExchange: (e) => exchanges.push(e.url), onRequest: (e) => logged.push(e.path) });
    // The cancel comes as the first page is handed on, before the pages after it are asked for.
    const pending = client.list('activity', {}, { signal: ctrl.signal, onPage: () => ctrl.abort() });
    const err = await watch.rejects(pending, 'cancelled');
    assert.match(err.message, /^GET .*: cancelled$/);
    assert.equal(listRequests(sb).length, 1, 'only the first page reached the service');
    assert.equal(exchanges.filter((u) => u.includes(LIST)).length, 1, 'the history holds only the page that was sent');
    assert.equal(logged.filter((p) => p.startsWith(LIST)).length, 1, 'the log names only the page that was sent');
  });

  for (const wrapper of ['data', 'items', 'results'] as const) {
    it(`recognises the ${wrapper} wrapper over several pages`, async () => {
      const sb = await start({ wrapper, days: 40 });
      const result = await watch.client(sb, { pageSize: 15, concurrency: 1 }).list('activity');
      assert.equal(result.wrapper, wrapper);
      assert.equal(result.records.length, 40);
      assert.equal(result.pages, 3);
    });
  }

  it('drops records repeated across pages by id and counts them', async () => {
    for (const [paging, concurrency] of [['link', 1], ['link', 4], ['offset', 1]] as const) {
      const sb = await start({ paging });
      const client = watch.client(sb, { pageSize: 20, concurrency });
      const expected = await reference(client);
      sb.addFault({ fault: 'repeat-page' });
      const result = await client.list('activity');
      assert.deepEqual(ids(result.records), expected, `${paging} ${concurrency}`);
      assert.ok(result.duplicatesDropped >= 5, `${paging} ${concurrency}: ${result.duplicatesDropped}`);
      assert.equal(result.complete, true);
    }
  });

  it('a next link that loops is stopped, not followed forever', async () => {
    const sb = await start({ paging: 'link' });
    sb.addFault({ fault: 'link-loop' });
    const client = watch.client(sb, { pageSize: 20, concurrency: 1 });
    const expected = await reference(client);
    const before = listRequests(sb).length;
    const result = await client.list('activity');
    assert.equal(result.complete, false);
    assert.match(result.stopReason ?? '', /loop/);
    assert.ok(listRequests(sb).length - before <= 3);
    assert.deepEqual(ids(result.records), expected.slice(0, result.records.length));

    // In parallel by offset, the looping links are not needed at all.
    const parallel = await watch.client(sb, { pageSize: 20, concurrency: 4 }).list('activity');
    assert.equal(parallel.records.length, 200);
    assert.equal(parallel.complete, true);
  });

  it('all: false reads one page; maxPages stops a long walk', async () => {
    const sb = await start({ paging: 'link' });
    const one = await watch.client(sb).list('activity', { limit: 30, offset: 10, all: false });
    assert.equal(one.records.length, 30);
    assert.equal(one.pages, 1);
    assert.equal(one.complete, false);
    assert.equal(requestsTo(sb, LIST).at(-1)!.query.offset, '10');
    const capped = await watch.client(sb, { pageSize: 10, maxPages: 3, concurrency: 1 }).list('activity');
    assert.equal(capped.pages, 3);
    assert.equal(capped.records.length, 30);
    assert.equal(capped.complete, false);
    assert.match(capped.stopReason ?? '', /3 pages/);
    const cappedParallel = await watch.client(sb, { pageSize: 10, maxPages: 3 }).list('activity');
    assert.equal(cappedParallel.records.length, 30);
    assert.equal(cappedParallel.complete, false);
  });

  it('refuses a next link to another origin: a front that forwards to the sandbox under another host name', async () => {
    // The sandbox builds its Link URLs from the Host it was asked for (as a service behind a
    // proxy does), so a front that hands it every request with Host elsewhere.test makes it link
    // the next page there, while the client talks to the front on loopback.
    const sb = await start({ paging: 'link' });
    await throughFront(sb, { host: 'elsewhere.test' }, async (origin) => {
      const result = await watch.client(sb, { authUrl: origin, baseUrl: origin, pageSize: 5, concurrency: 1 }).list('activity');
      assert.equal(result.complete, false);
      assert.match(result.stopReason ?? '', /another origin \(http:\/\/elsewhere\.test\)/);
      assert.equal(result.records.length, 5, 'the first page is kept');
      assert.equal(listRequests(sb).length, 1, 'the next page was not asked for, here or elsewhere');
    });
  });

  it('a service that counts more records than it sends: the list is incomplete and says so, one page at a time or in parallel', async () => {
    const sb = await start({ paging: 'link' });
    const total = sb.dataset.activity.length;
    const overcount = (h: http.IncomingHttpHeaders) => (h['x-total-count'] === undefined ? h : { ...h, 'x-total-count': String(Number(h['x-total-count']) + 7) });
    await throughFront(sb, { headers: overcount }, async (origin) => {
      const one = await watch.client(sb, { authUrl: origin, baseUrl: origin, pageSize: 20, concurrency: 1 }).list('activity');
      assert.equal(one.total, total + 7);
      assert.equal(one.records.length, total);
      assert.equal(one.complete, false);
      assert.equal(one.stopReason, `the service counted ${total + 7} records, but ${total} distinct records arrived`);
      const parallel = await watch.client(sb, { authUrl: origin, baseUrl: origin, pageSize: 20, concurrency: 4 }).list('activity');
      assert.equal(parallel.records.length, total);
      assert.equal(parallel.complete, false);
      assert.match(parallel.stopReason ?? '', new RegExp(`^the page at offset ${total} came back empty before the ${total + 7} records the service counted`));
    });
  });

  it('a count and no links, one page at a time: no request past the last record', async () => {
    const sb = await start({ paging: 'link' });
    const total = sb.dataset.activity.length;
    const noLinks = (h: http.IncomingHttpHeaders) => {
      const { link: _link, ...rest } = h;
      return rest;
    };
    await throughFront(sb, { headers: noLinks }, async (origin) => {
      const before = listRequests(sb).length;
      const result = await watch.client(sb, { authUrl: origin, baseUrl: origin, pageSize: 20, concurrency: 1 }).list('activity');
      assert.equal(result.complete, true, result.stopReason);
      assert.equal(result.total, total);
      assert.equal(result.records.length, total);
      const asked = listRequests(sb).slice(before);
      assert.equal(asked.length, Math.ceil(total / 20), asked.map((r) => r.query.offset ?? '0').join(' '));
      assert.ok(asked.every((r) => Number(r.query.offset ?? 0) < total));
    });
  });

  it('splits a URL into its path and query exactly as written, for messages and logs', () => {
    const cases: Array<[string, string, string]> = [
      ['https://h.test:8443/v1/x/%2E%2E/y?limit=50&offset=100#top', '/v1/x/%2E%2E/y', '?limit=50&offset=100'],
      ['http://h.test', '/', ''],
      ['http://h.test?q=1', '/', '?q=1'],
      ['http://user@h.test/p?a=/b?c#d?e', '/p', '?a=/b?c'],
      ['http://h.test/p#f?x', '/p', ''],
      ['HTTP://h.test/p?', '/p', '?'],
      ['not a url', '/', ''],
      ['1x://h.test/p', '/', ''],
    ];
    for (const [url, path, query] of cases) assert.deepEqual(splitUrl(url), { path, query }, url);
  });
  it('reads Link headers in their usual forms', () => {
    const links = parseLinkHeader('<https://x.test/a?offset=50&limit=50>; rel="next", </a?offset=150>; rel=last, <https://x.test/p,q>; rel="prev first"');
    assert.equal(links.get('next'), 'https://x.test/a?offset=50&limit=50');
    assert.equal(links.get('last'), '/a?offset=150');
    assert.equal(links.get('prev'), 'https://x.test/p,q');
    assert.equal(links.get('first'), 'https://x.test/p,q');
    assert.equal(parseLinkHeader(undefined).size, 0);
  });
  it('de-duplicates by id across calls: the first of each id stays, "1" and 1 are two ids, records without one all stay', () => {
    const seen = idsSeen();
    const first = [{ id: 'a' }, { id: 1 }, { id: '1' }, { x: 1 }];
    assert.equal(keepFirstOfEachId(seen, first), first, 'nothing dropped: the same array, not a copy');
    const second = [{ id: 'b' }, { id: 'a', again: true }, { x: 2 }, { id: 1 }, null, { id: 'b' }];
    assert.deepEqual(keepFirstOfEachId(seen, second), [{ id: 'b' }, { x: 2 }, null]);
    assert.equal(seen.dropped, 3);
    assert.deepEqual(second.length, 6, 'the input is left as it was');
  });
  it('de-duplicates exactly when two different ids share a hash, and on long ids', () => {
    // Two ids with one 30-bit hash, found by search (about 2^15 tries by the birthday bound).
    const byHash = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; !pair; i++) {
      const id = `id-${i}`;
      const other = byHash.get(textHash(id));
      if (other !== undefined) pair = [other, id];
      else byHash.set(textHash(id), id);
    }
    const [a, b] = pair;
    assert.notEqual(a, b);
    const seen = idsSeen();
    const first = [{ id: 'x' }, { id: a }, { id: 'y' }];
    assert.equal(keepFirstOfEachId(seen, first), first);
    assert.deepEqual(keepFirstOfEachId(seen, [{ id: b }, { id: 'x' }, { id: a }, { id: b }, { id: 'z' }]), [{ id: b }, { id: 'z' }], 'the other id of the hash kept, the repeats dropped');
    assert.equal(seen.dropped, 3);
    assert.ok(seen.strings, 'the exact set took over');
    // Ids longer than what is hashed in full: same ends, different middles, are two ids.
    const long = (c: string) => `${'a'.repeat(40)}${c}${'b'.repeat(40)}`;
    const longs = idsSeen();
    assert.deepEqual(keepFirstOfEachId(longs, [{ id: long('1') }, { id: long('2') }, { id: long('1') }]), [{ id: long('1') }, { id: long('2') }]);
    assert.equal(longs.dropped, 1);
  });
  it('de-duplicates thousands of ids as the table of hashes grows, and a repeat of any of them', () => {
    const seen = idsSeen();
    const ids = Array.from({ length: 5000 }, (_, i) => ({ id: i.toString(16).padStart(24, '0') }));
    for (let p = 0; p < ids.length; p += 50) assert.equal(keepFirstOfEachId(seen, ids.slice(p, p + 50)).length, 50);
    assert.ok(seen.table.length >= 2 * 5000, 'at most half full');
    const again = [{ id: 'new' }, ids[0], ids[2500], ids[4999], { id: 'new' }];
    assert.deepEqual(keepFirstOfEachId(seen, again), [{ id: 'new' }]);
    assert.equal(seen.dropped, 4);
  });
});
