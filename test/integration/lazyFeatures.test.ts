// The features loaded on first use, in the real extension host: activation reads dist/extension.js
// and none of the lazy bundles; each feature comes from its own dist/<name>.js when first used and
// keeps its commands; a command called before its feature is loaded gets the real command's
// result for the same arguments (src/extension/shared/lazyFeature.ts).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LazyFeature } from '../../src/extension/shared/lazyFeature';
import { registerCommands } from '../../src/extension/shared/commands';
import { EXTENSION_ID, captureMessages, extensionApi } from './support/extension';
import { activationSnapshot, loadedBundles } from './support/lazyBundles';

describe('features loaded on first use', () => {
  it('activation loads dist/extension.js and no lazy bundle', async () => {
    const api = await extensionApi();
    const { bundles, loadedFeatures } = activationSnapshot();
    assert.ok(bundles.includes('extension'), `dist/extension.js is not among the loaded modules: ${bundles.join(', ')}`);
    // The panels' own code and words come with the first panel; activation registers only their serializers.
    const lazy = [...api.lazyFeatures.map((f) => f.name), 'sandbox', 'validators', 'recordPanel', 'exchangePanel', 'exchangeStrings'];
    assert.ok(lazy.length >= 10, `only ${lazy.length} lazy bundles`);
    assert.deepEqual(bundles.filter((b) => lazy.includes(b)), [], 'lazy bundles loaded by activation');
    assert.deepEqual(loadedFeatures, [], 'features loaded by activation');
  });

  it('each feature comes from its own bundle, and every command package.json contributes stays registered', async () => {
    const api = await extensionApi();
    for (const feature of api.lazyFeatures) {
      feature.ensureLoaded();
      assert.equal(feature.loaded, true, feature.name);
      assert.ok(loadedBundles().includes(feature.name), `dist/${feature.name}.js is not loaded after ${feature.name} was`);
    }
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const contributed = (ext.packageJSON.contributes.commands as Array<{ command: string }>).map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(contributed.filter((id) => !registered.has(id)), [], 'contributed commands lost when their feature loaded');
    const lazyIds = api.lazyFeatures.flatMap((f) => f.commands);
    assert.deepEqual(lazyIds.filter((id) => !contributed.includes(id)), [], 'a lazy feature lists a command package.json does not contribute');
    assert.equal(new Set(lazyIds).size, lazyIds.length, 'a command is listed by two lazy features');
  });

  it('the record panel\'s code comes from dist/recordPanel.js (not loaded at activation, above) once a record is opened, and the panel works', async () => {
    const api = await extensionApi();
    const record = { id: 'lazy-panel-1', date: '2026-11-20', source: 'lazy', steps: 0 };
    await vscode.commands.executeCommand('healthData.openRecord', { kind: 'activity', record });
    try {
      assert.ok(loadedBundles().includes('recordPanel'), `dist/recordPanel.js is not loaded: ${loadedBundles().join(', ')}`);
      const panel = api.recordViews.get('activity/lazy-panel-1');
      assert.ok(panel, 'no panel for the record');
      // The panel's model came from the bundle's code: the zero-default field is marked.
      assert.ok(panel.currentModel.counts.zero >= 1, JSON.stringify(panel.currentModel.counts));
    } finally {
      api.recordViews.closeAll();
    }
  });

  describe('a command called before its feature is loaded', () => {
    const id = 'healthData.test.lazyFeature';
    let disposables: vscode.Disposable[] = [];
    afterEach(() => {
      for (const d of disposables) d.dispose();
      disposables = [];
    });

    it('loads the feature once and returns the real command\'s result for the very same arguments', async () => {
      let loads = 0;
      const calls: unknown[][] = [];
      const feature = new LazyFeature({
        name: 'test',
        commands: [id],
        load: () => {
          loads++;
          return registerCommands({ [id]: (...args: unknown[]) => (calls.push(args), `result ${calls.length}`) }, () => undefined);
        },
        disposables: (d) => d,
      });
      disposables.push(feature);
      assert.equal(feature.loaded, false);
      const token = new vscode.CancellationTokenSource().token;
      const arg = { uri: vscode.Uri.file('/tmp/x.json'), cancellation: token, run: () => 1 };
      assert.equal(await vscode.commands.executeCommand(id, arg, 2), 'result 1');
      assert.equal(feature.loaded, true);
      assert.equal(calls[0][0], arg, 'the argument object was not handed over as it was');
      assert.equal(calls[0][1], 2);
      assert.equal(await vscode.commands.executeCommand(id), 'result 2');
      assert.equal(loads, 1);
      feature.dispose();
      assert.ok(!(await vscode.commands.getCommands(true)).includes(id), 'the command outlived its feature');
    });

    it('says so when the feature cannot be loaded, and tries again on the next call', async () => {
      let fail = true;
      const feature = new LazyFeature({
        name: 'broken',
        commands: [id],
        load: () => {
          if (fail) throw new Error("Cannot find module './broken.js'");
          return registerCommands({ [id]: () => 'loaded' }, () => undefined);
        },
        disposables: (d) => d,
      });
      disposables.push(feature);
      const messages = captureMessages(['error']);
      try {
        assert.equal(await vscode.commands.executeCommand(id), undefined);
        assert.equal(messages.shown.length, 1);
        assert.match(messages.shown[0].text, /broken could not be loaded \(Cannot find module '\.\/broken\.js'\)/);
        assert.equal(feature.loaded, false);
        fail = false;
        assert.equal(await vscode.commands.executeCommand(id), 'loaded');
        assert.equal(feature.loaded, true);
      } finally {
        messages.restore();
      }
    });
  });
});
