// `--verbose` and `--curl` for `get` and `list`: the exchanges behind a command on stderr, or
// the command's request as cURL instead of sending it. Neither ever prints a token or the secret.

import { codeSnippet, dataRequest, exchangeLines } from '../core/exchanges';
import { HealthDataError } from '../core/errors';
import type { Connection, ConnectOptions } from './connection';
import { Output, printable } from './output';

export interface ExchangeFlags {
  verbose?: boolean;
  curl?: boolean;
}

/** What `connect` needs for these flags: a listener that prints exchanges, no credentials for --curl. */
export function exchangeOptions(flags: ExchangeFlags, o: Output): ConnectOptions {
  if (flags.curl && flags.verbose) throw new HealthDataError('usage', '--curl sends nothing, so it cannot be combined with --verbose.');
  if (flags.curl) return { needsCredentials: false };
  if (!flags.verbose) return {};
  return {
    onExchange: (exchange) => {
      for (const line of exchangeLines(exchange, { clean: printable })) o.err(line);
      o.err();
    },
  };
}

/** Prints the request to `url` as a cURL command with its token mint; returns the exit code. */
export function printCurl(conn: Connection, o: Output, url: string): number {
  const snippet = codeSnippet(dataRequest(url), { language: 'curl', presentation: conn.presentation, authUrl: conn.authUrl });
  if (conn.userAccessToken) {
    o.out('# HEALTH_DATA_ACCESS_TOKEN is set: the client would send it instead of a minted token.');
    o.out('export HEALTH_DATA_TOKEN="$HEALTH_DATA_ACCESS_TOKEN"');
    o.out();
    o.out(snippet.request);
  } else {
    o.out(snippet.text.trimEnd());
  }
  return 0;
}
