// The insights webviews' words: the host's strings filled in, and a sentence about one thing in
// the singular when the host sent one (`key.one`). The module runs in a webview; here it is given
// the one thing it asks of one at load, VS Code's API object, as a plain object.
import * as assert from 'node:assert/strict';

(globalThis as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => ({ postMessage: () => undefined, setState: () => undefined });
const dom = require('../../../src/webview/insights/dom') as typeof import('../../../src/webview/insights/dom');

describe('insights webview words', () => {
  it('fills in the host\'s strings, and says one thing in the singular when the host sent how', () => {
    dom.setStrings({ recordCount: '{0} records', 'recordCount.one': '1 record', dayCount: '{0} days', sourceSummary: '{0}, {1}, {2} – {3}' });
    assert.equal(dom.tn('recordCount', 1, 1), '1 record');
    assert.equal(dom.tn('recordCount', 0, 0), '0 records');
    assert.equal(dom.tn('recordCount', 12, 12), '12 records');
    // No singular sent: the plural form stands.
    assert.equal(dom.tn('dayCount', 1, 1), '1 days');
    assert.equal(dom.t('sourceSummary', dom.tn('recordCount', 1, 1), dom.tn('dayCount', 3, 3), '2026-11-01', '2026-11-03'), '1 record, 3 days, 2026-11-01 – 2026-11-03');
    // A key the host did not send is shown as it is; a placeholder without an argument stays.
    assert.equal(dom.t('missing {0}'), 'missing {0}');
  });
});
