// Shared by the sandbox tests: start a sandbox for a suite, mint a token, make a call with Node's
// own fetch (the client under test elsewhere is deliberately not used here).

import { Sandbox, SandboxOptions, startSandbox } from '../../src/sandbox/server';

export const TODAY = '2026-11-20';

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

export function mintRequest(sandbox: Sandbox, body: unknown = { type: 'client', client_id: sandbox.clientId, client_secret: sandbox.clientSecret }, headers: Record<string, string> = {}): Promise<Reply> {
  return call(`${sandbox.authUrl}/v1/admin/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export async function mint(sandbox: Sandbox, headers: Record<string, string> = {}): Promise<string> {
  const reply = await mintRequest(sandbox, undefined, headers);
  if (reply.status !== 200) throw new Error(`mint failed: ${reply.status} ${reply.text}`);
  return (reply.json as { client_token: string }).client_token;
}

/** GET `path` (with its query) on the base URL with a Bearer token. */
export function get(sandbox: Sandbox, path: string, token?: string, headers: Record<string, string> = {}): Promise<Reply> {
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
