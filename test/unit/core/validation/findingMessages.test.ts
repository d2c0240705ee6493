// Finding messages quote payload text; control characters and direction overrides in it are
// written out, so they can neither hide text nor turn the message's own words around.
import * as assert from 'node:assert/strict';
import { MAX_ZONE_ROWS, buildRecordViewModel } from '../../../../src/core/views';
import { MAX_QUOTED, truncate, validate } from '../../../../src/core/validation';
import { generateDataset } from '../../../../src/sandbox/data';

describe('finding messages', () => {
  const record = generateDataset({ today: '2026-11-20', days: 1, humans: 1, seed: 'messages' }).activity[0] as unknown as Record<string, unknown>;

  it('write a direction override in an unknown key as \\u202e', () => {
    const findings = validate({ ...record, '\u202Ekey': 1 }, 'activity').findings;
    const unknown = findings.find((f) => f.kind === 'unknown');
    assert.ok(unknown);
    assert.ok(!/[\u202a-\u202e\u2066-\u2069]/.test(unknown.message), unknown.message);
    assert.match(unknown.message, /\\u202ekey is not defined/);
  });

  it('quote a value of MAX_QUOTED characters whole, and cut one longer to MAX_QUOTED with an ellipsis', () => {
    assert.equal(MAX_QUOTED, 60);
    const exact = 'x'.repeat(MAX_QUOTED);
    assert.equal(truncate(exact), exact);
    assert.equal(truncate(`${exact}y`), `${'x'.repeat(MAX_QUOTED - 1)}…`);
    // In a finding: an unknown unit of exactly 60 characters is quoted whole.
    const unknownUnit = validate({ ...record, date: exact }, 'activity').findings.find((f) => f.path === '/date');
    assert.ok(unknownUnit?.message.includes(exact), unknownUnit?.message);
  });

  it('write control characters in a bad value out, and keep messages short', () => {
    const findings = validate({ ...record, date: `2026\u0000-\u001b[31m${'x'.repeat(5000)}` }, 'activity').findings;
    const error = findings.find((f) => f.path === '/date');
    assert.ok(error);
    assert.ok(!/[\u0000-\u001f]/.test(error.message), JSON.stringify(error.message));
    assert.ok(error.message.length < 400);
  });
});

describe('record view zones of a hostile record', () => {
  it('caps the rows and cuts the names', () => {
    const hr = generateDataset({ today: '2026-11-20', days: 1, humans: 1, seed: 'zones' }).heartRate[0] as unknown as Record<string, unknown>;
    const zones = Array.from({ length: 5000 }, (_, i) => ({ name: `z${i}${'n'.repeat(i === 0 ? 1_000_000 : 0)}`, min: 1, max: 2, duration: 60, caloriesBurned: 1 }));
    const record = { ...hr, zones };
    const model = buildRecordViewModel(record, 'heartRate', validate(record, 'heartRate').findings);
    assert.equal(model.zones?.length, MAX_ZONE_ROWS);
    assert.ok((model.zones?.[0].name.length ?? 0) <= 120);
    assert.ok(JSON.stringify(model).length < 200_000);
  });
});
