// Builds a service client from the CLI's flags and environment. Credentials come from the
// environment only: a flag would show the secret to anyone who runs `ps`.

import { Exchange, HealthDataClient, TokenPresentation } from '../core/service';
import { checkHeaderName, checkServiceUrl, checkTimeoutMs } from '../core/config';
import { HealthDataError } from '../core/errors';
import type { Output } from './output';

export interface ConnectionFlags {
  'auth-url'?: string;
  'base-url'?: string;
  'auth-header'?: string;
  'auth-scheme'?: string;
  'token-in-query'?: boolean;
  timeout?: string;
}

export const CONNECTION_OPTIONS = {
  'auth-url': { type: 'string' },
  'base-url': { type: 'string' },
  'auth-header': { type: 'string' },
  'auth-scheme': { type: 'string' },
  'token-in-query': { type: 'boolean' },
  timeout: { type: 'string' },
} as const;

export interface Connection {
  client: HealthDataClient;
  secrets: string[];
  /** How data calls carry the token, and where it is minted: what a copied command needs. */
  presentation: TokenPresentation;
  authUrl: string;
  /** A per-user access token is in the environment (data calls use it, not a minted token). */
  userAccessToken: boolean;
}

export interface ConnectOptions {
  /** Every exchange once it ends (`--verbose`). */
  onExchange?: (exchange: Exchange) => void;
  /** False for `--curl`, which sends nothing and so needs no credentials. */
  needsCredentials?: boolean;
}

export function connect(flags: ConnectionFlags, env: NodeJS.ProcessEnv, o: Output, options: ConnectOptions = {}): Connection {
  const baseText = flags['base-url'] ?? env.HEALTH_DATA_BASE_URL;
  if (!baseText) {
    throw new HealthDataError(
      'usage',
      'No service address: pass --base-url or set HEALTH_DATA_BASE_URL (`health-data sandbox` prints one for the local sandbox).',
    );
  }
  const base = checkServiceUrl(baseText, 'Base URL');
  const auth = checkServiceUrl(flags['auth-url'] ?? env.HEALTH_DATA_AUTH_URL ?? base.url, 'Auth URL');
  for (const warning of new Set([base.warning, auth.warning])) if (warning) o.err(`warning: ${warning}`);

  const clientId = env.HEALTH_DATA_CLIENT_ID?.trim();
  const clientSecret = env.HEALTH_DATA_CLIENT_SECRET?.trim();
  const userAccessToken = env.HEALTH_DATA_ACCESS_TOKEN?.trim() || undefined;
  if (options.needsCredentials !== false && !userAccessToken && (!clientId || !clientSecret)) {
    throw new HealthDataError(
      'usage',
      'No credentials: set HEALTH_DATA_CLIENT_ID and HEALTH_DATA_CLIENT_SECRET in the environment (never as flags: flags show in `ps`).',
    );
  }

  let presentation: TokenPresentation;
  if (flags['token-in-query']) {
    if (flags['auth-header'] || flags['auth-scheme'] !== undefined) {
      throw new HealthDataError('usage', '--token-in-query cannot be combined with --auth-header or --auth-scheme.');
    }
    presentation = { mode: 'query', parameter: 'access_token' };
  } else {
    presentation = {
      mode: 'header',
      headerName: checkHeaderName(flags['auth-header'] ?? 'Authorization'),
      scheme: (flags['auth-scheme'] ?? 'Bearer').trim(),
    };
  }

  const client = new HealthDataClient({
    authUrl: auth.url,
    baseUrl: base.url,
    clientId: clientId ?? '',
    clientSecret: clientSecret ?? '',
    userAccessToken,
    presentation,
    timeoutMs: flags.timeout !== undefined ? checkTimeoutMs(flags.timeout) : 30_000,
    onExchange: options.onExchange,
  });
  return {
    client,
    secrets: [clientSecret, userAccessToken].filter((s): s is string => Boolean(s)),
    presentation,
    authUrl: auth.url,
    userAccessToken: userAccessToken !== undefined,
  };
}
