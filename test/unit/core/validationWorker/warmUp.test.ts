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
