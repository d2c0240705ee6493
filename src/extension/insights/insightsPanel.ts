// The webview panel both insights views share: the shell under a strict CSP with a fresh nonce,
// the 'ready' handshake (nothing is posted before the script runs), and checked messages.

import * as vscode from 'vscode';
import { InsightsHostMessage, InsightsWebviewMessage, parseInsightsMessage } from '../../core/views';
import { newNonce, webviewHtml } from '../recordView/html';

export interface InsightsPanelOptions {
  readonly extensionUri: vscode.Uri;
  readonly viewType: string;
  readonly title: string;
  /** The bundle in dist/ (`coverage`, `trends`): its .js, and its .css when it has one. */
  readonly bundle: string;
  readonly bundleCss: boolean;
  /** A panel VS Code restored after a reload (the serializer's), used instead of a new one. */
  readonly restored?: vscode.WebviewPanel;
  readonly onMessage: (message: InsightsWebviewMessage) => void;
}

export class InsightsPanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private ready = false;
  private readies = 0;
  private pending: InsightsHostMessage | undefined;
  private disposed = false;
  private readonly disposables: vscode.Disposable[] = [];
  /** Messages posted to the webview, for the tests. */
  readonly posted: InsightsHostMessage[] = [];
  private readonly closeEmitter = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closeEmitter.event;

  constructor(private readonly options: InsightsPanelOptions) {
    const { extensionUri } = options;
    const webviewOptions = {
      enableScripts: true,
      enableFindWidget: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')],
    };
    if (options.restored) {
      this.panel = options.restored;
      this.panel.webview.options = webviewOptions;
      this.panel.title = options.title;
    } else {
      this.panel = vscode.window.createWebviewPanel(options.viewType, options.title, vscode.ViewColumn.Active, webviewOptions);
    }
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'health.svg');
    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
    );
    this.load();
  }

  private load(): void {
    const webview = this.panel.webview;
    const asUri = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(this.options.extensionUri, ...parts)).toString();
    const styleUris = [asUri('media', 'insights.css')];
    if (this.options.bundleCss) styleUris.unshift(asUri('dist', `${this.options.bundle}.css`));
    webview.html = webviewHtml({
      cspSource: webview.cspSource,
      scriptUri: asUri('dist', `${this.options.bundle}.js`),
      styleUris,
      nonce: newNonce(),
      lang: vscode.env.language,
      title: this.options.title,
    });
  }

  private receive(raw: unknown): void {
    const message = parseInsightsMessage(raw);
    if (!message) return;
    if (message.type === 'ready') {
      this.ready = true;
      this.readies++;
      if (this.pending) void this.send(this.pending);
    }
    this.options.onMessage(message);
  }

  /** Posts now when the script is ready; else keeps the newest message for its 'ready'. */
  post(message: InsightsHostMessage): void {
    if (this.disposed) return;
    this.posted.push(message);
    if (this.posted.length > 50) this.posted.shift();
    if (message.type === 'coverage' || message.type === 'trends') this.pending = message;
    if (this.ready) void this.send(message);
  }

  private async send(message: InsightsHostMessage): Promise<void> {
    try {
      await this.panel.webview.postMessage(message);
    } catch {
      // The panel closed in between: nothing to show it to.
    }
  }

  /** How many loads of the webview said 'ready' (its script ran under the CSP); for tests. */
  get readyCount(): number {
    return this.readies;
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.closeEmitter.fire();
    this.closeEmitter.dispose();
    this.panel.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** A view's panel, new or restored, that tells `closed` when it closes (the view forgets it then). */
export function openViewPanel(options: InsightsPanelOptions, closed: (panel: InsightsPanel) => void): InsightsPanel {
  const panel = new InsightsPanel(options);
  panel.onDidClose(() => closed(panel));
  return panel;
}
