// Which bundles of the extension (dist/*.js) this extension host has loaded, and what was loaded
// when activation returned: test/integration/index.ts activates the extension and records it
// before any test runs a command.
import { join, sep } from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID } from './extension';
import type { HealthDataExtensionApi } from '../../../src/extension/extension';

export interface ActivationSnapshot {
  /** The bundles of dist/ in the host's require cache, by name (`extension`, `insights`, …). */
  readonly bundles: readonly string[];
  /** The lazy features the API said were loaded. */
  readonly loadedFeatures: readonly string[];
}

let snapshot: ActivationSnapshot | undefined;

/** The bundles of dist/ that Node's module cache holds now, by name. */
export function loadedBundles(): string[] {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not installed in this host`);
  const dist = join(ext.extensionPath, 'dist') + sep;
  return Object.keys(require.cache)
    .filter((file) => file.startsWith(dist) && file.endsWith('.js'))
    .map((file) => file.slice(dist.length, -'.js'.length))
    .sort();
}

/** Activates the extension (if it is not yet) and records what is loaded right after. */
export async function recordActivation(): Promise<void> {
  const ext = vscode.extensions.getExtension<HealthDataExtensionApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not installed in this host`);
  const api = ext.isActive ? ext.exports : await ext.activate();
  snapshot = { bundles: loadedBundles(), loadedFeatures: api.lazyFeatures.filter((f) => f.loaded).map((f) => f.name) };
}

export function activationSnapshot(): ActivationSnapshot {
  if (!snapshot) throw new Error('test/integration/index.ts did not record the activation');
  return snapshot;
}
