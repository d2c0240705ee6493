// Dispatch and the data endpoints. The paths come from the resource table (list, item by date or
// id, latest), so a new resource row is served without new code here.

import { isCalendarDate } from '../core/dates';
import { DATE_SEGMENT, RESOURCES, ResourceDefinition } from '../core/resources';
import { ADMIN_PREFIX, serveAdmin } from './admin';
import { Caller, TOKEN_PATH, identify, mintToken, rejectAs, unauthorized } from './auth';
import type { SandboxContext } from './context';
import { DEFAULT_LATENCY_MS, Endpoint, FaultRule, parseFaultHeader } from './faults';
import { Exchange, deliver, sendError, sendJson } from './http';
import { ListQuery, parseListQuery } from './query';

type Route =
  | { type: 'token' }
  | { type: 'list'; def: ResourceDefinition }
  | { type: 'latest'; def: ResourceDefinition }
  | { type: 'item'; def: ResourceDefinition; segment: string };

export function matchRoute(path: string): Route | undefined {
  if (path === TOKEN_PATH) return { type: 'token' };
  for (const def of RESOURCES) {
    if (path === def.listPath) return { type: 'list', def };
    if (path === def.latestPath) return { type: 'latest', def };
    const prefix = `${def.itemPath}/`;
    if (path.startsWith(prefix) && !path.includes('/', prefix.length)) return { type: 'item', def, segment: path.slice(prefix.length) };
  }
  return undefined;
}

export async function route(ctx: SandboxContext, ex: Exchange): Promise<void> {
  const path = ex.path.length > 1 ? ex.path.replace(/\/$/, '') : ex.path;
  if (path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)) return serveAdmin(ctx, ex, path);
  const found = matchRoute(path);
  if (!found) return sendError(ex, ctx.timers, 404, `No endpoint at ${path}`);
  const method = found.type === 'token' ? 'POST' : 'GET';
  if (ex.req.method !== method) return sendError(ex, ctx.timers, 405, `${path} accepts ${method} only`, { Allow: method });

  let headerRules: FaultRule[] = [];
  const header = ex.req.headers['x-sandbox-fault'];
  if (header) {
    try {
      headerRules = parseFaultHeader(Array.isArray(header) ? header.join(',') : header);
    } catch (err) {
      return sendError(ex, ctx.timers, 400, `X-Sandbox-Fault: ${(err as Error).message}`);
    }
  }
  const identity = identify(ctx, ex);
  ex.authorized = found.type !== 'token' && 'caller' in identity;
  const endpoint: Endpoint = found.type === 'token' ? 'token' : found.type === 'list' ? 'list' : 'record';
  ex.faults = ctx.faults.take(endpoint, ex.req.url ?? path, headerRules);
  if (ex.faults.latency) await ctx.timers.wait(ex.faults.latency.latencyMs ?? DEFAULT_LATENCY_MS);
  if (await answeredByFault(ctx, ex)) return;

  if (found.type === 'token') return mintToken(ctx, ex);
  if ('refusal' in identity) return unauthorized(ctx, ex, identity);
  const { caller } = identity;
  if (found.type === 'list') return serveList(ctx, ex, found.def, caller);
  const human = humanOf(ctx, ex, caller);
  if ('error' in human) return sendError(ex, ctx.timers, human.status, human.error);
  if (found.type === 'latest') {
    const latest = ctx.store.latest(found.def.kind, human.id);
    if (!latest) return sendError(ex, ctx.timers, 404, `No ${noun(found.def)} yet`);
    return sendJson(ex, ctx.timers, 200, latest);
  }
  return serveItem(ctx, ex, found.def, found.segment, caller, human.id);
}

const HTML_502 = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** Answers the request as its fault dictates, when that fault replaces the reply outright. */
async function answeredByFault(ctx: SandboxContext, ex: Exchange): Promise<boolean> {
  const rule = ex.faults.outcome;
  if (!rule) return false;
  const retryAfter: Record<string, string> = rule.retryAfter === undefined ? {} : { 'Retry-After': String(rule.retryAfter) };
  switch (rule.fault) {
    case 'reset':
      ex.req.socket.destroy();
      return true;
    case '429':
      await sendError(ex, ctx.timers, 429, 'Too many requests: slow down (sandbox fault)', retryAfter);
      return true;
    case '500':
    case '502':
    case '503':
      await sendError(ex, ctx.timers, Number(rule.fault), `The service failed to answer (sandbox fault ${rule.fault})`, retryAfter);
      return true;
    case 'html':
      await deliver(ex, ctx.timers, 502, HTML_502, { 'Content-Type': 'text/html' });
      return true;
    case 'status-in-body':
      await sendJson(ex, ctx.timers, 200, { status: 401, message: 'Unauthorized' });
      return true;
    case 'expired-token':
    case 'revoked-token':
      await rejectAs(ctx, ex, rule.fault === 'expired-token' ? 'expired' : 'revoked');
      return true;
    default:
      // The others shape a reply the handlers still write: see deliver(), auth, serveList().
      return false;
  }
}

const noun = (def: ResourceDefinition): string => def.singular.toLowerCase();

/**
 * The human a by-date or latest call concerns: the user token's own, else `?humanId=`, else the
 * first human (a client token speaks for the application, and the spec leaves this open).
 */
function humanOf(ctx: SandboxContext, ex: Exchange, caller: Caller): { id: string } | { status: number; error: string } {
  const asked = ex.url.searchParams.get('humanId') || undefined;
  if (caller.kind === 'user') {
    if (asked !== undefined && asked !== caller.humanId) return { status: 403, error: 'This access token may read its own human only' };
    return { id: caller.humanId };
  }
  if (asked !== undefined && !ctx.store.humans.includes(asked)) return { status: 404, error: `No human with humanId "${asked}"` };
  return { id: asked ?? ctx.store.humans[0] };
}

async function serveItem(ctx: SandboxContext, ex: Exchange, def: ResourceDefinition, segment: string, caller: Caller, humanId: string): Promise<void> {
  let key: string;
  try {
    key = decodeURIComponent(segment);
  } catch {
    return sendError(ex, ctx.timers, 400, `The path segment "${segment}" is not valid percent-encoding`);
  }
  if (def.byDate && DATE_SEGMENT.test(key)) {
    if (!isCalendarDate(key)) return sendError(ex, ctx.timers, 400, `${key} is not a real date`);
    const record = ctx.store.onDate(def.kind, humanId, key);
    if (!record) return sendError(ex, ctx.timers, 404, `No ${noun(def)} for ${key}`);
    return sendJson(ex, ctx.timers, 200, record);
  }
  const record = ctx.store.byId(def.kind, key);
  if (!record || (caller.kind === 'user' && record.humanId !== caller.humanId)) {
    return sendError(ex, ctx.timers, 404, `No ${noun(def)} with id "${key}"`);
  }
  return sendJson(ex, ctx.timers, 200, record);
}

async function serveList(ctx: SandboxContext, ex: Exchange, def: ResourceDefinition, caller: Caller): Promise<void> {
  const query = parseListQuery(ex.url.searchParams, ctx.config.maxLimit);
  if ('error' in query) return sendError(ex, ctx.timers, 400, query.error);
  if (caller.kind === 'user') {
    if (query.humanId !== undefined && query.humanId !== caller.humanId) return sendError(ex, ctx.timers, 403, 'This access token may read its own human only');
    query.humanId = caller.humanId;
  }
  const fault = ex.faults.outcome?.fault;
  // 'oldest-first': the same list in the other order, as some services page it.
  const filtered = ctx.store.list(def.kind, query);
  const matches = fault === 'oldest-first' ? [...filtered].reverse() : filtered;
  let page = matches.slice(query.offset, query.offset + query.limit);
  if (fault === 'repeat-page') page = withRepeats(matches, page, query);
  const headers = ctx.config.paging === 'link' ? pagingHeaders(ex, query, matches.length, fault === 'link-loop') : {};
  const wrapper = ctx.config.wrapper;
  return sendJson(ex, ctx.timers, 200, wrapper === 'none' ? page : { [wrapper]: page }, headers);
}

/**
 * The 'repeat-page' fault, as offset paging over changing data does it: the page starts with the
 * last records of the previous page again (or, on the first page, ends with its own first ones).
 * Nothing is lost; a client that does not deduplicate by id counts some records twice.
 */
function withRepeats<T>(matches: readonly T[], page: T[], query: ListQuery): T[] {
  if (page.length === 0) return page;
  const repeats = Math.max(1, Math.floor(query.limit / 4));
  if (query.offset === 0) return page.concat(page.slice(0, repeats));
  return matches.slice(Math.max(0, query.offset - repeats), query.offset).concat(page);
}

/** `Link: <…>; rel="next", <…>; rel="last"` (absolute, other parameters kept) and X-Total-Count. */
function pagingHeaders(ex: Exchange, query: ListQuery, total: number, loop: boolean): Record<string, string> {
  const { limit, offset } = query;
  const pageUrl = (at: number): string => {
    const url = new URL(ex.url.href);
    url.searchParams.set('limit', String(limit));
    url.searchParams.set('offset', String(at));
    return url.href;
  };
  const links: string[] = [];
  // 'link-loop' sends the client back to the first page, as a misconfigured proxy once did.
  if (loop) links.push(`<${pageUrl(0)}>; rel="next"`);
  else if (offset + limit < total) links.push(`<${pageUrl(offset + limit)}>; rel="next"`);
  if (total > 0) {
    // The last page of the chain that `next` walks from this offset.
    const last = offset < total ? offset + Math.floor((total - 1 - offset) / limit) * limit : Math.floor((total - 1) / limit) * limit;
    links.push(`<${pageUrl(last)}>; rel="last"`);
  }
  return links.length > 0 ? { 'X-Total-Count': String(total), Link: links.join(', ') } : { 'X-Total-Count': String(total) };
}
