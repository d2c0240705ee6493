// What the host takes from a coverage or trends webview: each message checked field by field, so
// a message a webview could not have sent (or a hostile one) is dropped instead of acted on.
import * as assert from 'node:assert/strict';
import { parseInsightsMessage } from '../../../../src/core/views';

describe('messages from the insights webviews', () => {
  it('takes every message the webviews send, with its fields', () => {
    const messages = [
      { type: 'ready' },
      { type: 'reload' },
      { type: 'switchEnvironment' },
      { type: 'selectKind', kind: 'bodyFat' },
      { type: 'cell', source: 'fitbit', field: 'steps', which: 'zero' },
      { type: 'cell', source: null, field: 'steps', which: 'absent' },
      { type: 'open', kind: 'activity', ref: 12 },
      { type: 'setRange', start: '2026-11-01', end: '2026-11-20' },
      { type: 'selectHuman', humanId: 'c6f6b8966430b7058995a75783cdb4cc' },
    ];
    for (const m of messages) assert.deepEqual(parseInsightsMessage(m), m);
  });

  it('keeps only the fields a message has', () => {
    assert.deepEqual(parseInsightsMessage({ type: 'switchEnvironment', environment: 'Production' }), { type: 'switchEnvironment' });
    assert.deepEqual(parseInsightsMessage({ type: 'reload', kind: 'activity' }), { type: 'reload' });
  });

  it('drops anything else', () => {
    for (const m of [
      undefined,
      null,
      'reload',
      42,
      {},
      { type: 'unknown' },
      { type: 'selectKind', kind: 'sleep' },
      { type: 'cell', source: 'fitbit', field: 'steps', which: 'many' },
      { type: 'cell', source: 7, field: 'steps', which: 'zero' },
      { type: 'open', kind: 'activity', ref: -1 },
      { type: 'open', kind: 'activity', ref: 1.5 },
      { type: 'setRange', start: '2026-11-01' },
      { type: 'setRange', start: 'x'.repeat(21), end: '2026-11-20' },
      { type: 'selectHuman', humanId: 'x'.repeat(10_001) },
    ]) {
      assert.equal(parseInsightsMessage(m), undefined, JSON.stringify(m)?.slice(0, 80));
    }
  });
});
