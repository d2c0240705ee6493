// The sandbox never serves anything dated after now, whatever the offset a time is written in and
// whatever the machine's own zone: clocks injected around midnight east and west of UTC.
import * as assert from 'node:assert/strict';
import { formatDate } from '../../../src/core/dates';
import { RESOURCES } from '../../../src/core/resources';
import { startSandbox } from '../../../src/sandbox/server';
import { get, mint } from '../support/sandbox';

const DATE_TIME_FIELDS = ['timestamp', 'createdAt', 'updatedAt'];

// The instant (a reading at 21:29-05:00 = 02:29Z the next day was served at 13:31Z), and
// the minutes either side of midnight in UTC, at -05:00 (the sandbox's scale zone), at +09:00 and
// at +14:00 (the first calendar day on Earth) and -11:00 (the last).
const CLOCKS = [
  '2026-11-23T13:31:00Z',
  '2026-11-23T23:59:00Z', '2026-11-24T00:01:00Z',
  '2026-11-24T04:59:00Z', '2026-11-24T05:01:00Z',
  '2026-11-23T14:59:00Z', '2026-11-23T15:01:00Z',
  '2026-11-23T09:59:00Z', '2026-11-23T10:01:00Z',
  '2026-11-24T10:59:00Z', '2026-11-24T11:01:00Z',
];
// The process zone should not matter (the sandbox works in UTC); try one east and one west.
const ZONES = ['Asia/Tokyo', 'America/New_York'];

describe('sandbox: nothing dated after now', () => {
  const savedTz = process.env.TZ;
  after(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  for (const zone of ZONES) {
    for (const clock of CLOCKS) {
      it(`at ${clock} (process in ${zone}): lists, by-date and Get Latest hold nothing after now`, async () => {
        process.env.TZ = zone;
        const now = Date.parse(clock);
        const sandbox = await startSandbox({ now, days: 3, seed: 'clock' });
        try {
          const token = await mint(sandbox);
          let readings = 0;
          for (const def of RESOURCES) {
            const reply = await get(sandbox, `${def.listPath}?limit=500`, token);
            assert.equal(reply.status, 200);
            const records = reply.json as Array<Record<string, unknown>>;
            assert.ok(records.length > 0, def.kind);
            for (const record of records) {
              for (const field of DATE_TIME_FIELDS) {
                if (typeof record[field] !== 'string') continue;
                const at = Date.parse(record[field] as string);
                assert.ok(at <= now, `${def.kind} ${String(record.id)} ${field} ${String(record[field])} is after ${clock}`);
              }
              // A summary's date is today's UTC date at the latest.
              if (typeof record.date === 'string') assert.ok(record.date <= formatDate(now), `${def.kind} date ${record.date}`);
            }
            if (def.kind === 'bodyFat') readings = records.length;
          }
          assert.ok(readings > 0);
          const latest = await get(sandbox, '/v1/human/body_fat', token);
          assert.equal(latest.status, 200);
          const reading = latest.json as { timestamp: string };
          assert.ok(Date.parse(reading.timestamp) <= now, `Get Latest gave ${reading.timestamp} at ${clock}`);
        } finally {
          await sandbox.close();
        }
      });
    }
  }

  it('at 13:31Z leaves out the evening reading at -05:00 that the unbounded data has', async () => {
    const now = Date.parse('2026-11-23T13:31:00Z');
    const bounded = await startSandbox({ now, days: 2, seed: 'clock' });
    const unbounded = await startSandbox({ now: Date.parse('2026-11-25T00:00:00Z'), today: '2026-11-23', days: 2, seed: 'clock' });
    try {
      const count = async (s: typeof bounded): Promise<string[]> =>
        ((await get(s, '/v1/human/body_fat/readings?limit=500', await mint(s))).json as Array<{ timestamp: string }>).map((r) => r.timestamp);
      const [a, b] = [await count(bounded), await count(unbounded)];
      const later = b.filter((t) => Date.parse(t) > now);
      assert.ok(later.length > 0, 'the seed has readings later on 2026-11-23 (calibration)');
      assert.deepEqual(a, b.filter((t) => Date.parse(t) <= now));
    } finally {
      await Promise.all([bounded.close(), unbounded.close()]);
    }
  });

  it('gives a record the same id whenever the sandbox starts on the same day', async () => {
    const early = await startSandbox({ now: Date.parse('2026-11-23T00:30:00Z'), days: 2, seed: 'clock' });
    const late = await startSandbox({ now: Date.parse('2026-11-23T23:30:00Z'), days: 2, seed: 'clock' });
    try {
      for (const def of RESOURCES.filter((d) => d.kind !== 'bodyFat')) {
        assert.ok(early.dataset[def.kind].length > 0, def.kind);
        assert.deepEqual(early.dataset[def.kind].map((r) => r.id), late.dataset[def.kind].map((r) => r.id), def.kind);
      }
      // Readings: the later start may know readings taken after the earlier one's clock; each
      // reading both know has the same id and timestamp in both.
      const lateReadings = new Map(late.dataset.bodyFat.map((r) => [r.id, r.timestamp]));
      assert.ok(early.dataset.bodyFat.length > 0);
      for (const r of early.dataset.bodyFat) assert.equal(lateReadings.get(r.id), r.timestamp, `reading ${r.id} at ${r.timestamp}`);
    } finally {
      await Promise.all([early.close(), late.close()]);
    }
  });

  it('refuses a clock that is not a number', async () => {
    await assert.rejects(startSandbox({ now: Number.NaN }), /now must be a time/);
  });
});
