// The request history's rules, on exchanges a real client made against the sandbox: redacted
// once more before keeping, bodies capped, newest first and capped in number, grouped by local
// day, and read back from storage field by field.
import * as assert from 'node:assert/strict';
import { Exchange } from '../../../../src/core/service';
import { HistoryEntry, MAX_SAVED_NAME, MAX_SAVED_REQUESTS, addToHistory, draftFromExchange, forStorage, groupByDay, historySize, outcomeOf, readHistory, toHistoryEntry, trimHistory, typedStatus, typedTimeLimit } from '../../../../src/core/workbench';
import { Sandbox } from '../../../../src/sandbox/server';
import { LeakWatch, SECRET, TODAY, sandboxForSuite } from '../../support/client';

describe('request history', () => {
  const watch = new LeakWatch();
  let sandbox: Sandbox;
  sandboxForSuite(watch, (started) => (sandbox = started));

  const exchangesOf = async (run: (client: ReturnType<LeakWatch['client']>) => Promise<unknown>, options: Parameters<LeakWatch['client']>[1] = {}) => {
    const exchanges: Exchange[] = [];
    const client = watch.client(sandbox, { ...options, onExchange: (e) => exchanges.push(e) });
    await run(client).catch(() => undefined);
    return { exchanges, client };
  };

  it('keeps no secret, token or Authorization value, even one the client never knew', async () => {
    const { exchanges, client } = await exchangesOf((c) => c.getRecord('activity', TODAY));
    const token = client.currentToken!.token;
    // A token echoed back in a header and the body, as a misbehaving proxy might.
    // And in the status text and an attempt's error; an API key header of any value dropped.
    const leaky: Exchange = {
      ...exchanges[1],
      requestHeaders: { ...exchanges[1].requestHeaders, 'X-Api-Key': 'plain-api-key-value' },
      responseHeaders: { ...exchanges[1].responseHeaders, 'x-echo': `token ${token}`, 'set-cookie': 'sid=abc' },
      responseBody: `{"note":"${SECRET}"}`,
      statusText: `OK for ${token}`,
      attempts: [{ startedAt: exchanges[1].startedAt, durationMs: 1, status: 503, error: `503: refused ${SECRET}`, retryReason: `503 ${token}` }, ...exchanges[1].attempts],
    };
    const entry = toHistoryEntry(leaky, { secrets: [SECRET, token], bodyLimit: 1000, environment: 'sandbox' });
    const text = JSON.stringify(entry);
    assert.ok(!text.includes(SECRET) && !text.includes(token), text);
    assert.ok(!text.includes('plain-api-key-value'), 'the API key header');
    assert.equal(entry.requestHeaders.Authorization, 'Bearer [redacted]');
    assert.equal(entry.requestHeaders['X-Api-Key'], '[redacted]');
    assert.equal(entry.responseHeaders['set-cookie'], '[redacted]');
    assert.equal(entry.statusText, 'OK for [redacted]');
    assert.equal(entry.attempts[0].error, '503: refused [redacted]');
    assert.equal(entry.environment, 'sandbox');
    const mint = toHistoryEntry(exchanges[0], { secrets: [], bodyLimit: 1000 });
    assert.match(mint.requestBody ?? '', /"client_secret":\s*"\[redacted\]"/);
    assert.ok(!JSON.stringify(mint).includes(token));
  });

  it('cuts bodies to the limit and says how many bytes were left out', async () => {
    const { exchanges } = await exchangesOf((c) => c.list('activity', { startDate: '2026-01-01', endDate: TODAY, all: false, limit: 100 }));
    const page = exchanges.find((e) => e.endpoint === 'list')!;
    const entry = toHistoryEntry(page, { secrets: [], bodyLimit: 500 });
    assert.equal(entry.responseBody!.length, 500);
    assert.equal(entry.bodyCutBytes, Buffer.byteLength(page.responseBody!) - 500);
    assert.equal(entry.responseBytes, page.responseBytes);
  });

  it('adds newest first, replaces an entry with the same id, and keeps only the last N', () => {
    const make = makeEntry;
    let history: HistoryEntry[] = [];
    for (const id of ['a', 'b', 'c', 'd']) history = addToHistory(history, make(id), 3);
    assert.deepEqual(history.map((e) => e.id), ['d', 'c', 'b']);
    history = addToHistory(history, make('c'), 3);
    assert.deepEqual(history.map((e) => e.id), ['c', 'd', 'b']);
    assert.equal(historySize(undefined), 50);
    assert.equal(historySize(0), 50);
    assert.equal(historySize(2.5), 50);
    assert.equal(historySize(10_000), 500);
    assert.equal(historySize(7), 7);
  });

  it('groups by the local day, newest day first', () => {
    const at = (id: string, startedAt: string) => ({ ...makeEntry(id), startedAt });
    const entries = [at('late', '2026-11-21T02:30:00Z'), at('mid', '2026-11-20T12:00:00Z'), at('early', '2026-11-19T23:00:00Z')];
    // Five hours west of UTC: 02:30Z is the evening before.
    const west = groupByDay(entries, () => -300);
    assert.deepEqual(west.map((g) => [g.day, g.entries.map((e) => e.id)]), [['2026-11-20', ['late', 'mid']], ['2026-11-19', ['early']]]);
    const utc = groupByDay(entries, () => 0);
    assert.deepEqual(utc.map((g) => g.day), ['2026-11-21', '2026-11-20', '2026-11-19']);
  });

  it('says how each exchange ended: ok, retried, refused, failed', async () => {
    sandbox.addFault({ fault: '429', path: '/activities', retryAfter: 1, times: 1 });
    const retried = await exchangesOf((c) => c.getRecord('activity', TODAY), { maxRetryAfterMs: 20 });
    assert.equal(outcomeOf(retried.exchanges.find((e) => e.endpoint === 'getByDate')!), 'retried');
    const missing = await exchangesOf((c) => c.getRecord('activity', 'no-such-id'));
    assert.equal(outcomeOf(missing.exchanges.find((e) => e.endpoint === 'getById')!), 'clientError');
    sandbox.addFault({ fault: 'truncated', path: '/activities' });
    const cut = await exchangesOf((c) => c.getRecord('activity', TODAY), { maxRetries: 0 });
    sandbox.clearFaults();
    assert.equal(outcomeOf(cut.exchanges.find((e) => e.endpoint === 'getByDate')!), 'failed');
    assert.equal(outcomeOf(retried.exchanges[0]), 'ok');
  });

  it('keeps saved requests whatever the size: the last N are of the others', () => {
    const make = makeEntry;
    const saved = (id: string, name: string): HistoryEntry => ({ ...make(id), savedAs: name });
    let history: HistoryEntry[] = [saved('s1', 'first'), make('a')];
    for (const id of ['b', 'c', 'd']) history = addToHistory(history, make(id), 2);
    assert.deepEqual(history.map((e) => e.id), ['d', 'c', 's1']);
    history = addToHistory(history, saved('e', 'second'), 2);
    assert.deepEqual(history.map((e) => e.id), ['e', 'd', 'c', 's1']);
    assert.deepEqual(trimHistory(history, 1).map((e) => e.id), ['e', 'd', 's1']);
    assert.deepEqual(trimHistory(history, 0).map((e) => e.id), ['e', 's1']);
  });

  it('reads saved names back, and never more saved requests than the cap, or a name that is none', () => {
    const make = makeEntry;
    const stored = JSON.parse(JSON.stringify(forStorage([{ ...make('a'), savedAs: 'mine' }, make('b')])));
    assert.deepEqual(readHistory(stored).map((e) => e.savedAs), ['mine', undefined]);
    for (const bad of ['', '   ', 7, null, 'x'.repeat(MAX_SAVED_NAME + 1), 'two\nlines', 'a\u2028b', 'bell\u0007', 'evil\u202eeman']) assert.equal(readHistory([{ ...stored[0], savedAs: bad }])[0].savedAs, undefined, JSON.stringify(bad));
    const many = Array.from({ length: MAX_SAVED_REQUESTS + 3 }, (_, i) => ({ ...stored[0], id: `s${i}`, savedAs: `n${i}` }));
    const read = readHistory(many);
    assert.equal(read.length, many.length, 'every entry kept');
    assert.equal(read.filter((e) => e.savedAs !== undefined).length, MAX_SAVED_REQUESTS);
    assert.equal(read.at(-1)!.savedAs, undefined);
  });

  it('reads a saved request\'s expected status back, only as a status from 100 to 599 and only on a saved request', () => {
    const stored = JSON.parse(JSON.stringify(forStorage([{ ...makeEntry('a'), savedAs: 'gone', expectStatus: 404 }, { ...makeEntry('b'), expectStatus: 404 }])));
    assert.deepEqual(readHistory(stored).map((e) => e.expectStatus), [404, undefined]);
    for (const bad of [99, 600, 404.5, '404', null, -1]) assert.equal(readHistory([{ ...stored[0], expectStatus: bad }])[0].expectStatus, undefined, JSON.stringify(bad));
    assert.equal(readHistory([{ ...stored[0], expectStatus: 200 }])[0].expectStatus, 200);
    // Past Saved's cap an entry is a plain one: no expectation either.
    const many = Array.from({ length: MAX_SAVED_REQUESTS + 1 }, (_, i) => ({ ...stored[0], id: `s${i}`, savedAs: `n${i}` }));
    assert.deepEqual(Object.keys(readHistory(many).at(-1)!).filter((k) => k === 'savedAs' || k === 'expectStatus'), []);
  });

  it('reads a saved request\'s time limit back, only as whole ms from 1 to ten minutes and only on a saved request', () => {
    const stored = JSON.parse(JSON.stringify(forStorage([{ ...makeEntry('a'), savedAs: 'quick', timeLimitMs: 500 }, { ...makeEntry('b'), timeLimitMs: 500 }])));
    assert.deepEqual(readHistory(stored).map((e) => e.timeLimitMs), [500, undefined]);
    for (const bad of [0, -5, 1.5, 600_001, '500', null, Infinity]) assert.equal(readHistory([{ ...stored[0], timeLimitMs: bad }])[0].timeLimitMs, undefined, JSON.stringify(bad));
    assert.equal(readHistory([{ ...stored[0], timeLimitMs: 600_000 }])[0].timeLimitMs, 600_000);
    const many = Array.from({ length: MAX_SAVED_REQUESTS + 1 }, (_, i) => ({ ...stored[0], id: `s${i}`, savedAs: `n${i}` }));
    assert.deepEqual(Object.keys(readHistory(many).at(-1)!).filter((k) => k === 'timeLimitMs'), []);
  });

  it("reads a saved request's findings that fail it back: known rules only, each once, in their order, only on a saved request", () => {
    const stored = JSON.parse(JSON.stringify(forStorage([{ ...makeEntry('a'), savedAs: 'strict', failOn: ['unusual', 'deprecated'] }, { ...makeEntry('b'), failOn: ['zero'] }])));
    assert.deepEqual(readHistory(stored).map((e) => e.failOn), [['unusual', 'deprecated'], undefined]);
    const read = (failOn: unknown) => readHistory([{ ...stored[0], failOn }])[0].failOn;
    assert.deepEqual(read(['unknown', 'zero', 'zero', 'error', 'bogus', 3, null, 'warning']), ['warning', 'zero', 'unknown']);
    for (const none of [[], ['error'], 'zero', { zero: true }, null, 5]) assert.equal(read(none), undefined, JSON.stringify(none));
    const many = Array.from({ length: MAX_SAVED_REQUESTS + 1 }, (_, i) => ({ ...stored[0], id: `s${i}`, savedAs: `n${i}` }));
    assert.deepEqual(Object.keys(readHistory(many).at(-1)!).filter((k) => k === 'failOn'), []);
  });

  it('reads a typed time limit: ms, with or without the unit, seconds, and what is none', () => {
    assert.equal(typedTimeLimit('500'), 500);
    assert.equal(typedTimeLimit(' 500 ms '), 500);
    assert.equal(typedTimeLimit('2s'), 2000);
    assert.equal(typedTimeLimit('1.5 S'), 1500);
    assert.equal(typedTimeLimit('600 s'), 600_000);
    for (const none of ['0', '0.5', '601 s', 'fast', '-5', '5 min', '1,000']) assert.equal(typedTimeLimit(none), 'notLimit', none);
    for (const empty of ['', '   ']) assert.equal(typedTimeLimit(empty), undefined);
  });

  it('reads a typed status: digits of a status, digits that are none, and words left to the list', () => {
    assert.equal(typedStatus('404'), 404);
    assert.equal(typedStatus(' 418 '), 418);
    assert.equal(typedStatus('100'), 100);
    assert.equal(typedStatus('599'), 599);
    for (const none of ['42', '600', '0', '99', '1000']) assert.equal(typedStatus(none), 'notStatus', none);
    for (const words of ['', '  ', 'not found', '4o4', '404 Not Found', '-404', '4.04']) assert.equal(typedStatus(words), undefined, words);
  });

  it('reads back what it stored, and drops what is not an entry', async () => {
    const { exchanges } = await exchangesOf((c) => c.list('heartRate', { all: false, limit: 5 }));
    const stored = JSON.parse(JSON.stringify(exchanges.map((e) => toHistoryEntry(e, { secrets: [], bodyLimit: 100, environment: 'e' }))));
    assert.deepEqual(readHistory(stored), stored);
    assert.deepEqual(readHistory([null, 1, 'x', { id: 'a' }, { ...stored[0], method: 'DELETE' }, { ...stored[0], endpoint: 'nope' }, stored[1]]), [stored[1]]);
    assert.deepEqual(readHistory('not a list'), []);
    assert.deepEqual(readHistory(undefined), []);
  });

  it('turns any exchange of the service back into the request that sends it again', async () => {
    const { exchanges } = await exchangesOf(async (c) => {
      await c.list('activity', { startDate: '2026-03-01', endDate: TODAY, source: 'a b&c', limit: 7, offset: 3, updatedSince: '2026-03-02T00:00:00Z', all: false });
      await c.getRecord('heartRate', 'id/with?odd#chars').catch(() => undefined);
      await c.getRecord('activity', TODAY);
      await c.getLatest('bodyFat');
    });
    const drafts = exchanges.map(draftFromExchange);
    assert.deepEqual(drafts, [
      { endpoint: 'token' },
      { endpoint: 'list', kind: 'activity', params: { start_date: '2026-03-01', end_date: TODAY, source: 'a b&c', limit: '7', offset: '3', updated_since: '2026-03-02T00:00:00Z' } },
      { endpoint: 'getById', kind: 'heartRate', id: 'id/with?odd#chars' },
      { endpoint: 'getByDate', kind: 'activity', date: TODAY },
      { endpoint: 'getLatest', kind: 'bodyFat' },
    ]);
    assert.equal(draftFromExchange({ method: 'GET', url: 'http://elsewhere/v2/other' }), undefined);
  });
});

function makeEntry(id: string): HistoryEntry {
  return { id, startedAt: '2026-11-20T10:00:00Z', purpose: 'data', method: 'GET', url: 'http://x/v1/human/body_fat', requestHeaders: {}, responseHeaders: {}, durationMs: 1, attempts: [], endpoint: 'getLatest' };
}

describe('request history in storage', () => {
  it('cuts each body, and keeps no body for older entries once the budget is spent', async () => {
    const { forStorage, STORED_BODY_LIMIT, STORED_BODIES_BUDGET } = await import('../../../../src/core/workbench');
    const big = 'x'.repeat(STORED_BODY_LIMIT * 2);
    const history = [...Array(30)].map((_, i) => ({ ...makeEntry(`e${i}`), responseBody: big, responseBytes: big.length }));
    const stored = forStorage(history);
    assert.equal(stored[0].responseBody?.length, STORED_BODY_LIMIT);
    assert.equal(stored[0].bodyCutBytes, STORED_BODY_LIMIT);
    const kept = stored.reduce((n, e) => n + (e.responseBody?.length ?? 0), 0);
    assert.equal(kept, STORED_BODIES_BUDGET);
    assert.equal(stored[29].responseBody, '');
    assert.equal(stored[29].bodyCutBytes, big.length);
    assert.equal(stored[29].status, history[29].status);
  });
});
