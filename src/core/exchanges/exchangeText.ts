// An exchange as lines of plain text, curl -v style (`>` went out, `<` came back), for the CLI's
// `--verbose` and anywhere else an exchange is shown as text. Credentials are already redacted
// in an exchange; `clean` makes each value safe for where it is printed (a terminal, a log).

import { RESOURCES } from '../resources';
import type { Exchange } from '../service';

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
