// What a replay serves, read from one or more recordings: every record the recorded lists and
// single-record replies held (once per id, in list order), and the exact reply of each recorded
// single-record request. The sandbox pages, filters and looks records up from these.

import { RESOURCES, ResourceKind } from '../resources';
import { endpointOf, unwrapList } from '../service';
import type { HarEntry, HarLog } from './har';

export interface RecordedReply {
  status: number;
  contentType: string;
  body: string;
}

export interface ReplayData {
  /** The recordings' names, as a 404 names them. */
  readonly sources: readonly string[];
  readonly records: Readonly<Record<ResourceKind, unknown[]>>;
  /** humanIds in the order they first appear. */
  readonly humans: readonly string[];
  /** Exact replies of single-record requests, by replayKey(path, query). */
  readonly replies: ReadonlyMap<string, RecordedReply>;
  /** Kinds of which a list was recorded. */
  readonly listed: ReadonlySet<ResourceKind>;
}

/** Query parameters a replay ignores when matching a request: credentials. */
const IGNORED_PARAMS = new Set(['access_token']);

/** How a single-record request is matched: its path as sent and its other parameters, sorted. */
export function replayKey(path: string, params: URLSearchParams): string {
  const kept = [...params].filter(([name]) => !IGNORED_PARAMS.has(name)).sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  const query = new URLSearchParams(kept).toString();
  return query ? `${path}?${query}` : path;
}

export function replayDataOf(recordings: ReadonlyArray<{ name: string; har: HarLog }>): ReplayData {
  const byKind = new Map<ResourceKind, Map<string, unknown>>(RESOURCES.map((r) => [r.kind, new Map()]));
  const humans = new Set<string>();
  const replies = new Map<string, RecordedReply>();
  const listed = new Set<ResourceKind>();
  const keep = (kind: ResourceKind, record: unknown): void => {
    if (!record || typeof record !== 'object' || Array.isArray(record)) return;
    const { id, humanId } = record as { id?: unknown; humanId?: unknown };
    if (typeof id !== 'string' || id === '') return;
    const records = byKind.get(kind)!;
    if (!records.has(id)) records.set(id, record);
    if (typeof humanId === 'string' && humanId) humans.add(humanId);
  };

  for (const { har } of recordings) {
    const lists: Array<{ kind: ResourceKind; order: string; entry: HarEntry }> = [];
    // Records of single-record replies join after the lists', so the lists keep their order.
    const singles: Array<{ kind: ResourceKind; text: string }> = [];
    for (const entry of har.log.entries) {
      if (entry.request.method !== 'GET') continue;
      let url: URL;
      try {
        url = new URL(entry.request.url);
      } catch {
        continue;
      }
      const { endpoint, resource } = endpointOf('GET', url.pathname);
      if (resource === undefined) continue;
      const text = entry.response.content?.text;
      if (endpoint === 'list') {
        if (entry.response.status !== 200 || text === undefined) continue;
        listed.add(resource);
        // Pages in list order whatever order they arrived in (they may be read side by side).
        const rest = new URLSearchParams([...url.searchParams].filter(([n]) => n !== 'offset' && n !== 'limit' && !IGNORED_PARAMS.has(n)));
        const offset = Number(url.searchParams.get('offset') ?? 0);
        lists.push({ kind: resource, order: `${url.pathname}?${rest.toString()}#${String(offset).padStart(12, '0')}`, entry });
        continue;
      }
      if (text === undefined) continue;
      const rawPath = rawPathOf(entry.request.url);
      replies.set(replayKey(rawPath, url.searchParams), {
        status: entry.response.status,
        contentType: entry.response.content.mimeType || 'application/json; charset=utf-8',
        body: text,
      });
      if (entry.response.status === 200) singles.push({ kind: resource, text });
    }
    lists.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
    for (const { kind, entry } of lists) {
      const body = parse(entry.response.content.text ?? '');
      if (body === undefined) continue;
      let records: unknown[];
      try {
        records = unwrapList(body, entry.request.url).records;
      } catch {
        continue;
      }
      for (const record of records) keep(kind, record);
    }
    for (const { kind, text } of singles) {
      const body = parse(text);
      if (body !== undefined) keep(kind, body);
    }
  }
  const records = {} as Record<ResourceKind, unknown[]>;
  for (const [kind, map] of byKind) records[kind] = [...map.values()];
  return { sources: recordings.map((r) => r.name), records, humans: [...humans], replies, listed };
}

/** The path of a URL exactly as written (URL parsing would decode or collapse `%2E%2E`). */
function rawPathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('://') + 3);
  if (start < 0) return '/';
  const end = url.slice(start).search(/[?#]/);
  return end < 0 ? url.slice(start) : url.slice(start, start + end);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
