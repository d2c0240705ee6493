// The streaming CLI's fast path (recordBytes.ts) against the usual way (decode, JSON.parse, the
// generated validator, the field walk, the plausibility checks): for every record, sandbox records
// and thousands of variants of them (each field removed, given odd values, numbers written every
// way JSON allows, keys added, repeated or escaped, zones changed, whitespace and line ends), and
// the hostile records, checkUnit gives the same reports with the fast path as without it, findings
// placed or not, with the kind given or detected. The fast path must also take the plain records:
// a fast path that always gave up would pass the comparison and do nothing.
import * as assert from 'node:assert/strict';
import { RecordUnit, checkUnit } from '../../../../src/core/streaming';
import { checkRecordBytes, clockFor } from '../../../../src/core/validation';
import { numericFieldsOf, sentMaskOf } from '../../../../src/core/validation/sentFields';
import { RESOURCES, ResourceKind } from '../../../../src/core/resources';
import { generateDataset } from '../../../../src/sandbox/data';
import { Prng, hostileRecords } from '../../support/hostileRecords';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const KINDS: Array<ResourceKind | undefined> = [undefined, ...RESOURCES.map((r) => r.kind)];

type Rec = Record<string, unknown>;

function sandboxRecords(): Array<{ kind: ResourceKind; record: Rec }> {
  const data = generateDataset({ seed: 'record-bytes', days: 40, humans: 3, today: '2026-11-20' }) as unknown as Record<ResourceKind, Rec[]>;
  return RESOURCES.flatMap(({ kind }) => data[kind].map((record) => ({ kind, record })));
}

const ODD_VALUES: readonly unknown[] = [
  0, -0, -1, 1, 19, 20, 250, 251, 2, 1.5, 75, 76, 1e400, -1e-7, 3.000000000000001, 12345678901234567890,
  '', 'x', 'percent', 'PERCENT', '%', '2026-02-29', '2024-02-29', '2026-11-31', '2026-11-20', '2099-01-01',
  '2026-09-31', '2026-10-31', '2025-02-29', '2026-11-31T08:00:00Z', '2026-02-29T08:00:00Z', '2024-02-29T08:00:00Z',
  '2026-11-31T08:00:00.000Z', '2026-11-30T23:59:59.999Z', '2026-12-19T08:00:00.000Z', '2026-11-20T25:00:00Z', '2026-11-20T08:00:00+14:00', '2026-11-20T08:00:00.5-03:30', '2026-11-19T08:00:00z',
  '2026-11-20 08:00:00Z', '2099-01-01T00:00:00Z', '2026-11-20T08:00:00', '+05:30', '+14:00', '-12:00', '+15:00',
  'é', '\u0000', 'a"b', 'a\\b', null, true, false, {}, [], [1], { a: [{ b: 0 }] },
];

/** Numbers as JSON may write them: the same value, other texts. */
const NUMBER_TEXTS = ['250.00000000000001', '74.999999999999999', '19.9999999999999999', '0', '-0', '0.0', '-0.0', '0e5', '1E2', '1e-2', '100.000', '0.1', '1.0000000000000002', '9007199254740993', '1e21', '1e400', '-1e400', '00', '1.', '.5', '+1', '-', '0x10'];

/** Variants of one record's JSON text: the text of each, whatever it is (no JSON at all included). */
function variants(record: Rec, rng: Prng, everyValue: boolean): string[] {
  const out: string[] = [];
  const text = JSON.stringify(record);
  out.push(text, ` ${text} `, `\t${text}\r`, JSON.stringify(record, null, 1), JSON.stringify(record, null, '\t').replace(/\n/g, '\r\n'), `${text}x`, text.slice(0, -1), `${text},`, `[${text}]`);
  const keys = Object.keys(record);
  for (const key of keys) {
    const without = { ...record };
    delete without[key];
    out.push(JSON.stringify(without));
    for (const value of everyValue ? ODD_VALUES : [ODD_VALUES[rng.int(ODD_VALUES.length)]]) out.push(JSON.stringify({ ...record, [key]: value }));
    if (typeof record[key] === 'number') {
      const number = NUMBER_TEXTS[rng.int(NUMBER_TEXTS.length)];
      out.push(text.replace(`"${key}":${JSON.stringify(record[key])}`, `"${key}":${number}`));
    }
    if (typeof record[key] === 'string') {
      // The same string with an escape, and with a character beyond ASCII.
      out.push(text.replace(`"${key}":"`, `"${key}":"\\u0041`), text.replace(`"${key}":"`, `"${key}":"é`));
    }
    // The key escaped, repeated, or with spaces around its colon.
    out.push(text.replace(`"${key}":`, `"\\u00${key.charCodeAt(0).toString(16)}${key.slice(1)}":`));
    out.push(text.replace(`"${key}":`, `"${key}":${JSON.stringify(record[key])},"${key}":`));
    out.push(text.replace(`"${key}":`, `"${key}" :\n `));
  }
  for (const extra of ['extra', 'activeMinutes', '1', 'a/b', 'a~b', 'é', 'x'.repeat(70), '__proto__', 'steps', 'zones', 'timestamp']) {
    out.push(JSON.stringify({ ...record, [extra]: ODD_VALUES[rng.int(ODD_VALUES.length)] }));
  }
  // Keys written after the others: JSON.parse puts one that reads as an index first.
  out.push(`${text.slice(0, -1)},"7":1,"extra":0}`, `${text.slice(0, -1)},"extra":0,"07":1}`);
  const zones = record.zones as Rec[] | undefined;
  if (Array.isArray(zones) && zones.length > 0) {
    const zone = zones[rng.int(zones.length)];
    const at = zones.indexOf(zone);
    const withZone = (z: unknown) => JSON.stringify({ ...record, zones: zones.map((x, i) => (i === at ? z : x)) });
    for (const key of Object.keys(zone)) {
      const without = { ...zone };
      delete without[key];
      out.push(withZone(without), withZone({ ...zone, [key]: ODD_VALUES[rng.int(ODD_VALUES.length)] }), withZone({ ...zone, [key]: 0 }));
    }
    out.push(withZone({ ...zone, extra: 1 }), withZone({ ...zone, min: 300, max: 10 }), withZone(null), withZone([]), withZone(7));
    out.push(JSON.stringify({ ...record, zones: [] }), JSON.stringify({ ...record, zones: {} }), JSON.stringify({ ...record, zones: Array.from({ length: 70 }, () => zone) }));
  }
  return out;
}

/** checkUnit's reports of the text as an NDJSON block and as a list element, with and without the fast path. */
function assertSame(text: string, label: string, kinds: ReadonlyArray<ResourceKind | undefined> = KINDS): void {
  const bytes = Buffer.from(text);
  for (const kind of kinds) {
    for (const places of [true, false]) {
      const units: RecordUnit[] = [
        { bytes: Buffer.from(`${text.replace(/\n/g, ' ')}\n\n${text.replace(/\n/g, ' ')}\n`), shape: 'lines', index: 4, pointer: '', line: 9, column: 1 },
        { bytes, shape: 'element', index: 2, pointer: '/data/2', line: 3, column: 5 },
      ];
      for (const unit of units) {
        const fast = checkUnit(unit, kind, NOW, places, true);
        const usual = checkUnit(unit, kind, NOW, places, false);
        assert.deepEqual(fast, usual, `${label} (${unit.shape}, kind ${kind ?? 'detected'}, places ${places}): ${text.slice(0, 300)}`);
      }
    }
  }
}

describe('checking records from their bytes (the fast path)', function () {
  this.timeout(120_000);

  it('takes the plain sandbox records, and gives what the usual way gives for them', () => {
    const clock = clockFor({ now: NOW });
    let taken = 0;
    const records = sandboxRecords();
    for (const { kind, record } of records) {
      const bytes = Buffer.from(JSON.stringify(record));
      if (checkRecordBytes(bytes, 0, bytes.length, undefined, clock) !== undefined) taken++;
      assertSame(JSON.stringify(record), `${kind} ${String(record.id)}`);
    }
    // Only records with an error or a warning go the usual way: a few in a hundred.
    assert.ok(taken >= records.length * 0.95, `${taken} of ${records.length} records taken`);
  });

  it('agrees with the usual way on thousands of variants: removed fields, odd values, numbers, keys, escapes, zones, whitespace', () => {
    const rng = new Prng('record-bytes');
    const records = sandboxRecords();
    let compared = 0;
    // Every odd value in every field of two records of each kind; one at random in 60 others.
    const picked = [...RESOURCES.flatMap(({ kind }) => records.filter((r) => r.kind === kind).slice(0, 2)), ...Array.from({ length: 60 }, () => records[rng.int(records.length)])];
    for (const [n, { kind, record }] of picked.entries()) {
      for (const text of variants(record, rng, n < 6)) {
        assertSame(text, `${kind} variant`, [undefined, kind]);
        compared++;
      }
    }
    assert.ok(compared > 2_000, `${compared} variants`);
  });

  it('agrees with the usual way on the hostile records', () => {
    for (const h of hostileRecords(400, 'record-bytes')) {
      if (h.tooDeep) continue;
      const text = JSON.stringify(h.record);
      if (text === undefined) continue;
      assertSame(text, h.label, [undefined, h.kind]);
    }
  });

  it('marks as sent every numeric field that is a number other than 0, a negative one too (an error, yet not a default)', () => {
    const fields = numericFieldsOf('activity');
    const bit = (name: string) => 1 << fields.indexOf(name);
    assert.ok(fields.includes('steps') && fields.includes('calories') && fields.includes('distance'), fields.join(', '));
    const base = { steps: 0, calories: 0, distance: 0 };
    assert.equal(sentMaskOf(base, 'activity'), 0);
    assert.equal(sentMaskOf({ ...base, steps: -0 }, 'activity'), 0);
    assert.equal(sentMaskOf({ ...base, steps: 12 }, 'activity'), bit('steps'));
    assert.equal(sentMaskOf({ ...base, steps: -12, calories: 0.5 }, 'activity'), bit('steps') | bit('calories'));
    assert.equal(sentMaskOf({ ...base, distance: '3', calories: null }, 'activity'), 0);
    assert.equal(sentMaskOf([1], 'activity'), 0);
    // The fast path gives the same mask for a record it takes.
    const [plain] = sandboxRecords().filter((r) => r.kind === 'activity');
    const record = { ...plain.record, steps: 1234, calories: 0, distance: 0 };
    const unit: RecordUnit = { bytes: Buffer.from(JSON.stringify(record)), shape: 'element', index: 0, pointer: '/0', line: 1, column: 1 };
    const checked = checkUnit(unit, 'activity', NOW, true, true);
    assert.ok('records' in checked, JSON.stringify(checked));
    const mask = sentMaskOf(record, 'activity');
    assert.equal(mask & (bit('steps') | bit('calories') | bit('distance')), bit('steps'));
    assert.equal(checked.records[0].sent, mask);
  });

  it('says where an NDJSON line ends, and gives up on a line that goes on past its newline', () => {
    const clock = clockFor({ now: NOW });
    const line = sandboxRecords()
      .map(({ record }) => JSON.stringify(record))
      .find((text) => checkRecordBytes(Buffer.from(text), 0, Buffer.byteLength(text), undefined, clock) !== undefined)!;
    const bytes = Buffer.from(`${line}\r\n${line}`);
    assert.equal(checkRecordBytes(bytes, 0, bytes.length, undefined, clock, true)?.end, line.length + 1);
    const broken = Buffer.from(`${line.slice(0, -1)}\n}`);
    assert.equal(checkRecordBytes(broken, 0, broken.length, undefined, clock, true), undefined);
  });
});
