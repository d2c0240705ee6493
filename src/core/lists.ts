// The pieces of a list reply: its Link header, its wrapper, its records' ids; and the URLs of
// its pages. paging.ts puts them together.

import { HealthDataError } from './errors';

export type ListWrapper = 'array' | 'data' | 'items' | 'results';

/** `Link: <…>; rel="next", <…>; rel="last"` as a map from rel to URL (first one of each rel wins). */
export function parseLinkHeader(value: string | null | undefined): Map<string, string> {
  const links = new Map<string, string>();
  if (!value) return links;
  for (const m of value.matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(m[2]);
    for (const name of (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/)) {
      if (name && !links.has(name)) links.set(name, m[1].trim());
    }
  }
  return links;
}

/** The records of a list reply: a bare array or `{data|items|results: [...]}`, and which it was. */
export function unwrapList(body: unknown, request: string): { records: unknown[]; wrapper: ListWrapper; total?: number } {
  if (Array.isArray(body)) return { records: body, wrapper: 'array' };
  if (body && typeof body === 'object') {
    const rec = body as Record<string, unknown>;
    for (const wrapper of ['data', 'items', 'results'] as const) {
      if (Array.isArray(rec[wrapper])) {
        const total = typeof rec.total === 'number' && Number.isSafeInteger(rec.total) && rec.total >= 0 ? rec.total : undefined;
        return { records: rec[wrapper] as unknown[], wrapper, total };
      }
    }
  }
  throw new HealthDataError('parse', `${request}: the reply is not a list (expected a JSON array or an object with data, items or results)`, { request });
}

/** Keeps the first record of each id; records without an id are always kept. */
export class Dedupe {
  // Ids kept apart by type, so the string "1" and the number 1 stay two ids, without building
  // a key string per record.
  private readonly numbers = new Set<number>();
  // String ids are first kept as 30-bit hashes of their text. A Set of strings compares each
  // probe with strings already in it, scattered over the heap, and reads each one again when it
  // grows; filled page by page between network work, those reads miss the cache: four times the
  // cost of the same set filled in one loop. A table of hashes never reads a string back. The
  // first time two ids share a hash, rare for ids that differ, the exact set takes over.
  private readonly hashes = new HashSet();
  private hashed: string[] | undefined = [];
  private strings: Set<string> | undefined;
  dropped = 0;

  /** The records whose ids were not seen before, in order: `records` itself when all were new. */
  keep(records: readonly unknown[]): unknown[] {
    let kept: unknown[] | undefined;
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      const id = r && typeof r === 'object' ? (r as { id?: unknown }).id : undefined;
      if (typeof id === 'string' ? this.isNewString(id) : typeof id !== 'number' || isNew(this.numbers, id)) {
        kept?.push(r);
        continue;
      }
      this.dropped++;
      kept ??= records.slice(0, i);
    }
    return kept ?? (records as unknown[]);
  }

  private isNewString(id: string): boolean {
    if (this.strings !== undefined) return isNew(this.strings, id);
    const hashed = this.hashed!;
    if (this.hashes.add(textHash(id))) {
      hashed.push(id);
      return true;
    }
    // Maybe this id again, maybe another with the same hash: exact from here on.
    this.strings = new Set(hashed);
    this.hashed = undefined;
    return isNew(this.strings, id);
  }
}

/** Adds `value`; true when it was not there yet (one lookup, not has() then add()). */
function isNew<T>(set: Set<T>, value: T): boolean {
  const size = set.size;
  return set.add(value).size !== size;
}

/**
 * A set of 30-bit hashes in one typed array (open addressing, linear probing, at most half
 * full): 4 bytes an entry, in one block, where a Set of numbers takes about 24 in several.
 */
class HashSet {
  private table = new Int32Array(256);
  private size = 0;

  /** Adds `hash` (0 to 2^30 - 1); true when it was not there yet. */
  add(hash: number): boolean {
    const stored = hash + 1; // 0 marks an empty slot
    const table = this.table;
    const mask = table.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const held = table[i];
      if (held === stored) return false;
      if (held === 0) {
        table[i] = stored;
        if (++this.size * 2 > table.length) this.grow();
        return true;
      }
    }
  }

  private grow(): void {
    const old = this.table;
    const table = new Int32Array(old.length * 2);
    const mask = table.length - 1;
    for (const stored of old) {
      if (stored === 0) continue;
      let i = (stored - 1) & mask;
      while (table[i] !== 0) i = (i + 1) & mask;
      table[i] = stored;
    }
    this.table = table;
  }
}

/**
 * FNV-1a over an id's text, folded to 30 bits (a small integer, stored in the set without a
 * box). Long ids are hashed by their length and their first and last 32 characters, so a
 * hostile megabyte id costs no more than a short one; equal hashes fall back to exact compares.
 */
export function textHash(text: string): number {
  const n = text.length;
  let h = Math.imul(0x811c9dc5 ^ n, 16777619);
  if (n <= 64) {
    for (let i = 0; i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  } else {
    for (let i = 0; i < 32; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    for (let i = n - 32; i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  }
  return h & 0x3fffffff;
}

export function withPage(url: string, limit: number, offset: number | undefined): string {
  const u = new URL(url);
  u.searchParams.set('limit', String(limit));
  if (offset === undefined) u.searchParams.delete('offset');
  else u.searchParams.set('offset', String(offset));
  return u.href;
}

// Values no list URL is likely to hold; a URL that does hold one gets withPage itself.
const LIMIT_MARK = 918273645;
const OFFSET_MARK = 546372819;

/**
 * withPage for many pages of one list: the URL is parsed and serialised once, with marks where
 * the limit and the offset go, and each page's URL is the pieces around them joined, the very
 * text withPage gives (numbers serialise as their digits, wherever they stand).
 */
export function pageUrls(url: string): (limit: number, offset: number) => string {
  const template = withPage(url, LIMIT_MARK, OFFSET_MARK);
  const limitMark = String(LIMIT_MARK);
  const offsetMark = String(OFFSET_MARK);
  const a = template.indexOf(limitMark);
  const b = template.indexOf(offsetMark);
  if (a < 0 || b < 0 || template.indexOf(limitMark, a + 1) >= 0 || template.indexOf(offsetMark, b + 1) >= 0) {
    return (limit, offset) => withPage(url, limit, offset);
  }
  const limitFirst = a < b;
  const [first, second] = limitFirst ? [a, b] : [b, a];
  const firstEnd = first + (limitFirst ? limitMark : offsetMark).length;
  const secondEnd = second + (limitFirst ? offsetMark : limitMark).length;
  const head = template.slice(0, first);
  const middle = template.slice(firstEnd, second);
  const tail = template.slice(secondEnd);
  return limitFirst
    ? (limit, offset) => `${head}${limit}${middle}${offset}${tail}`
    : (limit, offset) => `${head}${offset}${middle}${limit}${tail}`;
}

/** A next link as a URL, or undefined when it cannot be read as one. */
export function resolveLink(link: string, base: string): URL | undefined {
  try {
    return new URL(link, base);
  } catch {
    return undefined;
  }
}

/** The query of a URL without credential parameters, its parameters sorted. */
export function publicQuery(url: URL, secretParams: readonly string[]): string {
  const params = [...url.searchParams.entries()]
    .filter(([name]) => !secretParams.includes(name))
    .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  const query = new URLSearchParams(params).toString();
  return query ? `?${query}` : '';
}
