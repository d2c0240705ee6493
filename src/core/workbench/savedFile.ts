// Saved requests as a file of their own, to take to another workspace or hand to a teammate
// (Export Saved Requests…, Import Saved Requests…). The file holds the saved requests as the
// history keeps them: redacted, never a token, a secret or an Authorization value; the reply
// bodies only when asked for, since they hold people's health records. A file read back is
// checked entry by entry like storage (historyEntryOf) and redacted again: it may have been
// edited by hand.

import { HealthDataError } from '../errors';
import { HistoryEntry, MAX_SAVED_NAME, MAX_SAVED_REQUESTS, STORED_BODY_LIMIT, historyEntryOf, pathAndQuery, toHistoryEntry } from './history';

/** What names a file as ours, and the format it is in. */
export const SAVED_FILE_KIND = 'health-data-explorer.saved-requests';
export const SAVED_FILE_VERSION = 1;
/** The name Export offers (VS Code's JSON support reads it as JSON). */
export const SAVED_FILE_NAME = 'saved-requests.health-requests.json';
/** Larger than any file Export writes (100 requests × 64 KB of body and their headers): not one of ours. */
export const MAX_SAVED_FILE_BYTES = 16 * 1024 * 1024;

export interface SavedFileOptions {
  /** Keep each reply's body (cut to STORED_BODY_LIMIT); without it, status and headers only. */
  readonly replies: boolean;
  /** Values to redact once more (the environment's secret and tokens). */
  readonly secrets: readonly (string | undefined)[];
  /** When the file was written, ISO 8601. */
  readonly exportedAt: string;
}

/** The text of a saved-requests file: `{ kind, version, exportedAt, requests: [...] }`, pretty-printed. */
export function savedRequestsFileText(saved: readonly HistoryEntry[], options: SavedFileOptions): string {
  const requests = saved
    .filter((e) => e.savedAs !== undefined)
    .map((e) => {
      const entry = toHistoryEntry(e, { secrets: options.secrets, bodyLimit: STORED_BODY_LIMIT });
      if (options.replies) return entry;
      const { responseBody: _body, bodyCutBytes: _cut, ...withoutBody } = entry;
      return withoutBody;
    });
  return `${JSON.stringify({ kind: SAVED_FILE_KIND, version: SAVED_FILE_VERSION, exportedAt: options.exportedAt, requests }, null, 2)}\n`;
}

export interface SavedFileContents {
  /** The saved requests the file holds, checked and redacted, in the file's order. */
  readonly requests: HistoryEntry[];
  /** Entries of the file that are not saved requests (no name, a broken entry). */
  readonly skipped: number;
}

/**
 * Reads a saved-requests file. Throws a usage error that says what the file is instead: not JSON,
 * not a saved-requests file, a newer format, no list of requests.
 */
export function readSavedRequestsFile(text: string): SavedFileContents {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw new HealthDataError('usage', `The file is not JSON (${err instanceof Error ? err.message : String(err)}), so it holds no saved requests.`);
  }
  const file = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  if (!file || file.kind !== SAVED_FILE_KIND) {
    throw new HealthDataError('usage', `The file is not a file of saved requests: Export Saved Requests… writes one, with "kind": "${SAVED_FILE_KIND}".`);
  }
  if (typeof file.version !== 'number' || !Number.isInteger(file.version) || file.version < 1) {
    throw new HealthDataError('usage', 'The file of saved requests has no format version (a whole number from 1).');
  }
  if (file.version > SAVED_FILE_VERSION) {
    throw new HealthDataError('usage', `The file of saved requests is in format ${file.version}, written by a newer version of the extension; this one reads format ${SAVED_FILE_VERSION}. Update the extension to import it.`);
  }
  if (!Array.isArray(file.requests)) throw new HealthDataError('usage', 'The file of saved requests has no list of requests ("requests").');
  const requests: HistoryEntry[] = [];
  for (const value of file.requests) {
    const entry = historyEntryOf(value);
    if (!entry || entry.savedAs === undefined) continue;
    // Edited by hand, perhaps: a token pasted into a header or the address is taken out again.
    requests.push(toHistoryEntry(entry, { secrets: [], bodyLimit: STORED_BODY_LIMIT }));
  }
  return { requests, skipped: file.requests.length - requests.length };
}

export interface SavedMerge {
  /** The history with the imported requests added after the entries it had. */
  readonly history: HistoryEntry[];
  /** The requests added, under the names they have now. */
  readonly added: HistoryEntry[];
  /** Names already taken by another request: the name in the file, and the one it was given. */
  readonly renamed: ReadonlyArray<{ readonly from: string; readonly to: string }>;
  /** Requests already saved under that name (the same method and path and query). */
  readonly alreadySaved: number;
  /** Requests not added because Saved holds MAX_SAVED_REQUESTS. */
  readonly overLimit: number;
}

/**
 * Adds imported saved requests to a history. A request saved under the same name (in any case, or
 * with the number an import gave it) with the same method, path and query is already there;
 * another under that name gets the first
 * free `name (2)`, `name (3)`…; past `max` saved requests the rest are left out. Each added
 * request gets a new id (`newId`), so it never stands for an exchange of this workspace.
 */
export function mergeSavedRequests(
  history: readonly HistoryEntry[],
  imported: readonly HistoryEntry[],
  options: { readonly newId: () => string; readonly max?: number },
): SavedMerge {
  const max = options.max ?? MAX_SAVED_REQUESTS;
  const saved = history.filter((e) => e.savedAs !== undefined);
  const byName = new Map<string, HistoryEntry>();
  for (const e of saved) byName.set(e.savedAs!.toLowerCase(), e);
  const sameRequest = (a: HistoryEntry, b: HistoryEntry) => a.method === b.method && pathAndQuery(a.url) === pathAndQuery(b.url);
  const added: HistoryEntry[] = [];
  const renamed: Array<{ from: string; to: string }> = [];
  let alreadySaved = 0;
  let overLimit = 0;
  for (const entry of imported) {
    const name = entry.savedAs!.trim();
    const holder = byName.get(name.toLowerCase());
    // Saved under its name, or under a number an earlier import gave it: the same file imported
    // twice adds nothing the second time.
    const family = nameFamily(name);
    if ([...byName.values()].some((e) => sameRequest(e, entry) && nameFamily(e.savedAs!) === family)) {
      alreadySaved++;
      continue;
    }
    if (saved.length + added.length >= max) {
      overLimit++;
      continue;
    }
    const free = holder ? freeName(name, byName) : name;
    if (free !== name) renamed.push({ from: name, to: free });
    const made: HistoryEntry = { ...entry, id: options.newId(), savedAs: free };
    byName.set(free.toLowerCase(), made);
    added.push(made);
  }
  return { history: [...history, ...added], added, renamed, alreadySaved, overLimit };
}

/**
 * The saved requests named by `names` (trimmed, in any case), in `requests`' order; `missing` is
 * the first name given that names none of them.
 */
export function savedNamed(requests: readonly HistoryEntry[], names: readonly string[]): { requests: HistoryEntry[]; missing?: string } {
  const wanted = names.map((n) => n.trim());
  const lower = new Set(wanted.map((n) => n.toLowerCase()));
  const picked = requests.filter((r) => r.savedAs !== undefined && lower.has(r.savedAs.toLowerCase()));
  const found = new Set(picked.map((r) => r.savedAs!.toLowerCase()));
  const missing = wanted.find((n) => !found.has(n.toLowerCase()));
  return missing === undefined ? { requests: picked } : { requests: picked, missing };
}

/** A name without the ` (2)` an import may have added, in lower case. */
function nameFamily(name: string): string {
  return name.trim().replace(/ \(\d+\)$/, '').toLowerCase();
}

/** `name (2)`, `name (3)`…: the first not taken, the name cut so the whole stays within MAX_SAVED_NAME. */
function freeName(name: string, taken: ReadonlyMap<string, unknown>): string {
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const base = name.length + suffix.length > MAX_SAVED_NAME ? cutName(name, MAX_SAVED_NAME - suffix.length) : name;
    const candidate = `${base}${suffix}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** The name cut to `length` UTF-16 units without splitting a surrogate pair, spaces at its end dropped. */
function cutName(name: string, length: number): string {
  let out = '';
  for (const ch of name) {
    if (out.length + ch.length > length) break;
    out += ch;
  }
  return out.trimEnd();
}
