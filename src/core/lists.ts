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
  // a key string per record (this runs twice over every record of a list).
  private readonly strings = new Set<string>();
  private readonly numbers = new Set<number>();
  dropped = 0;
  keep(records: readonly unknown[]): unknown[] {
    const kept: unknown[] = [];
    for (const r of records) {
      const id = r && typeof r === 'object' ? (r as { id?: unknown }).id : undefined;
      const seen: Set<unknown> | undefined = typeof id === 'string' ? this.strings : typeof id === 'number' ? this.numbers : undefined;
      if (seen !== undefined) {
        // One lookup instead of has() then add(): the set grows unless the id was there.
        const size = seen.size;
        if (seen.add(id).size === size) {
          this.dropped++;
          continue;
        }
      }
      kept.push(r);
    }
    return kept;
  }
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
