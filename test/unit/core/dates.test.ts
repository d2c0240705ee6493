import * as assert from 'node:assert/strict';
import { addDays, digitsDateNumber, epochDayOf, groupByLocalDate, isCalendarDate, localDateNumberOf, localDateOf, parseTzOffset, readTypedRange } from '../../../src/core/dates';

describe('dates', () => {
  it('accepts real calendar dates only', () => {
    assert.equal(isCalendarDate('2026-11-20'), true);
    assert.equal(isCalendarDate('2024-02-29'), true);
    assert.equal(isCalendarDate('2026-02-29'), false);
    assert.equal(isCalendarDate('2026-02-30'), false);
    assert.equal(isCalendarDate('2026-13-01'), false);
    assert.equal(isCalendarDate('2026-00-10'), false);
    assert.equal(isCalendarDate('26-1-1'), false);
    assert.equal(isCalendarDate('2026-11-20T00:00:00Z'), false);
  });

  it('counts the days since 1970 of dates from 0100 to 9999 as Date.UTC does, NaN for anything else', () => {
    const day = 86_400_000;
    const check = (from: number, to: number, step: number) => {
      for (let t = Date.UTC(from, 0, 1), end = Date.UTC(to, 11, 31); t <= end; t += step * day) {
        const text = new Date(t).toISOString().slice(0, 10);
        if (epochDayOf(text) !== t / day) assert.fail(`${text}: ${epochDayOf(text)}, Date.UTC ${t / day}`);
      }
    };
    check(100, 9999, 13); // every 13th day: each month and weekday in turn
    for (const year of [100, 400, 1600, 1700, 1900, 1969, 2000, 2024, 2100, 9999]) check(year - 1 < 100 ? 100 : year - 1, year, 1);
    for (const bad of ['2026-02-29', '2026-13-01', '0099-12-31', '2026-1-01', '2026-01-01T00:00:00Z', '20260101', '2026/01/01', '']) assert.ok(Number.isNaN(epochDayOf(bad)), bad);
  });

  it('parses tz offsets', () => {
    assert.equal(parseTzOffset('-05:00'), -300);
    assert.equal(parseTzOffset('+05:30'), 330);
    assert.equal(parseTzOffset('+00:00'), 0);
    assert.equal(parseTzOffset('0500'), undefined);
    assert.equal(parseTzOffset(undefined), undefined);
  });

  it('adds days across month and year ends', () => {
    assert.equal(addDays('2026-12-31', 1), '2027-01-01');
    assert.equal(addDays('2026-03-01', -1), '2026-02-28');
  });

  it('puts a body fat reading at 23:30-05:00 on that evening, not the next UTC day', () => {
    const reading = { timestamp: '2026-11-20T23:30:00-05:00', tzOffset: '-05:00' };
    assert.equal(localDateOf(reading, 'bodyFat'), '2026-11-20');
    // The same instant written in UTC, with the offset only in tzOffset.
    assert.equal(localDateOf({ timestamp: '2026-11-21T04:30:00Z', tzOffset: '-05:00' }, 'bodyFat'), '2026-11-20');
    // No offset: UTC.
    assert.equal(localDateOf({ timestamp: '2026-11-21T04:30:00Z' }, 'bodyFat'), '2026-11-21');
  });

  it('gives a reading’s local date as a number YYYYMMDD exactly when localDateOf gives YYYY-MM-DD', () => {
    const stamps = ['2026-11-20T23:30:00-05:00', '2026-11-21T04:30:00Z', '2026-12-31T23:59:59.999Z', '2024-02-28T23:00:00Z', '0999-12-31T23:00:00Z', '0050-01-01T00:00:00Z', '9999-12-31T23:00:00Z', '+010000-01-01T00:00:00Z', '-000001-06-01T00:00:00Z', '2026-11-20', 'nope', 42];
    const offsets = [undefined, null, '+01:00', '-05:00', '+14:00', '-12:00', 'bad'];
    for (const timestamp of stamps) {
      for (const tzOffset of offsets) {
        const record = { timestamp, tzOffset };
        const text = localDateOf(record, 'bodyFat');
        const expected = text === undefined ? -1 : /^\d{4}-\d{2}-\d{2}$/.test(text) ? Number(text.replace(/-/g, '')) : -2;
        assert.equal(localDateNumberOf(record), expected, `${String(timestamp)} ${String(tzOffset)}: ${String(text)}`);
      }
    }
    assert.equal(digitsDateNumber('0004-02-31'), 40231, 'digits only, no calendar');
    assert.equal(digitsDateNumber('2026-1-011'), -1);
  });

  it('groups summaries by date, newest first, keeping undated ones apart', () => {
    const records = [
      { id: 'a', date: '2026-11-19' },
      { id: 'b', date: '2026-11-20' },
      { id: 'c', date: '2026-11-19' },
      { id: 'd', date: '2026-02-30' },
      { id: 'e' },
    ];
    const { dates, undated } = groupByLocalDate(records, 'activity');
    assert.deepEqual(dates.map((d) => [d.date, d.records.map((r) => r.id)]), [
      ['2026-11-20', ['b']],
      ['2026-11-19', ['a', 'c']],
    ]);
    assert.deepEqual(undated.map((r) => r.id), ['d', 'e']);
  });
  it('groups as a plain map and sort would, whatever the order the records come in', () => {
    // The newest-first fast path and the map it falls back to give the same groups.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const reference = (records: Array<{ id: number; date?: string }>) => {
      const groups = new Map<string, number[]>();
      for (const r of records) {
        const date = localDateOf(r, 'activity');
        if (date !== undefined) groups.set(date, [...(groups.get(date) ?? []), r.id]);
      }
      return [...groups.keys()].sort().reverse().map((date) => [date, groups.get(date)]);
    };
    const days = Array.from({ length: 40 }, (_, i) => addDays('2026-11-20', -i));
    const shapes: Record<string, (n: number) => string[]> = {
      newestFirst: (n) => days.slice(0, n),
      newestFirstWithRepeats: (n) => days.slice(0, n).flatMap((d) => (random() < 0.3 ? [d, d] : [d])),
      oldestFirst: (n) => days.slice(0, n).reverse(),
      oneOutOfPlace: (n) => { const d = days.slice(0, n); d.push(d[Math.floor(random() * n)]); return d; },
      shuffled: (n) => days.slice(0, n).concat(days.slice(0, n / 2)).sort(() => random() - 0.5),
    };
    for (const [name, shape] of Object.entries(shapes)) {
      for (const n of [0, 1, 2, 10, 40]) {
        const records = shape(n).map((date, id) => (id % 7 === 3 ? { id } : { id, date }));
        const { dates, undated } = groupByLocalDate(records, 'activity');
        assert.deepEqual(dates.map((g) => [g.date, g.records.map((r) => r.id)]), reference(records), `${name}, ${n}`);
        assert.deepEqual(undated.map((r) => r.id), records.filter((r) => r.date === undefined).map((r) => r.id), `${name}, ${n}`);
      }
    }
  });

  it('reads a range typed into a picker: days, a date, a date and on, two dates; a problem for a text of digits it cannot use', () => {
    const today = '2026-11-28';
    const read = (text: string) => readTypedRange(text, today, { maxYears: 10, maxDays: 3653 });
    for (const text of ['14', ' 14 ', '14d', '14 days', 'last 14', 'Last 14 Days', '14 day']) assert.deepEqual(read(text), { days: 14 }, text);
    assert.deepEqual(read('1'), { days: 1 });
    assert.deepEqual(read('3653'), { days: 3653 });
    for (const text of ['0', '3654', '999999']) assert.deepEqual(read(text), { problem: { code: 'days', maxDays: 3653 } }, text);
    const range = { start: '2026-11-01', end: '2026-11-20' };
    for (const text of ['2026-11-01..2026-11-20', '2026-11-01 .. 2026-11-20', '2026-11-01...2026-11-20', '2026-11-01 2026-11-20', '2026-11-01 to 2026-11-20', '2026-11-01 TO 2026-11-20', '2026-11-01\u20132026-11-20', '2026-11-01 \u2013 2026-11-20', '2026-11-01 - 2026-11-20', '2026-11-01, 2026-11-20', '2026-11-01\u20142026-11-20']) {
      assert.deepEqual(read(text), range, text);
    }
    assert.deepEqual(read('2026-11-03'), { start: '2026-11-03', end: '2026-11-03' });
    assert.deepEqual(read('2026-11-03..'), { start: '2026-11-03', end: today });
    // The one rule for ranges decides the rest, with its own codes.
    assert.deepEqual(read('2026-02-30'), { problem: { code: 'notADate', which: 'start', value: '2026-02-30' } });
    assert.deepEqual(read('2026-11-01..2026-1-5'), { problem: { code: 'notADate', which: 'end', value: '2026-1-5' } });
    assert.deepEqual(read('2026-11-20..2026-11-01'), { problem: { code: 'startAfterEnd', start: '2026-11-20', end: '2026-11-01' } });
    assert.deepEqual(read('2010-01-01..2026-11-01'), { problem: { code: 'tooLong', start: '2010-01-01', end: '2026-11-01', maxYears: 10 } });
    assert.deepEqual(read('2026-12-01..'), { problem: { code: 'startAfterEnd', start: '2026-12-01', end: today } });
    assert.deepEqual(read('2026-11-01 \u2013'), { problem: { code: 'oneDateOnly' } });
    // Digits it cannot read, half a date as it is being typed included: a problem, so Enter does nothing.
    for (const text of ['2026-11', '2026-11-01 2026-1', '2026/11/01', '1e3', '12 weeks', '2026-11-01-2026-11-20']) assert.deepEqual(read(text), { problem: { code: 'unreadable' } }, text);
    // Words are the picker's own items to filter.
    for (const text of ['', '  ', 'last', 'custom', 'Last 7 days please']) assert.equal(read(text), undefined, text);
  });
});
