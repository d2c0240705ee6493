// The warm-up of payload validation (src/core/validationWorker/warmUp.ts): its made-up records
// take every path a real validation takes (every kind, every kind of finding, placed on the
// text), and the stepped warm-up gives the caller's event loop a turn between its steps.
import * as assert from 'node:assert/strict';
import { RESOURCES } from '../../../../src/core/resources';
import { FINDING_KINDS, validatePayloadText } from '../../../../src/core/validation';
import { WARM_UP_STEPS, warmUpText, warmUpValidation, warmUpValidationInSteps } from '../../../../src/core/validationWorker';

describe('validation warm-up', () => {
  it('makes up records of every kind with every kind of finding, placed on the text', () => {
    const text = warmUpText(WARM_UP_STEPS[2]);
    const validation = validatePayloadText(text);
    assert.deepEqual(validation.syntaxErrors, []);
    assert.equal(validation.records.length, WARM_UP_STEPS[2]);
    assert.deepEqual(new Set(validation.records.map((r) => r.kind).filter((k) => k !== undefined)), new Set(RESOURCES.map((r) => r.kind)));
    assert.ok(validation.records.some((r) => r.valid), 'some records are valid');
    assert.deepEqual(new Set(validation.findings.map((f) => f.kind)), new Set(FINDING_KINDS));
    for (const f of validation.findings) assert.ok(f.missing || f.length > 0, `${f.pointer} is placed`);
  });

  it('writes dates and times as the service\'s records do, so the first real validation takes no branch the warm-up left out', () => {
    const records = JSON.parse(warmUpText(WARM_UP_STEPS[2], true)) as Array<Record<string, unknown>>;
    const strings = (field: string) => records.map((r) => r[field]).filter((v): v is string => typeof v === 'string');
    const days = new Set(strings('date').map((d) => Number(d.slice(8, 10))));
    assert.ok([...days].some((d) => d < 10) && [...days].some((d) => d >= 20 && d < 29) && [...days].some((d) => d >= 29), `days ${[...days].join()}`);
    // Without and with milliseconds, in UTC and with an offset.
    for (const form of [/T\d\d:\d\d:\d\dZ$/, /T\d\d:\d\d:\d\d\.\d+Z$/, /T\d\d:\d\d:\d\d[+-]\d\d:\d\d$/]) {
      assert.ok(strings('createdAt').some((t) => form.test(t)), `a createdAt like ${form}`);
    }
    // Updated after created: as text in the same UTC shape, and with an offset (read as times).
    const pairs = records.filter((r) => typeof r.createdAt === 'string' && typeof r.updatedAt === 'string');
    assert.ok(pairs.length > 0 && pairs.every((r) => Date.parse(r.updatedAt as string) > Date.parse(r.createdAt as string)));
    assert.ok(pairs.some((r) => String(r.createdAt).endsWith('Z') && String(r.createdAt).length === String(r.updatedAt).length));
    assert.ok(pairs.some((r) => !String(r.createdAt).endsWith('Z')));
  });

  it('runs a step at a time, pausing after each, and stops when told', async () => {
    let pauses = 0;
    const cost = await warmUpValidationInSteps(async () => {
      pauses++;
    });
    assert.equal(cost.steps, WARM_UP_STEPS.length);
    assert.equal(pauses, WARM_UP_STEPS.length);
    assert.ok(cost.longestStepMs <= cost.totalMs && cost.totalMs > 0);
    let more = 3;
    const stopped = await warmUpValidationInSteps(async () => undefined, () => more-- <= 0);
    assert.equal(stopped.steps, 3);
  });

  it('runs at once for a thread with nothing else to do', () => {
    assert.doesNotThrow(() => warmUpValidation());
  });
});
