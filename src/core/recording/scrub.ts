// What a recording keeps of an exchange: identities replaced by pseudonyms wherever they appear
// (record fields, sourceData, URLs, Link headers), dates moved when asked, credentials never.
// Two passes over a whole recording: first every identifier named by a field or a URL is
// learnt, then everything is rewritten, so an id met first inside text is replaced too.

import { encodeIdSegment, type Exchange } from '../service';
import { Pseudonyms } from './pseudonyms';
import { shiftDatesIn } from './dateShift';

export interface ScrubOptions {
  /** Keep the real identifiers (off by default; the caller warns). */
  keepIds?: boolean;
  /** Move every date by this many days (already rounded to weeks when weekdays are kept). */
  shiftDays?: number;
  /** Credentials to make sure of (the client's secret and tokens), besides what the client redacted. */
  secrets?: readonly (string | undefined)[];
}

/** A field whose string value is an identifier: id, humanId, userId, and any `…Id` / `…_id`. */
const ID_FIELD = /^(?:id|[A-Za-z0-9]*Id|[A-Za-z0-9_]*_id|[A-Za-z0-9]*ID)$/;
/** Query parameters that carry an identifier. */
const ID_PARAM = /^(?:id|humanId|userId|human_id|user_id)$/;
/** Query parameters that carry a credential: replaced by a placeholder whatever they hold. */
const SECRET_PARAM = /^(?:access_token|token|client_secret|api_key|apikey)$/i;
/** Response headers a recording drops: when it was made, cookies. */
const DROPPED_HEADERS = new Set(['date', 'set-cookie', 'cookie', 'age', 'expires', 'last-modified', 'etag']);
export const PLACEHOLDER = '[redacted]';

export class Scrubber {
  readonly pseudonyms: Pseudonyms;

  constructor(private readonly options: ScrubOptions = {}, key?: Buffer) {
    this.pseudonyms = new Pseudonyms(key);
  }

  /** First pass: the identifiers an exchange names (record fields, id segments, id parameters). */
  learn(exchange: Exchange): void {
    if (this.options.keepIds) return;
    this.urlIds(exchange.url, exchange.endpoint === 'getById');
    const link = exchange.responseHeaders.link;
    if (link) for (const m of link.matchAll(/<([^>]*)>/g)) this.urlIds(m[1], false);
    if (exchange.responseBody !== undefined && exchange.purpose === 'data') {
      const body = parseJson(exchange.responseBody);
      if (body !== undefined) this.jsonIds(body);
    }
  }

  /** Second pass: the exchange as a recording keeps it. */
  scrub(exchange: Exchange): Exchange {
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(exchange.responseHeaders)) {
      if (DROPPED_HEADERS.has(name)) continue;
      responseHeaders[name] = name === 'link' ? value.replace(/<([^>]*)>/g, (_m, url: string) => `<${this.url(url, false)}>`) : this.text(value);
    }
    const requestHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(exchange.requestHeaders)) requestHeaders[name] = this.text(value);
    const out: { -readonly [K in keyof Exchange]: Exchange[K] } = {
      ...exchange,
      startedAt: this.text(exchange.startedAt),
      url: this.url(exchange.url, exchange.endpoint === 'getById'),
      requestHeaders,
      responseHeaders,
      attempts: exchange.attempts.map((a) => ({ ...a, startedAt: this.text(a.startedAt), ...(a.error ? { error: this.text(a.error) } : {}) })),
    };
    if (exchange.requestBody !== undefined) out.requestBody = this.body(exchange.requestBody);
    if (exchange.responseBody !== undefined) {
      out.responseBody = this.body(exchange.responseBody);
      out.responseBytes = Buffer.byteLength(out.responseBody);
    }
    if (exchange.error) out.error = { kind: exchange.error.kind, message: this.text(exchange.error.message) };
    if (exchange.requestId !== undefined) out.requestId = this.text(exchange.requestId);
    return out;
  }

  private urlIds(text: string, lastSegmentIsId: boolean): void {
    const url = parseUrl(text);
    if (!url) return;
    if (lastSegmentIsId) {
      const segment = lastSegment(url.pathname);
      const id = safeDecode(segment);
      if (id) this.pseudonyms.of(id);
    }
    for (const [name, value] of url.searchParams) if (ID_PARAM.test(name) && value) this.pseudonyms.of(value);
  }

  private jsonIds(value: unknown, key?: string): void {
    if (typeof value === 'string') {
      if (key !== undefined && ID_FIELD.test(key) && value) this.pseudonyms.of(value);
    } else if (Array.isArray(value)) {
      for (const item of value) this.jsonIds(item);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) this.jsonIds(v, k);
    }
  }

  /** Free text: known identifiers replaced, dates moved, credentials redacted. */
  private text(value: string): string {
    let out = this.redact(value);
    if (!this.options.keepIds) out = this.pseudonyms.replaceIn(out);
    return shiftDatesIn(out, this.options.shiftDays ?? 0);
  }

  private redact(value: string): string {
    let out = value;
    for (const secret of this.options.secrets ?? []) if (secret && secret.length >= 4) out = out.split(secret).join(PLACEHOLDER);
    return out.replace(/\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g, PLACEHOLDER);
  }

  private body(text: string): string {
    const json = parseJson(text);
    if (json === undefined) return this.text(text);
    return JSON.stringify(this.json(json));
  }

  private json(value: unknown, key?: string): unknown {
    if (typeof value === 'string') {
      if (key !== undefined && /^(?:client_secret|client_token|access_token|refresh_token|id_token)$/.test(key)) return PLACEHOLDER;
      if (!this.options.keepIds && key !== undefined && ID_FIELD.test(key) && value) return this.pseudonyms.of(this.redact(value));
      return this.text(value);
    }
    if (Array.isArray(value)) return value.map((item) => this.json(item));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const name = this.options.keepIds ? k : this.pseudonyms.replaceIn(k);
        // defineProperty: a `__proto__` key stays a plain key.
        Object.defineProperty(out, name, { value: this.json(v, k), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return value;
  }

  private url(text: string, lastSegmentIsId: boolean): string {
    const url = parseUrl(text);
    if (!url) return this.text(text);
    const segments = url.pathname.split('/');
    const last = segments.length - 1;
    segments[last] = lastSegmentIsId && !this.options.keepIds
      ? encodeIdSegment(this.pseudonyms.of(safeDecode(segments[last]) ?? segments[last]))
      : shiftDatesIn(segments[last], this.options.shiftDays ?? 0);
    url.pathname = segments.join('/');
    const params = [...url.searchParams].map(([name, value]): [string, string] => {
      if (SECRET_PARAM.test(name)) return [name, PLACEHOLDER];
      if (!this.options.keepIds && ID_PARAM.test(name) && value) return [name, this.pseudonyms.of(value)];
      return [name, this.text(value)];
    });
    url.search = new URLSearchParams(params).toString();
    // URLSearchParams writes [ and ] percent-encoded; the placeholder reads better as it is.
    return url.href.split(encodeURIComponent(PLACEHOLDER)).join(PLACEHOLDER);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
