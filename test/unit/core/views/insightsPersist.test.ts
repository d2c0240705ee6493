// What a restored coverage or trends panel takes from the state its webview kept: checked field
// by field, so a hostile or old state restores nothing rather than a panel that cannot work.
import * as assert from 'node:assert/strict';
import { parsePersistedInsights } from '../../../../src/core/views';

describe('persisted insights panels', () => {
  it('takes the resource, range, source, human filter, human shown and environment', () => {
    const persist = { kind: 'activity', start: '2026-11-01', end: '2026-11-20', source: 'fitbit', human: 'h1', description: 'Last 20 days', humanId: 'h1', environment: 'Staging', host: 'staging.example.com' };
    assert.deepEqual(parsePersistedInsights({ persist }), persist);
  });

  it('leaves out what is not text, and empty text', () => {
    assert.deepEqual(parsePersistedInsights({ persist: { start: '2026-11-01', end: '2026-11-01', source: '', human: ['h1'], humanId: 42, environment: { name: 'x' } } }), {
      kind: undefined,
      start: '2026-11-01',
      end: '2026-11-01',
      source: undefined,
      human: undefined,
      description: undefined,
      humanId: undefined,
      environment: undefined,
      host: undefined,
    });
  });

  it('refuses a state without a range of days, or with a resource that is none', () => {
    for (const state of [undefined, null, 'x', {}, { persist: null }, { persist: { start: 'yesterday', end: '2026-11-01' } }, { persist: { start: '2026-11-01' } }, { persist: { kind: 'steps', start: '2026-11-01', end: '2026-11-01' } }]) {
      assert.equal(parsePersistedInsights(state), undefined, JSON.stringify(state));
    }
  });
});
