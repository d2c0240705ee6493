// Writing replies: JSON with the service's headers and error shape, and the faults that break a
// reply in transit (a cut body, a trickle, broken JSON). Timers go through one registry so that
// closing the sandbox cancels every pending delay.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { ChosenFaults, DEFAULT_LATENCY_MS } from './faults';

/** One request and what the sandbox has decided about it so far. */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly requestId: string;
  readonly url: URL;
  /** The request target's path exactly as sent: URL parsing would collapse `%2E%2E` like `..`. */
  readonly path: string;
  readonly startedAt: number;
  faults: ChosenFaults;
  authorized: boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const SLOW_BODY_CHUNKS = 8;

export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>();
  private cancelled = false;

  /** Resolves after `ms`; never resolves once cancelAll() ran, so abandoned work just stops. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.cancelled) return;
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        resolve();
      }, ms);
      this.pending.add(timer);
    });
  }

  cancelAll(): void {
    this.cancelled = true;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}

export function sendJson(ex: Exchange, timers: Timers, status: number, body: unknown, headers: Record<string, string> = {}): Promise<void> {
  return deliver(ex, timers, status, JSON.stringify(body), { 'Content-Type': JSON_TYPE, ...headers });
}

/** The error shape of conventions.md, with the request id in the body as well as the header. */
export function sendError(ex: Exchange, timers: Timers, status: number, message: string, headers: Record<string, string> = {}): Promise<void> {
  const body = { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message, requestId: ex.requestId };
  return sendJson(ex, timers, status, body, headers);
}

/**
 * Sends a reply, broken in transit when the request's fault says so: 'malformed-json' cuts the
 * text in half (a strict prefix of a JSON object or array never parses), 'truncated' promises
 * the whole length and hangs up after half, 'slow-body' trickles the body over its latency.
 */
export async function deliver(ex: Exchange, timers: Timers, status: number, text: string, headers: Record<string, string>): Promise<void> {
  const { res } = ex;
  const fault = ex.faults.outcome;
  if (fault?.fault === 'malformed-json') text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  const body = Buffer.from(text, 'utf8');
  res.writeHead(status, { ...headers, 'Content-Length': String(body.length) });

  if (fault?.fault === 'truncated') {
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
    return;
  }
  if (fault?.fault === 'slow-body' && body.length > 0) {
    const chunks = Math.min(SLOW_BODY_CHUNKS, body.length);
    const pause = (fault.latencyMs ?? DEFAULT_LATENCY_MS) / chunks;
    const size = Math.ceil(body.length / chunks);
    for (let at = 0; at < body.length; at += size) {
      if (at > 0) await timers.wait(pause);
      if (res.destroyed) return;
      res.write(body.subarray(at, at + size));
    }
    res.end();
    return;
  }
  res.end(body);
}

/** Reads a request body up to `limit` bytes; undefined when it is longer. */
export function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** True when the Content-Type header names JSON, whatever its parameters. */
export function isJsonRequest(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json';
}
