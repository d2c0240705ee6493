// What the editor takes for an `.http` file (REST Client's and httpYac's format), shared by its
// code lenses (httpLens.ts, at activation) and Send All (httpFileSend.ts, in dist/workbench.js).

import * as vscode from 'vscode';

/** `.http`/`.rest` files, and documents another extension (REST Client) gives its `http` language. */
export const HTTP_FILE_SELECTOR: vscode.DocumentSelector = [{ pattern: '**/*.{http,rest}' }, { language: 'http' }];

/** An `.http` file longer than this is not read in the editor (no lenses, no Send All): it is read whole on each change, on the extension host's thread, and no such file is that long. */
export const MAX_HTTP_FILE_CHARS = 1_000_000;

/** Files the user edits (not a diff's old side, not an output channel). */
const EDITED_SCHEMES = new Set(['file', 'untitled', 'vscode-remote']);

/** An `.http` document the user edits: read for the Testing view. */
export const isHttpDocument = (d: vscode.TextDocument): boolean => EDITED_SCHEMES.has(d.uri.scheme) && vscode.languages.match(HTTP_FILE_SELECTOR, d) > 0;
