// The validator against replies seen from the real service (test/fixtures) and hand-made bad
// records: every rule of conventions.md "What a finding is" has a test that fails without it.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACTIVITY_NUMBER_FIELDS, ResourceKind } from '../../../../src/core/resources';
import {
  Finding,
  FindingKind,
  ValidationResult,
  detectKind,
  prepareValidator,
  schemaFor,
  validate,
  validatePayload,
} from '../../../../src/core/validation';
import { repoRoot } from '../../support/repo';
import { HEART_RATE_FIELDS } from '../../../../src/core/validation/plausibility';

const root = repoRoot;
const NOW = Date.parse('2026-11-21T12:00:00Z');
type Rec = Record<string, unknown>;

const fixture = (name: string): Rec =>
  JSON.parse(readFileSync(join(root, 'test', 'fixtures', `${name}.json`), 'utf8')) as Rec;
const check = (record: unknown, kind?: ResourceKind): ValidationResult => validate(record, kind, { now: NOW });
const only = (result: ValidationResult, kind: FindingKind): Finding[] => result.findings.filter((f) => f.kind === kind);
const paths = (findings: Finding[]): string[] => findings.map((f) => f.path);

/** A record of each kind with nothing to say about it: no userId, no zeros, all plausible. */
function clean(kind: ResourceKind): Rec {
  const base =
    kind === 'heartRate'
      ? { ...fixture('heart-rate-wrist-tracker'), value: 66 }
      : kind === 'activity'
        ? { ...fixture('activity-wrist-tracker'), sourceData: {} }
        : fixture('body-fat-smart-scale');
  delete base.userId;
  return base;
}
const KINDS: ResourceKind[] = ['heartRate', 'activity', 'bodyFat'];
const USER_ID: Finding = { kind: 'deprecated', path: '/userId', message: 'userId is deprecated: use humanId' };

describe('validator', () => {
  describe('replies seen from the real service', () => {
    it('a clean record of each kind has no findings at all', () => {
      for (const kind of KINDS) assert.deepEqual(check(clean(kind)), { kind, valid: true, findings: [] }, kind);
    });

    it('activity summaries by source: valid, with zero findings for exactly the fields sent as 0', () => {
      const cases: Array<[string, string[]]> = [
        ['activity-duration-distance-calories', ['steps', 'vigorous', 'moderate', 'light', 'sedentary']],
        ['activity-steps-calories-sedentary', ['duration', 'distance', 'vigorous', 'moderate', 'light']],
        ['activity-all-zeros', [...ACTIVITY_NUMBER_FIELDS]],
        ['activity-wrist-tracker', []],
      ];
      for (const [name, zeros] of cases) {
        const r = check(fixture(name));
        assert.equal(r.kind, 'activity', name);
        assert.equal(r.valid, true, name);
        const expected = zeros.map((f) => ({ kind: 'zero', path: `/${f}`, message: `0 — this source may not provide ${f}` }));
        assert.deepEqual(only(r, 'zero'), expected, name);
        assert.deepEqual(only(r, 'deprecated'), [USER_ID]);
        assert.deepEqual(only(r, 'warning'), [], name);
      }
    });

    it('the heart rate summary without value is invalid, with one plain error at /value', () => {
      const r = check(fixture('heart-rate-wrist-tracker'));
      assert.equal(r.kind, 'heartRate');
      assert.equal(r.valid, false);
      assert.deepEqual(only(r, 'error'), [
        { kind: 'error', path: '/value', message: 'value is required (the measurement of the day, in bpm) but missing' },
      ]);
      assert.deepEqual(only(r, 'warning'), []);
    });

    it('the body fat reading without tzOffset is valid and plausible', () => {
      const r = check(fixture('body-fat-smart-scale'));
      assert.equal(r.kind, 'bodyFat');
      assert.equal(r.valid, true);
      assert.deepEqual(paths(r.findings), ['/userId']);
    });
  });

  describe('errors', () => {
    it('every required field of every kind, when missing, is an error at its own pointer', () => {
      for (const kind of KINDS) {
        for (const field of (schemaFor(kind) as unknown as { required: string[] }).required) {
          const rec = clean(kind);
          delete rec[field];
          const errors = only(check(rec, kind), 'error');
          assert.equal(errors.length, 1, `${kind}.${field}`);
          assert.equal(errors[0].path, `/${field}`);
          assert.match(errors[0].message, new RegExp(`^${field} is required \\(.+\\) but missing$`));
        }
      }
    });

    it('optional fields may be missing: userId, the four heart rates, tzOffset, body fat sourceData', () => {
      const hr = clean('heartRate');
      for (const f of ['restingHR', 'averageHR', 'maxHR', 'minHR']) delete hr[f];
      assert.equal(check(hr).valid, true);
      const bf = clean('bodyFat');
      delete bf.sourceData;
      assert.equal(check(bf, 'bodyFat').valid, true);
    });

    it('a date must be a real calendar date', () => {
      for (const date of ['2026-02-30', '2015-02-30', '2026-13-01', '2026-11-31', '20261120', '2026-11-20T00:00:00Z', '']) {
        const errors = only(check({ ...clean('activity'), date }), 'error');
        assert.deepEqual(paths(errors), ['/date'], date);
        assert.equal(errors[0].message, `date must be a real calendar date YYYY-MM-DD, got ${JSON.stringify(date)}`);
      }
      assert.equal(check({ ...clean('activity'), date: '2024-02-29' }).valid, true);
    });

    it('createdAt, updatedAt and timestamp must be real date-times with an offset', () => {
      const bad = [
        '2026-11-20T25:00:00Z',
        '2015-02-30T08:00:00Z',
        '2026-11-20T08:00:00',
        '2026-11-20',
        '2026-11-20T08:60:00Z',
        'yesterday',
      ];
      for (const field of ['createdAt', 'updatedAt', 'timestamp']) {
        for (const value of bad) {
          const errors = only(check({ ...clean('bodyFat'), [field]: value }), 'error');
          assert.deepEqual(paths(errors), [`/${field}`], `${field}=${value}`);
          assert.match(errors[0].message, new RegExp(`^${field} must be a real date and time with an offset`));
        }
      }
      const good = ['2026-11-20T08:00:00+05:30', '2026-11-20T08:00:00.5-05:00', '2026-11-20t08:00:00z', '2026-11-20 08:00:00Z'];
      for (const ok of good) {
        assert.equal(check({ ...clean('bodyFat'), timestamp: ok, createdAt: ok, updatedAt: ok }).valid, true, ok);
      }
    });

    it('the eight activity numbers must be ≥ 0, and numbers', () => {
      for (const field of ACTIVITY_NUMBER_FIELDS) {
        const errors = only(check({ ...clean('activity'), [field]: -5 }), 'error');
        assert.deepEqual(errors, [{ kind: 'error', path: `/${field}`, message: `${field} must be ≥ 0, got -5` }]);
      }
      assert.deepEqual(only(check({ ...clean('activity'), steps: '12' }), 'error'), [
        { kind: 'error', path: '/steps', message: 'steps must be a number, got the string "12"' },
      ]);
    });

    it('tzOffset must be +hh:mm or -hh:mm from -12:00 to +14:00', () => {
      const bad = ['+15:00', '-13:00', '-12:30', '+14:30', '0500', '+5:00', '+05:60', 'Z', '+05:00:00', '+0500', ' +05:00'];
      for (const tzOffset of bad) {
        const errors = only(check({ ...clean('bodyFat'), tzOffset }), 'error');
        assert.deepEqual(paths(errors), ['/tzOffset'], tzOffset);
        assert.match(errors[0].message, /^tzOffset must be an offset from UTC .*-12:00 to \+14:00, got "/);
      }
      for (const tzOffset of ['-12:00', '+14:00', '+05:45', '-05:00', '+00:00', '-09:30', '+12:45', '+13:45']) {
        assert.equal(check({ ...clean('bodyFat'), tzOffset }).valid, true, tzOffset);
      }
    });

    it('each zone field is required, at the pointer of the field inside the zone', () => {
      for (const field of ['name', 'min', 'max', 'duration', 'caloriesBurned']) {
        const rec = clean('heartRate');
        const zones = (rec.zones as Rec[]).map((z) => ({ ...z }));
        delete zones[1][field];
        rec.zones = zones;
        const errors = only(check(rec), 'error');
        assert.deepEqual(paths(errors), [`/zones/1/${field}`]);
        assert.match(errors[0].message, new RegExp(`^zones/1/${field} is required \\(.+\\) but missing$`));
      }
      assert.deepEqual(paths(only(check({ ...clean('heartRate'), zones: [null] }), 'error')), ['/zones/0']);
    });

    it('sourceData must be an object; one finding per problem', () => {
      assert.deepEqual(only(check({ ...clean('activity'), sourceData: [] }), 'error'), [
        { kind: 'error', path: '/sourceData', message: 'sourceData must be an object, got an array' },
      ]);
      const r = check({ ...clean('heartRate'), date: '2026-02-30', value: 'high', zones: 'none' });
      assert.deepEqual(paths(only(r, 'error')), ['/date', '/value', '/zones']);
    });

    it('a record that is not an object gets one error at the record itself', () => {
      for (const bad of [null, 42, 'x', [], true]) {
        const r = check(bad, 'activity');
        assert.equal(r.valid, false);
        assert.equal(r.findings.length, 1);
        assert.equal(r.findings[0].path, '');
        assert.match(r.findings[0].message, /^a record must be a JSON object, got /);
      }
    });

    it('fields the schema does not define are no error', () => {
      assert.equal(check({ ...clean('activity'), elevation: 12, extra: { deep: true } }).valid, true);
    });
  });

  describe('warnings', () => {
    const warnings = (rec: Rec, kind?: ResourceKind): Finding[] => only(check(rec, kind), 'warning');

    it('minHR above maxHR; equal is no warning (a summary of one reading)', () => {
      assert.deepEqual(warnings({ ...clean('heartRate'), minHR: 160, maxHR: 158 }), [
        { kind: 'warning', path: '/minHR', message: 'minHR 160 bpm is above maxHR 158 bpm' },
      ]);
      assert.deepEqual(warnings({ ...clean('heartRate'), minHR: 60, maxHR: 60 }), []);
    });

    it('a zone whose min is above its max', () => {
      const rec = clean('heartRate');
      rec.zones = (rec.zones as Rec[]).map((z, i) => (i === 2 ? { ...z, min: 170 } : z));
      assert.deepEqual(warnings(rec), [
        { kind: 'warning', path: '/zones/2/min', message: 'zone "Cardio" has min 170 bpm above its max 164 bpm' },
      ]);
    });

    it('a heart rate outside 20–250 bpm, in each of the five measured fields', () => {
      // The rule reads the five by name (and the streamed reader by this list): the two must agree.
      assert.deepEqual([...HEART_RATE_FIELDS], ['value', 'restingHR', 'averageHR', 'maxHR', 'minHR']);
      for (const field of HEART_RATE_FIELDS) {
        for (const bpm of [19, 251]) {
          const rec = { ...clean('heartRate'), minHR: 20, maxHR: 250, [field]: bpm };
          const found = warnings(rec).filter((w) => w.path === `/${field}` && w.message.includes('outside'));
          assert.equal(found.length, 1, `${field}=${bpm}`);
          assert.equal(found[0].message, `${field} ${bpm} bpm is outside the plausible range of a heart rate, 20–250 bpm`);
        }
        const edge = field === 'minHR' ? 20 : 250;
        assert.deepEqual(warnings({ ...clean('heartRate'), minHR: 20, maxHR: 250, [field]: edge }), []);
      }
    });

    it('zone bounds are edges the source defines, not readings: no range warning', () => {
      const rec = clean('heartRate');
      rec.zones = [
        { name: 'Below', min: 0, max: 97, duration: 10, caloriesBurned: 1 },
        { name: 'Top', min: 200, max: 255, duration: 1, caloriesBurned: 1 },
      ];
      assert.deepEqual(warnings(rec), []);
    });

    it('body fat outside 2–75 % when the unit is percent or %', () => {
      for (const [unit, value] of [['percent', 1.9], ['%', 75.1], ['Percent', 80]] as const) {
        assert.deepEqual(warnings({ ...clean('bodyFat'), unit, value }), [
          { kind: 'warning', path: '/value', message: `value ${value} % is outside the plausible range of body fat, 2–75 %` },
        ]);
      }
      assert.deepEqual(warnings({ ...clean('bodyFat'), unit: '%', value: 2 }), []);
      assert.deepEqual(warnings({ ...clean('bodyFat'), unit: '%', value: 75 }), []);
      assert.deepEqual(warnings({ ...clean('bodyFat'), unit: 'kg', value: 80 }), []);
    });

    it('updatedAt before createdAt, whatever the offsets', () => {
      const at = (createdAt: string, updatedAt: string): string[] =>
        paths(warnings({ ...clean('activity'), createdAt, updatedAt }));
      assert.deepEqual(at('2026-11-19T05:00:00.000Z', '2026-11-19T04:59:59.999Z'), ['/updatedAt']);
      assert.deepEqual(at('2026-11-19T05:00:00Z', '2026-11-19T05:00:00Z'), []);
      assert.deepEqual(at('2026-11-19T05:00:00Z', '2026-11-19T05:00:01Z'), []);
      // 06:00+02:00 is 04:00Z: before 05:00Z, though its text sorts after.
      assert.deepEqual(at('2026-11-19T05:00:00Z', '2026-11-19T06:00:00+02:00'), ['/updatedAt']);
      assert.deepEqual(at('2026-11-19T05:00:00+02:00', '2026-11-19T04:00:00Z'), []);
      assert.deepEqual(at('2026-11-19T05:00:00.5Z', '2026-11-19T05:00:00.25Z'), ['/updatedAt']);
      // A space or a lower-case t between date and time (RFC 3339 allows both): times compared, not text.
      assert.deepEqual(at('2026-11-19T10:00:00Z', '2026-11-19 11:00:00Z'), []);
      assert.deepEqual(at('2026-11-19 10:00:00Z', '2026-11-19T09:00:00Z'), ['/updatedAt']);
      assert.deepEqual(at('2026-11-19t10:00:00Z', '2026-11-19T11:00:00Z'), []);
    });

    it('a date in the future, counting from the latest today on Earth (UTC+14)', () => {
      // NOW is 2026-11-21T12:00Z: 2026-11-22 already in Kiribati, 2026-11-23 nowhere yet.
      assert.deepEqual(warnings({ ...clean('activity'), date: '2026-11-23' }), [
        { kind: 'warning', path: '/date', message: 'date 2026-11-23 is in the future' },
      ]);
      assert.deepEqual(warnings({ ...clean('heartRate'), date: '2027-01-01' }).map((w) => w.path), ['/date']);
      assert.deepEqual(warnings({ ...clean('activity'), date: '2026-11-22' }), []);
    });

    it('a timestamp in the future', () => {
      assert.deepEqual(paths(warnings({ ...clean('bodyFat'), timestamp: '2026-11-21T12:00:01Z' })), ['/timestamp']);
      assert.deepEqual(paths(warnings({ ...clean('bodyFat'), timestamp: '2026-11-21T08:00:00-05:00' })), ['/timestamp']);
      assert.deepEqual(paths(warnings({ ...clean('bodyFat'), timestamp: '2026-11-21T11:59:59Z' })), []);
      assert.deepEqual(paths(warnings({ ...clean('bodyFat'), timestamp: '2026-11-21T23:00:00+14:00' })), []);
    });

    it('a value the schema rejects gets its error, not also a warning', () => {
      const r = check({ ...clean('activity'), date: '2999-02-30' });
      assert.deepEqual(paths(only(r, 'error')), ['/date']);
      assert.deepEqual(only(r, 'warning'), []);
    });
  });

  describe('zero, deprecated and unknown', () => {
    it('a 0 outside the eight activity fields reads "<field> is 0", in zones too; never inside sourceData', () => {
      const rec: Rec = { ...clean('heartRate'), restingHR: 0, sourceData: { steps: 0 }, extra: 0 };
      rec.zones = (rec.zones as Rec[]).map((z, i) => (i === 3 ? { ...z, duration: 0, caloriesBurned: 0 } : z));
      assert.deepEqual(only(check(rec), 'zero'), [
        { kind: 'zero', path: '/restingHR', message: 'restingHR is 0' },
        { kind: 'zero', path: '/zones/3/duration', message: 'duration is 0 in this heart rate zone' },
        { kind: 'zero', path: '/zones/3/caloriesBurned', message: 'caloriesBurned is 0 in this heart rate zone' },
      ]);
      assert.deepEqual(only(check({ ...clean('bodyFat'), value: 0 }), 'zero'), [
        { kind: 'zero', path: '/value', message: 'value is 0' },
      ]);
    });

    it('userId is deprecated in every kind, and absent userId is fine', () => {
      for (const kind of KINDS) {
        const r = check({ ...clean(kind), userId: 'u-1' });
        assert.equal(r.valid, true);
        assert.deepEqual(r.findings, [USER_ID]);
      }
    });

    it('unknown fields at the top level and in a zone, with escaped pointers; not in sourceData', () => {
      const sourceData = { anything: 1, nested: { x: 1 } };
      const rec: Rec = { ...clean('heartRate'), sourceData, 'a/b~c': 1, timezone: 'Europe/Paris' };
      rec.zones = (rec.zones as Rec[]).map((z, i) => (i === 1 ? { ...z, color: 'orange' } : z));
      const unknown = only(check(rec), 'unknown');
      assert.deepEqual(paths(unknown), ['/zones/1/color', '/a~1b~0c', '/timezone']);
      assert.equal(unknown[0].message, 'color is not defined by the heart rate zone schema');
      assert.equal(unknown[2].message, 'timezone is not defined by the heart rate summary schema');
    });
  });

  describe('kind detection', () => {
    it('detects each kind from its identifying fields', () => {
      assert.equal(detectKind(fixture('heart-rate-wrist-tracker')), 'heartRate');
      assert.equal(detectKind({ zones: [] }), 'heartRate');
      assert.equal(detectKind(fixture('activity-all-zeros')), 'activity');
      assert.equal(detectKind(fixture('body-fat-smart-scale')), 'bodyFat');
      assert.equal(detectKind({ timestamp: 'x' }), 'bodyFat');
    });

    it('empty, ambiguous and non-objects are undetectable', () => {
      const undetectable = [
        {},
        { id: 'x', date: '2026-11-18', value: 60 },
        { zones: [], unit: '%' },
        null,
        [],
        'heartRate',
        { __proto__: { zones: [] } },
      ];
      for (const rec of undetectable) {
        assert.equal(detectKind(rec), undefined, JSON.stringify(rec));
      }
    });

    it('an undetectable record gets one error naming the kinds', () => {
      for (const rec of [{}, { zones: [], unit: '%' }]) {
        const r = check(rec);
        assert.equal(r.kind, undefined);
        assert.equal(r.valid, false);
        assert.equal(r.findings.length, 1);
        assert.equal(r.findings[0].path, '');
        assert.match(r.findings[0].message, /^could not detect the kind of record \(heart-rate, activity or body-fat\)/);
      }
    });

    it('a given kind wins over detection', () => {
      const r = check(clean('bodyFat'), 'activity');
      assert.equal(r.kind, 'activity');
      assert.ok(only(r, 'error').some((f) => f.path === '/steps'));
      const [error] = only(check(clean('bodyFat'), 'nonsense' as ResourceKind), 'error');
      assert.match(error.message, /^"nonsense" is not a kind of record/);
    });
  });

  it('prepareValidator compiles every kind up front, and validation works after it', () => {
    prepareValidator();
    assert.equal(check(clean('activity')).valid, true);
  });

  describe('validatePayload', () => {
    it('one record: index undefined, pointer empty, id read', () => {
      const [r] = validatePayload(fixture('activity-wrist-tracker'), undefined, { now: NOW });
      assert.deepEqual(
        { ...r, findings: r.findings.length },
        { kind: 'activity', valid: true, findings: 1, index: undefined, pointer: '', id: '6a1f3c9e2b7d4e0058c1a3f5' },
      );
    });

    it('an array, record by record, each kind detected on its own', () => {
      const results = validatePayload([clean('bodyFat'), fixture('heart-rate-wrist-tracker'), 7], undefined, { now: NOW });
      assert.deepEqual(results.map((r) => [r.index, r.pointer, r.kind, r.valid]), [
        [0, '/0', 'bodyFat', true],
        [1, '/1', 'heartRate', false],
        [2, '/2', undefined, false],
      ]);
      assert.equal(results[1].id, '6a1f3c9e2b7d4e0058c1a3f6');
      assert.deepEqual(validatePayload([]), []);
    });

    it('wrapper objects data, items and results, with pointers into the wrapper', () => {
      for (const field of ['data', 'items', 'results']) {
        const payload = { [field]: [clean('activity'), clean('activity')], total: 2 };
        const results = validatePayload(payload, 'activity', { now: NOW });
        assert.deepEqual(results.map((r) => r.pointer), [`/${field}/0`, `/${field}/1`]);
        assert.ok(results.every((r) => r.valid));
      }
    });

    it('a long payload: each record its own findings, the same as validated alone', () => {
      // Several thousand findings in one payload, and records without any between them.
      const records = Array.from({ length: 900 }, (_, i) =>
        i % 3 === 0 ? clean('activity') : i % 3 === 1 ? fixture('activity-all-zeros') : { ...fixture('activity-wrist-tracker'), steps: -i },
      );
      const results = validatePayload(records, 'activity', { now: NOW });
      assert.equal(results.length, records.length);
      let total = 0;
      for (let i = 0; i < records.length; i++) {
        const alone = check(records[i], 'activity');
        assert.deepEqual(results[i].findings, alone.findings, `record ${i}`);
        assert.equal(results[i].valid, alone.valid, `record ${i}`);
        total += alone.findings.length;
      }
      assert.ok(total > 3000, `${total} findings in all`);
      assert.equal(results[2].valid, false, 'a negative count is an error');
      assert.equal(results[3].findings.length, 0);
    });

    it('a record that carries a data array is still one record', () => {
      const results = validatePayload({ ...clean('activity'), data: [1, 2] }, undefined, { now: NOW });
      assert.equal(results.length, 1);
      assert.deepEqual(paths(results[0].findings), ['/data']);
    });
  });

  describe('hostile input', () => {
    const deep = (): Rec => {
      let o: Rec = {};
      for (let i = 0; i < 100_000; i++) o = { o };
      return o;
    };
    const boom = (): never => {
      throw new Error('boom');
    };
    const throwing = new Proxy({}, { get: boom, ownKeys: boom, has: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom });
    const huge = 'x'.repeat(5_000_000);
    const circular: Rec = { ...clean('heartRate') };
    circular.sourceData = circular;
    circular.zones = [circular];
    const inputs: unknown[] = [
      undefined, null, NaN, Infinity, -0, 0n, Symbol('s'), () => 1, 'text', [], [[[]]], [null, 1, 'x', [], {}],
      JSON.parse('{"__proto__": {"polluted": true}, "zones": [{"__proto__": {"polluted": true}}]}'),
      JSON.parse('{"constructor": {"prototype": {"polluted": true}}, "steps": 1}'),
      { ...clean('activity'), sourceData: deep(), nested: deep() },
      { ...clean('bodyFat'), [huge]: huge, unit: huge, timestamp: huge, tzOffset: huge, source: 5 },
      { ...clean('activity'), date: huge, steps: huge },
      Object.assign(Object.create(null), clean('activity')),
      Object.defineProperty({ ...clean('activity') }, 'steps', { enumerable: true, get: boom }),
      throwing, [throwing], { data: throwing }, circular, new Array(5), new Date(), new Map(), /regex/,
    ];

    it('never throws and keeps messages short, whatever the input', () => {
      for (const input of inputs) {
        for (const kind of [undefined, 'heartRate', 'activity', 'bodyFat', 'bad'] as Array<ResourceKind | undefined>) {
          const results = [
            check(input, kind),
            ...validatePayload(input, kind, { now: NOW }),
            ...validatePayload(input, kind, throwing as never),
          ];
          for (const r of results) {
            assert.equal(typeof r.valid, 'boolean');
            for (const f of r.findings) {
              assert.equal(typeof f.message, 'string');
              assert.ok(!/x{61}/.test(f.message), 'a message quotes a value longer than 60 characters');
              assert.ok(f.message.length < 400);
            }
          }
        }
      }
    });

    it('reports a record that throws as an error instead of throwing', () => {
      const [r] = validatePayload([throwing]);
      assert.equal(r.valid, false);
      assert.match(r.findings[0].message, /^could not validate this record/);
    });

    it('never pollutes prototypes', () => {
      for (const input of inputs) validatePayload(input, undefined, { now: NOW });
      assert.equal(({} as Rec).polluted, undefined);
      assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
      assert.equal(([] as unknown as Rec).polluted, undefined);
    });
  });
});
