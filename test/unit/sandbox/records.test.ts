// Records added to the sandbox (`extraRecords`, `health-data sandbox --records FILE`): served
// like generated ones, in the lists at their date, by id and by date, exactly as given.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDataset } from '../../../src/sandbox/data';
import { checkExtraRecords } from '../../../src/sandbox/server';
import { TODAY, get, ids, mint, startCliSandbox, useSandbox } from '../support/sandbox';

const SEED = 'extra-records';
const DAYS = 5;
const ACTIVITY = '/v1/human/activities/summaries';
const HEART_RATE = '/v1/human/heart_rate/summaries';
const BODY_FAT = '/v1/human/body_fat';

// The humans the sandbox generates for this seed, so added records can belong to one of them.
const humans = generateDataset({ seed: SEED, today: TODAY, days: DAYS }).humans;
const DAY_BEFORE = '2026-11-18';

/** Parsed from text so `__proto__` is a plain key, as it would be in a file. */
const activity = JSON.parse(`{
  "id": "added-activity-1", "humanId": "${humans[0]}", "userId": "u-1", "source": "<script>x</script>",
  "date": "${DAY_BEFORE}", "duration": 0, "distance": 0, "steps": 123, "vigorous": 0, "moderate": 0,
  "light": 0, "sedentary": 0, "calories": 0, "sourceData": {"__proto__": {"polluted": "yes"}},
  "createdAt": "2026-11-18T08:00:00.000Z", "updatedAt": "2026-11-18T09:00:00.000Z"
}`) as Record<string, unknown>;
const undated = { id: 'added-activity-undated', humanId: humans[1], source: 'moves', steps: 7 };
const heartRate = { id: 'added-hr-1', humanId: humans[0], source: 'fitbit', date: TODAY, value: 61, zones: [] };
const reading = { id: 'added-bf-1', humanId: humans[0], source: 'omron', timestamp: `${TODAY}T23:59:00Z`, unit: '%', value: 19.5 };

describe('sandbox extra records', () => {
  const s = useSandbox({ seed: SEED, days: DAYS, extraRecords: { activity: [activity, undated], heartRate: [heartRate], bodyFat: [reading] } });
  let token: string;
  before(async () => {
    token = await mint(s.sandbox);
  });

  it('lists an added record at its date, ahead of the generated records of that date', async () => {
    const reply = await get(s.sandbox, `${ACTIVITY}?start_date=2026-11-16&end_date=${TODAY}&limit=500`, token);
    assert.equal(reply.status, 200);
    const list = reply.json as Array<{ id: string; date: string }>;
    const at = ids(list).indexOf('added-activity-1');
    assert.ok(at >= 0, 'the added record is listed');
    assert.deepEqual(list.map((r) => r.date), [...list.map((r) => r.date)].sort().reverse(), 'still newest first');
    assert.equal(list.findIndex((r) => r.date === DAY_BEFORE), at, 'first of its date');
    assert.equal(list.filter((r) => r.date === DAY_BEFORE).length, 1 + humans.length, 'the generated ones of that date are still there');
    assert.ok(!ids(list).includes('added-activity-undated'), 'a record without a date is outside any date range');
  });

  it('serves the record by id and by date exactly as given, __proto__ key included', async () => {
    const byId = await get(s.sandbox, `${ACTIVITY}/added-activity-1`, token);
    assert.equal(byId.status, 200);
    assert.equal(byId.text, JSON.stringify(activity));
    assert.ok(byId.text.includes('"__proto__":{"polluted":"yes"}'));
    const byDate = await get(s.sandbox, `${ACTIVITY}/${DAY_BEFORE}`, token);
    assert.equal((byDate.json as { id: string }).id, 'added-activity-1', 'it is the record of its date for its human');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('lists a record without a usable date when no range is asked, and finds it by id', async () => {
    const all = await get(s.sandbox, `${ACTIVITY}?limit=500`, token);
    assert.equal(ids(all.json).at(-1), 'added-activity-undated');
    assert.equal((await get(s.sandbox, `${ACTIVITY}/added-activity-undated`, token)).status, 200);
  });

  it('adds heart rate summaries and body fat readings too (the latest reading included)', async () => {
    assert.equal(((await get(s.sandbox, `${HEART_RATE}/${TODAY}`, token)).json as { id: string }).id, 'added-hr-1');
    assert.equal(((await get(s.sandbox, BODY_FAT, token)).json as { id: string }).id, 'added-bf-1');
    assert.equal(s.sandbox.dataset.heartRate[0].id, 'added-hr-1');
  });

  it('refuses what is not an object of arrays of JSON objects, naming the problem', () => {
    assert.deepEqual(checkExtraRecords(undefined), {});
    assert.throws(() => checkExtraRecords([]), /object of arrays by kind/);
    assert.throws(() => checkExtraRecords({ steps: [] }), /unknown kind "steps"/);
    assert.throws(() => checkExtraRecords({ activity: {} }), /activity must be an array/);
    assert.throws(() => checkExtraRecords({ bodyFat: [{}, 'x'] }), /bodyFat\[1\] must be a JSON object, got string/);
    assert.throws(() => checkExtraRecords({ heartRate: [{ n: 1n }] }), /heartRate\[0\] cannot be written as JSON/);
  });
});

describe('health-data sandbox --records', function () {
  this.timeout(20_000);
  const dir = mkdtempSync(join(tmpdir(), 'hde-records-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const sandbox = startCliSandbox(['--days', '2', ...args]);
    const url = await sandbox.ready;
    let fetched = '';
    if (url !== undefined) {
      // Up and serving: ask for the added record, then stop it.
      try {
        const token = await mint({ authUrl: url, clientId: 'sandbox-client', clientSecret: 'sandbox-secret' });
        const res = await get({ baseUrl: url }, `${ACTIVITY}/from-file`, token);
        fetched = `\nFETCHED ${res.status} ${res.text}\n`;
      } finally {
        await sandbox.stop();
      }
    }
    const code = await sandbox.exited;
    return { code, stdout: `${sandbox.stdout}${fetched}`, stderr: sandbox.stderr };
  }

  it('serves the records of the file', async () => {
    const file = join(dir, 'records.json');
    writeFileSync(file, JSON.stringify({ activity: [{ id: 'from-file', humanId: 'h', source: 'moves', date: '2026-01-02', steps: 0 }] }));
    const r = await run(['--records', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /FETCHED 200 \{"id":"from-file"/);
  });

  it('exits 2 with a clear message for a file it cannot use', async () => {
    const cases: Array<[string, string | undefined, RegExp]> = [
      ['missing.json', undefined, /--records .*missing\.json: no such file\./],
      ['bad.json', '{"activity": [', /--records .*bad\.json: not valid JSON/],
      ['array.json', '[]', /--records .*array\.json: expected a JSON object like \{"heartRate"/],
      ['kind.json', '{"activities": []}', /unknown kind "activities" \(expected heartRate, activity, bodyFat\)/],
      ['item.json', '{"activity": [42]}', /activity\[0\] must be a JSON object, got number/],
    ];
    for (const [name, content, expected] of cases) {
      const file = join(dir, name);
      if (content !== undefined) writeFileSync(file, content);
      const r = await run(['--records', file]);
      assert.equal(r.code, 2, `${name}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, expected);
      assert.match(r.stderr, /health-data --help/);
      assert.doesNotMatch(r.stdout, /Ctrl-C/, `${name}: the sandbox did not start`);
    }
  });
});
