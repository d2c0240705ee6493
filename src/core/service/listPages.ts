// The pieces of a list reply: its Link header, its wrapper, its records' ids; and the URLs of
// its pages. paging.ts puts them together.

import { HealthDataError } from '../errors';
import { LIST_WRAPPERS, type ListWrapperField } from '../resources';

export type ListWrapper = 'array' | ListWrapperField;

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
    for (const wrapper of LIST_WRAPPERS) {
      if (Array.isArray(rec[wrapper])) {
        const total = typeof rec.total === 'number' && Number.isSafeInteger(rec.total) && rec.total >= 0 ? rec.total : undefined;
        return { records: rec[wrapper] as unknown[], wrapper, total };
      }
    }
  }
  throw new HealthDataError('parse', `${request}: the reply is not a list (expected a JSON array or an object with data, items or results)`, { request });
}

/**
 * The ids a list has had so far, for keepFirstOfEachId. A plain object from one literal and a
 * function of the module rather than a class with a method: the object is garbage once its
 * list is read, and a full collection frees the hidden class of a class's instances with it;
 * the optimized code of every method that had checked that class is then thrown away, and the
 * next list pays for compiling the loop again. An object literal's hidden class lives as long
 * as the function that builds it, so the code stays.
 *
 * Ids are kept apart by type, so the string "1" and the number 1 stay two ids, without building
 * a key string per record. String ids are first kept as 30-bit hashes of their text in a table
 * of 32-bit integers (open addressing, linear probing, at most half full): a Set of strings
 * compares each probe with strings already in it, scattered over the heap, and reads each one
 * again when it grows. The first time two ids share a hash, rare for ids that differ, an exact
 * Set of the strings takes over.
 */
export interface IdsSeen {
  numbers: Set<number>;
  /** Each entry a hash + 1; 0 is an empty slot. */
  table: Int32Array;
  size: number;
  /** The string ids behind the hashes, until `strings` takes over. */
  hashed: string[];
  strings: Set<string> | undefined;
  /** Records dropped so far because their id came earlier. */
  dropped: number;
}

export function idsSeen(): IdsSeen {
  return { numbers: new Set(), table: new Int32Array(256), size: 0, hashed: [], strings: undefined, dropped: 0 };
}

/**
 * The records whose ids were not seen before, in order (records without an id are always
 * kept): `records` itself when all were new.
 */
export function keepFirstOfEachId(seen: IdsSeen, records: readonly unknown[]): unknown[] {
  let kept: unknown[] | undefined;
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    const id = r && typeof r === 'object' ? (r as { id?: unknown }).id : undefined;
    let fresh: boolean;
    if (typeof id === 'string') {
      fresh = seen.strings === undefined ? isNewHashed(seen, id) : isNew(seen.strings, id);
    } else {
      fresh = typeof id !== 'number' || isNew(seen.numbers, id);
    }
    if (fresh) {
      kept?.push(r);
    } else {
      seen.dropped++;
      kept ??= records.slice(0, i);
    }
  }
  return kept ?? (records as unknown[]);
}

function isNewHashed(seen: IdsSeen, id: string): boolean {
  const stored = textHash(id) + 1;
  let table = seen.table;
  const mask = table.length - 1;
  let at = stored & mask;
  for (let held = table[at]; held !== 0; held = table[at]) {
    if (held === stored) {
      // Maybe this id again, maybe another with the same hash: exact from here on.
      seen.strings = new Set(seen.hashed);
      seen.hashed = [];
      return isNew(seen.strings, id);
    }
    at = (at + 1) & mask;
  }
  table[at] = stored;
  seen.hashed.push(id);
  if (++seen.size * 2 > table.length) {
    table = doubled(table);
    seen.table = table;
  }
  return true;
}

/** Adds `value`; true when it was not there yet (one lookup, not has() then add()). */
function isNew<T>(set: Set<T>, value: T): boolean {
  const size = set.size;
  return set.add(value).size !== size;
}

/** A hash table twice the size, with the same entries (each a hash + 1; 0 is empty). */
function doubled(old: Int32Array): Int32Array {
  const table = new Int32Array(old.length * 2);
  const mask = table.length - 1;
  for (let k = 0; k < old.length; k++) {
    const stored = old[k];
    if (stored === 0) continue;
    let at = stored & mask;
    while (table[at] !== 0) at = (at + 1) & mask;
    table[at] = stored;
  }
  return table;
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
