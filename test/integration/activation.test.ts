// The first thing the real extension host must show: our extension is there, activates, and
// registers what package.json promises. Runs in a real VS Code (see test/integration/index.ts).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { captureMessages, extensionApi } from './support/extension';

const EXTENSION_ID = 'health-data-tools.health-data-explorer';

interface ContributedCommand {
  command: string;
}

describe('extension activation', () => {
  it('is installed in the extension host', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} not found among ${vscode.extensions.all.length} extensions`);
    assert.equal(ext.packageJSON.publisher, 'health-data-tools');
  });

  it('activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers every command package.json contributes', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    const contributed = ((ext.packageJSON.contributes?.commands ?? []) as ContributedCommand[]).map((c) => c.command);
    assert.ok(contributed.length > 0, 'package.json contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('runs a contributed command: Show Log loads its feature and says nothing went wrong', async () => {
    // healthData.showLog only reveals the output channel: no prompt, no network, so it must
    // resolve on its own. A command that throws makes executeCommand reject; a feature whose
    // bundle cannot be loaded says so in an error message and leaves the feature unloaded.
    const api = await extensionApi();
    const feature = api.lazyFeatures.find((f) => f.commands.includes('healthData.showLog'));
    assert.ok(feature, 'no lazy feature lists healthData.showLog');
    const messages = captureMessages(['error', 'warning']);
    try {
      await vscode.commands.executeCommand('healthData.showLog');
    } finally {
      messages.restore();
    }
    assert.deepEqual(messages.shown, []);
    assert.equal(feature.loaded, true);
  });
});
