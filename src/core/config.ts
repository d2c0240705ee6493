// Checks the settings every front end shares (service URLs, token presentation, page size)
// before anything is sent, so a typo becomes a clear message instead of a confusing failure.

import { HealthDataError } from './errors';

export interface ServiceUrlCheck {
  /** The URL normalised: no trailing slash. */
  url: string;
  /** Set when the URL is usable but risky: plain http to a host that is not loopback. */
  warning?: string;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/**
 * Validates a service base URL (`auth_url` or `base_url`). Rejects what cannot be right:
 * no scheme, a scheme other than http(s), credentials inside the URL (they would end up in logs),
 * a query or fragment. A trailing path is kept (a deployment may live under /api) but a
 * trailing `/v1` is refused because every endpoint path already starts with it.
 */
export function checkServiceUrl(text: string | undefined, what = 'URL'): ServiceUrlCheck {
  const raw = (text ?? '').trim();
  if (!raw) throw new HealthDataError('usage', `${what} is empty.`);
  // As quoted in a message: credentials before an `@` are not repeated.
  const shown = () => clip(raw.replace(/^([^/]*\/\/)?[^/@\s]*@/, '$1…@'));
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw new HealthDataError('usage', `${what} "${shown()}" has no scheme: write it as https://host or http://127.0.0.1:port.`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HealthDataError('usage', `${what} "${shown()}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HealthDataError('usage', `${what} must start with http:// or https://, not ${url.protocol}//.`);
  }
  if (url.username || url.password) {
    throw new HealthDataError('usage', `${what} must not contain a user name or password: credentials belong in the client id and secret.`);
  }
  if (url.search || url.hash) {
    throw new HealthDataError('usage', `${what} must not have a query string or fragment.`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/v1$/i.test(path)) {
    throw new HealthDataError('usage', `${what} must not end in /v1: every endpoint path already starts with /v1/.`);
  }
  const normalised = `${url.protocol}//${url.host}${path}`;
  const check: ServiceUrlCheck = { url: normalised };
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    check.warning = `${what} uses plain http:// to ${url.hostname}: the client secret and tokens would travel unencrypted. Use https://.`;
  }
  return check;
}

/** Page size for list calls: a whole number from 1 to 500 (the service's maximum). */
export function checkPageSize(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 500) {
    throw new HealthDataError('usage', `Page size must be a whole number from 1 to 500, got ${clip(String(value))}.`);
  }
  return n;
}

/** A positive whole number of milliseconds, for timeouts. */
export function checkTimeoutMs(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 100 || n > 600_000) {
    throw new HealthDataError('usage', `Timeout must be a whole number of milliseconds from 100 to 600000, got ${clip(String(value))}.`);
  }
  return n;
}

/** A header name as HTTP allows it (a token of visible ASCII, no separators). */
export function checkHeaderName(value: string): string {
  const v = value.trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(v)) {
    throw new HealthDataError('usage', `"${clip(value)}" is not a valid HTTP header name.`);
  }
  return v;
}

export function clip(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
