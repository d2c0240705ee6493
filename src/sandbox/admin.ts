// Endpoints that exist only in the sandbox, under /__sandbox/, for tests in other processes and
// for the extension: add or clear faults, revoke tokens, read the request log. No auth: the
// sandbox listens on loopback and guards nothing of value.

import type { SandboxContext } from './context';
import { FaultRule, checkFaultRule, parseFaultSpec } from './faults';
import { Exchange, readBody, sendError, sendJson } from './http';

export const ADMIN_PREFIX = '/__sandbox';
const MAX_BODY_BYTES = 64 * 1024;

export async function serveAdmin(ctx: SandboxContext, ex: Exchange, path: string): Promise<void> {
  const { timers } = ctx;
  const method = ex.req.method ?? 'GET';
  const allowed = ALLOWED[path];
  if (!allowed) return sendError(ex, timers, 404, `No sandbox endpoint at ${path}`);
  if (!allowed.includes(method)) return sendError(ex, timers, 405, `${path} accepts ${allowed.join(', ')}`, { Allow: allowed.join(', ') });

  switch (`${method} ${path}`) {
    case `GET ${ADMIN_PREFIX}/faults`:
      return sendJson(ex, timers, 200, ctx.faults.list());
    case `POST ${ADMIN_PREFIX}/faults`:
      return addFaults(ctx, ex);
    case `DELETE ${ADMIN_PREFIX}/faults`:
      return sendJson(ex, timers, 200, { cleared: ctx.faults.clear() });
    case `POST ${ADMIN_PREFIX}/revoke`:
      return sendJson(ex, timers, 200, { revoked: ctx.tokens.revokeAll() });
    case `GET ${ADMIN_PREFIX}/requests`:
      return sendJson(ex, timers, 200, ctx.requests);
    default: {
      // DELETE /__sandbox/requests
      const cleared = ctx.requests.length;
      ctx.requests.length = 0;
      return sendJson(ex, timers, 200, { cleared });
    }
  }
}

const ALLOWED: Record<string, string[] | undefined> = {
  [`${ADMIN_PREFIX}/faults`]: ['GET', 'POST', 'DELETE'],
  [`${ADMIN_PREFIX}/revoke`]: ['POST'],
  [`${ADMIN_PREFIX}/requests`]: ['GET', 'DELETE'],
};

/** Body: a FaultRule object, an array of them, or a spec string like "503:times=2". */
async function addFaults(ctx: SandboxContext, ex: Exchange): Promise<void> {
  const text = await readBody(ex.req, MAX_BODY_BYTES);
  if (text === undefined) return sendError(ex, ctx.timers, 413, `The request body is larger than ${MAX_BODY_BYTES} bytes`);
  let rules: FaultRule[];
  let many = false;
  try {
    const body: unknown = JSON.parse(text);
    many = Array.isArray(body);
    const items = Array.isArray(body) ? body : [body];
    // All are checked before any is added, so a bad third rule leaves no first two behind.
    rules = items.map((item: unknown) => (typeof item === 'string' ? parseFaultSpec(item) : checkFaultRule(item)));
  } catch (err) {
    const message = err instanceof SyntaxError ? 'The request body is not valid JSON' : (err as Error).message;
    return sendError(ex, ctx.timers, 400, message);
  }
  const added = rules.map((rule) => ctx.faults.add(rule));
  return sendJson(ex, ctx.timers, 201, many ? added : added[0]);
}
