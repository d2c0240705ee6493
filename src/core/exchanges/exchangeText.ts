// An exchange as lines of plain text, curl -v style (`>` went out, `<` came back), for the CLI's
// `--verbose` and anywhere else an exchange is shown as text. Credentials are already redacted
// in an exchange; `clean` makes each value safe for where it is printed (a terminal, a log).

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
      if (attempt.error) parts.push(clean(attempt.error, 300));
      if (attempt.retryReason) parts.push(`retried${attempt.waitMs !== undefined ? ` after ${attempt.waitMs} ms` : ''}: ${clean(attempt.retryReason, 200)}`);
      lines.push(`  ${parts.join(' · ')}`);
    });
  }
  if (exchange.error) lines.push(`  failed (${clean(exchange.error.kind, 20)}): ${clean(exchange.error.message, 500)}`);
  return lines;
}
