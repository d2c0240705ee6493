// Records how long activate() took in this real extension host (the API's activationMs, entry
// to return), in test-results/activation.json under the repository, for `npm run bench` to
// report. It checks no time limit: benchmarks judge time, tests judge behaviour.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, extensionApi } from './support/extension';

describe('activation time', () => {
  it('is reported by the extension API and written for the benchmarks', async () => {
    const api = await extensionApi();
    assert.equal(typeof api.activationMs, 'number');
    assert.ok(Number.isFinite(api.activationMs) && api.activationMs >= 0, `activationMs is ${api.activationMs}`);
    // The extension under test is this repository (extensionDevelopmentPath).
    const root = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const file = path.join(root, 'test-results', 'activation.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const bundle = path.join(root, 'dist', 'extension.js');
    const record = {
      activationMs: api.activationMs,
      measuredAt: new Date().toISOString(),
      vscodeVersion: vscode.version,
      // A development bundle (with a source map) loads a little slower than the production one.
      production: !/\/\/# sourceMappingURL=\S+\s*$/.test(fs.readFileSync(bundle, 'utf8').slice(-200)),
      bundleBytes: fs.statSync(bundle).size,
    };
    fs.writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  });
});
