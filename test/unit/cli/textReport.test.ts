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
        reports.push({ index: i, pointer, kind: 'activity', id: `a${i}`, valid, date: null, line: 1, column: 1, findings: findings.map((f) => ({ ...f, path: pointer + f.path })), source: null, sent: 0 });
      } else reports.push({ index: i, pointer: '', kind: 'heartRate', id: `h${i}`, valid, date: '2026-11-20', line: i + 1, column: 1, findings, source: null, sent: 0 });
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

  it('says the zeros of streamed records from the file’s count of their source, gathered in one place or in batches merged', () => {
    // activity's numeric fields in schema order: duration, distance, steps, vigorous, moderate, light, sedentary, calories.
    const all = 0b11111111;
    const noSteps = all & ~0b100;
    const stepsZero = Object.freeze([{ kind: 'zero', path: '/steps', message: '0 — this source may not provide steps' }] as const);
    const none = Object.freeze([] as const);
    const reports: RecordReport[] = [];
    const add = (source: string | null, sent: number, findings: readonly PositionedFinding[]) =>
      reports.push({ index: reports.length, pointer: '', kind: 'activity', id: `a${reports.length}`, valid: true, date: '2026-11-20', line: reports.length + 1, column: 1, findings, source, sent });
    // The phone: 30 records, steps 0 on each. The band: 40 records with steps, one without (not worn).
    for (let i = 0; i < 30; i++) add('phone', noSteps, stepsZero);
    for (let i = 0; i < 40; i++) add('band', all, none);
    add('band', noSteps, stepsZero);
    // A record whose source is no string keeps its own words.
    add(null, noSteps, stepsZero);
    const whole = new FindingGroups();
    for (const r of reports) whole.addStreamed(r);
    const said = whole.said('in this file').groups.map((g) => [g.message, g.records, g.standsOut === true]);
    assert.deepEqual(said, [
      ['0 — phone does not provide steps: 0 on all its 29 other records in this file', 30, false],
      ['0 — unusual for band: steps is not 0 on all its 40 other records in this file', 1, true],
      ['0 — this source may not provide steps', 1, false],
    ]);
    // In batches (as worker threads gather them), merged in file order: the same words.
    const merged = new FindingGroups();
    for (let from = 0; from < reports.length; from += 17) {
      const batch = new FindingGroups();
      for (const r of reports.slice(from, from + 17)) batch.addStreamed(r);
      merged.merge(JSON.parse(JSON.stringify(batch.data())));
    }
    assert.deepEqual(merged.said('in standard input').groups.map((g) => [g.message.replace('in standard input', 'in this file'), g.records, g.standsOut === true]), said);
    assert.deepEqual(merged.data().sources, whole.data().sources);
    // The band's one 0 stands out, on a record that fails nothing else.
    const { zeros, records } = whole.said('in this file');
    assert.deepEqual([zeros, records], [1, 1]);
    assert.deepEqual([merged.said('in this file').zeros, merged.said('in this file').records], [1, 1]);
  });

  it('counts the records a 0 that stands out fails once the file is read: each once, not those that fail already', () => {
    const all = 0b11111111;
    const stepsZero = Object.freeze([{ kind: 'zero', path: '/steps', message: '0 — this source may not provide steps' }] as const);
    const bothZero = Object.freeze([
      { kind: 'zero', path: '/distance', message: '0 — this source may not provide distance' },
      { kind: 'zero', path: '/steps', message: '0 — this source may not provide steps' },
    ] as const);
    const reports: Array<[RecordReport, boolean]> = [];
    const add = (sent: number, findings: readonly PositionedFinding[], fails = false) =>
      reports.push([{ index: reports.length, pointer: '', kind: 'activity', id: `a${reports.length}`, valid: true, date: '2026-11-20', line: reports.length + 1, column: 1, findings, source: 'band', sent }, fails]);
    for (let i = 0; i < 40; i++) add(all, []);
    add(all & ~0b100, stepsZero, true); // fails the run already (a finding --fail-on names)
    add(all & ~0b100, stepsZero);
    add(all & ~0b110, bothZero); // two zeros that stand out, one record
    const whole = new FindingGroups();
    for (const [r, fails] of reports) whole.addStreamed(r, fails);
    const said = whole.said('in this file');
    assert.deepEqual(
      said.groups.map((g) => [g.path, g.records, g.standsOut === true]),
      [
        ['/steps', 3, true],
        ['/distance', 1, true],
      ],
    );
    assert.deepEqual([said.zeros, said.records], [4, 2]);
    // Gathered in batches on worker threads and merged: the same.
    const merged = new FindingGroups();
    for (let from = 0; from < reports.length; from += 7) {
      const batch = new FindingGroups();
      for (const [r, fails] of reports.slice(from, from + 7)) batch.addStreamed(r, fails);
      merged.merge(JSON.parse(JSON.stringify(batch.data())));
    }
    const again = merged.said('in this file');
    assert.deepEqual([again.zeros, again.records], [4, 2]);
    // A band of fewer records says no 0 stands out: nothing to count.
    const few = new FindingGroups();
    for (const [r, fails] of reports.slice(30)) few.addStreamed(r, fails);
    assert.deepEqual([few.said('in this file').zeros, few.said('in this file').records], [0, 0]);
  });

  it('counts at most 1,000 sources of a file: the records of those met later keep their own words, in one place or merged', () => {
    const stepsZero = Object.freeze([{ kind: 'zero', path: '/steps', message: '0 — this source may not provide steps' }] as const);
    const reports: RecordReport[] = [];
    // 1,200 sources of two records each, both with steps 0 (a hostile file: a source per record pair).
    for (let i = 0; i < 2_400; i++) {
      reports.push({ index: i, pointer: '', kind: 'activity', id: `a${i}`, valid: true, date: '2026-11-20', line: i + 1, column: 1, findings: stepsZero, source: `s${i >> 1}`, sent: 0b11111011 });
    }
    const whole = new FindingGroups();
    for (const r of reports) whole.addStreamed(r);
    assert.equal(whole.data().sources.length, 1_000);
    const said = whole.said('in this file').groups;
    assert.equal(said.length, 1_001);
    assert.equal(said[0].message, '0 — s0 may not provide steps: 0 on its other record in this file');
    const rest = said.filter((g) => g.message === '0 — this source may not provide steps');
    assert.deepEqual(rest.map((g) => g.records), [400]);
    const merged = new FindingGroups();
    for (let from = 0; from < reports.length; from += 100) {
      const batch = new FindingGroups();
      for (const r of reports.slice(from, from + 100)) batch.addStreamed(r);
      merged.merge(JSON.parse(JSON.stringify(batch.data())));
    }
    assert.deepEqual(merged.said('in this file').groups, said);
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
