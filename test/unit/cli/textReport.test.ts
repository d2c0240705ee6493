// The grouped text's memory of a file (FindingGroups): gathered in batches on worker threads and
// merged in file order, it must equal gathering every record in one place; and a finding's pointer
// inside its record, with and without the record's own pointer.
import * as assert from 'node:assert/strict';
import { FindingGroups, pointerInRecord } from '../../../src/cli/textReport';
import { type ReportRecord, streamedRecord } from '../../../src/core/reports';
import type { PositionedFinding, RecordReport } from '../../../src/core/streaming';
import type { FindingKind } from '../../../src/core/validation';

/** Records with findings that repeat in different mixes, some invalid; a fixed pseudo-random walk. */
function sampleRecords(count: number): ReportRecord[] {
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 48_271) % 2_147_483_647;
    return Math.floor((seed / 2_147_483_647) * n);
  };
  const fields = ['steps', 'distance', 'zones/1/min', 'userId', 'note'];
  const kinds: FindingKind[] = ['error', 'warning', 'zero', 'deprecated', 'unknown'];
  return Array.from({ length: count }, (_, index) => {
    const findings = Array.from({ length: next(4) }, () => {
      const f = next(fields.length);
      return { kind: kinds[f], pointer: `/data/${index}/${fields[f]}`, message: `${fields[f]} message ${next(2)}` };
    });
    return { index, pointer: `/data/${index}`, kind: 'activity', id: `r${index}`, date: '2026-11-20', valid: !findings.some((f) => f.kind === 'error'), findings };
  });
}

describe('CLI text report: grouped findings', () => {
  it('merging batches in file order gives what gathering every record in one place gives', () => {
    const records = sampleRecords(5_000);
    const whole = new FindingGroups();
    for (const r of records) whole.add(r);
    for (const size of [1, 7, 333, 2_000, 5_000]) {
      const merged = new FindingGroups();
      for (let at = 0; at < records.length; at += size) {
        const batch = new FindingGroups();
        for (const r of records.slice(at, at + size)) batch.add(r);
        // As it crosses threads: plain data, cloned.
        merged.merge(structuredClone(batch.data()));
      }
      assert.deepEqual(merged.data(), whole.data(), `batches of ${size}`);
    }
    const data = whole.data();
    assert.equal(data.records, 5_000);
    assert.ok(data.invalid > 20 && data.invalidRecords.length === 20);
    assert.ok(data.groups.length >= 10 && data.groups.every((g) => g.places.length <= 6 && g.records >= g.places.length));
    assert.ok(data.groups.some((g) => g.path === '/zones/1/min'), 'paths inside the record');
  });

  it('gathers streamed records (shared findings of NDJSON lines, list elements) as it gathers them one by one', () => {
    // NDJSON lines share frozen findings (their pointers are the record's own); list elements
    // have their own, under the record's pointer. Some lists name the same group twice.
    const shared: ReadonlyArray<readonly PositionedFinding[]> = [
      Object.freeze([{ kind: 'zero', path: '/steps', message: 'zero steps' }, { kind: 'deprecated', path: '/userId', message: 'deprecated' }] as const),
      Object.freeze([{ kind: 'error', path: '/zones/1/min', message: 'not a number' }, { kind: 'error', path: '/zones/1/min', message: 'not a number' }] as const),
      Object.freeze([] as const),
    ];
    const reports: RecordReport[] = [];
    for (let i = 0; i < 3_000; i++) {
      const findings = shared[i % 3];
      const valid = !findings.some((f) => f.kind === 'error');
      if (i % 5 === 4) {
        const pointer = `/data/${i}`;
        reports.push({ index: i, pointer, kind: 'activity', id: `a${i}`, valid, date: null, line: 1, column: 1, findings: findings.map((f) => ({ ...f, path: pointer + f.path })) });
      } else reports.push({ index: i, pointer: '', kind: 'heartRate', id: `h${i}`, valid, date: '2026-11-20', line: i + 1, column: 1, findings });
    }
    const fast = new FindingGroups();
    const plain = new FindingGroups();
    for (const r of reports) {
      fast.addStreamed(r);
      plain.add(streamedRecord(r));
    }
    assert.deepEqual(fast.data(), plain.data());
    assert.equal(fast.data().groups.find((g) => g.path === '/zones/1/min')?.records, 1_000, 'a record once in a group');
  });

  it("takes the record's pointer off a finding's; without it, the shortest run of segments that ends in the index", () => {
    assert.equal(pointerInRecord('/data/3/zones/1/min', 3, '/data/3'), '/zones/1/min');
    assert.equal(pointerInRecord('/zones/1/min', 1, ''), '/zones/1/min', 'an NDJSON line: its pointers are the record’s own');
    assert.equal(pointerInRecord('/3', 3, '/3'), '');
    assert.equal(pointerInRecord('/30/steps', 3, '/3'), '/30/steps', 'a pointer is taken off at a segment boundary only');
    assert.equal(pointerInRecord('/data/3/zones/3/min', 3), '/zones/3/min');
    assert.equal(pointerInRecord('/data/31/steps', 3), '/data/31/steps');
    assert.equal(pointerInRecord('/steps', undefined), '/steps');
    assert.equal(pointerInRecord('steps/3', 3), 'steps/3');
  });
});
