// Client secrets and pasted user access tokens, per environment, in VS Code's SecretStorage and
// nowhere else. Another window changing them reaches us through `onDidChange`.

import * as vscode from 'vscode';

const PREFIX = 'healthData';

export type SecretKind = 'clientSecret' | 'userAccessToken';

export function secretKey(environment: string, kind: SecretKind): string {
  return `${PREFIX}/${encodeURIComponent(environment)}/${kind}`;
}

export class Credentials implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<string>();
  /** Fires with the environment name whose secrets changed, here or in another window. */
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      const m = /^healthData\/([^/]*)\//.exec(e.key);
      if (m) this.emitter.fire(decodeURIComponent(m[1]));
    });
  }

  get(environment: string, kind: SecretKind): Thenable<string | undefined> {
    return this.secrets.get(secretKey(environment, kind));
  }

  async store(environment: string, kind: SecretKind, value: string): Promise<void> {
    await this.secrets.store(secretKey(environment, kind), value);
  }

  async delete(environment: string, kind: SecretKind): Promise<void> {
    await this.secrets.delete(secretKey(environment, kind));
  }

  async clear(environment: string): Promise<void> {
    await this.delete(environment, 'clientSecret');
    await this.delete(environment, 'userAccessToken');
  }

  async has(environment: string): Promise<boolean> {
    return Boolean(await this.get(environment, 'clientSecret')) || Boolean(await this.get(environment, 'userAccessToken'));
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
