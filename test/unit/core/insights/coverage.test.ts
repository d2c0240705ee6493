// Field coverage: equal to a brute-force count on the sandbox's data for every resource; the
// verdicts of the real cases; overlaps; notes; mixed kinds split; hostile records never break it.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLASSIFIERS_PATH, classifierSource } from '../../../../scripts/coverageClassifiers';
import { localDateOf } from '../../../../src/core/dates';
import { CoverageCounter, ValueClass, cellRecords, computeCoverage, numericFields, schemaFields, splitByKind, verdictOf } from '../../../../src/core/insights';
import { RESOURCES, ResourceKind } from '../../../../src/core/resources';
import { ZeroTally } from '../../../../src/core/views';
import { schemaFor } from '../../../../src/core/validation';
import { generateDataset } from '../../../../src/sandbox/data';
import { assertPrototypesUnchanged, prototypeSnapshot, sharedHostileRecords } from '../../support/hostileRecords';
import { repoRoot } from '../../support/repo';

type Obj = Record<string, unknown>;

/** The slow, obvious count: every question answered by its own pass over the records. */
function bruteForce(kind: ResourceKind, records: readonly unknown[]) {
  const objects = records.filter((r): r is Obj => r !== null && typeof r === 'object' && !Array.isArray(r));
  const sourceOf = (r: Obj) => (typeof r.source === 'string' ? r.source : null);
  const names = [...new Set(objects.map(sourceOf))].sort((a, b) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1));
  const has = (r: Obj, field: string) => Object.prototype.hasOwnProperty.call(r, field);
  const fields = Object.keys(schemaFor(kind).properties!);
  const sources = names.map((source) => {
    const mine = objects.filter((r) => sourceOf(r) === source);
    const dates = [...new Set(mine.map((r) => localDateOf(r, kind)).filter((d): d is string => d !== undefined))].sort();
    return {
      source,
      records: mine.length,
      days: dates.length,
      firstDate: dates[0] ?? null,
      lastDate: dates.at(-1) ?? null,
      fields: fields.map((field) => {
        const count = (test: (r: Obj) => boolean) => mine.filter(test).length;
        const c = {
          field,
          nonZero: count((r) => has(r, field) && r[field] !== null && r[field] !== 0),
          zero: count((r) => has(r, field) && r[field] === 0),
          null: count((r) => has(r, field) && r[field] === null),
          absent: count((r) => !has(r, field)),
        };
        const verdict = c.nonZero === 0 ? 'never' : c.nonZero === mine.length ? 'provided' : 'sometimes';
        return { ...c, verdict };
      }),
    };
  });
  const overlaps: Array<{ date: string; humanId: string; sources: string[] }> = [];
  const keys = new Set(objects.filter((r) => typeof r.humanId === 'string' && localDateOf(r, kind)).map((r) => `${r.humanId as string}|${localDateOf(r, kind)!}`));
  for (const key of keys) {
    const [humanId, date] = key.split('|');
    const on = objects.filter((r) => r.humanId === humanId && localDateOf(r, kind) === date);
    const srcs = [...new Set(on.map((r) => sourceOf(r) ?? '(no source)'))].sort();
    if (srcs.length > 1) overlaps.push({ date, humanId, sources: srcs });
  }
  overlaps.sort((a, b) => a.date.localeCompare(b.date) || (a.humanId < b.humanId ? -1 : 1));
  return { sources, overlaps };
}

describe('insights: field coverage', () => {
  const data = generateDataset({ today: '2026-11-20', days: 120, humans: 4, seed: 'coverage' });

  for (const def of RESOURCES) {
    it(`equals a brute-force count on sandbox data: ${def.label.toLowerCase()}`, () => {
      const records = data[def.kind] as unknown[];
      const report = computeCoverage(def.kind, records);
      const brute = bruteForce(def.kind, records);
      assert.equal(report.resource, def.cliName);
      assert.equal(report.records, records.length);
      assert.deepEqual(report.sources, brute.sources);
      assert.deepEqual(report.overlaps, brute.overlaps);
      assert.deepEqual(report.sources[0].fields.map((f) => f.field), schemaFields(def.kind), 'fields in schema order');
      assert.equal(report.from, report.sources.map((s) => s.firstDate!).sort()[0]);
    });
  }

  it('counts the same when the records come in pieces (a file read in chunks) as all at once', () => {
    for (const def of RESOURCES) {
      // Hostile and odd records among them, and a unit run of readings cut across pieces.
      const records = [...(data[def.kind] as unknown[]), ...sharedHostileRecords(), ...(data[def.kind] as unknown[]).slice(0, 7)];
      const whole = computeCoverage(def.kind, records);
      for (const size of [1, 13, 500]) {
        const counter = new CoverageCounter(def.kind);
        for (let at = 0; at < records.length; at += size) counter.add(records.slice(at, at + size));
        assert.deepEqual(counter.report(), whole, `${def.kind} in pieces of ${size}`);
      }
    }
    const counter = new CoverageCounter('activity');
    counter.report();
    assert.throws(() => counter.add([]), /after the report/);
  });

  it('says which source never sends steps, which always does, and which sometimes sends 0', () => {
    const report = computeCoverage('activity', data.activity);
    const verdict = (source: string, field: string) => report.sources.find((s) => s.source === source)?.fields.find((f) => f.field === field)?.verdict;
    assert.equal(verdict('googlefit', 'steps'), 'never');
    assert.equal(verdict('misfit', 'calories'), 'never');
    assert.equal(verdict('fitbit', 'steps'), 'provided');
    assert.equal(verdict('moves', 'steps'), 'provided');
    assert.equal(verdict('fitbit', 'vigorous'), 'sometimes');
    // Heart rate: `value` is missing some days, so it is provided only sometimes.
    const hr = computeCoverage('heartRate', data.heartRate).sources[0].fields.find((f) => f.field === 'value')!;
    assert.equal(hr.verdict, 'sometimes');
    assert.ok(hr.absent > 0 && hr.zero === 0);
  });

  it('finds the days two sources report for one human, and only those', () => {
    const human = 'h1';
    const rec = (id: string, source: string, date: string, humanId = human) => ({ id, humanId, source, date, steps: 1 });
    const report = computeCoverage('activity', [
      rec('1', 'fitbit', '2026-01-01'),
      rec('2', 'googlefit', '2026-01-01'),
      rec('3', 'fitbit', '2026-01-02'),
      rec('4', 'fitbit', '2026-01-02'), // the same source twice: no double counting between sources
      rec('5', 'googlefit', '2026-01-03', 'h2'),
      rec('6', 'fitbit', '2026-01-03'), // another human's day
      rec('7', 'moves', '2026-01-01'),
    ]);
    assert.deepEqual(report.overlaps, [{ date: '2026-01-01', humanId: 'h1', sources: ['fitbit', 'googlefit', 'moves'] }]);
    // Body fat readings overlap on their local date: 23:30 at -05:00 is the evening before in UTC terms.
    const bodyFat = computeCoverage('bodyFat', [
      { id: 'a', humanId: 'h', source: 'withings', timestamp: '2026-01-01T23:30:00-05:00', tzOffset: '-05:00', unit: 'percent', value: 20 },
      { id: 'b', humanId: 'h', source: 'omron', timestamp: '2026-01-01T12:00:00Z', unit: '%', value: 21 },
      { id: 'c', humanId: 'h', source: 'omron', timestamp: '2026-01-02T02:00:00Z', unit: '%', value: 21 },
    ]);
    assert.deepEqual(bodyFat.overlaps, [{ date: '2026-01-01', humanId: 'h', sources: ['omron', 'withings'] }]);
  });

  it('notes readings without tzOffset, units per source, fields outside the schema and deprecated ones', () => {
    const report = computeCoverage('bodyFat', data.bodyFat);
    const note = (kind: string, source: string) => report.notes.find((n) => n.kind === kind && n.source === source);
    const omron = data.bodyFat.filter((r) => r.source === 'omron');
    assert.equal(note('noTzOffset', 'omron')?.count, omron.length);
    // A tzOffset of null is none too; one that is there is not counted.
    const reading = (id: string, tz: Record<string, unknown>) => ({ id, humanId: 'h', source: 'scale', timestamp: '2026-01-01T08:00:00Z', unit: '%', value: 20, ...tz });
    const nulls = computeCoverage('bodyFat', [reading('1', { tzOffset: null }), reading('2', {}), reading('3', { tzOffset: '+01:00' })]);
    assert.equal(nulls.notes.find((n) => n.kind === 'noTzOffset')?.count, 2);
    assert.equal(note('noTzOffset', 'withings'), undefined);
    assert.deepEqual(note('units', 'omron')?.items, [{ name: '%', count: omron.length }]);
    assert.deepEqual(note('units', 'withings')?.items.map((i) => i.name), ['percent']);
    assert.equal(note('deprecatedFields', 'withings')?.items[0].name, 'userId');
    const activity = computeCoverage('activity', data.activity);
    const moves = data.activity.filter((r) => r.source === 'moves').length;
    assert.deepEqual(activity.notes.find((n) => n.kind === 'unknownFields' && n.source === 'moves')?.items, [{ name: 'activeMinutes', count: moves }]);
    assert.equal(activity.notes.filter((n) => n.kind === 'unknownFields').length, 1, 'only the step counter adds a field');
  });

  it('notes the days of zeros that stand out, as a brute-force count and the Problems panel find them, for every resource', () => {
    for (const def of RESOURCES) {
      const records = [...(data[def.kind] as Obj[])];
      const numeric = numericFields(def.kind);
      // Days a device was not worn: a record of the busiest source with its numbers 0, twice, and one undated.
      const counts = new Map<string, number>();
      for (const r of records) counts.set(r.source as string, (counts.get(r.source as string) ?? 0) + 1);
      const busiest = [...counts].sort((a, b) => b[1] - a[1])[0][0];
      const mine = records.filter((r) => r.source === busiest);
      const zeroed = (r: Obj, id: string): Obj => ({ ...r, id, ...Object.fromEntries([...numeric].filter((f) => typeof r[f] === 'number').map((f) => [f, 0])) });
      records.push(zeroed(mine[3], 'not-worn-1'), zeroed(mine[40], 'not-worn-2'), { ...zeroed(mine[7], 'undated'), date: 'soon', timestamp: 'soon' });
      const report = computeCoverage(def.kind, records);
      const notes = report.notes.filter((n) => n.kind === 'unusualZeros');
      // By brute force: per source and numeric field, its zeros stand out when 19 in 20 of the other records or more have another value.
      const expected = new Map<string, { items: Array<{ name: string; count: number }>; dates: string[] }>();
      for (const source of [...counts.keys()].sort()) {
        const theirs = records.filter((r) => r.source === source);
        const items: Array<{ name: string; count: number }> = [];
        const dates = new Set<string>();
        for (const field of schemaFields(def.kind).filter((f) => numeric.has(f))) {
          const zeros = theirs.filter((r) => r[field] === 0);
          const sent = theirs.filter((r) => Object.prototype.hasOwnProperty.call(r, field) && r[field] !== null && r[field] !== 0).length;
          const others = theirs.length - 1;
          if (zeros.length === 0 || others < 20 || sent < 0.95 * others) continue;
          items.push({ name: field, count: zeros.length });
          for (const r of zeros) {
            const date = localDateOf(r, def.kind);
            if (date !== undefined) dates.add(date);
          }
        }
        if (items.length) expected.set(source, { items, dates: [...dates].sort() });
      }
      assert.deepEqual(new Map(notes.map((n) => [n.source!, { items: n.items, dates: n.dates! }])), expected, def.kind);
      assert.ok(expected.has(busiest), `${def.kind}: the not-worn days of ${busiest} stand out`);
      const note = notes.find((n) => n.source === busiest)!;
      assert.equal(note.count, note.dates!.length);
      for (const id of ['not-worn-1', 'not-worn-2']) assert.ok(note.dates!.includes(localDateOf(records.find((r) => r.id === id)!, def.kind)!), id);
      assert.match(note.message, new RegExp(`^${busiest}: unusual 0 on \\d+ days?: \\d{4}-\\d\\d-\\d\\d \\(`));
      // The same zeros the Problems panel calls unusual, record by record.
      const tally = new ZeroTally();
      for (const r of records) tally.add(def.kind, r);
      const pairs = (list: Array<[string, string]>) => list.map(([d, f]) => `${d} ${f}`).sort();
      const panel: Array<[string, string]> = [];
      for (const r of records) {
        const date = localDateOf(r, def.kind);
        if (r.source !== busiest || date === undefined) continue;
        const zeros = [...numeric].filter((f) => r[f] === 0).map((f) => ({ kind: 'zero' as const, path: `/${f}`, message: '0' }));
        for (const f of tally.unusual(def.kind, r, zeros)) panel.push([date, f]);
      }
      const noted: Array<[string, string]> = [];
      for (const r of records) {
        const date = localDateOf(r, def.kind);
        if (r.source !== busiest || date === undefined) continue;
        for (const item of note.items) if (r[item.name] === 0) noted.push([date, item.name]);
      }
      assert.deepEqual(pairs(noted), pairs(panel), def.kind);
    }
    // No source with fewer than 21 records has a 0 that stands out.
    const few = computeCoverage('activity', data.activity.filter((r) => r.source === 'fitbit').slice(0, 20).map((r, i) => (i === 0 ? { ...r, steps: 0 } : r)));
    assert.equal(few.notes.filter((n) => n.kind === 'unusualZeros').length, 0);
    // Five days are named; a sixth is counted after them.
    const day = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
    const worn = (zeros: number) => Array.from({ length: 200 }, (_, i) => ({ id: `w${i}`, humanId: 'h', source: 'band', date: day(i), steps: i < zeros ? 0 : 1000 }));
    const said = (zeros: number) => computeCoverage('activity', worn(zeros)).notes.find((n) => n.kind === 'unusualZeros')?.message ?? '';
    assert.match(said(5), /unusual 0 on 5 days: 2026-01-01 \(steps\), .*2026-01-05 \(steps\); the source/);
    assert.doesNotMatch(said(5), /, and \d+ more/);
    assert.match(said(6), /unusual 0 on 6 days: 2026-01-01 \(steps\), .*2026-01-05 \(steps\), and 1 more; the source/);
  });

  it('dates by day keys as it would by text: years before 100 and beyond 9999, unordered, repeated, undated', () => {
    const a = (id: string, source: string, date: unknown, humanId: unknown = 'h1') => ({ id, humanId, source, date, steps: 1 });
    const activity = [
      a('1', 'fitbit', '0050-02-28'), a('2', 'moves', '0050-02-28'), a('3', 'fitbit', '0004-02-29'), a('4', 'fitbit', '0000-02-29'),
      a('5', 'fitbit', '2026-01-02'), a('6', 'fitbit', '2026-01-01'), a('7', 'fitbit', '2026-01-02'), a('8', 'moves', '2026-01-02', null),
      a('9', 'moves', '2026-01-01', 'h2'), a('10', 'fitbit', '2026-02-30'), a('11', 'moves', 20260101), a('12', 'moves', '9999-12-31'),
      a('13', 'fitbit', '0100-01-01'), a('14', 'moves', '2026-01-01'), a('15', 'googlefit', '2026-01-01'),
    ];
    const report = computeCoverage('activity', activity);
    const brute = bruteForce('activity', activity);
    assert.deepEqual(report.sources, brute.sources);
    assert.deepEqual(report.overlaps, brute.overlaps);
    assert.equal(report.from, '0004-02-29');
    assert.equal(report.to, '9999-12-31');
    // Readings whose local date is written with a sign and six digits sort before every other date.
    const b = (id: string, source: string, timestamp: string, tzOffset?: string) => ({ id, humanId: 'h', source, timestamp, tzOffset, unit: '%', value: 20 });
    const bodyFat = [
      b('a', 'omron', '+010000-01-01T10:00:00Z'), b('b', 'withings', '+010000-01-01T11:00:00Z'), b('c', 'omron', '-000001-06-01T00:00:00Z'),
      b('d', 'omron', '2026-01-01T23:30:00-05:00', '-05:00'), b('e', 'withings', '2026-01-01T12:00:00Z'), b('f', 'omron', '0000-03-01T00:30:00Z', '-01:00'),
      b('g', 'omron', 'not a time'), b('h', 'withings', '+275760-09-13T00:00:00Z'),
    ];
    const readings = computeCoverage('bodyFat', bodyFat);
    const bruteReadings = bruteForce('bodyFat', bodyFat);
    assert.ok(bodyFat.some((r) => localDateOf(r, 'bodyFat')?.startsWith('+')), 'a reading dated with a sign');
    assert.deepEqual(readings.sources, bruteReadings.sources);
    assert.deepEqual(readings.overlaps, bruteReadings.overlaps);
    const all = bodyFat.map((r) => localDateOf(r, 'bodyFat')).filter((d): d is string => d !== undefined).sort();
    assert.deepEqual([readings.from, readings.to], [all[0], all.at(-1)]);
    // More sources for one human than are merged side by side: their days are sorted together.
    const many = [...bodyFat];
    for (let i = 0; i < 40; i++) many.push(b(`m${i}`, `scale${i % 11}`, `${i % 3 ? '2026' : '+010000'}-01-0${1 + ((i * 7) % 5)}T12:00:00Z`));
    const manyReport = computeCoverage('bodyFat', many);
    assert.ok(manyReport.sources.length > 8);
    assert.deepEqual(manyReport.overlaps, bruteForce('bodyFat', many).overlaps);
    assert.deepEqual(manyReport.sources, bruteForce('bodyFat', many).sources);
    // Ten sources, each on days of its own, but for one day that exactly two of them share.
    const apart = Array.from({ length: 10 }, (_, i) => b(`s${i}`, `scale${i}`, `2026-03-${String(10 + i).padStart(2, '0')}T12:00:00Z`));
    apart.push(b('pair', 'scale7', '2026-03-13T18:00:00Z'));
    const apartReport = computeCoverage('bodyFat', apart);
    assert.equal(apartReport.sources.length, 10);
    assert.deepEqual(apartReport.overlaps, [{ date: '2026-03-13', humanId: 'h', sources: ['scale3', 'scale7'] }]);
    assert.deepEqual(apartReport.overlaps, bruteForce('bodyFat', apart).overlaps);
  });

  it('lists the records behind a cell: null and 0 apart', () => {
    const withNulls = [
      { id: 'n1', source: 'fitbit', date: '2026-01-01', steps: null },
      { id: 'z1', source: 'fitbit', date: '2026-01-02', steps: 0 },
      { id: 'v1', source: 'fitbit', date: '2026-01-03', steps: 5 },
      { id: 'a1', source: 'fitbit', date: '2026-01-04' },
      { id: 'n2', source: 'moves', date: '2026-01-01', steps: null },
    ];
    assert.deepEqual(cellRecords(withNulls, 'fitbit', 'steps', 'null'), [0]);
    assert.deepEqual(cellRecords(withNulls, 'fitbit', 'steps', 'zero'), [1]);
    assert.deepEqual(cellRecords(withNulls, 'fitbit', 'steps', 'nonZero'), [2]);
    assert.deepEqual(cellRecords(withNulls, 'fitbit', 'steps', 'absent'), [3]);
    const cell = computeCoverage('activity', withNulls).sources.find((s) => s.source === 'fitbit')!.fields.find((f) => f.field === 'steps')!;
    assert.deepEqual([cell.nonZero, cell.zero, cell.null, cell.absent], [1, 1, 1, 1]);
    const records = data.activity as unknown[];
    for (const which of ['nonZero', 'zero', 'null', 'absent'] as ValueClass[]) {
      const refs = cellRecords(records, 'googlefit', 'steps', which);
      const cell = computeCoverage('activity', records).sources.find((s) => s.source === 'googlefit')!.fields.find((f) => f.field === 'steps')!;
      assert.equal(refs.length, cell[which], which);
      assert.ok(refs.every((i) => (records[i] as Obj).source === 'googlefit'));
    }
  });

  it('splits records of mixed kinds, counting the ones of no detectable kind', () => {
    const mixed = [data.activity[0], data.bodyFat[0], data.heartRate[0], data.activity[1], { hello: 'world' }, 42, null];
    const split = splitByKind(mixed);
    assert.deepEqual(split.lists.map((l) => [l.kind, l.records.length]), [['heartRate', 1], ['activity', 2], ['bodyFat', 1]]);
    assert.equal(split.undetected, 3);
    // Told the kind, everything is of that kind: junk included, which coverage counts as not records.
    const told = splitByKind(mixed, 'activity');
    assert.equal(told.lists[0].records.length, mixed.length);
    const report = computeCoverage('activity', told.lists[0].records);
    assert.equal(report.notes.find((n) => n.kind === 'notRecords')?.count, 2);
    assert.equal(report.records, mixed.length);
  });

  it('names the fields the schema types as numbers, and only those', () => {
    for (const { kind } of RESOURCES) {
      const props = schemaFor(kind).properties ?? {};
      const numbers = numericFields(kind);
      for (const field of schemaFields(kind)) assert.equal(numbers.has(field), ['number', 'integer'].includes(String(props[field]?.type)), `${kind}.${field}`);
    }
    assert.ok(numericFields('activity').has('steps') && !numericFields('activity').has('id') && !numericFields('activity').has('sourceData'));
    assert.deepEqual([...numericFields('bodyFat')], ['value']);
  });

  it('verdicts follow the counts', () => {
    assert.equal(verdictOf({ nonZero: 0, zero: 3, null: 1, absent: 2 }), 'never');
    assert.equal(verdictOf({ nonZero: 5, zero: 0, null: 0, absent: 0 }), 'provided');
    assert.equal(verdictOf({ nonZero: 5, zero: 0, null: 0, absent: 1 }), 'sometimes');
  });

  it('never throws on hostile records, counts each once, and leaves the prototypes alone', function () {
    this.timeout(60_000); // building the shared hostile records takes a few seconds
    const before = prototypeSnapshot();
    const hostile = sharedHostileRecords().filter((h) => !h.tooDeep);
    for (const def of RESOURCES) {
      const records = hostile.map((h) => h.record);
      const report = computeCoverage(def.kind, records);
      assert.equal(report.records, records.length);
      const counted = report.sources.reduce((n, s) => n + s.records, 0) + (report.notes.find((n) => n.kind === 'notRecords')?.count ?? 0);
      assert.equal(counted, records.length, 'every item is in one source or counted as not a record');
      for (const s of report.sources) {
        for (const f of s.fields) assert.equal(f.nonZero + f.zero + f.null + f.absent, s.records, `${String(s.source).slice(0, 20)} ${f.field}`);
      }
      // A `__proto__` key is a field outside the schema like any other.
      const unknown = report.notes.filter((n) => n.kind === 'unknownFields').flatMap((n) => n.items.map((i) => i.name));
      assert.ok(unknown.includes('__proto__'), 'the __proto__ key is reported');
      assert.doesNotThrow(() => JSON.stringify(report));
    }
    assertPrototypesUnchanged(before);
  });

  it('counts own fields only: records with another prototype, and an Object.prototype that has a field', () => {
    const plain = { id: 'p', source: 'fitbit', date: '2026-01-01', steps: 0, extra: 1 };
    // A prototype that has `steps`: a named read would find it; the record does not have it.
    const inheriting = Object.assign(Object.create({ steps: 5, calories: 9 }) as Obj, { id: 'i', source: 'fitbit', date: '2026-01-02', calories: 0 });
    const bare = Object.assign(Object.create(null) as Obj, { id: 'b', source: 'fitbit', date: '2026-01-03', steps: 7, odd: true });
    const records = [plain, inheriting, bare];
    const expected = bruteForce('activity', records).sources;
    assert.deepEqual(computeCoverage('activity', records).sources, expected);
    const unknown = (r: ReturnType<typeof computeCoverage>) => r.notes.find((n) => n.kind === 'unknownFields')?.items;
    assert.deepEqual(unknown(computeCoverage('activity', records)), [{ name: 'extra', count: 1 }, { name: 'odd', count: 1 }]);
    // Object.prototype with a schema field (polluted by someone else): still counted from the records' own keys.
    const proto = Object.prototype as Obj;
    proto.steps = 3;
    try {
      assert.deepEqual(computeCoverage('activity', records).sources, expected);
    } finally {
      delete proto.steps;
    }
  });

  it('the generated classifiers are what the resource table and the schemas give today (npm run classifiers)', () => {
    assert.equal(readFileSync(join(repoRoot, CLASSIFIERS_PATH), 'utf8'), classifierSource(), `${CLASSIFIERS_PATH} is out of date: run npm run classifiers`);
  });
});
