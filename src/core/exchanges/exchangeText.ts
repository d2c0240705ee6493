// An exchange as lines of plain text, curl -v style (`>` went out, `<` came back), for the CLI's
// `--verbose` and anywhere else an exchange is shown as text. Credentials are already redacted
// in an exchange; `clean` makes each value safe for where it is printed (a terminal, a log).

import { RESOURCES } from '../resources';
import { TIMING_PHASES, type AttemptTimings, type Exchange, type TimingPhase } from '../service';

export interface ExchangeTextOptions {
  /** Applied to every value taken from the exchange (control characters out, length bounded). */
  readonly clean?: (text: string, max: number) => string;
}

/** `3.4 kB`, `812 B`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** A phase in plain words, as the CLI prints it (the exchange view has its own, translated). */
export const PHASE_WORDS: Readonly<Record<TimingPhase, string>> = {
  queuedMs: 'queued',
  dnsMs: 'DNS lookup',
  connectMs: 'connect',
  tlsMs: 'TLS handshake',
  sendMs: 'request sent',
  firstByteMs: 'first byte',
  downloadMs: 'download',
};

/** The phases an attempt went through, in order, with their ms. */
export function phasesOf(t: AttemptTimings): Array<readonly [TimingPhase, number]> {
  const out: Array<readonly [TimingPhase, number]> = [];
  for (const phase of TIMING_PHASES) {
    const v = t[phase];
    if (v !== undefined) out.push([phase, v]);
  }
  return out;
}

/** `1.0 ms`, `12 ms`, `1,234 ms`: a tenth below 10 ms, whole ms above. */
export function phaseMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms).toLocaleString('en-US')} ms`;
}

/**
 * One line of an attempt's phases: `connect 0.4 ms · request sent 0.1 ms · first byte 8.2 ms ·
 * download 0.3 ms · new connection to 127.0.0.1:8787`.
 */
export function timingLine(t: AttemptTimings): string {
  const parts = phasesOf(t).map(([phase, ms]) => `${PHASE_WORDS[phase]} ${phaseMs(ms)}`);
  const where = t.remote ? ` to ${t.remote}` : '';
  parts.push(`${t.reused ? 'reused connection' : 'new connection'}${where}${t.tlsProtocol ? ` (${t.tlsProtocol})` : ''}`);
  return parts.join(' · ');
}

export function exchangeLines(exchange: Exchange, options: ExchangeTextOptions = {}): string[] {
  const clean = options.clean ?? ((text: string) => text);
  const lines = [`> ${exchange.method} ${clean(exchange.url, 2000)}`];
  for (const [name, value] of Object.entries(exchange.requestHeaders)) lines.push(`> ${clean(name, 80)}: ${clean(value, 500)}`);
  if (exchange.requestBody !== undefined) lines.push(`> ${clean(exchange.requestBody, 500)}`);
  const summary: string[] = [];
  summary.push(exchange.status === undefined ? 'no reply' : `${exchange.status}${exchange.statusText ? ` ${clean(exchange.statusText, 60)}` : ''}`);
  summary.push(`${exchange.durationMs} ms`);
  if (exchange.responseBytes !== undefined) summary.push(formatBytes(exchange.responseBytes));
  summary.push(`${exchange.attempts.length} attempt${exchange.attempts.length === 1 ? '' : 's'}`);
  if (exchange.requestId) summary.push(`request id ${clean(exchange.requestId, 80)}`);
  lines.push(`< ${summary.join(' · ')}`);
  for (const [name, value] of Object.entries(exchange.responseHeaders)) lines.push(`< ${clean(name, 80)}: ${clean(value, 500)}`);
  const timed = exchange.attempts[exchange.attempts.length - 1]?.timings;
  if (timed) lines.push(`  timing${exchange.attempts.length > 1 ? ` of attempt ${exchange.attempts.length}` : ''}: ${clean(timingLine(timed), 500)}`);
  if (exchange.attempts.length > 1 || exchange.attempts.some((a) => a.error)) {
    exchange.attempts.forEach((attempt, i) => {
      const parts = [`attempt ${i + 1}: ${attempt.status ?? 'no reply'}`, `${attempt.durationMs} ms`];
      if (attempt.error && attempt.error !== attempt.retryReason) parts.push(clean(attempt.error, 300));
      if (attempt.retryReason) parts.push(`retried${attempt.waitMs !== undefined ? ` after ${attempt.waitMs} ms` : ''}: ${clean(attempt.retryReason, 200)}`);
      lines.push(`  ${parts.join(' · ')}`);
    });
  }
  if (exchange.error) lines.push(`  failed (${clean(exchange.error.kind, 20)}): ${clean(exchange.error.message, 500)}`);
  return lines;
}

/**
 * A short name for an exchange, in the service's words: `Activity 2026-11-20`, `Heart rate list
 * 2026-11-01…2026-11-10`, `Body fat latest`, `Token mint`. Raw values are left as they are;
 * the caller makes them safe for where they are shown.
 */
export function exchangeTitle(exchange: Exchange): string {
  if (exchange.endpoint === 'token') return 'Token mint';
  const def = exchange.resource === undefined ? undefined : RESOURCES.find((r) => r.kind === exchange.resource);
  const name = def?.shortLabel ?? 'Request';
  const { path, query } = splitUrl(exchange.url);
  const last = decodeSegment(path.slice(path.lastIndexOf('/') + 1));
  switch (exchange.endpoint) {
    case 'getByDate':
      return `${name} ${last}`;
    case 'getById':
      return `${name} id ${last.length > 16 ? `${last.slice(0, 15)}…` : last}`;
    case 'getLatest':
      return `${name} latest`;
    case 'list': {
      const start = query.get('start_date');
      const end = query.get('end_date');
      const offset = query.get('offset');
      return `${name} list${start && end ? ` ${start}…${end}` : ''}${offset && offset !== '0' ? ` from ${offset}` : ''}`;
    }
    default:
      return `${exchange.method} ${path}`;
  }
}

function splitUrl(url: string): { path: string; query: URLSearchParams } {
  const afterScheme = url.indexOf('://');
  const start = afterScheme < 0 ? 0 : url.indexOf('/', afterScheme + 3);
  const rest = start < 0 ? '/' : url.slice(start);
  const q = rest.search(/[?#]/);
  const path = q < 0 ? rest : rest.slice(0, q);
  const query = q < 0 || rest[q] === '#' ? '' : rest.slice(q + 1).split('#')[0];
  return { path, query: new URLSearchParams(query) };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
