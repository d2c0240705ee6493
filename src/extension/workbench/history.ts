// The request history of this workspace: every exchange the session reports, newest first, the
// last `healthData.history.size` of them and every saved one, kept in the workspace's memento
// across reloads (bodies cut there, see forStorage; this session's own entries keep theirs whole
// in memory).

import * as vscode from 'vscode';
import { HistoryEntry, MAX_SAVED_NAME, MAX_SAVED_REQUESTS, SavedMerge, addToHistory, forStorage, historySize, mergeSavedRequests, readHistory, requestLine, savedNameFault, trimHistory } from '../../core/workbench';
import { ResourceKind } from '../../core/resources';
import type { FailRule } from '../../core/validation/failRules';
import { unwrapList } from '../../core/service';
import { textField } from '../../core/views';
import type { Session } from '../account/session';

export const HISTORY_KEY = 'healthData.history';
/** Writes to the memento wait this long for more exchanges (a list's pages come in a burst). */
const SAVE_DELAY_MS = 1500;

export class ExchangeHistory implements vscode.Disposable {
  private entries: HistoryEntry[];
  private size = historySize(vscode.workspace.getConfiguration('healthData').get('history.size'));
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> = Promise.resolve();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  /** The history changed (an exchange added, the history cleared or cut to a new size). */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly memento: vscode.Memento,
    session: Session,
  ) {
    this.entries = trimHistory(readHistory(memento.get<unknown>(HISTORY_KEY)), this.size);
    this.disposables.push(
      this.changeEmitter,
      session.onDidExchange((entry) => this.add(entry)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('healthData.history.size')) return;
        this.size = historySize(vscode.workspace.getConfiguration('healthData').get('history.size'));
        const kept = trimHistory(this.entries, this.size);
        if (kept.length < this.entries.length) {
          this.entries = kept;
          this.changed();
        }
      }),
    );
  }

  /** Newest first. */
  all(): readonly HistoryEntry[] {
    return this.entries;
  }

  get(id: string): HistoryEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  add(entry: HistoryEntry): void {
    this.entries = addToHistory(this.entries, entry, this.size);
    this.changed();
  }

  /** The saved requests, in the history's order (newest first). */
  saved(): readonly HistoryEntry[] {
    return this.entries.filter((e) => e.savedAs !== undefined);
  }

  /** The saved requests by name, as the History view lists them and Run Saved Requests sends them. */
  savedByName(): HistoryEntry[] {
    return this.saved().slice().sort((a, b) => a.savedAs!.localeCompare(b.savedAs!, undefined, { sensitivity: 'base' }));
  }

  /**
   * Saves an exchange under `name` (or renames a saved one): kept whatever the history's size.
   * Throws a sentence for people when the name is not one (see savedNameProblem) or Saved is full.
   */
  saveRequest(id: string, name: string): HistoryEntry {
    const entry = this.get(id);
    if (!entry) throw new Error(vscode.l10n.t('That exchange is no longer in the history.'));
    const problem = savedNameProblem(name, this.entries, id);
    if (problem) throw new Error(problem);
    if (entry.savedAs === undefined && this.saved().length >= MAX_SAVED_REQUESTS) {
      throw new Error(vscode.l10n.t('Saved holds at most {0} requests: remove one first.', MAX_SAVED_REQUESTS));
    }
    return this.replace(entry, { ...entry, savedAs: name.trim() });
  }

  /**
   * Sets the status a run of a saved request expects (undefined: any 2xx). Throws a sentence for
   * people when the exchange is gone or not saved.
   */
  setExpectedStatus(id: string, status: number | undefined): HistoryEntry {
    return this.changeSaved(id, ({ expectStatus: _old, ...rest }) => (status === undefined ? rest : { ...rest, expectStatus: status }));
  }

  /**
   * Sets how long a run of a saved request may wait for the first byte (undefined: no limit).
   * Throws a sentence for people when the exchange is gone or not saved.
   */
  setTimeLimit(id: string, ms: number | undefined): HistoryEntry {
    return this.changeSaved(id, ({ timeLimitMs: _old, ...rest }) => (ms === undefined ? rest : { ...rest, timeLimitMs: ms }));
  }

  /**
   * Sets the findings that also fail a run of a saved request (undefined or empty: errors only).
   * Throws a sentence for people when the exchange is gone or not saved.
   */
  setFailOn(id: string, rules: readonly FailRule[] | undefined): HistoryEntry {
    return this.changeSaved(id, ({ failOn: _old, ...rest }) => (rules === undefined || rules.length === 0 ? rest : { ...rest, failOn: rules }));
  }

  /** A saved request changed by `change`; throws a sentence for people when it is gone or not saved. */
  private changeSaved(id: string, change: (entry: HistoryEntry) => HistoryEntry): HistoryEntry {
    const entry = this.get(id);
    if (!entry) throw new Error(vscode.l10n.t('That exchange is no longer in the history.'));
    if (entry.savedAs === undefined) throw new Error(vscode.l10n.t('{0} is not a saved request: save it first.', requestLine(entry)));
    return this.replace(entry, change(entry));
  }

  /** Removes an exchange from Saved: it stays in the history as any other, the oldest going first. */
  removeSaved(id: string): HistoryEntry | undefined {
    const entry = this.get(id);
    if (!entry || entry.savedAs === undefined) return entry;
    const { savedAs: _removed, expectStatus: _expect, timeLimitMs: _limit, failOn: _rules, ...plain } = entry;
    const kept = this.replace(entry, plain);
    this.entries = trimHistory(this.entries, this.size);
    return kept;
  }

  /** Adds saved requests read from a file (see mergeSavedRequests: names kept apart, Saved's limit kept). */
  importSaved(requests: readonly HistoryEntry[]): SavedMerge {
    let n = 0;
    const stamp = Date.now().toString(36);
    const merged = mergeSavedRequests(this.entries, requests, { newId: () => `imported-${stamp}-${n++}` });
    if (merged.added.length) {
      this.entries = merged.history;
      this.changed();
    }
    return merged;
  }

  /** Clears every exchange but the saved ones. */
  async clear(): Promise<void> {
    this.entries = this.saved().slice();
    this.changeEmitter.fire();
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    await this.saving;
    if (this.entries.length === 0) await this.memento.update(HISTORY_KEY, undefined);
    else this.save();
    await this.saving;
  }

  private replace(old: HistoryEntry, entry: HistoryEntry): HistoryEntry {
    this.entries = this.entries.map((e) => (e === old ? entry : e));
    this.changed();
    return entry;
  }

  /**
   * The newest exchange whose reply holds this record (same kind, same id; or, for a record
   * without an id, the same JSON): the request that produced what a record view shows.
   */
  producerOf(kind: ResourceKind | undefined, record: unknown): string | undefined {
    const id = textField(record, 'id');
    const needle = id !== undefined ? JSON.stringify(id) : undefined;
    // The newest request that asked for this record alone wins over a list that also held it
    // (Get by Date reads the day's list too, to say when several records share the date).
    let listed: string | undefined;
    for (const e of this.entries) {
      if (e.purpose !== 'data' || (kind && e.resource !== kind) || e.status === undefined || e.status >= 300 || !e.responseBody) continue;
      if (listed !== undefined && e.endpoint === 'list') continue;
      // A cheap look first: only a body that mentions the id is parsed.
      if (needle !== undefined && !e.responseBody.includes(needle)) continue;
      if (!holdsRecord(e.responseBody, id, record)) continue;
      if (e.endpoint !== 'list') return e.id;
      listed ??= e.id;
    }
    return listed;
  }

  /** Writes now what is waiting to be written (tests, and before the extension stops). */
  async flush(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      this.save();
    }
    await this.saving;
  }

  private changed(): void {
    this.changeEmitter.fire();
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.save();
    }, SAVE_DELAY_MS);
  }

  private save(): void {
    // Already redacted by the session; cut to what storage keeps.
    const stored = forStorage(this.entries);
    this.saving = this.saving.then(
      () => this.memento.update(HISTORY_KEY, stored),
      () => this.memento.update(HISTORY_KEY, stored),
    );
  }

  dispose(): void {
    void this.flush();
    for (const d of this.disposables) d.dispose();
  }
}

/** Whether a reply body holds the record: by id, or (no id) as an equal JSON value. */
function holdsRecord(body: string, id: string | undefined, record: unknown): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  let candidates: unknown[];
  try {
    candidates = unwrapList(parsed, '').records;
  } catch {
    candidates = [parsed];
  }
  if (id !== undefined) return candidates.some((c) => textField(c, 'id') === id);
  const text = JSON.stringify(record);
  return candidates.some((c) => JSON.stringify(c) === text);
}

/** Why `name` cannot name a saved request (empty, too long, control characters, taken by another), or undefined. */
export function savedNameProblem(name: string, history: readonly HistoryEntry[], exceptId?: string): string | undefined {
  const v = name.trim();
  const fault = savedNameFault(v);
  if (fault === 'empty') return vscode.l10n.t('Enter a name for the saved request.');
  if (fault === 'long') return vscode.l10n.t('A name is at most {0} characters.', MAX_SAVED_NAME);
  if (fault === 'controls') return vscode.l10n.t('A name cannot contain line breaks, direction marks or other control characters.');
  const taken = history.find((e) => e.id !== exceptId && e.savedAs !== undefined && e.savedAs.toLowerCase() === v.toLowerCase());
  return taken ? vscode.l10n.t('A saved request is already named "{0}".', taken.savedAs!) : undefined;
}
