// The sandbox: a local implementation of the health-data service on node:http, with synthetic
// data and injectable faults. startSandbox() is the entry point; the CLI prints describeSandbox().

import { randomBytes } from 'node:crypto';
import { IncomingMessage, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { redact } from '../core/errors';
import type { ReplayData } from '../core/recording';
import { RESOURCES, resource } from '../core/resources';
import type { SandboxContext, SandboxRequestLog } from './context';
import { Dataset, generateDataset } from './data';
import { checkExtraRecords, mergeExtraRecords } from './extraRecords';
import { FaultBook, FaultRule, formatFaultRule } from './faults';
import { Exchange, Timers, sendError } from './http';
import { SandboxConfig, SandboxOptions, resolveOptions } from './options';
import { ADMIN_PREFIX } from './admin';
import { route } from './routes';
import { RecordStore } from './store';
import { replayDataset } from './replay';
import { TokenIssuer } from './tokens';

export type { SandboxRequestLog } from './context';
export { generateDataset } from './data';
export type { Dataset, DatasetOptions } from './data';
export { FAULT_NAMES, formatFaultRule, parseFaultSpec } from './faults';
export type { FaultName, FaultRule } from './faults';
export type { SandboxConfig, SandboxOptions } from './options';
export { checkExtraRecords } from './extraRecords';
export type { ExtraRecords } from './extraRecords';

export interface Sandbox {
  /** http://127.0.0.1:PORT; the auth_url and the base_url are both this. */
  readonly url: string;
  readonly authUrl: string;
  readonly baseUrl: string;
  readonly port: number;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly dataset: Dataset;
  readonly requests: SandboxRequestLog[];
  /** The settings in force, defaults filled in. */
  readonly config: Readonly<SandboxConfig>;
  /** The recordings served, when the sandbox replays. */
  readonly replay?: ReplayData;
  /** The standing fault rules, `times` being what is left of each. */
  readonly faults: FaultRule[];
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  /** Every token minted so far is rejected (401) from now on. */
  revokeTokens(): void;
  /** Stops listening and closes every connection, keep-alive ones too; pending delays are dropped. */
  close(): Promise<void>;
}

/** Oldest entries of the request log go first past this, so a long-running sandbox stays small. */
const MAX_LOGGED_REQUESTS = 10_000;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const config = resolveOptions(options);
  const served = options.replay ? replayDataset(options.replay) : generateDataset(config);
  const dataset = mergeExtraRecords(served, checkExtraRecords(options.extraRecords));
  const faults = new FaultBook();
  for (const rule of options.faults ?? []) faults.add(rule);
  const ctx: SandboxContext = {
    config,
    store: new RecordStore(dataset),
    tokens: new TokenIssuer(config.clientId, config.tokenLifetimeSeconds),
    faults,
    timers: new Timers(),
    requests: [],
    ...(options.replay ? { replay: options.replay } : {}),
  };
  const log = options.log ?? (() => undefined);
  let origin = '';
  const server = createServer((req, res) => handle(ctx, log, origin, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  origin = `${urlHost(config.host)}:${port}`;
  const url = `http://${origin}`;
  log(`sandbox listening on ${url}`);

  let closing: Promise<void> | undefined;
  return {
    url,
    authUrl: url,
    baseUrl: url,
    port,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    dataset,
    ...(options.replay ? { replay: options.replay } : {}),
    requests: ctx.requests,
    config,
    get faults() {
      return faults.list();
    },
    addFault: (rule) => void faults.add(rule),
    clearFaults: () => void faults.clear(),
    revokeTokens: () => void ctx.tokens.revokeAll(),
    close() {
      closing ??= new Promise<void>((resolve) => {
        ctx.timers.cancelAll();
        server.close(() => resolve());
        server.closeAllConnections();
        log('sandbox stopped');
      });
      return closing;
    },
  };
}

/** A host as it goes in a URL: wildcard addresses become loopback, IPv6 gets brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function handle(ctx: SandboxContext, log: (line: string) => void, origin: string, req: IncomingMessage, res: ServerResponse): void {
  const requestId = randomBytes(8).toString('hex');
  res.setHeader('X-Request-Id', requestId);
  const url = requestUrl(req, origin);
  const raw = req.url ?? '/';
  const path = !url ? '/' : raw.startsWith('/') ? raw.split(/[?#]/, 1)[0] : url.pathname;
  const ex: Exchange = { req, res, requestId, url: url ?? new URL(`http://${origin}/`), path, startedAt: Date.now(), faults: {}, authorized: false };
  res.on('close', () => record(ctx, log, ex));
  if (!url) {
    void sendError(ex, ctx.timers, 400, 'The request target must be a path');
    return;
  }
  route(ctx, ex).catch((err: unknown) => {
    log(`${requestId} failed: ${redact(err instanceof Error ? err.stack ?? err.message : String(err), [ctx.config.clientSecret])}`);
    if (res.headersSent) res.destroy();
    else void sendError(ex, ctx.timers, 500, 'The sandbox failed on this request; its log has the details');
  });
}

const HOST = /^[\w.-]+(?::\d+)?$|^\[[\da-fA-F:.]+\](?::\d+)?$/;

/** The request's URL with the Host it was sent to, so Link headers point where the client went. */
function requestUrl(req: IncomingMessage, origin: string): URL | undefined {
  const target = req.url ?? '/';
  if (!target.startsWith('/')) return undefined;
  for (const host of [req.headers.host, origin]) {
    if (!host || !HOST.test(host)) continue;
    try {
      return new URL(`http://${host}${target}`);
    } catch {
      // A Host header that is no host: fall back to our own address.
    }
  }
  return undefined;
}

function record(ctx: SandboxContext, log: (line: string) => void, ex: Exchange): void {
  const status = ex.res.headersSent ? ex.res.statusCode : 0;
  const durationMs = Date.now() - ex.startedAt;
  const fault = ex.faults.outcome?.fault ?? ex.faults.latency?.fault;
  const method = ex.req.method ?? 'GET';
  const path = ex.path;
  const shown = new URLSearchParams(ex.url.searchParams);
  if (shown.has('access_token')) shown.set('access_token', '[redacted]');
  const query = shown.toString();
  const faultNote = fault ? ` [fault ${fault}]` : '';
  log(redact(`${method} ${path}${query ? `?${query}` : ''} ${status || 'no reply'} ${durationMs}ms${faultNote} (${ex.requestId})`, [ctx.config.clientSecret]));
  if (path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)) return;

  const entry: SandboxRequestLog = { method, path, query: Object.fromEntries(shown), status, authorized: ex.authorized, requestId: ex.requestId, startedAt: ex.startedAt, durationMs };
  if (fault) entry.fault = fault;
  ctx.requests.push(entry);
  if (ctx.requests.length > MAX_LOGGED_REQUESTS) ctx.requests.splice(0, ctx.requests.length - MAX_LOGGED_REQUESTS);
}

/** What the CLI prints when the sandbox is up: where it is, the credentials, a first request. */
export function describeSandbox(sandbox: Sandbox): string[] {
  const { config, dataset, url } = sandbox;
  const counts = RESOURCES.map((def) => `${dataset[def.kind].length} ${def.label.toLowerCase()}`).join(', ');
  const { name, scheme } = config.tokenHeader;
  const credentials = JSON.stringify({ type: 'client', client_id: sandbox.clientId, client_secret: sandbox.clientSecret });
  const lines = [
    `Health data sandbox at ${url}`,
    `  auth_url       ${sandbox.authUrl}`,
    `  base_url       ${sandbox.baseUrl}`,
    `  client id      ${sandbox.clientId}`,
    `  client secret  ${sandbox.clientSecret}   (the sandbox's documented default, not a real secret)`,
    sandbox.replay
      ? `  data           replayed from ${sandbox.replay.sources.join(', ')}: ${counts}, ${sandbox.replay.replies.size} recorded single-record replies`
      : `  data           ${config.days} days to ${config.today}, ${config.humans} humans, seed ${JSON.stringify(config.seed)}: ${counts}`,
  ];
  const faults = sandbox.faults;
  if (faults.length > 0) lines.push(`  faults         ${faults.map(formatFaultRule).join(', ')}`);
  lines.push(
    'Example:',
    `  curl -s -X POST ${url}/v1/admin/token -H 'Content-Type: application/json' -d ${shellQuote(credentials)}`,
    `  curl -s -H ${shellQuote(`${name}: ${scheme ? `${scheme} ` : ''}<client_token>`)} '${url}${resource('activity').listPath}?limit=5'`,
    `  HEALTH_DATA_BASE_URL=${url} HEALTH_DATA_CLIENT_ID=${shellQuote(sandbox.clientId)} HEALTH_DATA_CLIENT_SECRET=${shellQuote(sandbox.clientSecret)} health-data list activity --limit 5`,
  );
  return lines;
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
