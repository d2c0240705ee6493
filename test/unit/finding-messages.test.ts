// Finding messages quote payload text; control characters and direction overrides in it are
// written out, so they can neither hide text nor turn the message's own words around.
import * as assert from 'node:assert/strict';
import { validate } from '../../src/core/validator';
import { generateDataset } from '../../src/sandbox/data';

describe('finding messages', () => {
  const record = generateDataset({ today: '2026-11-20', days: 1, humans: 1, seed: 'messages' }).activity[0] as unknown as Record<string, unknown>;

  it('write a direction override in an unknown key as \\u202e', () => {
    const findings = validate({ ...record, '\u202Ekey': 1 }, 'activity').findings;
    const unknown = findings.find((f) => f.kind === 'unknown');
    assert.ok(unknown);
    assert.ok(!/[\u202a-\u202e\u2066-\u2069]/.test(unknown.message), unknown.message);
    assert.match(unknown.message, /\\u202ekey is not defined/);
  });

  it('write control characters in a bad value out, and keep messages short', () => {
    const findings = validate({ ...record, date: `2026\u0000-\u001b[31m${'x'.repeat(5000)}` }, 'activity').findings;
    const error = findings.find((f) => f.path === '/date');
    assert.ok(error);
    assert.ok(!/[\u0000-\u001f]/.test(error.message), JSON.stringify(error.message));
    assert.ok(error.message.length < 400);
  });
});
