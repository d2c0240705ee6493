// The sandbox's options and their defaults, checked once at start so that a bad setting fails
// with a clear message instead of an odd reply later.

import { formatDate } from '../core/dates';
import { LIST_WRAPPERS, type ListWrapperField } from '../core/resources';
import { DEFAULT_DAYS, DEFAULT_HUMANS, DEFAULT_SEED } from './data';
import type { ExtraRecords } from './extraRecords';
import type { FaultRule } from './faults';
import type { ReplayData } from '../core/recording';

export interface SandboxOptions {
  host?: string;               // default '127.0.0.1'
  port?: number;               // default 0 (a free port)
  days?: number;               // days of data back from `today` (today included), default 90, 1..3650
  seed?: string | number;      // default 'health-data'; same seed + today => same data
  today?: string;              // YYYY-MM-DD, default the UTC date of `now`
  /**
   * The present (epoch ms), default Date.now() at start: nothing served is dated after it, in
   * any offset (a reading at 21:29-05:00 is 02:29Z the next day). Tests inject it.
   */
  now?: number;
  humans?: number;             // default 3 (1..10)
  clientId?: string;           // default 'sandbox-client'
  clientSecret?: string;       // default 'sandbox-secret'
  tokenLifetimeSeconds?: number; // default 86400
  /**
   * Tokens accepted on data calls as per-user access tokens. A list scopes each to the first
   * human; a map names the human by index (0-based) in the dataset's `humans`.
   */
  userAccessTokens?: readonly string[] | Readonly<Record<string, number>>;
  maxLimit?: number;           // the server caps `limit` at this, default 500
  paging?: 'link' | 'offset';  // 'link': Link rel=next/last + X-Total-Count; 'offset': neither header
  wrapper?: 'none' | ListWrapperField; // list reply shape, default bare array
  tokenHeader?: { name: string; scheme: string }; // default Authorization/Bearer; `?access_token=` works too
  faults?: FaultRule[];
  /**
   * Records served besides the generated ones, merged by their date (listed, by id, by date):
   * JSON objects, by kind. See extraRecords.ts.
   */
  extraRecords?: ExtraRecords;
  /** Serve these recordings instead of generated data (see replay.ts); days, seed and humans then do not apply. */
  replay?: ReplayData;
  log?: (line: string) => void;
}

export interface SandboxConfig {
  host: string;
  port: number;
  days: number;
  seed: string;
  today: string;
  now: number;
  humans: number;
  clientId: string;
  clientSecret: string;
  tokenLifetimeSeconds: number;
  /** token → index of the human it belongs to. */
  userAccessTokens: ReadonlyMap<string, number>;
  maxLimit: number;
  paging: 'link' | 'offset';
  wrapper: 'none' | ListWrapperField;
  tokenHeader: { name: string; scheme: string };
}

import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from './defaults';

export { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET };

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Days, humans and today are checked by generateDataset, which runs next. */
export function resolveOptions(options: SandboxOptions): SandboxConfig {
  const humans = options.replay ? Math.max(1, options.replay.humans.length) : options.humans ?? DEFAULT_HUMANS;
  const now = options.now ?? Date.now();
  if (!Number.isFinite(now)) throw new Error(`now must be a time in epoch milliseconds, got ${now}`);
  const config: SandboxConfig = {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    days: options.days ?? DEFAULT_DAYS,
    seed: String(options.seed ?? DEFAULT_SEED),
    today: options.today ?? formatDate(now),
    now,
    humans,
    clientId: options.clientId ?? DEFAULT_CLIENT_ID,
    clientSecret: options.clientSecret ?? DEFAULT_CLIENT_SECRET,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 86_400,
    userAccessTokens: userTokenMap(options.userAccessTokens, humans),
    maxLimit: options.maxLimit ?? 500,
    paging: options.paging ?? 'link',
    wrapper: options.wrapper ?? 'none',
    tokenHeader: options.tokenHeader ?? { name: 'Authorization', scheme: 'Bearer' },
  };
  integer('port', config.port, 0, 65_535);
  integer('maxLimit', config.maxLimit, 1, Number.MAX_SAFE_INTEGER);
  if (!(config.tokenLifetimeSeconds > 0) || !Number.isFinite(config.tokenLifetimeSeconds)) {
    throw new Error(`tokenLifetimeSeconds must be a positive number, got ${config.tokenLifetimeSeconds}`);
  }
  if (!config.clientId || !config.clientSecret) throw new Error('clientId and clientSecret must not be empty');
  if (config.paging !== 'link' && config.paging !== 'offset') throw new Error(`paging must be 'link' or 'offset', got "${String(config.paging)}"`);
  if (config.wrapper !== 'none' && !(LIST_WRAPPERS as readonly string[]).includes(config.wrapper)) throw new Error(`wrapper must be none, ${LIST_WRAPPERS.join(', ').replace(/, ([^,]*)$/, ' or $1')}, got "${String(config.wrapper)}"`);
  if (!HEADER_NAME.test(config.tokenHeader.name)) throw new Error(`tokenHeader.name is not a valid header name: "${config.tokenHeader.name}"`);
  return config;
}

function integer(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, got ${value}`);
}

function userTokenMap(tokens: SandboxOptions['userAccessTokens'], humans: number): Map<string, number> {
  const entries: Array<[string, number]> = Array.isArray(tokens)
    ? tokens.map((t: string): [string, number] => [t, 0])
    : Object.entries(tokens ?? {});
  for (const [token, index] of entries) {
    if (!token) throw new Error('userAccessTokens must not contain an empty token');
    integer(`the human index of a user access token`, index, 0, humans - 1);
  }
  return new Map(entries);
}
