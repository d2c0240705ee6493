// The rules of a run (--fail-on, --omit) and a 0 that stands out: `unusual` names it alone,
// `zero` names every 0 to --fail-on, and --omit zero keeps the zeros that stand out.
import * as assert from 'node:assert/strict';
import { ReportTally, findingFails, isOmitted, parseFailOn, parseOmit, recordFails, withoutOmitted } from '../../../../src/core/reports';

const ordinary = { kind: 'zero' as const, path: '/vigorous', message: '0 — fitbit provides vigorous' };
const unusual = { kind: 'zero' as const, path: '/steps', message: '0 — unusual for fitbit', standsOut: true as const };
const deprecated = { kind: 'deprecated' as const, path: '/userId', message: 'userId is deprecated' };
const findings = [ordinary, unusual, deprecated];

describe('--fail-on and --omit with a 0 that stands out', () => {
  it('fails on a 0 that stands out with unusual, on every 0 with zero, and on neither by default', () => {
    const rule = (flags: string[]) => findings.map((f) => findingFails(f, parseFailOn(flags)));
    assert.deepEqual(rule([]), [false, false, false]);
    assert.deepEqual(rule(['unusual']), [false, true, false]);
    assert.deepEqual(rule(['zero']), [true, true, false]);
    assert.deepEqual(rule(['Unusual, deprecated']), [false, true, true]);
    assert.equal(recordFails({ valid: true, findings: [ordinary, deprecated] }, parseFailOn(['unusual'])), false);
    assert.equal(recordFails({ valid: true, findings }, parseFailOn(['unusual'])), true);
  });

  it('leaves a 0 that stands out in with --omit zero and out with --omit unusual', () => {
    const kept = (flags: string[]) => withoutOmitted(findings, parseOmit(flags)).map((f) => f.path);
    assert.deepEqual(kept([]), ['/vigorous', '/steps', '/userId']);
    assert.equal(withoutOmitted(findings, parseOmit([])), findings);
    assert.deepEqual(kept(['zero']), ['/steps', '/userId']);
    assert.deepEqual(kept(['unusual']), ['/vigorous', '/userId']);
    assert.deepEqual(kept(['zero,unusual']), ['/userId']);
    assert.deepEqual(kept(['deprecated']), ['/vigorous', '/steps']);
    assert.equal(isOmitted(unusual, parseOmit(['zero'])), false);
  });

  it('refuses --omit of what --fail-on names, a 0 that stands out counted as a zero', () => {
    assert.throws(() => parseOmit(['unusual'], parseFailOn(['unusual'])), /^Error: --omit unusual and --fail-on unusual cannot go together/);
    assert.throws(() => parseOmit(['unusual'], parseFailOn(['zero'])), /a 0 that stands out is a zero/);
    assert.throws(() => parseOmit(['zero'], parseFailOn(['zero'])), /--omit zero and --fail-on zero cannot go together/);
    assert.throws(() => parseOmit(['error']), /--omit cannot leave errors out/);
    assert.throws(() => parseFailOn(['unusal']), /--fail-on takes error, warning, zero, deprecated, unknown, unusual \(one or more, comma-separated\), not "unusal"/);
    // The zeros that do not stand out may go while the run fails on those that do.
    assert.deepEqual([...parseOmit(['zero'], parseFailOn(['unusual']))], ['zero']);
  });

  it('tallies the records that fail on a 0 that stands out, and counts it with the zeros', () => {
    const tally = new ReportTally(parseFailOn(['unusual']));
    assert.equal(tally.record({ valid: true, findings: [ordinary, deprecated] }), false);
    assert.equal(tally.record({ valid: true, findings }), true);
    assert.deepEqual([tally.records, tally.failing, tally.counts.zero, tally.standingOut, tally.failed], [2, 1, 3, 1, true]);
  });

  it('counts the zeros of a streamed file judged at its end as those of a file read whole', () => {
    // A streamed file's records, tallied as they came: 10 zeros among them, none judged yet.
    const late = (failOn: string[], omit: string[]) => {
      const tally = new ReportTally(parseFailOn(failOn), parseOmit(omit, parseFailOn(failOn)));
      for (let i = 0; i < 10; i++) tally.record({ valid: true, findings: [ordinary] });
      // At the end: 3 of those zeros stand out, on 2 records that fail nothing else.
      tally.zerosJudgedLate(10, 3, 2);
      return [tally.counts.zero, tally.standingOut, tally.failing, tally.failed];
    };
    assert.deepEqual(late([], []), [10, 3, 0, false]);
    assert.deepEqual(late(['unusual'], []), [10, 3, 2, true]);
    // --omit zero keeps the 3 that stand out; --omit unusual leaves them out.
    assert.deepEqual(late(['unusual'], ['zero']), [3, 3, 2, true]);
    assert.deepEqual(late([], ['unusual']), [7, 0, 0, false]);
  });
});
