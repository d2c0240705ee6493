// The workspace's `.http`/`.rest` files as the items of the Testing view's controller
// "Health Data: .http Files" (made at activation, httpFileTests.ts): looked for when the view first
// asks, then followed by a watcher; an open file read as it is edited (unsaved text included),
// after a pause in the typing. A file is an item when it holds a request of the service; each
// request a child at its method line, described by what it sends and the status it expects; one
// the New Request form refuses carries why (`error`). In dist/workbench.js, loaded with the first
// `.http` file opened or the Testing view's first look.

import * as vscode from 'vscode';
import { type LensRequest, httpFileLensRequests } from './foreignImport';
import { MAX_HTTP_FILE_CHARS, httpRequestIds, httpTestsEnabled as enabled, isHttpDocument, openDocumentOf } from './httpFiles';

/** Files looked for in the workspace at most (a workspace with more shows the first). */
const MAX_HTTP_FILES = 500;
const HTTP_FILE_GLOB = '**/*.{http,rest}';
const SKIPPED_FOLDERS = '**/{node_modules,.git}/**';
/** An edit is read once the typing pauses this long. */
const EDIT_PAUSE_MS = 300;

export class HttpFileList implements vscode.Disposable {
  private readonly listeners: vscode.Disposable[] = [];
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private watcher: vscode.FileSystemWatcher | undefined;
  private discovered: Promise<void> | undefined;

  constructor(private readonly controller: vscode.TestController) {
    this.listeners.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.documentChanged(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.documentChanged(e.document, EDIT_PAUSE_MS)),
      // Closed: what is on disk stands again (an untitled file is gone).
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (!isHttpDocument(d)) return;
        clearTimeout(this.pending.get(d.uri.toString()));
        if (d.uri.scheme === 'untitled') this.controller.items.delete(d.uri.toString());
        else void this.readFile(d.uri, true);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('healthData.httpFiles.testing')) return;
        this.controller.items.replace([]);
        this.discovered = undefined;
        this.stopWatching();
        this.readOpenDocuments();
        // Listed before: listed again at once (the view may be open).
        if (enabled()) void this.discover();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        if (this.discovered) {
          this.discovered = undefined;
          void this.discover();
        }
      }),
    );
    this.readOpenDocuments();
  }

  /** Refresh Tests: the workspace looked through again. */
  refresh(): Promise<void> {
    this.discovered = undefined;
    return this.discover();
  }

  /** Every `.http`/`.rest` file of the workspace listed (once; then followed by a watcher). */
  discover(): Promise<void> {
    if (!enabled()) return Promise.resolve();
    this.discovered ??= (async () => {
      this.watch();
      const files = await vscode.workspace.findFiles(HTTP_FILE_GLOB, SKIPPED_FOLDERS, MAX_HTTP_FILES);
      const found = new Set(files.map((f) => f.toString()));
      // A file gone since the last look (Refresh Tests) goes from the view; an open one stays.
      this.controller.items.forEach((item) => {
        if (!found.has(item.id) && !vscode.workspace.textDocuments.some((d) => d.uri.toString() === item.id)) this.controller.items.delete(item.id);
      });
      await Promise.all(files.map((f) => this.readFile(f)));
    })();
    return this.discovered;
  }

  private watch(): void {
    if (this.watcher) return;
    const w = vscode.workspace.createFileSystemWatcher(HTTP_FILE_GLOB);
    w.onDidCreate((uri) => void this.readFile(uri));
    w.onDidChange((uri) => void this.readFile(uri));
    w.onDidDelete((uri) => {
      this.controller.items.delete(uri.toString());
      // A folder removed: its files went with it.
      const under = `${uri.toString()}/`;
      this.controller.items.forEach((item) => item.id.startsWith(under) && this.controller.items.delete(item.id));
    });
    this.watcher = w;
  }

  private stopWatching(): void {
    this.watcher?.dispose();
    this.watcher = undefined;
  }

  private readOpenDocuments(): void {
    for (const d of vscode.workspace.textDocuments) this.documentChanged(d, 0);
  }

  private documentChanged(document: vscode.TextDocument, pauseMs: number): void {
    if (!isHttpDocument(document) || !enabled(document.uri)) return;
    const key = document.uri.toString();
    clearTimeout(this.pending.get(key));
    if (pauseMs === 0) {
      this.pending.delete(key);
      this.update(document.uri, document.getText());
      return;
    }
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        // Closed since (reverted and closed): what is on disk.
        if (document.isClosed) void this.readFile(document.uri, true);
        else this.update(document.uri, document.getText());
      }, pauseMs),
    );
  }

  /** A file on disk (found, created, changed): read unless it is open, whose text is the editor's. */
  private async readFile(uri: vscode.Uri, closed = false): Promise<void> {
    const open = closed ? undefined : openDocumentOf(uri);
    if (open) {
      this.update(uri, open.getText());
      return;
    }
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.type & vscode.FileType.Directory) return;
      if (stat.size > MAX_HTTP_FILE_CHARS * 4) {
        this.controller.items.delete(uri.toString());
        return;
      }
      this.update(uri, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    } catch {
      // Gone or unreadable since it was found: not listed.
      this.controller.items.delete(uri.toString());
    }
  }

  /** The file's item from its text: its requests of the service as children; no item when it has none. */
  update(uri: vscode.Uri, text: string): void {
    const id = uri.toString();
    if (!enabled(uri) || text.length > MAX_HTTP_FILE_CHARS) {
      this.controller.items.delete(id);
      return;
    }
    let requests: readonly LensRequest[];
    try {
      requests = httpFileLensRequests(text);
    } catch {
      requests = [];
    }
    if (requests.length === 0) {
      this.controller.items.delete(id);
      return;
    }
    let file = this.controller.items.get(id);
    if (!file) {
      file = this.controller.createTestItem(id, vscode.workspace.asRelativePath(uri), uri);
      this.controller.items.add(file);
    }
    file.description = requests.length === 1 ? vscode.l10n.t('1 request') : vscode.l10n.t('{0} requests', requests.length);
    const ids = httpRequestIds(uri, requests);
    const children = requests.map((r, i) => {
      const item = file!.children.get(ids[i]) ?? this.controller.createTestItem(ids[i], r.name, uri);
      const expects = r.expectStatus !== undefined ? ` · ${vscode.l10n.t('expects {0}', r.expectStatus)}` : '';
      item.description = `${r.target}${expects}`;
      item.range = new vscode.Range(r.line, 0, r.line, 0);
      item.sortText = String(i).padStart(4, '0');
      // A request the New Request form refuses shows why, and is errored when run.
      item.error = r.problem;
      return item;
    });
    file.children.replace(children);
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    for (const l of this.listeners) l.dispose();
    this.stopWatching();
  }
}
