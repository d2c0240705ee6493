// Opens a record (or any JSON value) as an untitled JSON document: the fallback view, and what
// "Open as JSON Document" does from the tree and the record view.

import * as vscode from 'vscode';

/** Pretty-printed JSON in a new untitled editor with the json language. */
export async function openAsJsonDocument(value: unknown, options: { preview?: boolean } = {}): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument({ language: 'json', content: `${JSON.stringify(value, null, 2)}\n` });
  return vscode.window.showTextDocument(doc, { preview: options.preview ?? false });
}
