// Recordings made through the real client against the sandbox on loopback, faults on (429s while
// paging, 503s retried): valid HAR 1.2, no credential, no original identifier, pseudonyms that
// agree across records, URLs, Link headers and files, dates shifted as asked.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { HarLog, Recorder, effectiveShift, readHar, shiftDatesIn } from '../../../../src/core/recording';
import { ClientOptions, HealthDataClient } from '../../../../src/core/service';
import { resource } from '../../../../src/core/resources';
import { Sandbox, parseFaultSpec } from '../../../../src/sandbox/server';
import { LeakWatch, SECRET, sandboxWith } from '../../support/client';
import { assertNoLeak, assertValidHar, originalIdentifiers, recordedListRecords } from '../../support/recording';

const CREATOR = { name: 'test', version: '0' };
const USER_TOKEN = 'user-access-token-9f8e7d6c5b4a';

describe('recording', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await sandboxWith({ humans: 2, days: 40, userAccessTokens: [USER_TOKEN] });
  });
  after(() => sandbox.close());
  afterEach(() => sandbox.clearFaults());

  /** A client that records into `recorder`; `watch` collects every token it held. */
  const watch = new LeakWatch();
  function recordingClient(recorder: Recorder, options: Partial<ClientOptions> = {}): HealthDataClient {
    return watch.client(sandbox, { pageSize: 15, ...options, onExchange: recorder.add });
  }
  const tokens = (): string[] => [...watch.credentials, USER_TOKEN];

  /** A recording of every endpoint kind, with 429s while paging and 503s retried. */
  async function recordEverything(recorder: Recorder): Promise<{ har: HarLog; activityIds: string[]; activity: Array<Record<string, unknown>> }> {
    sandbox.addFault(parseFaultSpec('429:retry-after=0:times=3:path=offset='));
    sandbox.addFault(parseFaultSpec('503:times=2:path=/body_fat'));
    const client = recordingClient(recorder);
    const activity = await client.list('activity');
    assert.equal(activity.complete, true);
    await client.list('bodyFat', { startDate: '2026-03-01', endDate: '2026-03-10' });
    const oneId = (activity.records[3] as { id: string }).id;
    await client.getRecord('activity', oneId);
    await client.getRecord('heartRate', '2026-03-10');
    await client.getLatest('bodyFat');
    await assert.rejects(client.getRecord('activity', 'no-such-record-id'));
    // The token in the query, and a user access token, recorded too.
    const query = recordingClient(recorder, { presentation: { mode: 'query', parameter: 'access_token' } });
    await query.list('heartRate', { limit: 50, all: false });
    const user = recordingClient(recorder, { userAccessToken: USER_TOKEN });
    await user.getRecord('activity', '2026-03-11');
    const records = activity.records as Array<Record<string, unknown>>;
    return { har: recorder.toHar(CREATOR, undefined, tokens()), activityIds: records.map((r) => r.id as string), activity: records };
  }

  it('writes valid HAR 1.2 with every exchange, retries kept as _attempts', async () => {
    const { har } = await recordEverything(new Recorder());
    await assertValidHar(har);
    assert.equal(har.log.version, '1.2');
    const urls = har.log.entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`);
    assert.ok(urls.includes('POST /v1/admin/token'));
    assert.ok(urls.filter((u) => u === `GET ${resource('activity').listPath}`).length > 3);
    const retried = har.log.entries.filter((e) => (e._attempts ?? []).some((a) => a.retryReason && /429|503/.test(a.retryReason)));
    assert.ok(retried.length >= 2, 'the 429s and 503s show as attempts');
    assert.ok(har.log.entries.some((e) => e.response.status === 404));
    // Where each request's time went, as HAR's phases: they add up to the entry's time, the
    // first request opened the connection and later ones reused it (-1: no connect).
    for (const e of har.log.entries) {
      const t = e.timings;
      const sum = [t.blocked, t.dns, t.connect, t.send, t.wait, t.receive].reduce<number>((n, v) => n + Math.max(v ?? 0, 0), 0);
      assert.ok(Math.abs(sum - e.time) < 0.01, `phases ${sum} ms, time ${e.time} ms`);
      assert.equal(t.dns, -1, 'an address is not looked up');
      assert.equal(t.ssl, -1);
      assert.equal(e.serverIPAddress, '127.0.0.1');
    }
    assert.ok(har.log.entries[0].timings.connect! >= 0, 'the first request connects');
    assert.ok(har.log.entries.some((e) => e.timings.connect === -1), 'a later one reuses the connection');
  });

  it('holds no secret, token, Authorization value, access_token value or original id (leak scan)', async () => {
    const { har } = await recordEverything(new Recorder());
    const text = JSON.stringify(har);
    assertNoLeak(text, 'the recording', tokens(), originalIdentifiers(sandbox));
    for (const e of har.log.entries) {
      for (const h of e.request.headers) if (/^authorization$/i.test(h.name)) assert.equal(h.value, 'Bearer [redacted]');
      const token = new URL(e.request.url).searchParams.get('access_token');
      if (token !== null) assert.equal(token, '[redacted]');
      if (e.request.postData) assert.match(e.request.postData.text, /"client_secret":"\[redacted\]"/);
      if (new URL(e.request.url).pathname === '/v1/admin/token' && e.response.content.text) assert.match(e.response.content.text, /"client_token":"\[redacted\]"/);
    }
  });

  it('gives each identifier one pseudonym wherever it appears: bodies, URLs, Link headers, sourceData', async () => {
    const recorder = new Recorder();
    const client = recordingClient(recorder);
    const list = await client.list('activity', { limit: 10, all: false });
    const original = list.records[2] as { id: string; humanId: string };
    await client.getRecord('activity', original.id);
    await client.list('activity', { humanId: original.humanId, limit: 5, all: false });
    const har = recorder.toHar(CREATOR);
    const listed = JSON.parse(har.log.entries[1].response.content.text!) as Array<{ id: string; humanId: string; userId: string; sourceData: unknown }>;
    const pseudo = listed[2];
    assert.notEqual(pseudo.id, original.id);
    assert.match(pseudo.id, /^[0-9a-f]{24}$/, 'an id keeps its look');
    assert.equal(pseudo.humanId.length, original.humanId.length);
    // The by-id request names the pseudonym, and its reply is the same record.
    const byId = har.log.entries[2];
    assert.equal(new URL(byId.request.url).pathname, `${resource('activity').itemPath}/${pseudo.id}`);
    assert.deepEqual(JSON.parse(byId.response.content.text!), pseudo);
    // The humanId parameter and the Link header of the next list carry the same pseudonym.
    const byHuman = har.log.entries[3];
    assert.equal(new URL(byHuman.request.url).searchParams.get('humanId'), pseudo.humanId);
    const link = byHuman.response.headers.find((h) => h.name === 'link')!.value;
    assert.ok(link.includes(`humanId=${pseudo.humanId}`));
    // Every record of one human has one humanId.
    const humans = new Set(listed.map((r) => r.humanId));
    assert.equal(humans.size, new Set((list.records as Array<{ humanId: string }>).map((r) => r.humanId)).size);
  });

  it('agrees across files made with one key, and not with another key', async () => {
    const key = randomBytes(32);
    const ids = async (recorder: Recorder) => {
      await recordingClient(recorder).list('bodyFat', { limit: 5, all: false });
      return (JSON.parse(recorder.toHar(CREATOR).log.entries[1].response.content.text!) as Array<{ id: string }>).map((r) => r.id);
    };
    const a = await ids(new Recorder({ key }));
    const b = await ids(new Recorder({ key }));
    const c = await ids(new Recorder());
    assert.deepEqual(a, b);
    assert.notDeepEqual(a, c);
  });

  it('--keep-ids keeps the real identifiers; credentials are still left out', async () => {
    const recorder = new Recorder({ keepIds: true });
    const client = recordingClient(recorder);
    const list = await client.list('activity', { limit: 3, all: false });
    const text = JSON.stringify(recorder.toHar(CREATOR, undefined, tokens()));
    assert.ok(text.includes((list.records[0] as { id: string }).id));
    assert.ok(!text.includes(SECRET) && !tokens().some((t) => text.includes(t)));
  });

  it('shifts every date and timestamp by whole days, keeping weekdays when asked', async () => {
    const recorder = new Recorder({ shiftDays: -400, keepWeekdays: true });
    assert.equal(recorder.shiftDays, -399);
    const client = recordingClient(recorder);
    const list = await client.list('bodyFat', { startDate: '2026-03-01', endDate: '2026-03-05', all: false });
    const har = recorder.toHar(CREATOR);
    const entry = har.log.entries[1];
    const url = new URL(entry.request.url);
    assert.equal(url.searchParams.get('start_date'), shiftDatesIn('2026-03-01', -399));
    const shifted = JSON.parse(entry.response.content.text!) as Array<{ timestamp: string; createdAt: string }>;
    const originals = list.records as Array<{ timestamp: string; createdAt: string }>;
    assert.ok(originals.length > 0, 'the range has readings');
    assert.equal(shifted.length, originals.length);
    shifted.forEach((r, i) => {
      assert.equal(r.timestamp.slice(10), originals[i].timestamp.slice(10), 'time of day and offset unchanged');
      assert.equal(new Date(r.timestamp.slice(0, 10)).getUTCDay(), new Date(originals[i].timestamp.slice(0, 10)).getUTCDay());
      assert.equal((Date.parse(originals[i].createdAt) - Date.parse(r.createdAt)) / 86_400_000, 399);
    });
    assert.equal(effectiveShift(10, true), 7);
    assert.equal(effectiveShift(3, true), 7);
    assert.equal(effectiveShift(-3, false), -3);
    assert.equal(shiftDatesIn('2026-02-30 and 2024-02-28T23:59:59+05:00', 1), '2026-02-30 and 2024-02-29T23:59:59+05:00');
  });

  it('reads recordings back, and says what is wrong with a file that is none', () => {
    assert.throws(() => readHar('{', 'a.har'), /a\.har is not JSON/);
    assert.throws(() => readHar('{"log":{}}', 'b.har'), /b\.har is not a HAR file: it has no log\.entries array/);
    assert.throws(() => readHar('{"log":{"entries":[{}]}}', 'c.har'), /c\.har: entry 1 is not a HAR entry/);
  });

  it('replaces ids inside sourceData, under any …Id key and inside text, and in keys', () => {
    const recorder = new Recorder();
    const humanId = 'c193f4246ea6776b3e9d80bc493192ee';
    const id = '6b04f7fc0f4a25c49143eecc';
    const body = { id, humanId, source: 'fitbit', sourceData: { deviceId: 'DEV-12345678', note: `copied from ${id} for ${humanId}`, [humanId]: { logId: 'abcdefgh1234' } } };
    recorder.add({
      id: 'x', startedAt: '2026-03-01T00:00:00.000Z', purpose: 'data', method: 'GET', url: `${sandbox.baseUrl}${resource('activity').itemPath}/${id}`,
      requestHeaders: {}, responseHeaders: {}, responseBody: JSON.stringify(body), durationMs: 1, attempts: [], endpoint: 'getById', resource: 'activity',
    });
    const text = JSON.stringify(recorder.toHar(CREATOR));
    for (const original of [humanId, id, 'DEV-12345678', 'abcdefgh1234']) assert.ok(!text.includes(original), `${original.length}-character id left`);
  });

  it('scrubs what no client of ours sends but a service or a proxy might: unknown credentials, cookies, dates and ids everywhere', () => {
    const recorder = new Recorder({ shiftDays: 10 });
    const upperId = '6B04F7FC0F4A25C49143EECC';
    const humanId = 'c193f4246ea6776b3e9d80bc493192ee';
    const base = `${sandbox.baseUrl}${resource('heartRate').itemPath}`;
    recorder.add({
      id: 'x', startedAt: '2026-03-10T08:00:00.000Z', purpose: 'data', method: 'GET', endpoint: 'getByDate', resource: 'heartRate',
      url: `${base}/2026-03-10?api_key=unknown-api-key-123&client_secret=unknown-secret-456&Token=unknown-token-789&humanId=${humanId}`,
      requestHeaders: {},
      responseHeaders: { 'set-cookie': 'session=cookie-value-abc', date: 'Tue, 10 Mar 2026 08:00:00 GMT', 'x-note': `for ${humanId}` },
      responseBody: JSON.stringify({ id: upperId, humanId, date: '2026-03-10', refresh_token: 'unknown-refresh-token', id_token: 'unknown-id-token' }),
      durationMs: 1,
      attempts: [
        { startedAt: '2026-03-10T08:00:00.000Z', durationMs: 1, status: 503, retryReason: '503', error: `503 for ${humanId} on 2026-03-10` },
        { startedAt: '2026-03-10T08:00:01.000Z', durationMs: 1, status: 200 },
      ],
    });
    const har = recorder.toHar(CREATOR);
    const [entry] = har.log.entries;
    const text = JSON.stringify(har);
    for (const gone of ['unknown-api-key-123', 'unknown-secret-456', 'unknown-token-789', 'cookie-value-abc', 'unknown-refresh-token', 'unknown-id-token', humanId, upperId, '2026-03-10']) {
      assert.ok(!text.includes(gone), `${gone} is still in the recording`);
    }
    const url = new URL(entry.request.url);
    assert.equal(url.pathname, `${resource('heartRate').itemPath}/2026-03-20`, 'the date in the path moved');
    for (const name of ['api_key', 'client_secret', 'Token']) assert.equal(url.searchParams.get(name), '[redacted]', name);
    assert.deepEqual(entry.response.headers.map((h) => h.name), ['x-note'], 'cookies and the reply\'s date dropped');
    assert.equal(entry.startedDateTime, '2026-03-20T08:00:00.000Z');
    assert.match(entry._attempts?.[0].error ?? '', / on 2026-03-20$/);
    assert.equal(entry._attempts?.[0].startedAt, '2026-03-20T08:00:00.000Z');
    const body = JSON.parse(entry.response.content.text!) as Record<string, string>;
    assert.equal(body.refresh_token, '[redacted]');
    assert.equal(body.id_token, '[redacted]');
    assert.match(body.id, /^[0-9A-F]{24}$/, 'an upper-case hex id keeps its form');
    assert.notEqual(body.id, upperId);
    assert.equal(body.date, '2026-03-20');
  });

  it('refuses a date shift beyond a hundred years, either way', () => {
    assert.throws(() => new Recorder({ shiftDays: -36_501 }), /the date shift must be a whole number of days from -36500 to 36500/);
    assert.throws(() => new Recorder({ shiftDays: 36_501 }), /the date shift must be/);
    assert.throws(() => new Recorder({ shiftDays: 1.5 }), /the date shift must be/);
    assert.equal(new Recorder({ shiftDays: -36_500 }).shiftDays, -36_500);
  });

  it('replaces a known credential in any body by a placeholder', () => {
    const recorder = new Recorder();
    recorder.add({
      id: 'x', startedAt: new Date().toISOString(), purpose: 'data', method: 'GET', url: `${sandbox.baseUrl}/v1/human/body_fat`,
      requestHeaders: {}, responseHeaders: {}, responseBody: '{"note":"leaked-secret-value"}', durationMs: 1, attempts: [], endpoint: 'getLatest',
    });
    const text = JSON.stringify(recorder.toHar(CREATOR, undefined, ['leaked-secret-value']));
    assert.ok(!text.includes('leaked-secret-value'), 'a known secret is replaced by a placeholder');
  });

  it('records the ids in a replay-ready order: the list of a recording is the list of the service', async () => {
    const { har, activityIds, activity } = await recordEverything(new Recorder());
    const recorded = recordedListRecords(har, resource('activity').listPath);
    assert.ok(activity.length > 50, 'more than one page');
    assert.equal(recorded.length, activityIds.length);
    // Record by record in the service's order (the pages' records are the same, their ids pseudonyms).
    const outline = (r: Record<string, unknown>) => `${String(r.date)} ${String(r.source)} ${String(r.steps)} ${String(r.createdAt)}`;
    assert.deepEqual(recorded.map(outline), activity.map(outline));
    assert.equal(new Set(recorded.map((r) => r.id)).size, recorded.length, 'one pseudonym per id');
    assert.ok(recorded.every((r, i) => typeof r.id === 'string' && r.id !== activityIds[i]), 'the ids are pseudonyms');
  });
});
