// Shared by the sandbox tests: start a sandbox for a suite (or `health-data sandbox` as a child
// process), mint a token, make a call with Node's own fetch (the client under test elsewhere is
// deliberately not used here).

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Sandbox, SandboxOptions, startSandbox } from '../../../src/sandbox/server';
import { repoRoot } from './repo';

export const TODAY = '2026-11-20';
const CLI = join(repoRoot, 'dist', 'cli.js');

/** Where a token is minted: a Sandbox, or the address and credentials a sandbox printed. */
export type MintTarget = Pick<Sandbox, 'authUrl' | 'clientId' | 'clientSecret'>;

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

/** Starts a sandbox before the suite's tests and closes it after; read `.sandbox` inside tests. */
export function useSandbox(options: SandboxOptions = {}): { readonly sandbox: Sandbox } {
  const holder: { sandbox?: Sandbox } = {};
  before(async () => {
    holder.sandbox = await startSandbox({ today: TODAY, ...options });
  });
  after(async () => {
    await holder.sandbox?.close();
  });
  return {
    get sandbox(): Sandbox {
      if (!holder.sandbox) throw new Error('the sandbox is not started');
      return holder.sandbox;
    },
  };
}

export async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export function mintRequest(sandbox: MintTarget, body: unknown = { type: 'client', client_id: sandbox.clientId, client_secret: sandbox.clientSecret }, headers: Record<string, string> = {}): Promise<Reply> {
  return call(`${sandbox.authUrl}/v1/admin/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export async function mint(sandbox: MintTarget, headers: Record<string, string> = {}): Promise<string> {
  const reply = await mintRequest(sandbox, undefined, headers);
  if (reply.status !== 200) throw new Error(`mint failed: ${reply.status} ${reply.text}`);
  return (reply.json as { client_token: string }).client_token;
}

/** GET `path` (with its query) on the base URL with a Bearer token. */
export function get(sandbox: Pick<Sandbox, 'baseUrl'>, path: string, token?: string, headers: Record<string, string> = {}): Promise<Reply> {
  const auth: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
  return call(`${sandbox.baseUrl}${path}`, { headers: { ...auth, ...headers } });
}

/** The URL of each rel in a Link header. */
export function parseLinks(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const m of (header ?? '').matchAll(/<([^>]+)>;\s*rel="([^"]+)"/g)) links[m[2]] = m[1];
  return links;
}

export function ids(records: unknown): string[] {
  return (records as Array<{ id: string }>).map((r) => r.id);
}

/** `health-data sandbox --port 0 …` run from dist/cli.js as a child process. */
export interface CliSandbox {
  /** What it printed so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** Its address once it says it serves (the "Ctrl-C" line), or undefined when it exits first. */
  readonly ready: Promise<string | undefined>;
  /** Its exit code, once it has exited. */
  readonly exited: Promise<number | null>;
  /** Its address once it says it serves; fails with what it printed when that takes over `ms`. */
  address(ms?: number): Promise<string>;
  /** Stops it as Ctrl-C would, and waits for its exit code. */
  stop(): Promise<number | null>;
}

export function startCliSandbox(args: string[]): CliSandbox {
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const ready = new Promise<string | undefined>((resolve) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout);
      if (m && /Ctrl-C/.test(stdout)) resolve(m[0]);
    });
    exited.then(() => resolve(undefined), () => resolve(undefined));
  });
  child.stderr.on('data', (d) => (stderr += d));
  return {
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    ready,
    exited,
    address: (ms = 10_000) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no address printed: ${stdout}`)), ms);
        void ready.then((url) => {
          if (url === undefined) return;
          clearTimeout(timer);
          resolve(url);
        });
      }),
    stop: () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/**
 * A day the wrist tracker was not worn: a copy of a fitbit activity summary (not one of the
 * newest three) with steps 0 and no other 0, so the copy adds exactly one zero. On about a third
 * of the sandbox's days a fitbit summary has a 0 of its own (vigorous or moderate minutes).
 */
export function notWornDay(fitbit: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  const day = fitbit.find((r, i) => i >= 3 && Object.values(r).every((v) => v !== 0));
  if (!day) throw new Error('no fitbit summary without a 0 to copy');
  return { ...day, id: 'not-worn', steps: 0 };
}
