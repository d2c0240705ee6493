// A request to build and send again: one of the service's own endpoints (from the resource
// table, and the token mint), its path parameter and the list's query parameters, as the form
// edits them (text). Made from scratch or from any exchange ("Edit and Resend"); only the
// service's endpoints can be expressed, so nothing else can be sent.

import { DATE_SEGMENT, RESOURCES, ResourceKind, isResourceKind, resource } from '../resources';
import { Exchange, encodeIdSegment, endpointOf } from '../service';

/** The list's query parameters the form offers, in the order it shows them. */
export const QUERY_PARAMS = ['start_date', 'end_date', 'source', 'humanId', 'limit', 'offset', 'updated_since', 'created_since'] as const;
export type QueryParam = (typeof QUERY_PARAMS)[number];

export type DraftEndpoint = 'token' | 'list' | 'getById' | 'getByDate' | 'getLatest';

export interface RequestDraft {
  readonly endpoint: DraftEndpoint;
  /** Every endpoint but the token mint belongs to a resource of the table. */
  readonly kind?: ResourceKind;
  /** getById's id (sent percent-encoded) or getByDate's date. */
  readonly id?: string;
  readonly date?: string;
  /** The list's query parameters, as typed; blank ones are not sent. */
  readonly params?: Readonly<Partial<Record<QueryParam, string>>>;
}

/** One endpoint the form offers: its draft key (`activity.list`), method and path template. */
export interface EndpointChoice {
  readonly key: string;
  readonly endpoint: DraftEndpoint;
  readonly kind?: ResourceKind;
  readonly method: 'GET' | 'POST';
  /** `/v1/human/activities/summaries/{id}`. */
  readonly path: string;
}

/** Every endpoint of the service, from the resource table; the token mint first. */
export function endpointChoices(): EndpointChoice[] {
  const out: EndpointChoice[] = [{ key: 'token', endpoint: 'token', method: 'POST', path: '/v1/admin/token' }];
  for (const def of RESOURCES) {
    out.push({ key: `${def.kind}.list`, endpoint: 'list', kind: def.kind, method: 'GET', path: def.listPath });
    out.push({ key: `${def.kind}.getById`, endpoint: 'getById', kind: def.kind, method: 'GET', path: `${def.itemPath}/{id}` });
    if (def.byDate) out.push({ key: `${def.kind}.getByDate`, endpoint: 'getByDate', kind: def.kind, method: 'GET', path: `${def.itemPath}/{YYYY-MM-DD}` });
    if (def.latestPath) out.push({ key: `${def.kind}.getLatest`, endpoint: 'getLatest', kind: def.kind, method: 'GET', path: def.latestPath });
  }
  return out;
}

/** The choice a draft is for; undefined when the draft names no endpoint of the service. */
export function choiceOf(draft: Pick<RequestDraft, 'endpoint' | 'kind'>): EndpointChoice | undefined {
  return endpointChoices().find((c) => c.endpoint === draft.endpoint && c.kind === draft.kind);
}

/** The draft that would send `exchange` again; undefined for a request to no endpoint of the service. */
export function draftFromExchange(exchange: Pick<Exchange, 'method' | 'url'>): RequestDraft | undefined {
  return draftFromUrl(exchange.method, exchange.url).draft;
}

/** A draft made from a request, and the query parameters it could not carry (by name, once each). */
export interface DraftFromUrl {
  readonly draft?: RequestDraft;
  readonly leftOut: readonly string[];
}

/**
 * The draft of a request by its method and URL, and the query parameters left out: any the
 * service's endpoint does not take. A token's parameter (`access_token`, one of `tokenParams`, or
 * a value redacted) is not "left out": the client adds its own token.
 */
export function draftFromUrl(method: string, url: string, tokenParams: readonly string[] = []): DraftFromUrl {
  const { path, query } = splitUrl(url);
  const { endpoint, resource: kind } = endpointOf(method, path);
  if (endpoint === 'other' || (endpoint !== 'token' && !kind)) return { leftOut: [] };
  const params: Partial<Record<QueryParam, string>> = {};
  const leftOut = new Set<string>();
  for (const pair of query ? query.split('&') : []) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = safeDecode(eq < 0 ? pair : pair.slice(0, eq)) ?? pair.slice(0, eq < 0 ? undefined : eq);
    const value = safeDecode(eq < 0 ? '' : pair.slice(eq + 1).replace(/\+/g, ' '));
    if (name === 'access_token' || tokenParams.includes(name) || /\[redacted\]|%5Bredacted%5D/i.test(pair)) continue;
    if (endpoint === 'list' && (QUERY_PARAMS as readonly string[]).includes(name) && value !== undefined) params[name as QueryParam] = value;
    else leftOut.add(name);
  }
  const out = (draft: RequestDraft): DraftFromUrl => ({ draft, leftOut: [...leftOut] });
  if (endpoint === 'token') return out({ endpoint });
  if (endpoint === 'getLatest') return out({ endpoint, kind });
  if (endpoint === 'list') return out({ endpoint, kind, params });
  const segment = safeDecode(path.slice(path.lastIndexOf('/') + 1)) ?? '';
  return out(endpoint === 'getByDate' ? { endpoint, kind, date: segment } : { endpoint, kind, id: segment });
}

/** The path and query a draft sends, for people: `/v1/human/activities/summaries?limit=10`. */
export function draftTarget(draft: RequestDraft): string {
  const choice = choiceOf(draft);
  if (!choice) return '';
  if (draft.endpoint === 'token') return choice.path;
  const def = resource(draft.kind!);
  switch (draft.endpoint) {
    case 'getById':
      return `${def.itemPath}/${draft.id?.trim() ? encodeIdSegment(draft.id.trim()) : '{id}'}`;
    case 'getByDate':
      return `${def.itemPath}/${draft.date?.trim() || '{YYYY-MM-DD}'}`;
    case 'getLatest':
      return choice.path;
    case 'list': {
      const query = QUERY_PARAMS.map((p) => [p, draft.params?.[p]?.trim()] as const)
        .filter(([, v]) => v)
        .map(([p, v]) => `${p}=${encodeURIComponent(v!)}`)
        .join('&');
      return query ? `${def.listPath}?${query}` : def.listPath;
    }
  }
}

/** A draft read back from a command argument, checked for shape (not for values: the form does that). */
export function draftOf(value: unknown): RequestDraft | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const endpoint = v.endpoint;
  if (endpoint !== 'token' && endpoint !== 'list' && endpoint !== 'getById' && endpoint !== 'getByDate' && endpoint !== 'getLatest') return undefined;
  if (endpoint === 'token') return { endpoint };
  if (!isResourceKind(v.kind) || !choiceOf({ endpoint, kind: v.kind })) return undefined;
  const text = (x: unknown): string | undefined => (typeof x === 'string' ? x : typeof x === 'number' && Number.isFinite(x) ? String(x) : undefined);
  const params: Partial<Record<QueryParam, string>> = {};
  const given = v.params && typeof v.params === 'object' ? (v.params as Record<string, unknown>) : {};
  for (const p of QUERY_PARAMS) {
    const t = text(given[p]);
    if (t !== undefined) params[p] = t;
  }
  return {
    endpoint,
    kind: v.kind,
    ...(text(v.id) !== undefined ? { id: text(v.id) } : {}),
    ...(text(v.date) !== undefined ? { date: text(v.date) } : {}),
    ...(endpoint === 'list' ? { params } : {}),
  };
}

/** True when `text` is written like a date segment (the service reads such an id as a date). */
export const looksLikeDate = (text: string): boolean => DATE_SEGMENT.test(text.trim());

/** A URL's path and query, with or without its scheme and host (`127.0.0.1:8787/v1/…` too, as curl reads it). */
export function splitUrl(url: string): { path: string; query: string } {
  const scheme = url.indexOf('://');
  const slash = scheme < 0 ? url.indexOf('/') : url.indexOf('/', scheme + 3);
  const rest = slash < 0 ? '/' : url.slice(slash);
  const hash = rest.indexOf('#');
  const noHash = hash < 0 ? rest : rest.slice(0, hash);
  const q = noHash.indexOf('?');
  return q < 0 ? { path: noHash, query: '' } : { path: noHash.slice(0, q), query: noHash.slice(q + 1) };
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
