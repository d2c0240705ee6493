// Compare: payloads normalized (wrapper off, records by id, keys in schema order) and their
// differences summed up, on real sandbox replies and on hostile shapes.
import * as assert from 'node:assert/strict';
import {
  comparableExchanges,
  comparePayloads,
  compareSummaryText,
  exchangePayload,
  exchangeLines,
  exchangeTitle,
  normalizePayload,
  parsePayloadText,
} from '../../../../src/core/exchanges';
import { HealthDataError } from '../../../../src/core/errors';
import { Exchange } from '../../../../src/core/service';
import { shapeFor } from '../../../../src/core/validation';
import { Sandbox } from '../../../../src/sandbox/server';
import { LeakWatch, TODAY, sandboxForSuite } from '../../support/client';

type Rec = Record<string, unknown>;

/** The same record with its keys in reverse order. */
const reversedKeys = (record: Rec): Rec => Object.fromEntries(Object.entries(record).reverse());

describe('exchanges: compare', function () {
  this.timeout(30_000);
  const watch = new LeakWatch();
  let sandbox: Sandbox;
  sandboxForSuite(watch, (started) => (sandbox = started));

  const recording = () => {
    const exchanges: Exchange[] = [];
    const client = watch.client(sandbox, {
      onExchange: (e) => {
        exchanges.push(e);
        watch.texts.push(JSON.stringify(e));
      },
    });
    return { client, exchanges };
  };

  it('records in another order, keys in another order, in a wrapper: no record changes', async () => {
    const { client, exchanges } = recording();
    await client.list('activity', { startDate: '2026-03-01', endDate: TODAY, limit: 12, all: false });
    const page = exchanges.find((e) => e.endpoint === 'list')!;
    const records = exchangePayload(page, 'the page') as Rec[];
    const shuffled = { data: [...records].reverse().map(reversedKeys) };
    const { summary, left, right } = comparePayloads(records, shuffled, 'activity');
    assert.deepEqual({ added: summary.added, removed: summary.removed, changed: summary.changed, unchanged: summary.unchanged }, { added: 0, removed: 0, changed: 0, unchanged: records.length });
    assert.equal(summary.identical, true);
    assert.equal(left.text, right.text, 'the two documents the diff editor gets are the same');
    assert.equal(right.wrapper, 'data');
    assert.match(compareSummaryText(summary, 'list'), /^No differences \(12 records/);
  });

  it('one changed field, one added and one removed record: found and counted', async () => {
    const { client } = recording();
    const records = (await client.list('heartRate', { startDate: '2026-03-01', endDate: TODAY, limit: 6, all: false })).records as Rec[];
    const after = records.map((r) => ({ ...r }));
    after[2] = { ...after[2], restingHR: Number(after[2].restingHR ?? 50) + 7 };
    const removed = after.pop()!;
    after.unshift({ ...records[0], id: 'new-record-id' });
    const { summary } = comparePayloads(records, after.reverse(), 'heartRate');
    assert.equal(summary.changed, 1);
    assert.equal(summary.added, 1);
    assert.equal(summary.removed, 1);
    assert.equal(summary.unchanged, records.length - 2);
    assert.deepEqual(summary.changedPaths, [{ path: '/restingHR', records: 1 }]);
    assert.deepEqual(summary.changedIds, [records[2].id]);
    assert.deepEqual(summary.addedIds, ['new-record-id']);
    assert.deepEqual(summary.removedIds, [removed.id]);
    assert.equal(compareSummaryText(summary, 'list'), `1 record changed (/restingHR in 1), 1 added, 1 removed, ${records.length - 2} the same.`);
  });

  it('two single records (two dates): compared field by field whatever their ids; zones keep their order', async () => {
    const { client, exchanges } = recording();
    await client.getRecord('heartRate', TODAY);
    await client.getRecord('heartRate', '2026-03-14');
    const [a, b] = exchanges.filter((e) => e.endpoint === 'getByDate');
    assert.ok(comparableExchanges(a, b));
    const { summary, left } = comparePayloads(exchangePayload(a, 'a'), exchangePayload(b, 'b'), a.resource);
    assert.equal(left.shape, 'record');
    assert.ok(summary.changedPaths.some((p) => p.path === '/id') && summary.changedPaths.some((p) => p.path === '/date'));
    assert.match(compareSummaryText(summary, 'record'), /fields differ: .*\/id/);
  });

  it('keys in schema order, unknown fields after them sorted, nested objects sorted, zones by the zone schema', () => {
    const record = { zzz: 1, sourceData: { b: 1, a: { d: 1, c: 2 } }, zones: [{ caloriesBurned: 1, name: 'Peak', max: 2, min: 1, duration: 3 }], date: '2026-01-01', id: 'r1', aaa: 2 };
    const { value } = normalizePayload(record, 'heartRate');
    const order = [...shapeFor('heartRate').fields.keys()].filter((k) => k in record);
    assert.deepEqual(Object.keys(value as Rec), [...order, 'aaa', 'zzz']);
    assert.deepEqual(Object.keys((value as Rec).sourceData as Rec), ['a', 'b']);
    assert.deepEqual(Object.keys(((value as Rec).sourceData as Rec).a as Rec), ['c', 'd']);
    const zoneOrder = [...shapeFor('heartRate').fields.get('zones')!.items!.fields.keys()];
    assert.deepEqual(Object.keys(((value as Rec).zones as Rec[])[0]), zoneOrder);
  });

  it('detects the kind when not told, pairs ids by type, keeps __proto__ as data and id-less records in order', () => {
    const a = [{ id: 1, steps: 1 }, { id: '1', steps: 2 }, { steps: 3 }, JSON.parse('{"__proto__": {"polluted": true}, "id": "p"}') as Rec];
    const b = [{ id: '1', steps: 2 }, { id: 1, steps: 1 }, { steps: 4 }, JSON.parse('{"__proto__": {"polluted": false}, "id": "p"}') as Rec];
    const { summary, left } = comparePayloads(a, b);
    assert.equal(left.kind, 'activity');
    assert.equal(summary.changed, 2);
    assert.deepEqual(summary.changedPaths.map((p) => p.path).sort(), ['/__proto__/polluted', '/steps']);
    assert.equal(({} as Rec).polluted, undefined);
    assert.match(left.text, /"__proto__"/);
  });

  it('bad input: not JSON, empty, nested too deep, a non-list against a list', () => {
    assert.throws(() => parsePayloadText('{"a":', 'The file x.json'), (e: unknown) => e instanceof HealthDataError && e.kind === 'parse' && /x\.json is not JSON/.test(e.message));
    assert.throws(() => parsePayloadText('  ', 'The file y.json'), /y\.json is empty/);
    assert.deepEqual(parsePayloadText('\ufeff[1]', 'bom'), [1]);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.throws(() => comparePayloads(deep, deep), /nested too deeply/);
    const { summary } = comparePayloads('text', [{ id: 'a' }]);
    assert.equal(summary.identical, false);
  });

  it('titles and text of exchanges: what was asked, every attempt, redacted', async () => {
    sandbox.addFault({ fault: '503', path: '/activities', times: 1 });
    const { client, exchanges } = recording();
    await client.list('activity', { startDate: '2026-03-01', endDate: TODAY, limit: 3, all: false });
    await client.getLatest('bodyFat');
    const [mint, list, latest] = exchanges;
    assert.equal(exchangeTitle(mint), 'Token mint');
    assert.equal(exchangeTitle(list), 'Activity list 2026-03-01…2026-03-15');
    assert.equal(exchangeTitle(latest), 'Body fat latest');
    const text = exchangeLines(list).join('\n');
    assert.match(text, /^> GET http:\/\/127\.0\.0\.1:\d+\/v1\/human\/activities\/summaries\?start_date=2026-03-01/);
    assert.match(text, /> Authorization: Bearer \[redacted\]/);
    assert.match(text, /< 200 OK · \d+ ms · [\d.]+ k?B · 2 attempts · request id \w+/);
    assert.match(text, /attempt 1: 503 · \d+ ms · retried after \d+ ms: .*503/);
    // Where the answered attempt's time went, over the connection the mint opened.
    assert.match(text, /\n {2}timing of attempt 2: queued [\d.]+ ms · request sent [\d.]+ ms · first byte [\d.]+ ms · download [\d.]+ ms · reused connection to 127\.0\.0\.1:\d+\n/);
    assert.match(exchangeLines(mint).join('\n'), /\n {2}timing: queued [\d.]+ ms · connect [\d.]+ ms · request sent [\d.]+ ms · first byte [\d.]+ ms · download [\d.]+ ms · new connection to 127\.0\.0\.1:\d+/);
    assert.match(exchangeLines(mint).join('\n'), /"client_secret":\s*"\[redacted\]"/);
    watch.texts.push(text, exchangeLines(mint).join('\n'));
  });
});
