// Records whose findings are all shared ones (userId deprecated, the same zeros) get one frozen
// array between them: the findings must be the same as a record validated alone, and no caller
// can change another record's list through its own.
import * as assert from 'node:assert/strict';
import { validate, validatePayload } from '../../../../src/core/validation';
import { generateDataset } from '../../../../src/sandbox/data';
import { hostileRecords } from '../../support/hostileRecords';

const NOW = Date.parse('2026-11-20T12:00:00Z');

describe('shared finding lists', () => {
  it('give every record of a mixed and hostile list the findings it has when validated alone', () => {
    const dataset = generateDataset({ seed: 'shared', today: '2026-11-20', days: 60, humans: 2 });
    const mixed: unknown[] = [...dataset.heartRate, ...dataset.activity, ...dataset.bodyFat].flatMap((r, i) => [
      r,
      i % 5 === 0 ? { ...(r as object), steps: 0, extra: i } : r,
      i % 7 === 0 ? { ...(r as object), value: -1 } : r,
    ]);
    const list = [...mixed, ...hostileRecords(40).filter((h) => !h.tooDeep).map((h) => h.record)];
    const results = validatePayload(list, undefined, { now: NOW });
    let shared = 0;
    results.forEach((r, i) => {
      // The record validated alone, after every other record: the same findings whatever came before.
      const alone = validate(list[i], undefined, { now: NOW });
      if (alone.findings.length > 0 && alone.findings.every((f) => Object.isFrozen(f))) shared++;
      assert.deepEqual(
        r.findings.map((f) => [f.kind, f.path, f.message]),
        alone.findings.map((f) => [f.kind, f.path, f.message]),
        `record ${i}`,
      );
    });
    assert.ok(shared > 100, `${shared} records with shared findings only`);
  });

  it('stay each record\'s own when records with hundreds or thousands of findings come between ordinary ones', () => {
    // The findings are gathered in one array reused from record to record, which goes back to a
    // fixed length once it passes a limit (1,280 entries); records this wide cross it on their own.
    const dataset = generateDataset({ seed: 'wide', today: '2026-11-20', days: 40, humans: 1 });
    const wide = (record: object, n: number) => ({ ...record, ...Object.fromEntries(Array.from({ length: n }, (_, k) => [`extra${k}`, k])) });
    const list: unknown[] = dataset.activity.flatMap((r, i) => (i % 9 === 4 ? [wide(r, i % 2 === 0 ? 300 : 3000), r] : [r]));
    const results = validatePayload(list, 'activity', { now: NOW });
    assert.equal(results.length, list.length);
    let wideSeen = 0;
    results.forEach((r, i) => {
      const alone = validate(list[i], 'activity', { now: NOW });
      if (alone.findings.length >= 300) wideSeen++;
      assert.deepEqual(
        r.findings.map((f) => [f.kind, f.path, f.message]),
        alone.findings.map((f) => [f.kind, f.path, f.message]),
        `record ${i}`,
      );
    });
    assert.ok(wideSeen >= 4, `${wideSeen} wide records`);
  });

  it('are frozen when shared, so a change to one record\'s list throws instead of changing others', () => {
    const [a, b] = generateDataset({ seed: 'frozen', today: '2026-11-20', days: 2, humans: 1 }).activity;
    const ra = validate({ ...a, steps: 0 }, 'activity', { now: NOW });
    const rb = validate({ ...b, steps: 0 }, 'activity', { now: NOW });
    assert.ok(ra.findings.length > 0);
    assert.equal(ra.findings, rb.findings);
    assert.ok(Object.isFrozen(ra.findings));
    assert.throws(() => (ra.findings as unknown as unknown[]).push({}), TypeError);
    // A record with a finding of its own (a warning) gets its own array.
    const own = validate({ ...a, updatedAt: '2000-01-01T00:00:00Z' }, 'activity', { now: NOW });
    assert.ok(own.findings.some((f) => f.kind === 'warning'));
    assert.ok(!Object.isFrozen(own.findings));
  });
});
