// What the editor takes for an `.http` file (REST Client's and httpYac's format), shared by its
// code lenses (httpLens.ts, at activation) and Send All (httpFileSend.ts, in dist/workbench.js).

import type * as vscode from 'vscode';

/** `.http`/`.rest` files, and documents another extension (REST Client) gives its `http` language. */
export const HTTP_FILE_SELECTOR: vscode.DocumentSelector = [{ pattern: '**/*.{http,rest}' }, { language: 'http' }];

/** An `.http` file longer than this is not read in the editor (no lenses, no Send All): it is read whole on each change, on the extension host's thread, and no such file is that long. */
export const MAX_HTTP_FILE_CHARS = 1_000_000;
