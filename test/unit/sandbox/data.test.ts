// The sandbox's generated data: deterministic, the right counts, and the facts of conventions.md
// (which source sends which numbers, zones, scale offsets, the heart rate days without value).
import * as assert from 'node:assert/strict';
import { formatDate, localDateOf } from '../../../src/core/dates';
import { ACTIVITY_NUMBER_FIELDS, RESOURCES } from '../../../src/core/resources';
import type { ActivitySummary } from '../../../src/core/types';
import { validate } from '../../../src/core/validation';
import { Dataset, generateDataset } from '../../../src/sandbox/data';
import { TODAY } from '../support/sandbox';

const HEX24 = /^[0-9a-f]{24}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('sandbox data', () => {
  const data = generateDataset({ today: TODAY, days: 365, seed: 'facts' });
  const [first, second, third] = data.humans;
  const ofHuman = <T extends { humanId: string }>(records: T[], humanId: string): T[] => records.filter((r) => r.humanId === humanId);

  it('is the same for the same seed and different for another', () => {
    const a = generateDataset({ today: TODAY, days: 30, seed: 's1' });
    assert.deepEqual(generateDataset({ today: TODAY, days: 30, seed: 's1' }), a);
    const b = generateDataset({ today: TODAY, days: 30, seed: 's2' });
    assert.notDeepEqual(b.humans, a.humans);
    assert.notDeepEqual(b.activity.map((r) => r.steps), a.activity.map((r) => r.steps));
    // A number seed and its text are one seed.
    assert.deepEqual(generateDataset({ today: TODAY, days: 5, seed: 7 }), generateDataset({ today: TODAY, days: 5, seed: '7' }));
  });

  it('keeps a day\'s records when more days are asked for', () => {
    const short = generateDataset({ today: TODAY, days: 10 });
    const long = generateDataset({ today: TODAY, days: 40 });
    assert.deepEqual(long.activity.slice(0, short.activity.length), short.activity);
    assert.deepEqual(long.bodyFat.slice(0, short.bodyFat.length), short.bodyFat);
  });

  it('has one summary per day per source and 1-3 scale readings a day', () => {
    const d = generateDataset({ today: TODAY, days: 30, humans: 3 });
    assert.equal(d.humans.length, 3);
    // One summary per day per human and source; some days the third human's phone reports too.
    const secondSource = d.activity.filter((r) => r.humanId === d.humans[2] && r.source === 'googlefit').length;
    assert.ok(secondSource >= 1 && secondSource <= 15, `second-source days: ${secondSource}`);
    assert.equal(d.activity.length, 90 + secondSource);
    assert.equal(new Set(d.activity.map((r) => `${r.humanId} ${r.source} ${r.date}`)).size, d.activity.length);
    assert.equal(d.heartRate.length, 30, 'only the wrist tracker has heart rate');
    const withings = d.bodyFat.filter((r) => r.source === 'withings');
    const omron = d.bodyFat.filter((r) => r.source === 'omron');
    assert.equal(omron.length, 30);
    assert.ok(withings.length >= 30 && withings.length <= 90, `withings: ${withings.length}`);
    const perDay = new Map<string, number>();
    for (const r of withings) perDay.set(localDateOf(r, 'bodyFat')!, (perDay.get(localDateOf(r, 'bodyFat')!) ?? 0) + 1);
    assert.equal(perDay.size, 30);
    assert.ok([...perDay.values()].every((n) => n >= 1 && n <= 3));
    assert.equal(new Set(d.activity.map((r) => r.date)).size, 30);
    assert.equal(d.activity[0].date, TODAY, 'the newest date is today');
    assert.equal(d.activity.at(-1)!.date, '2026-10-22');
  });

  it('cycles the three profiles for more humans and rejects counts out of range', () => {
    const d = generateDataset({ today: TODAY, days: 2, humans: 10 });
    assert.equal(new Set(d.humans).size, 10);
    // Humans 3, 6 and 9 have the step counter, whose days a phone sometimes reports as well.
    const stepCounters = new Set([d.humans[2], d.humans[5], d.humans[8]]);
    const secondSource = d.activity.filter((r) => stepCounters.has(r.humanId) && r.source === 'googlefit').length;
    assert.equal(d.activity.length, 20 + secondSource);
    assert.equal(d.heartRate.length, 2 * 4);
    assert.throws(() => generateDataset({ days: 0 }), /days must be a whole number from 1 to 3650/);
    assert.throws(() => generateDataset({ days: 3651 }), /days/);
    assert.throws(() => generateDataset({ humans: 11 }), /humans/);
    assert.throws(() => generateDataset({ today: '2026-02-30' }), /today must be a real date/);
  });

  it('generates ten years for one human with the counts the contract gives', () => {
    // How fast is a benchmark (bench/dataset.ts, dataset_vs_parse), never a test.
    const d = generateDataset({ today: TODAY, days: 3650, humans: 1 });
    assert.equal(d.activity.length, 3650);
    assert.equal(d.heartRate.length, 3650);
    assert.ok(d.bodyFat.length > 6500 && d.bodyFat.length < 8100, `body fat: ${d.bodyFat.length}`);
  });

  it('gives every record an ObjectId-like id, the human, userId, source and ordered times', () => {
    const seen = new Set<string>();
    for (const def of RESOURCES) {
      for (const r of data[def.kind]) {
        assert.match(r.id, HEX24);
        assert.ok(!seen.has(r.id), `duplicate id ${r.id}`);
        seen.add(r.id);
        assert.match(r.humanId, /^[0-9a-f]{32}$/);
        assert.match(r.userId!, HEX24);
        assert.equal(typeof r.source, 'string');
        assert.equal(typeof r.sourceData, 'object');
        assert.match(r.createdAt, ISO_UTC);
        assert.match(r.updatedAt, ISO_UTC);
        assert.ok(r.updatedAt >= r.createdAt);
      }
    }
  });

  it('lists newest first', () => {
    for (const def of RESOURCES) {
      const dates = data[def.kind].map((r) => localDateOf(r, def.kind)!);
      assert.deepEqual(dates, [...dates].sort().reverse(), def.kind);
    }
    const instants = ofHuman(data.bodyFat, first).map((r) => Date.parse(r.timestamp));
    assert.deepEqual(instants, [...instants].sort((a, b) => b - a));
  });

  it('has the wrist tracker send all eight activity numbers, plausibly', () => {
    const fitbit = ofHuman(data.activity, first);
    assert.ok(fitbit.every((r) => r.source === 'fitbit'));
    for (const field of ACTIVITY_NUMBER_FIELDS) {
      assert.ok(fitbit.every((r) => typeof r[field] === 'number' && r[field] >= 0), field);
      assert.ok(fitbit.filter((r) => r[field] > 0).length > fitbit.length / 2, `${field} is mostly non-zero`);
    }
    assert.ok(fitbit.every((r) => r.steps >= 2000 && r.steps <= 20000));
    assert.ok(fitbit.every((r) => r.vigorous + r.moderate + r.light + r.sedentary <= 1440));
    assert.ok(new Set(fitbit.map((r) => r.steps)).size > 300, 'steps vary day to day');
    assert.ok(Object.keys(fitbit[0].sourceData!).length > 0);
  });

  it('sends 0 where a source lacks a field: googlefit, moves, misfit', () => {
    const zeroes = (r: ActivitySummary): string[] => ACTIVITY_NUMBER_FIELDS.filter((f) => r[f] === 0);
    for (const r of ofHuman(data.activity, second)) {
      assert.equal(r.source, 'googlefit');
      assert.deepEqual(zeroes(r), ['steps', 'vigorous', 'moderate', 'light', 'sedentary']);
    }
    const third3 = ofHuman(data.activity, third);
    const moves = third3.filter((r) => r.source === 'moves');
    const misfit = third3.filter((r) => r.source === 'misfit');
    const phone = third3.filter((r) => r.source === 'googlefit');
    assert.equal(moves.length + misfit.length + phone.length, third3.length);
    assert.equal(moves.length + misfit.length, 365, 'the step counter or the band reports every day');
    assert.ok(misfit.length > 10 && misfit.length < 100, `misfit days: ${misfit.length}`);
    for (const r of moves) assert.deepEqual(zeroes(r), ['duration', 'distance', 'vigorous', 'moderate', 'light']);
    for (const r of misfit) assert.deepEqual(zeroes(r), [...ACTIVITY_NUMBER_FIELDS]);
    // The phone never sends steps, and the days it reports are days the step counter reports too.
    assert.ok(phone.length > 365 * 0.1 && phone.length < 365 * 0.3, `phone days: ${phone.length}`);
    const counterDays = new Set([...moves, ...misfit].map((r) => r.date));
    for (const r of phone) {
      assert.deepEqual(zeroes(r), ['steps', 'vigorous', 'moderate', 'light', 'sedentary']);
      assert.ok(counterDays.has(r.date), r.date);
    }
    // The step counter adds a field the schema does not define: unknown, never an error.
    for (const r of moves) {
      assert.equal(typeof r.activeMinutes, 'number');
      const findings = validate(r, 'activity').findings;
      assert.deepEqual(findings.filter((f) => f.kind === 'unknown').map((f) => f.path), ['/activeMinutes']);
      assert.ok(!findings.some((f) => f.kind === 'error'));
    }
  });

  it('has heart rate summaries with the four zones and numbers in range; about one day in ten without value', () => {
    const names = ['Out of Range', 'Fat Burn', 'Cardio', 'Peak'];
    const bounds = [[30, 97], [97, 135], [135, 164], [164, 220]];
    for (const r of data.heartRate) {
      assert.equal(r.source, 'fitbit');
      assert.deepEqual(r.zones.map((z) => z.name), names);
      assert.deepEqual(r.zones.map((z) => [z.min, z.max]), bounds);
      const seconds = r.zones.reduce((sum, z) => sum + z.duration, 0);
      assert.ok(seconds <= 86_400 && seconds >= 86_400 - 5400, `zone seconds ${seconds}`);
      assert.ok(r.zones.every((z) => z.duration >= 0 && z.caloriesBurned >= 0));
      assert.ok(r.restingHR! >= 50 && r.restingHR! <= 70);
      assert.ok(r.minHR! < r.restingHR! && r.minHR! > 30);
      assert.ok(r.averageHR! > r.restingHR! && r.maxHR! > r.averageHR! && r.maxHR! <= 220);
      if (r.zones[3].duration > 0) assert.ok(r.maxHR! >= 164, 'time in Peak means a max of 164 or more');
    }
    const missing = data.heartRate.filter((r) => !('value' in r)).length;
    assert.ok(missing > 365 * 0.05 && missing < 365 * 0.15, `without value: ${missing}`);
  });

  it('has the smart scale at -05:00, some readings late enough that the UTC date is the next day', () => {
    const withings = ofHuman(data.bodyFat, first);
    assert.ok(withings.every((r) => r.source === 'withings' && r.unit === 'percent' && r.tzOffset === '-05:00'));
    assert.ok(withings.every((r) => r.timestamp.endsWith('-05:00') && !Number.isNaN(Date.parse(r.timestamp))));
    const late = withings.filter((r) => localDateOf(r, 'bodyFat') !== formatDate(Date.parse(r.timestamp)));
    assert.ok(late.length > 50, `readings whose UTC date differs: ${late.length}`);
    assert.equal(Number(late[0].timestamp.slice(11, 13)) >= 19, true);
    assert.ok(data.bodyFat.every((r) => r.value >= 12 && r.value <= 30));
    assert.deepEqual(withings[0].sourceData, {});
  });

  it('has the other scale in UTC with unit "%" and no tzOffset at all', () => {
    const omron = ofHuman(data.bodyFat, second);
    assert.ok(omron.length > 0);
    for (const r of omron) {
      assert.equal(r.source, 'omron');
      assert.equal(r.unit, '%');
      assert.ok(!('tzOffset' in r));
      assert.match(r.timestamp, /Z$/);
      assert.deepEqual(r.sourceData, {});
    }
    assert.equal(ofHuman(data.bodyFat, third).length, 0, 'the third human has no scale');
  });

  it('is schema-valid except for the heart rate days without value', () => {
    const all: Dataset = generateDataset({ today: TODAY, days: 120, humans: 3, seed: 'valid' });
    let missingValue = 0;
    for (const def of RESOURCES) {
      for (const record of all[def.kind]) {
        const errors = validate(record, def.kind).findings.filter((f) => f.kind === 'error');
        const unexpected = errors.filter((f) => !(def.kind === 'heartRate' && f.path === '/value'));
        assert.deepEqual(unexpected, [], `${def.kind} ${record.id}`);
        if (errors.length > 0) missingValue++;
      }
    }
    assert.equal(missingValue, all.heartRate.filter((r) => !('value' in r)).length);
    assert.ok(missingValue > 0);
  });
  it('dates nothing after now: no reading due later today, no record created or updated in the future', () => {
    const today = '2026-11-20';
    const now = Date.parse('2026-11-20T14:00:00Z');
    const clamped = generateDataset({ today, days: 3, humans: 3, seed: 'now', now });
    const unclamped = generateDataset({ today, days: 3, humans: 3, seed: 'now' });
    for (const def of RESOURCES) {
      for (const r of clamped[def.kind] as Array<Record<string, unknown>>) {
        for (const field of ['createdAt', 'updatedAt', 'timestamp']) {
          if (typeof r[field] === 'string') assert.ok(Date.parse(r[field] as string) <= now, `${def.kind} ${field} ${String(r[field])}`);
        }
        assert.ok(Date.parse(r.updatedAt as string) >= Date.parse(r.createdAt as string));
        const warnings = validate(r, def.kind, { now }).findings.filter((f) => f.kind === 'warning' && /future/.test(f.message));
        assert.deepEqual(warnings, []);
      }
    }
    assert.ok(clamped.bodyFat.length < unclamped.bodyFat.length, 'the evening readings of today are not there yet');
    assert.equal(clamped.activity.length, unclamped.activity.length, 'today has its summaries');
  });
});
