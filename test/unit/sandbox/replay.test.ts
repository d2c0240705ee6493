// The sandbox serving recordings: lists re-paged from the recorded records at any page size and
// date range within them (limit, offset, Link, X-Total-Count), by-date and by-id lookups, exact
// recorded replies, its own token endpoint, several recordings merged, and 404s that name them.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { HarLog, Recorder, replayDataOf } from '../../../src/core/recording';
import { HealthDataClient } from '../../../src/core/service';
import { resource } from '../../../src/core/resources';
import { Sandbox, startSandbox } from '../../../src/sandbox/server';
import { sandboxWith, SECRET } from '../support/client';
import { recordedListRecords } from '../support/recording';
import { get, mint, parseLinks } from '../support/sandbox';

describe('sandbox replay', function () {
  this.timeout(30_000);
  let live: Sandbox;
  let replay: Sandbox;
  let activityHar: HarLog;
  let heartHar: HarLog;
  let byIdBody: string;
  let recordedId: string;

  const clientOf = (sb: Sandbox, secret: string, onExchange?: Recorder['add']) =>
    new HealthDataClient({ authUrl: sb.authUrl, baseUrl: sb.baseUrl, clientId: sb.clientId, clientSecret: secret, retryBaseDelayMs: 5, pageSize: 25, ...(onExchange ? { onExchange } : {}) });

  before(async () => {
    live = await sandboxWith({ humans: 2, days: 60 });
    // One key for both files, as one session of the extension (or HEALTH_DATA_PSEUDONYM_KEY) has.
    const key = randomBytes(32);
    const recorder = new Recorder({ key });
    const client = clientOf(live, SECRET, recorder.add);
    await client.list('activity');
    const one = (await client.list('activity', { limit: 1, offset: 7, all: false })).records[0] as { id: string };
    await client.getRecord('activity', one.id);
    await client.getRecord('activity', '2026-03-01');
    activityHar = recorder.toHar({ name: 't', version: '0' });
    const byId = activityHar.log.entries.find((e) => /summaries\/[0-9a-f]{24}$/.test(e.request.url))!;
    byIdBody = byId.response.content.text!;
    recordedId = byId.request.url.split('/').pop()!;
    const heart = new Recorder({ key });
    await clientOf(live, SECRET, heart.add).list('heartRate', { startDate: '2026-02-01', endDate: '2026-02-28' });
    heartHar = heart.toHar({ name: 't', version: '0' });
    replay = await startSandbox({ replay: replayDataOf([{ name: 'activity.har', har: activityHar }, { name: 'heart.har', har: heartHar }]) });
  });
  after(async () => {
    await live?.close();
    await replay?.close();
  });

  it('gives back the recorded list through the client, at any page size', async () => {
    const recorded = recordedListRecords(activityHar, resource('activity').listPath);
    assert.equal(recorded.length, live.dataset.activity.length);
    for (const pageSize of [1, 7, 25, 500]) {
      const client = new HealthDataClient({ authUrl: replay.authUrl, baseUrl: replay.baseUrl, clientId: replay.clientId, clientSecret: replay.clientSecret, pageSize });
      const list = await client.list('activity', pageSize === 1 ? { limit: 1, all: false } : {});
      if (pageSize === 1) assert.deepEqual(list.records, recorded.slice(0, 1));
      else assert.deepEqual(list.records, recorded, `page size ${pageSize}`);
    }
  });

  it('pages with limit, offset, Link and X-Total-Count, and filters by date range within the recording', async () => {
    const token = await mint(replay);
    const recorded = recordedListRecords(activityHar, resource('activity').listPath);
    const reply = await get(replay, `${resource('activity').listPath}?limit=4&offset=8`, token);
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('x-total-count'), String(recorded.length));
    assert.deepEqual(reply.json, recorded.slice(8, 12));
    assert.match(parseLinks(reply.headers.get('link')).next, /limit=4&offset=12/);
    const range = await get(replay, `${resource('activity').listPath}?start_date=2026-03-01&end_date=2026-03-03&limit=500`, token);
    assert.deepEqual(range.json, recorded.filter((r) => (r.date as string) >= '2026-03-01' && (r.date as string) <= '2026-03-03'));
    assert.ok((range.json as unknown[]).length > 0);
  });

  it('answers recorded single-record requests with exactly the recorded body, and looks others up', async () => {
    const token = await mint(replay);
    const exact = await get(replay, `${resource('activity').itemPath}/${recordedId}`, token);
    assert.equal(exact.status, 200);
    assert.equal(exact.text, byIdBody);
    // Never asked for by id, but recorded in a list: found by id and by date.
    const recorded = recordedListRecords(activityHar, resource('activity').listPath);
    const other = recorded[20];
    assert.deepEqual((await get(replay, `${resource('activity').itemPath}/${other.id as string}`, token)).json, other);
    const heart = recordedListRecords(heartHar, resource('heartRate').listPath);
    const first = heart.find((r) => r.humanId === replay.dataset.humans[0])!;
    assert.deepEqual((await get(replay, `${resource('heartRate').itemPath}/${first.date as string}`, token)).json, first);
  });

  it('mints tokens with its own credentials only', async () => {
    assert.equal(typeof (await mint(replay)), 'string');
    const wrong = clientOf(replay, 'not-the-secret');
    await assert.rejects(wrong.list('activity'), /401/);
  });

  it('answers what was never recorded with a 404 that names the recordings', async () => {
    const token = await mint(replay);
    for (const path of [
      `${resource('activity').itemPath}/ffffffffffffffffffffffff`,
      `${resource('activity').itemPath}/2020-01-01`,
      resource('bodyFat').listPath,
      resource('bodyFat').latestPath!,
      `${resource('heartRate').listPath}?start_date=2020-01-01&end_date=2020-01-31`,
    ]) {
      const reply = await get(replay, path, token);
      assert.equal(reply.status, 404, path);
      assert.match((reply.json as { message: string }).message, /activity\.har, heart\.har/, path);
    }
  });
});
