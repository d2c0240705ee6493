// The two sides of a comparison as read-only virtual documents of their own scheme, which VS
// Code's diff editor opens: nothing is written to disk, and no editor can save into them.

import * as vscode from 'vscode';

export const COMPARE_SCHEME = 'health-data-compare';
/** Pairs kept for the diff editors still open; the oldest are forgotten first. */
const KEPT = 40;

export class CompareDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private counter = 0;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, this);

  /** A new read-only document holding `text`, named `name` (shown in the diff editor's tab). */
  add(name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: COMPARE_SCHEME, path: `/${++this.counter}/${fileName(name)}.json` });
    this.texts.set(uri.toString(), text);
    while (this.texts.size > KEPT * 2) this.texts.delete(this.texts.keys().next().value as string);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}

/** A name that is one path segment of printable text. */
function fileName(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f-\u009f\u2028-\u202e\u2066-\u2069/\\?#%]/g, '_').slice(0, 80) || 'payload';
}
