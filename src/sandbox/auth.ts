// The service's authentication: minting client tokens at POST /v1/admin/token, and checking the
// token a data call presents (in the configured header, or as ?access_token=).

import { createHash, timingSafeEqual } from 'node:crypto';
import type { SandboxContext } from './context';
import { Exchange, isJsonRequest, readBody, sendError, sendJson } from './http';

export const TOKEN_PATH = '/v1/admin/token';
const MAX_BODY_BYTES = 64 * 1024;

/** Whom a data call speaks for: the application (all humans) or one human's access token. */
export type Caller = { kind: 'client' } | { kind: 'user'; humanId: string };

export async function mintToken(ctx: SandboxContext, ex: Exchange): Promise<void> {
  const { timers, config } = ctx;
  const text = await readBody(ex.req, MAX_BODY_BYTES);
  if (text === undefined) return sendError(ex, timers, 413, `The request body is larger than ${MAX_BODY_BYTES} bytes`);
  if (!isJsonRequest(ex.req)) return sendError(ex, timers, 415, 'Content-Type must be application/json');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return sendError(ex, timers, 400, 'The request body is not valid JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return sendError(ex, timers, 400, 'The request body must be a JSON object with type, client_id and client_secret');
  }
  const fields = body as Record<string, unknown>;
  if (fields.type !== 'client') return sendError(ex, timers, 400, `type must be "client", got ${JSON.stringify(fields.type ?? null)}`);
  for (const name of ['client_id', 'client_secret']) {
    const value = fields[name];
    if (typeof value !== 'string' || value === '') return sendError(ex, timers, 400, `${name} is required and must be a non-empty string`);
  }
  if (!sameText(fields.client_id as string, config.clientId) || !sameText(fields.client_secret as string, config.clientSecret)) {
    return sendError(ex, timers, 401, 'Invalid client credentials');
  }
  ex.authorized = true;
  const fault = ex.faults.outcome?.fault;
  const minted = ctx.tokens.mint(fault === 'non-jwt-token');
  const reply = fault === 'no-expires-in' ? { client_token: minted.token } : { client_token: minted.token, expires_in: minted.expiresIn };
  return sendJson(ex, timers, 200, reply, { 'Cache-Control': 'no-store' });
}

/** Compares secrets in constant time (hashing first makes the lengths equal). */
function sameText(a: string, b: string): boolean {
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

const REASONS = {
  invalid: 'The access token is not valid',
  expired: 'The access token has expired',
  revoked: 'The access token has been revoked',
} as const;

/** Who a data call's token speaks for, or why it is refused. */
export type Identity = { caller: Caller } | { refusal: string; invalidToken: boolean };

/**
 * Reads the token a data call presents. Answers nothing itself: the request log records whether
 * a request was authorized even when a fault answers it before the token would matter.
 */
export function identify(ctx: SandboxContext, ex: Exchange): Identity {
  const { name, scheme } = ctx.config.tokenHeader;
  const raw = ex.req.headers[name.toLowerCase()];
  const header = Array.isArray(raw) ? raw[0] : raw;
  let token: string | undefined;
  if (header !== undefined) {
    const m = /^(\S+)\s+(\S+)\s*$/.exec(header);
    if (scheme === '') token = header.trim();
    else if (m && m[1].toLowerCase() === scheme.toLowerCase()) token = m[2];
    else return { refusal: `The ${name} header must be "${scheme} <token>"`, invalidToken: false };
  } else {
    token = ex.url.searchParams.get('access_token') ?? undefined;
  }
  if (!token) {
    const form = scheme === '' ? `${name}: <token>` : `${name}: ${scheme} <token>`;
    return { refusal: `No access token: send "${form}" or ?access_token=<token>`, invalidToken: false };
  }
  const userIndex = ctx.config.userAccessTokens.get(token);
  if (userIndex !== undefined) return { caller: { kind: 'user', humanId: ctx.store.humans[userIndex] } };
  const check = ctx.tokens.check(token);
  return check.ok ? { caller: { kind: 'client' } } : { refusal: REASONS[check.reason], invalidToken: true };
}

/** A 401 as the 'expired-token' and 'revoked-token' faults give it, whatever the token. */
export function rejectAs(ctx: SandboxContext, ex: Exchange, reason: 'expired' | 'revoked'): Promise<void> {
  return unauthorized(ctx, ex, { refusal: REASONS[reason], invalidToken: true });
}

export function unauthorized(ctx: SandboxContext, ex: Exchange, why: { refusal: string; invalidToken: boolean }): Promise<void> {
  const { scheme } = ctx.config.tokenHeader;
  const challenge = `${scheme || 'Token'} realm="health-data"${why.invalidToken ? ', error="invalid_token"' : ''}`;
  return sendError(ex, ctx.timers, 401, why.refusal, { 'WWW-Authenticate': challenge });
}
