// Shared by the client tests: a sandbox on loopback, clients that keep every log entry and every
// token they were given, and the check that no credential ever shows in a message or a log.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HealthDataClient, ClientOptions, RequestLogEntry } from '../../../src/core/service';
import { HealthDataError, HealthDataErrorKind } from '../../../src/core/errors';
import { Sandbox, SandboxOptions, startSandbox } from '../../../src/sandbox/server';

export const SECRET = 'client-secret-Zq8vX2pL';
export const TODAY = '2026-03-15';

/** Everything a client said (errors, log entries) and every credential it handled. */
export class LeakWatch {
  readonly texts: string[] = [];
  readonly credentials = new Set<string>([SECRET]);
  readonly entries: RequestLogEntry[] = [];

  /** A client on the sandbox whose log entries and tokens are collected here. */
  client(sandbox: Sandbox, options: Partial<ClientOptions> = {}): HealthDataClient {
    const user = options.userAccessToken;
    if (typeof user === 'string') this.credentials.add(user);
    const client: HealthDataClient = new HealthDataClient({
      authUrl: sandbox.authUrl,
      baseUrl: sandbox.baseUrl,
      clientId: sandbox.clientId,
      clientSecret: SECRET,
      retryBaseDelayMs: 5,
      timeoutMs: 5000,
      ...options,
      onRequest: (entry) => {
        this.entries.push(entry);
        this.texts.push(JSON.stringify(entry));
        const token = client.currentToken?.token;
        if (token) this.credentials.add(token);
        options.onRequest?.(entry);
      },
    });
    return client;
  }

  /** Awaits a rejection of the given kind and keeps everything its error says. */
  async rejects(promise: Promise<unknown>, kind: HealthDataErrorKind, message?: RegExp): Promise<HealthDataError> {
    let caught: unknown;
    try {
      await promise;
    } catch (err) {
      caught = err;
    }
    assert.ok(caught instanceof HealthDataError, `expected a HealthDataError, got ${String(caught)}`);
    this.keep(caught);
    assert.equal(caught.kind, kind, caught.message);
    if (message) assert.match(caught.message, message);
    return caught;
  }

  keep(err: HealthDataError): void {
    this.texts.push(err.message, String(err), err.stack ?? '', err.serviceMessage ?? '', err.request ?? '', JSON.stringify(err));
  }

  /** No secret, no token, in anything collected. */
  assertClean(): void {
    assert.ok(this.texts.length > 0, 'nothing was collected');
    assert.ok(this.credentials.size > 1, 'no token was collected');
    for (const credential of this.credentials) {
      const leaks = this.texts.filter((t) => t.includes(credential));
      assert.deepEqual(leaks, [], `a credential (${credential.length} chars) appears in ${leaks.length} texts`);
    }
  }
}

export function sandboxWith(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ humans: 1, days: 30, today: TODAY, clientSecret: SECRET, ...options });
}

/**
 * A suite's hooks: one sandbox for the whole suite, handed to `use` once started, its faults
 * cleared after each test, and at the end no credential in anything `watch` collected.
 */
export function sandboxForSuite(watch: LeakWatch, use: (sandbox: Sandbox) => void): void {
  let sandbox: Sandbox | undefined;
  before(async () => {
    sandbox = await sandboxWith();
    use(sandbox);
  });
  after(async () => {
    await sandbox?.close();
    watch.assertClean();
  });
  afterEach(() => sandbox?.clearFaults());
}

/** The requests the sandbox saw to a path (substring), in order. */
export function requestsTo(sandbox: Sandbox, path: string, method = 'GET'): Sandbox['requests'] {
  return sandbox.requests.filter((r) => r.method === method && r.path.includes(path));
}

export function mints(sandbox: Sandbox): number {
  return requestsTo(sandbox, '/v1/admin/token', 'POST').length;
}

export function ids(records: unknown[]): string[] {
  return records.map((r) => (r as { id: string }).id);
}

/** Every record of a kind for the sandbox's first human, newest first, as the list endpoint orders them. */
export function newestFirst<T extends { id: string }>(records: T[], key: (r: T) => string): string[] {
  return [...records].sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0)).map((r) => r.id);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How a front on loopback stands before the sandbox (see throughFront). */
export interface FrontOptions {
  /** The Host header the sandbox is asked with (default: the client's). */
  host?: string;
  /** The sandbox's reply headers as the front passes them on. */
  headers?: (h: http.IncomingHttpHeaders) => http.IncomingHttpHeaders;
  /** Answers a request itself instead of handing it on, when it returns true. */
  answer?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
}

/**
 * A front on loopback that hands every request to the sandbox and its replies back, as a proxy,
 * a gateway or a service that miscounts would: `run` gets the front's origin; the front is
 * closed after it.
 */
export async function throughFront(sandbox: Sandbox, options: FrontOptions, run: (origin: string) => Promise<void>): Promise<void> {
  const target = new URL(sandbox.baseUrl);
  const front = http.createServer((req, res) => {
    if (options.answer?.(req, res)) return;
    const onward = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: options.host ?? req.headers.host } }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, options.headers ? options.headers({ ...reply.headers }) : reply.headers);
      reply.pipe(res);
    });
    onward.on('error', () => res.destroy());
    req.pipe(onward);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(front.address() as AddressInfo).port}`);
  } finally {
    front.closeAllConnections();
    await new Promise((resolve) => front.close(resolve));
  }
}
