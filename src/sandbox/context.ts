// What every handler of the sandbox works with: its settings, its records, its tokens, its
// faults, its timers and the log of the requests it answered.

import type { FaultBook, FaultName } from './faults';
import type { Timers } from './http';
import type { SandboxConfig } from './options';
import type { RecordStore } from './store';
import type { TokenIssuer } from './tokens';
import type { ReplayData } from '../core/recording';

export interface SandboxRequestLog {
  method: string;
  path: string;
  /** The query parameters; `access_token` is redacted. */
  query: Record<string, string>;
  /** 0 when the sandbox hung up without a reply (the 'reset' fault, or a close mid-request). */
  status: number;
  /** Whether the request carried valid credentials (a valid token; right client secret). */
  authorized: boolean;
  requestId: string;
  fault?: FaultName;
  /** When the request arrived (ms since the epoch) and how long its answer took. */
  startedAt: number;
  durationMs: number;
}

export interface SandboxContext {
  readonly config: SandboxConfig;
  readonly store: RecordStore;
  readonly tokens: TokenIssuer;
  readonly faults: FaultBook;
  readonly timers: Timers;
  readonly requests: SandboxRequestLog[];
  /** Set when the sandbox serves recordings instead of generated data. */
  readonly replay?: ReplayData;
}
