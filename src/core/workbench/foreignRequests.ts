// Requests kept by other tools, read as the service's requests: an `.http`/`.rest` file (REST
// Client's and httpYac's format) and a Postman collection (format v2.0 or v2.1). Each request is
// read as a pasted one is (draftOfCommand): a draft of one of the service's endpoints with notes
// on what it does not keep (its token, other headers, parameters the endpoint does not take), or
// why it is no request of the service. Variables the file defines (`@name = value`, a
// collection's `variable`) are put in; others are left as written.

import { HealthDataError } from '../errors';
import { cutText } from '../views/labels';
import type { HistoryEntry } from './history';
import { type PastedCommand, type PastedDraft, draftOfCommand } from './pastedRequest';
import { type RequestDraft, choiceOf, draftTarget } from './requestDraft';

/** One request of another tool's file: the name it has there, and how it reads as the service's. */
export interface ForeignRequest {
  readonly name: string;
  readonly read: PastedDraft;
  /** In an `.http` file: the line (from 0) of the request's method line, where a code lens sits. */
  readonly line?: number;
  /** In an `.http` file: the status an httpYac assertion (`?? status == 404`) expects. */
  readonly expectStatus?: number;
  /** In an `.http` file: its other httpYac assertions (`?? duration < 300`), as written: not checked. */
  readonly unchecked?: readonly string[];
}

export type ForeignFormat = 'http' | 'postman';

/** More requests than a file of saved requests may hold are not read (Saved holds 100). */
export const MAX_FOREIGN_REQUESTS = 500;

const METHOD_LINE = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|CONNECT|TRACE)\s+(\S.*?)(?:\s+HTTP\/[\d.]+)?\s*$/i;

/** The format of a file by its name and text: `.http`/`.rest`, or JSON that is a Postman collection; undefined for neither. */
export function foreignFormatOf(fileName: string, text: string): ForeignFormat | undefined {
  if (/\.(?:http|rest)$/i.test(fileName)) return 'http';
  if (/"schema"\s*:\s*"https?:\/\/schema\.getpostman\.com\/json\/collection\//.test(text.slice(0, 4096)) || /"_postman_id"/.test(text.slice(0, 4096))) return 'postman';
  return undefined;
}

/** The requests of a file in `format`; throws a usage error saying why it holds none it could read. */
export function readForeignRequests(format: ForeignFormat, text: string, tokenParams: readonly string[] = [], tokenHeaders: readonly string[] = []): ForeignRequest[] {
  const raw = format === 'http' ? httpFileRequests(text) : postmanRequests(text);
  return raw.slice(0, MAX_FOREIGN_REQUESTS).map(({ name, command, line, expectStatus, unchecked }) => ({
    name,
    read: draftOfCommand(command, tokenParams, tokenHeaders),
    ...(line !== undefined ? { line } : {}),
    ...(expectStatus !== undefined ? { expectStatus } : {}),
    ...(unchecked?.length ? { unchecked } : {}),
  }));
}

/** What a request's assertions that are not checked come to, in a sentence; undefined when there are none. */
export function uncheckedText(request: Pick<ForeignRequest, 'unchecked'>): string | undefined {
  const u = request.unchecked;
  if (!u?.length) return undefined;
  const shown = u.slice(0, 3).map((a) => `"${cutText(a, 60)}"`).join(', ');
  return `Not checked: ${shown}${u.length > 3 ? ` and ${u.length - 3} more` : ''} (the assertion read is "?? status == N").`;
}

/**
 * A request of another tool's file as a saved request that was never sent (for `health-data
 * run`): its name, method and path and query, no reply. Undefined when it is none of the service's.
 */
export function foreignAsSaved(request: ForeignRequest, index: number): HistoryEntry | undefined {
  const draft = request.read.draft;
  return draft && draftAsSaved(draft, request.name, `file-${index}`, request.expectStatus);
}

/** A draft as a saved request named `name` that was never sent (what a run of a file's requests judges); undefined for none of the service's. */
export function draftAsSaved(draft: RequestDraft, name: string, id: string, expectStatus?: number): HistoryEntry | undefined {
  const choice = choiceOf(draft);
  if (!choice) return undefined;
  return {
    id,
    startedAt: '',
    purpose: draft.endpoint === 'token' ? 'token' : 'data',
    method: choice.method,
    url: draftTarget(draft),
    requestHeaders: {},
    responseHeaders: {},
    durationMs: 0,
    attempts: [],
    endpoint: draft.endpoint,
    ...(draft.kind !== undefined ? { resource: draft.kind } : {}),
    savedAs: name,
    ...(expectStatus !== undefined ? { expectStatus } : {}),
  };
}

interface RawRequest {
  readonly name: string;
  readonly command: PastedCommand;
  readonly line?: number;
  readonly expectStatus?: number;
  readonly unchecked?: readonly string[];
}

/** An httpYac assertion line: `?? status == 404`. */
const ASSERTION = /^\s*\?\?\s*(.*?)\s*$/;
const STATUS_ASSERTION = /^status\s+(?:==|===|equals)\s+(\d{3})$/i;

const command = (method: string, url: string, headers: (readonly [string, string])[], body: string | undefined, bearer = false): PastedCommand => ({
  method: method.toUpperCase(),
  url: url.trim(),
  headers,
  ...(body !== undefined && body.trim() !== '' ? { body } : {}),
  user: false,
  bearer,
  dropped: [],
  unknown: [],
  form: 'line',
  commands: 1,
});

/** `{{name}}` put in from `vars`; an unknown one (or a tool's own, `{{$timestamp}}`) left as written. */
function withVariables(text: string, vars: ReadonlyMap<string, string>, depth = 0): string {
  const out = text.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (whole, name: string) => vars.get(name) ?? whole);
  return out !== text && depth < 5 && /\{\{/.test(out) ? withVariables(out, vars, depth + 1) : out;
}

// ---- .http / .rest ---------------------------------------------------------------------------

/**
 * The requests of an `.http` file: blocks between `###` lines (the text after `###` names the
 * block), each a request line (`GET https://…`, or a bare URL for a GET), query lines that go on
 * (`?a=1`, `&b=2`), headers up to a blank line, then a body. `# @name x` and `// @name x` name a
 * request; other `#` and `//` lines are comments; `@var = value` lines define variables; `??`
 * lines after the request line are httpYac's assertions (`?? status == 404` is read).
 */
function httpFileRequests(text: string): RawRequest[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const vars = new Map<string, string>();
  // File variables apply wherever they are defined (REST Client reads them all first).
  for (const line of lines) {
    const v = /^\s*@([A-Za-z0-9_.-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (v) vars.set(v[1], v[2]);
  }
  /** `start`: the file's line (from 0) of the block's first line. */
  const blocks: { title?: string; lines: string[]; start: number }[] = [{ lines: [], start: 0 }];
  for (let n = 0; n < lines.length; n++) {
    const separator = /^\s*###(.*)$/.exec(lines[n]);
    if (separator) blocks.push({ title: separator[1].trim() || undefined, lines: [], start: n + 1 });
    else blocks[blocks.length - 1].lines.push(lines[n]);
  }
  const out: RawRequest[] = [];
  for (const block of blocks) {
    let name = block.title;
    let i = 0;
    let requestLine: string | undefined;
    let at = block.start;
    for (; i < block.lines.length; i++) {
      const line = block.lines[i].trim();
      const named = /^(?:#|\/\/)\s*@name\s+(.+)$/.exec(line);
      if (named) name = named[1].trim();
      if (!line || line.startsWith('#') || line.startsWith('//') || /^@[A-Za-z0-9_.-]+\s*=/.test(line)) continue;
      requestLine = line;
      at = block.start + i;
      i++;
      break;
    }
    if (requestLine === undefined) continue;
    // httpYac's assertions (`?? status == 404`) may stand anywhere after the request line: taken
    // out before the query lines, headers and body are read (a `??` line is none of those).
    let expectStatus: number | undefined;
    const unchecked: string[] = [];
    const rest = block.lines.slice(i).filter((l) => {
      const a = ASSERTION.exec(l);
      if (!a) return true;
      const status = STATUS_ASSERTION.exec(a[1]);
      const code = status ? Number(status[1]) : NaN;
      if (code >= 100 && code <= 599 && expectStatus === undefined) expectStatus = code;
      else unchecked.push(a[1] ? `?? ${a[1]}` : '??');
      return false;
    });
    block.lines = block.lines.slice(0, i).concat(rest);
    const m = METHOD_LINE.exec(requestLine);
    const method = m ? m[1] : 'GET';
    let url = m ? m[2] : requestLine.replace(/\s+HTTP\/[\d.]+\s*$/i, '');
    for (; i < block.lines.length && /^\s*[?&]/.test(block.lines[i]); i++) url += block.lines[i].trim();
    const headers: [string, string][] = [];
    for (; i < block.lines.length && block.lines[i].trim() !== ''; i++) {
      const line = block.lines[i].trim();
      if (line.startsWith('#') || line.startsWith('//')) continue;
      const colon = line.indexOf(':');
      if (colon > 0) headers.push([line.slice(0, colon).trim(), withVariables(line.slice(colon + 1).trim(), vars)]);
    }
    const body = block.lines
      .slice(i)
      .filter((l) => !/^\s*(?:#|\/\/)/.test(l))
      .join('\n');
    const target = withVariables(url, vars);
    out.push({
      name: (name ?? `${method.toUpperCase()} ${target}`).slice(0, 200),
      command: command(method, target, headers, withVariables(body, vars)),
      line: at,
      ...(expectStatus !== undefined ? { expectStatus } : {}),
      ...(unchecked.length ? { unchecked } : {}),
    });
  }
  return out;
}

// ---- Postman ---------------------------------------------------------------------------------

interface PostmanItem {
  name?: unknown;
  item?: unknown;
  request?: unknown;
}

/** The requests of a Postman collection (v2.0, v2.1), folders first-to-last, named `Folder / Request`. */
function postmanRequests(text: string): RawRequest[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new HealthDataError('usage', `The file is not JSON (${err instanceof Error ? err.message : String(err)}), so it is no Postman collection.`);
  }
  const root = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  const info = root.info && typeof root.info === 'object' ? (root.info as Record<string, unknown>) : {};
  const schema = typeof info.schema === 'string' ? info.schema : '';
  if (!Array.isArray(root.item)) {
    throw new HealthDataError('usage', /collection\/v1/.test(schema) || Array.isArray(root.requests) ? 'The file is a Postman collection in format v1: export it from Postman as Collection v2.1.' : 'The file is no Postman collection: it has no "item" list.');
  }
  const vars = new Map<string, string>();
  for (const v of Array.isArray(root.variable) ? root.variable : []) {
    const pair = v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
    if (typeof pair.key === 'string' && (typeof pair.value === 'string' || typeof pair.value === 'number')) vars.set(pair.key, String(pair.value));
  }
  const out: RawRequest[] = [];
  const walk = (items: unknown[], path: string[], depth: number): void => {
    for (const value of items) {
      if (out.length >= MAX_FOREIGN_REQUESTS || depth > 20) return;
      const item = value && typeof value === 'object' ? (value as PostmanItem) : {};
      const name = typeof item.name === 'string' && item.name.trim() ? item.name.trim() : '';
      if (Array.isArray(item.item)) walk(item.item, name ? [...path, name] : path, depth + 1);
      else if (item.request !== undefined) {
        const raw = postmanRequest(item.request, vars);
        if (raw) out.push({ name: [...path, name || `${raw.method} ${raw.url}`].join(' / ').slice(0, 200), command: raw });
      }
    }
  };
  walk(root.item, [], 0);
  return out;
}

function postmanRequest(request: unknown, vars: ReadonlyMap<string, string>): PastedCommand | undefined {
  if (typeof request === 'string') return command('GET', withVariables(request, vars), [], undefined);
  if (!request || typeof request !== 'object') return undefined;
  const r = request as Record<string, unknown>;
  const url = typeof r.url === 'string' ? r.url : r.url && typeof r.url === 'object' ? postmanUrl(r.url as Record<string, unknown>) : '';
  const headers: [string, string][] = [];
  for (const h of Array.isArray(r.header) ? r.header : []) {
    const header = h && typeof h === 'object' ? (h as Record<string, unknown>) : {};
    if (header.disabled === true || typeof header.key !== 'string') continue;
    headers.push([header.key, withVariables(typeof header.value === 'string' ? header.value : '', vars)]);
  }
  const auth = r.auth && typeof r.auth === 'object' ? (r.auth as Record<string, unknown>) : {};
  const body = r.body && typeof r.body === 'object' ? (r.body as Record<string, unknown>) : {};
  // A form's fields by name only: their values (a client secret, perhaps) are never read.
  const fields = Array.isArray(body.urlencoded) ? body.urlencoded : Array.isArray(body.formdata) ? body.formdata : undefined;
  const bodyText = typeof body.raw === 'string' ? body.raw : fields ? fields.map((f) => `${String((f as Record<string, unknown>)?.key ?? '')}=`).join('&') : undefined;
  return command(typeof r.method === 'string' ? r.method : 'GET', withVariables(url, vars), headers, bodyText === undefined ? undefined : withVariables(bodyText, vars), auth.type === 'bearer' || auth.type === 'oauth2' || auth.type === 'apikey');
}

/** A Postman URL object: its `raw`, or one put together from host, path and query. */
function postmanUrl(url: Record<string, unknown>): string {
  if (typeof url.raw === 'string' && url.raw.trim()) {
    // Query entries switched off in Postman are in `raw` too: take them out.
    const off = (Array.isArray(url.query) ? url.query : []).filter((q) => q && typeof q === 'object' && (q as Record<string, unknown>).disabled === true);
    if (!off.length) return url.raw;
    const [base, query = ''] = url.raw.split('?');
    const offKeys = new Set(off.map((q) => String((q as Record<string, unknown>).key)));
    const kept = query.split('&').filter((pair) => pair && !offKeys.has(pair.split('=')[0]));
    return kept.length ? `${base}?${kept.join('&')}` : base;
  }
  const part = (v: unknown): string => (Array.isArray(v) ? v.map(String).join(v === url.host ? '.' : '/') : typeof v === 'string' ? v : '');
  const protocol = typeof url.protocol === 'string' ? `${url.protocol}://` : '';
  const query = (Array.isArray(url.query) ? url.query : [])
    .map((q) => (q && typeof q === 'object' ? (q as Record<string, unknown>) : {}))
    .filter((q) => q.disabled !== true && typeof q.key === 'string')
    .map((q) => `${q.key as string}=${typeof q.value === 'string' ? q.value : ''}`);
  const path = part(url.path);
  return `${protocol}${part(url.host)}${path ? `/${path.replace(/^\//, '')}` : ''}${query.length ? `?${query.join('&')}` : ''}`;
}
