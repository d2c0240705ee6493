// What the editor takes for an `.http` file (REST Client's and httpYac's format), shared by its
// code lenses (httpLens.ts, at activation), Send All (httpFileSend.ts, in dist/workbench.js) and
// the Testing view's items (httpFileTests.ts, httpFileList.ts, httpFileTestRun.ts).

import * as vscode from 'vscode';

/** `.http`/`.rest` files, and documents another extension (REST Client) gives its `http` language. */
export const HTTP_FILE_SELECTOR: vscode.DocumentSelector = [{ pattern: '**/*.{http,rest}' }, { language: 'http' }];

/** An `.http` file longer than this is not read in the editor (no lenses, no Send All): it is read whole on each change, on the extension host's thread, and no such file is that long. */
export const MAX_HTTP_FILE_CHARS = 1_000_000;

/** Files the user edits (not a diff's old side, not an output channel). */
const EDITED_SCHEMES = new Set(['file', 'untitled', 'vscode-remote']);

/** An `.http` document the user edits: read for the Testing view. */
export const isHttpDocument = (d: vscode.TextDocument): boolean => EDITED_SCHEMES.has(d.uri.scheme) && vscode.languages.match(HTTP_FILE_SELECTOR, d) > 0;

/** The file's document when it is open in the editor (its text is what the user sees, unsaved edits included). */
export function openDocumentOf(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key && !d.isClosed);
}

/**
 * The ids of a file's requests' items, in the file's order: the file's URI and the request's name
 * (`#2` for the second of a name), so an item keeps its verdict while lines move above it.
 */
export function httpRequestIds(uri: vscode.Uri, requests: readonly { readonly name: string }[]): string[] {
  const seen = new Map<string, number>();
  return requests.map((r) => {
    const n = (seen.get(r.name) ?? 0) + 1;
    seen.set(r.name, n);
    // A URI's text has no space (VS Code takes no NUL in an id).
    return `${uri.toString()} ${r.name}${n > 1 ? ` #${n}` : ''}`;
  });
}

/** Whether the Testing view lists the `.http` files' requests (`healthData.httpFiles.testing`). */
export function httpTestsEnabled(uri?: vscode.Uri): boolean {
  return vscode.workspace.getConfiguration('healthData', uri).get<boolean>('httpFiles.testing') !== false;
}
