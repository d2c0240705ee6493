// A large file read twice under a rule that names a 0 that stands out: its sources counted by the
// first pass (in batches, merged), its records' zeros said from those counts by the second.
import * as assert from 'node:assert/strict';
import { MAX_COUNTED, SentCounter, ZeroSayer } from '../../../src/cli/streamedZeros';
import type { PositionedFinding, RecordReport } from '../../../src/core/streaming';

// activity's numeric fields in schema order: duration, distance, steps, vigorous, moderate, light, sedentary, calories.
const ALL = 0b11111111;
const NO_STEPS = ALL & ~0b100;
const stepsZero = Object.freeze([{ kind: 'zero', path: '/steps', message: '0 — this source may not provide steps' }] as const) as readonly PositionedFinding[];

function report(source: string | null, sent: number, findings: readonly PositionedFinding[], extra: Partial<RecordReport> = {}): RecordReport {
  return { index: 0, pointer: '', kind: 'activity', id: 'a', valid: true, date: '2026-11-20', line: 1, column: 1, findings, source, sent, ...extra };
}

describe('a streamed file read twice: its sources counted, then its zeros said', () => {
  it('counts each kind and source in one place or in batches merged, at most MAX_COUNTED of them', () => {
    const records = [...Array.from({ length: 40 }, () => report('band', ALL, [])), report('band', NO_STEPS, stepsZero), ...Array.from({ length: 30 }, () => report('phone', NO_STEPS, stepsZero)), report(null, ALL, [])];
    const whole = new SentCounter();
    for (const r of records) whole.add(r);
    const merged = new SentCounter();
    for (let from = 0; from < records.length; from += 9) {
      const batch = new SentCounter();
      for (const r of records.slice(from, from + 9)) batch.add(r);
      merged.merge(JSON.parse(JSON.stringify(batch.data())));
    }
    assert.deepEqual(merged.data(), whole.data());
    assert.deepEqual(
      whole.data().map((c) => [c.source, c.records, c.sent[2], c.sent[0]]),
      [
        ['band', 41, 40, 41],
        ['phone', 30, 0, 30],
      ],
    );
    // A hostile file of a source per record: memory stays bounded.
    const many = new SentCounter();
    for (let i = 0; i < MAX_COUNTED + 200; i++) many.add(report(`s${i}`, ALL, []));
    assert.equal(many.data().length, MAX_COUNTED);
  });

  it('says each zero of a top-level numeric field from its source’s count, in a file read whole’s words', () => {
    const counter = new SentCounter();
    const records = [...Array.from({ length: 40 }, () => report('band', ALL, [])), report('band', NO_STEPS, stepsZero), ...Array.from({ length: 30 }, () => report('phone', NO_STEPS, stepsZero)), report('lone', NO_STEPS, stepsZero)];
    for (const r of records) counter.add(r);
    const sayer = new ZeroSayer(counter.data(), 'in this file');
    const band = sayer.say(report('band', NO_STEPS, stepsZero));
    assert.deepEqual(band.findings, [{ kind: 'zero', path: '/steps', message: '0 — unusual for band: steps is not 0 on all its 40 other records in this file', standsOut: true }]);
    // Records that share a findings list share what is said of it.
    const phone = sayer.say(report('phone', NO_STEPS, stepsZero));
    assert.equal(phone.findings, sayer.say(report('phone', NO_STEPS, stepsZero)).findings);
    assert.deepEqual(phone.findings, [{ kind: 'zero', path: '/steps', message: '0 — phone does not provide steps: 0 on all its 29 other records in this file' }]);
    // A record of a list (its pointers in the payload), placed findings kept where they are.
    const element = sayer.say(report('band', NO_STEPS, [{ kind: 'zero', path: '/data/3/steps', message: 'm', line: 7, column: 5 }], { pointer: '/data/3', index: 3 }));
    assert.deepEqual(element.findings, [{ kind: 'zero', path: '/data/3/steps', message: '0 — unusual for band: steps is not 0 on all its 40 other records in this file', line: 7, column: 5, standsOut: true }]);
    // Left as they are: a zone's 0, another finding, a source with no other record, no source, a source not counted.
    const kept: PositionedFinding[] = [
      { kind: 'zero', path: '/zones/1/min', message: 'zone' },
      { kind: 'deprecated', path: '/userId', message: 'userId is deprecated' },
    ];
    const r = report('band', NO_STEPS, kept);
    assert.equal(sayer.say(r), r);
    for (const source of ['lone', null, 'elsewhere']) {
      const other = report(source, NO_STEPS, stepsZero);
      assert.equal(sayer.say(other), other, String(source));
    }
    // A syntax error's result passes through; a batch where nothing changes is the same object.
    const results = [{ syntaxError: 'not JSON' }, { records: [r] }];
    assert.deepEqual(sayer.sayAll(results), results);
    assert.equal(sayer.sayAll(results)[1], results[1]);
  });
});
