// Validation as you type: documents that match the `healthData.validation.glob` setting, and any
// document the command has validated, are validated again 300 ms after they stop changing.
// Large documents are validated on a worker thread (DocumentValidator), so typing never waits on
// a validation: an edit cancels the run in progress, and the status bar shows a long run's progress.

import * as vscode from 'vscode';
import { DocumentValidator } from './documentValidator';

export const DEBOUNCE_MS = 300;
export const DEFAULT_GLOB = '**/*.health.json';

/** Where live validation may look: files on disk (local or remote) and unsaved editors, not git views or output. */
const SCHEMES = new Set(['file', 'untitled', 'vscode-remote', 'vscode-vfs']);

interface LiveSettings {
  readonly enabled: boolean;
  readonly selector: vscode.DocumentFilter[];
}

/** The files the `healthData.validation.glob` setting names (default every `*.health.json`). */
export function validationGlob(): string {
  return vscode.workspace.getConfiguration('healthData.validation').get<string>('glob')?.trim() || DEFAULT_GLOB;
}

/** The glob setting as a document selector. */
export function validationSelector(): vscode.DocumentFilter[] {
  const glob = validationGlob();
  // A plain pattern matches anywhere on disk (`**/…`); a workspace-relative one (`fixtures/*.json`)
  // matches through each workspace folder.
  const selector: vscode.DocumentFilter[] = [{ pattern: glob }];
  for (const folder of vscode.workspace.workspaceFolders ?? []) selector.push({ pattern: new vscode.RelativePattern(folder, glob) });
  return selector;
}

/** Whether a document is one the glob setting names: on disk (local or remote) or unsaved, not a git view. */
export function matchesValidationGlob(document: vscode.TextDocument, selector = validationSelector()): boolean {
  if (!SCHEMES.has(document.uri.scheme)) return false;
  try {
    return vscode.languages.match(selector, document) > 0;
  } catch {
    return false; // A glob VS Code cannot read matches nothing.
  }
}

function readSettings(): LiveSettings {
  const enabled = vscode.workspace.getConfiguration('healthData.validation').get<boolean>('live', true);
  return { enabled, selector: validationSelector() };
}

export class LiveValidation implements vscode.Disposable {
  private settings = readSettings();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /**
   * Documents whose pause in typing has ended, validated one per turn of the event loop: after a
   * settings change every open payload is due at once, and validating them back to back in the
   * extension host (the small ones are validated in place) would stall it for all of them.
   */
  private readonly due = new Map<string, vscode.TextDocument>();
  private draining: NodeJS.Immediate | undefined;
  /** Documents the command validated: they stay live until closed. */
  private readonly followed = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly validator: DocumentValidator) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.schedule(e.document);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => this.close(d)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('healthData.validation')) this.reconsiderAll();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reconsiderAll()),
    );
    // Documents already open when the extension activates; validated after the debounce, so
    // activation itself never compiles a schema.
    for (const d of vscode.workspace.textDocuments) this.schedule(d);
  }

  /** Whether the glob setting names this document. */
  matches(document: vscode.TextDocument): boolean {
    return matchesValidationGlob(document, this.settings.selector);
  }

  /** Keeps the document validated as it changes, until it closes (after the command validated it). */
  follow(document: vscode.TextDocument): void {
    this.followed.add(document.uri.toString());
  }

  /** Whether the document is a payload Health Data validates: one the command validated, or one the glob setting names. */
  covers(document: vscode.TextDocument): boolean {
    return this.followed.has(document.uri.toString()) || this.matches(document);
  }

  private isLive(document: vscode.TextDocument): boolean {
    return this.settings.enabled && (this.followed.has(document.uri.toString()) || this.matches(document));
  }

  private schedule(document: vscode.TextDocument): void {
    if (!this.isLive(document)) return;
    // Results for the text as it was would land on the text as it is: stop them now.
    this.validator.cancel(document.uri);
    if (this.validator.isLarge(document)) this.validator.warmWorker();
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.due.delete(key); // due again once the new pause ends
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.due.set(key, document);
        this.draining ??= setImmediate(() => this.validateNext());
      }, DEBOUNCE_MS),
    );
  }

  /** Validates the document due first, and leaves the next to the next turn of the event loop. */
  private validateNext(): void {
    this.draining = undefined;
    const next = this.due.entries().next();
    if (next.done) return;
    const [key, document] = next.value;
    this.due.delete(key);
    if (this.due.size > 0) this.draining = setImmediate(() => this.validateNext());
    if (!document.isClosed && this.isLive(document)) this.validate(document);
  }

  private validate(document: vscode.TextDocument): void {
    if (!this.validator.isLarge(document)) {
      void this.validator.validate(document);
      return;
    }
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Validating {0}', vscode.workspace.asRelativePath(document.uri)) },
      (progress) => this.validator.validate(document, undefined, { progress }),
    );
  }

  private close(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.due.delete(key);
    this.followed.delete(key);
    this.validator.forget(document.uri);
  }

  /** After a settings change: validate what is now live, clear what no longer is. */
  private reconsiderAll(): void {
    this.settings = readSettings();
    for (const d of vscode.workspace.textDocuments) {
      if (this.isLive(d)) this.schedule(d);
      else if (!this.followed.has(d.uri.toString())) this.validator.collection.delete(d.uri);
    }
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    if (this.draining) clearImmediate(this.draining);
    this.due.clear();
    for (const d of this.disposables) d.dispose();
  }
}
