// What every webview panel of the extension does the same way: its options (scripts on, local
// files from media/ and dist/ only), its HTML shell with a fresh nonce per load (again each time
// it is hidden, as a hidden panel's document is gone), the 'ready' handshake before anything is
// posted, and its end. The panels (record view, exchange view) say what to render.

import * as vscode from 'vscode';
import { newNonce, recordViewHtml } from '../recordView/html';

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    enableFindWidget: true,
    // Kept small: state goes through setState, so a hidden panel costs nothing.
    retainContextWhenHidden: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')],
  };
}

export interface ShellParts {
  readonly extensionUri: vscode.Uri;
  /** The script under dist/ and the stylesheets under media/, by file name. */
  readonly script: string;
  readonly styles: readonly string[];
  /** The document's title (no data). */
  readonly title: string;
  /** Every message the webview sends, unchecked (the panel checks it). */
  readonly receive: (raw: unknown) => void;
  /** The panel was closed by the user or disposed. */
  readonly closed: () => void;
}

export class WebviewShell implements vscode.Disposable {
  /** The webview of the current load said 'ready': posting reaches it. */
  private isReady = false;
  private readies = 0;
  private ended = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly parts: ShellParts,
  ) {
    panel.webview.options = webviewOptions(parts.extensionUri);
    panel.iconPath = vscode.Uri.joinPath(parts.extensionUri, 'media', 'health.svg');
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((raw: unknown) => parts.receive(raw)),
      panel.onDidChangeViewState(() => {
        // A hidden panel's document is gone (no retained context): the next load gets a new
        // document, so give it a new nonce too. It says 'ready' again when it is shown.
        if (!panel.visible && !this.ended) this.load();
      }),
    );
    this.load();
  }

  get ready(): boolean {
    return this.isReady;
  }

  /** How many loads of the webview said 'ready' (its script ran under the CSP); for tests. */
  get readyCount(): number {
    return this.readies;
  }

  get disposed(): boolean {
    return this.ended;
  }

  /** The webview said 'ready': from now on posts reach it. */
  markReady(): void {
    this.isReady = true;
    this.readies++;
  }

  post(message: unknown): Thenable<boolean> {
    return this.ended ? Promise.resolve(false) : this.panel.webview.postMessage(message);
  }

  private load(): void {
    this.isReady = false;
    const webview = this.panel.webview;
    const asUri = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(this.parts.extensionUri, ...path)).toString();
    const [style, ...extra] = this.parts.styles.map((name) => asUri('media', name));
    webview.html = recordViewHtml({
      cspSource: webview.cspSource,
      scriptUri: asUri('dist', this.parts.script),
      styleUri: style,
      extraStyleUris: extra,
      nonce: newNonce(),
      lang: vscode.env.language,
      title: this.parts.title,
    });
  }

  dispose(): void {
    if (this.ended) return;
    this.ended = true;
    this.parts.closed();
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}
