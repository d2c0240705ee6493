// Trend series: one series per source and field on a shared axis; a defaulted 0 is a marked gap,
// never a point at 0; a source that never provides a field draws nothing; each point knows its record.
import * as assert from 'node:assert/strict';
import { buildTrends, humanCounts, recordsByHuman } from '../../../../src/core/insights';
import { generateDataset } from '../../../../src/sandbox/data';

type Obj = Record<string, unknown>;

describe('insights: trend series', () => {
  const data = generateDataset({ today: '2026-11-20', days: 60, humans: 3, seed: 'trends' });
  const [first, , third] = data.humans;

  it('draws one human: the step counter’s steps, the phone’s defaulted zeros as gaps, and refs to the records', () => {
    const [steps, calories, distance] = buildTrends('activity', data.activity, third);
    assert.deepEqual([steps.id, calories.id, distance.id], ['steps', 'calories', 'distance']);
    const mine = data.activity.filter((r) => r.humanId === third);
    assert.deepEqual(steps.xs, [...new Set(mine.map((r) => Date.parse(`${r.date}T00:00:00Z`) / 1000))].sort((a, b) => a - b));
    const phone = steps.series.find((s) => s.source === 'googlefit')!;
    assert.equal(phone.never, true);
    assert.ok(phone.values.every((v) => v === null), 'no point at 0');
    assert.equal(phone.gaps.length, mine.filter((r) => r.source === 'googlefit').length, 'every defaulted 0 is a marked gap');
    const moves = steps.series.find((s) => s.source === 'moves')!;
    assert.equal(moves.never, false);
    for (let i = 0; i < steps.xs.length; i++) {
      if (moves.refs[i] < 0) continue;
      const record = data.activity[moves.refs[i]];
      assert.equal(record.source, 'moves');
      assert.equal(Date.parse(`${record.date}T00:00:00Z`) / 1000, steps.xs[i]);
      assert.equal(moves.values[i], record.steps === 0 ? null : record.steps);
    }
    // The phone does send calories: its calories are points.
    assert.equal(calories.series.find((s) => s.source === 'googlefit')!.never, false);
  });

  it('marks a zero-default 0 of a source that sometimes sends it as a gap, keeps other zeros', () => {
    const rec = (date: string, steps: number, restingHR?: number): Obj => ({ id: date, humanId: 'h', source: 's', date, steps, calories: 10, distance: 1, restingHR, averageHR: 60 });
    const [steps] = buildTrends('activity', [rec('2026-01-01', 100), rec('2026-01-02', 0), rec('2026-01-03', 300)]);
    assert.deepEqual(steps.series[0].values, [100, null, 300]);
    assert.deepEqual(steps.series[0].gaps, [1]);
    // restingHR is no zero-default field: a 0 there is drawn as the value the source sent.
    const [hr] = buildTrends('heartRate', [rec('2026-01-01', 1, 55), rec('2026-01-02', 1, 0)]);
    const resting = hr.series.find((s) => s.field === 'restingHR')!;
    assert.deepEqual(resting.values, [55, 0]);
    assert.deepEqual(resting.gaps, []);
    // A source whose restingHR is never anything but 0 does not provide it: gaps, no points.
    const [never] = buildTrends('heartRate', [rec('2026-01-01', 1, 0), rec('2026-01-02', 1, 0)]);
    const none = never.series.find((s) => s.field === 'restingHR')!;
    assert.equal(none.never, true);
    assert.deepEqual(none.values, [null, null]);
    assert.deepEqual(none.gaps, [0, 1]);
  });

  it('draws heart rate with a min–max band per source, and body fat per reading in local time', () => {
    const [hr] = buildTrends('heartRate', data.heartRate, first);
    assert.deepEqual(hr.series.map((s) => [s.field, s.band]), [['restingHR', false], ['averageHR', false], ['minHR', true], ['maxHR', true]]);
    assert.deepEqual(hr.bands, [[2, 3]]);
    const [bodyFat] = buildTrends('bodyFat', data.bodyFat, first);
    assert.equal(bodyFat.time, 'instant');
    const reading = data.bodyFat.find((r) => r.humanId === first)!;
    const at = bodyFat.series[0].refs.indexOf(data.bodyFat.indexOf(reading));
    // 2026-…T21:14:05-05:00 is drawn at 21:14 local time.
    assert.equal(new Date(bodyFat.xs[at] * 1000).toISOString().slice(11, 19), reading.timestamp.slice(11, 19));
  });

  it('splits a list by human in its order, with each record’s place, and counts the humans of several lists', () => {
    const odd = [null, 7, 'x', [1], { humanId: 42 }, { source: 'a' }];
    const list = [...odd, ...data.activity.slice(0, 40), { humanId: first, id: 'last' }];
    const split = recordsByHuman(list);
    assert.deepEqual([...split.keys()].sort(), [...new Set(data.activity.slice(0, 40).map((r) => r.humanId))].sort());
    for (const [humanId, { records, positions }] of split) {
      assert.deepEqual(positions, list.flatMap((r, i) => (typeof r === 'object' && r !== null && (r as Obj).humanId === humanId ? [i] : [])));
      assert.deepEqual(records, positions.map((i) => list[i]));
    }
    assert.equal(split.get(first)!.records.at(-1), list.at(-1));
    assert.deepEqual(recordsByHuman(odd), new Map());
    // The picker's counts: each human's records over all the lists, most first, then by id.
    const lists = [data.activity, data.heartRate, data.bodyFat];
    const counted = data.humans.map((humanId) => ({ humanId, records: lists.flat().filter((r) => r.humanId === humanId).length }));
    counted.sort((a, b) => b.records - a.records || (a.humanId < b.humanId ? -1 : 1));
    assert.deepEqual(humanCounts(lists.map(recordsByHuman)), counted);
    assert.deepEqual(humanCounts([recordsByHuman(lists.flat())]), counted);
  });

  it('ranks the humans by records, and leaves out what has no place in time', () => {
    assert.equal(humanCounts([recordsByHuman([...data.activity, ...data.heartRate])])[0].humanId, first);
    const charts = buildTrends('activity', [null, 7, 'x', { source: 'a', date: 'not a date', steps: 5 }, { source: 'a', date: '2026-01-01', steps: '5' }]);
    assert.deepEqual(charts[0].xs, [Date.parse('2026-01-01T00:00:00Z') / 1000]);
    assert.deepEqual(charts[0].series[0].values, [null]);
  });
});
