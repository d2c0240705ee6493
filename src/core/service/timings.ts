// Where an attempt's time went, as the browsers' network panels and Postman break it down:
// waiting for a connection, the DNS lookup, the TCP connect, the TLS handshake, sending the
// request, waiting for the first byte of the reply, and reading its body. Measured on the
// ClientRequest the agents hand us (agents.ts), only when an exchange is kept.

import type * as http from 'node:http';
import type { Socket } from 'node:net';

/** The phases of one attempt, in ms to a tenth; a phase the attempt did not go through is absent. */
export interface AttemptTimings {
  /** From the attempt's start to a connection for it (the agent's queue, a proxy's lookup). */
  readonly queuedMs?: number;
  /** The host name's lookup: absent for an address, and on a connection used before. */
  readonly dnsMs?: number;
  /** The TCP connect: absent on a connection used before. */
  readonly connectMs?: number;
  /** The TLS handshake (https only), after the connect. */
  readonly tlsMs?: number;
  /** Writing the request, once connected. */
  readonly sendMs?: number;
  /** From the request sent to the reply's status line and headers (time to first byte). */
  readonly firstByteMs?: number;
  /** Reading the reply's body. */
  readonly downloadMs?: number;
  /** The connection was one kept open by an earlier request (keep-alive): no lookup, connect or handshake. */
  readonly reused?: boolean;
  /** The address the connection went to, `127.0.0.1:8787` or `[::1]:443`. */
  readonly remote?: string;
  /** The TLS version negotiated, `TLSv1.3`. */
  readonly tlsProtocol?: string;
}

/** The phase fields, in the order they happen. */
export const TIMING_PHASES = ['queuedMs', 'dnsMs', 'connectMs', 'tlsMs', 'sendMs', 'firstByteMs', 'downloadMs'] as const;
export type TimingPhase = (typeof TIMING_PHASES)[number];

/** `8.2`, `812`: ms as the front ends write a phase, a tenth below 10 ms, whole above. */
export function msFigure(ms: number): string {
  return ms < 10 ? ms.toFixed(1) : String(Math.round(ms));
}

const tenth = (ms: number): number => Math.max(0, Math.round(ms * 10) / 10);

/** The moments of an attempt the clock notes, in the order they come. */
const enum Mark {
  Socket,
  Lookup,
  Connect,
  Secure,
  Sent,
  Response,
  End,
}

/**
 * The clock of one attempt: `watch` each ClientRequest the attempt makes (a redirect makes
 * another; the last one's phases are kept, what came before it counts as queued), `timings` at
 * its end. Only events are listened to; nothing is added to the request's path.
 */
export class AttemptClock {
  private readonly start = performance.now();
  /** When each Mark came (performance.now()), 0 until it has. */
  private marks = new Float64Array(7);
  private current: http.ClientRequest | undefined;
  private reused = false;
  private remote: string | undefined;
  private tlsProtocol: string | undefined;

  watch(req: http.ClientRequest): void {
    this.current = req;
    this.marks = new Float64Array(7);
    this.reused = false;
    this.remote = this.tlsProtocol = undefined;
    // A mark of this request only: a redirect's request takes over the clock.
    const mark = (m: Mark, socket?: Socket) => () => {
      if (this.current !== req) return;
      this.marks[m] = performance.now();
      if (socket) this.noteRemote(socket);
    };
    req.on('socket', (socket: Socket) => {
      mark(Mark.Socket)();
      this.reused = !socket.connecting;
      if (this.reused) return this.noteRemote(socket);
      // A new connection's lookup, connect and handshake; the listeners go once it is ready or closed.
      const tls = (socket as Socket & { encrypted?: boolean }).encrypted === true;
      const events: Array<[string, () => void]> = [
        ['lookup', mark(Mark.Lookup)],
        ['connect', mark(Mark.Connect, socket)],
        ['close', () => done()],
      ];
      if (tls) events.push(['secureConnect', mark(Mark.Secure, socket)]);
      const done = () => {
        for (const [event, listener] of events) socket.off(event, listener);
      };
      events.push([tls ? 'secureConnect' : 'connect', done]);
      for (const [event, listener] of events) socket.on(event, listener);
    });
    req.on('finish', mark(Mark.Sent));
    req.on('response', (res: http.IncomingMessage) => {
      mark(Mark.Response)();
      res.on('end', mark(Mark.End));
    });
  }

  private noteRemote(socket: Socket): void {
    const address = socket.remoteAddress;
    if (address) this.remote = `${address.includes(':') ? `[${address}]` : address}:${socket.remotePort ?? ''}`;
    const protocol = (socket as Socket & { getProtocol?: () => string | null }).getProtocol?.();
    if (protocol) this.tlsProtocol = protocol;
  }

  /** The phases the attempt went through; undefined when it never got a connection. */
  timings(): AttemptTimings | undefined {
    const [socketAt, lookupAt, connectAt, secureAt, sentAt, responseAt, endAt] = this.marks;
    if (!socketAt) return undefined;
    const t: { -readonly [K in keyof AttemptTimings]: AttemptTimings[K] } = { queuedMs: tenth(socketAt - this.start) };
    if (this.remote !== undefined) t.remote = this.remote;
    if (this.tlsProtocol !== undefined) t.tlsProtocol = this.tlsProtocol;
    let ready = socketAt;
    if (this.reused) t.reused = true;
    else {
      if (lookupAt) {
        t.dnsMs = tenth(lookupAt - ready);
        ready = lookupAt;
      }
      if (!connectAt) return t;
      t.connectMs = tenth(connectAt - ready);
      ready = connectAt;
      if (secureAt) {
        t.tlsMs = tenth(secureAt - ready);
        ready = secureAt;
      }
    }
    // The request is written into the socket before it connects and goes out once it has.
    if (!sentAt) return t;
    t.sendMs = tenth(sentAt - Math.min(ready, sentAt));
    if (!responseAt) return t;
    t.firstByteMs = tenth(responseAt - Math.max(ready, sentAt));
    if (endAt) t.downloadMs = tenth(endAt - responseAt);
    return t;
  }
}

/** A stored attempt's timings, checked: every phase a number ≥ 0, the rest of the right type. */
export function attemptTimingsOf(v: unknown): AttemptTimings | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const t: { -readonly [K in keyof AttemptTimings]: AttemptTimings[K] } = {};
  for (const phase of TIMING_PHASES) {
    const n = o[phase];
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0) t[phase] = n;
  }
  if (o.reused === true) t.reused = true;
  if (typeof o.remote === 'string' && o.remote.length <= 100) t.remote = o.remote;
  if (typeof o.tlsProtocol === 'string' && o.tlsProtocol.length <= 20) t.tlsProtocol = o.tlsProtocol;
  return Object.keys(t).length ? t : undefined;
}
