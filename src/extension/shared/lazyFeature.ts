// Features that load on first use. Activation registers each feature's commands as thin
// stand-ins; the first call (or the first read of the feature through the API) requires the
// feature's module, which the extension's build puts in a bundle of its own (dist/<name>.js, see
// scripts/lazyBundles.mjs), lets it register its real commands in their place, and hands the call
// on: the command behaves as if it had been registered at activation.

import * as vscode from 'vscode';

export interface LazyFeatureSpec<T> {
  /** The feature's bundle name (dist/<name>.js), said when it cannot be loaded. */
  readonly name: string;
  /** The ids of the commands it registers when loaded (as package.json contributes them). */
  readonly commands: readonly string[];
  /**
   * Requires the feature and sets it up, registering its commands. Write the `require()` of the
   * feature's entry here, literally: that call is where the build splits the bundle off.
   */
  readonly load: () => T;
  /** What the loaded feature leaves to dispose with the extension (its commands among them). */
  readonly disposables: (feature: T) => readonly vscode.Disposable[];
}

/** What the API and the tests see of a lazy feature. */
export interface LazyFeatureState {
  readonly name: string;
  readonly commands: readonly string[];
  readonly loaded: boolean;
  /** Loads the feature now if it was not yet (as its first command would). */
  ensureLoaded(): void;
}

export class LazyFeature<T> implements vscode.Disposable, LazyFeatureState {
  private feature: { value: T } | undefined;
  private stubs: vscode.Disposable[];
  private owned: readonly vscode.Disposable[] = [];

  constructor(private readonly spec: LazyFeatureSpec<T>) {
    this.stubs = spec.commands.map((id) => this.registerStub(id));
  }

  get name(): string {
    return this.spec.name;
  }

  get commands(): readonly string[] {
    return this.spec.commands;
  }

  get loaded(): boolean {
    return this.feature !== undefined;
  }

  ensureLoaded(): void {
    this.get();
  }

  /** The feature, loaded now if it was not yet. Throws when its bundle cannot be loaded. */
  get(): T {
    if (this.feature) return this.feature.value;
    // The stand-ins go first: the feature registers the same ids.
    for (const stub of this.stubs.splice(0)) stub.dispose();
    let value: T;
    try {
      value = this.spec.load();
    } catch (err) {
      // The stand-ins come back for the next try; an id the feature registered before failing
      // keeps that registration.
      this.stubs = this.spec.commands.flatMap((id) => {
        try {
          return [this.registerStub(id)];
        } catch {
          return [];
        }
      });
      throw err;
    }
    this.feature = { value };
    this.owned = this.spec.disposables(value);
    return value;
  }

  dispose(): void {
    for (const d of [...this.stubs.splice(0), ...this.owned]) d.dispose();
    this.owned = [];
  }

  private registerStub(id: string): vscode.Disposable {
    return vscode.commands.registerCommand(id, (...args: unknown[]) => this.forward(id, args));
  }

  /** A stand-in's call: the feature is loaded, then its own command runs with the same arguments. */
  private async forward(id: string, args: unknown[]): Promise<unknown> {
    try {
      this.get();
    } catch (err) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Health Data: {0} could not be loaded ({1}). Reinstalling the extension may help.', this.spec.name, err instanceof Error ? err.message : String(err)));
      return undefined;
    }
    // Within the extension host the arguments are handed over as they are (no serialization).
    return vscode.commands.executeCommand(id, ...args);
  }
}
