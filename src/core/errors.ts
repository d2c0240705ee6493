// Errors are values with a kind and a message a person can act on. No message ever holds a
// secret or a token: every message passes through `redact` with the secrets the client knows.

export type HealthDataErrorKind =
  | 'auth'
  | 'network'
  | 'timeout'
  | 'cancelled'
  | 'http'
  | 'parse'
  | 'schema'
  | 'usage';

export interface HealthDataErrorDetails {
  status?: number;
  serviceMessage?: string;
  requestId?: string;
  /** Method and path (never the query string, which may carry a token). */
  request?: string;
  retryAfterMs?: number;
  cause?: unknown;
}

export class HealthDataError extends Error {
  readonly kind: HealthDataErrorKind;
  readonly status?: number;
  readonly serviceMessage?: string;
  readonly requestId?: string;
  readonly request?: string;
  readonly retryAfterMs?: number;

  constructor(kind: HealthDataErrorKind, message: string, details: HealthDataErrorDetails = {}) {
    super(message);
    this.name = 'HealthDataError';
    this.kind = kind;
    this.status = details.status;
    this.serviceMessage = details.serviceMessage;
    this.requestId = details.requestId;
    this.request = details.request;
    this.retryAfterMs = details.retryAfterMs;
  }

  /** One line for a person: what failed, the status, the service's words, the request id. */
  describe(): string {
    return this.message;
  }
}

export function isHealthDataError(value: unknown): value is HealthDataError {
  return value instanceof HealthDataError;
}

const REDACTED = '[redacted]';

/**
 * Replaces every occurrence of the given secrets (and anything shaped like a bearer token or a
 * JWT) with `[redacted]`. Secrets shorter than 4 characters are not searched for: they would
 * shred ordinary text and are too short to be a credential worth hiding.
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  out = out.replace(/\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g, REDACTED);
  out = out.replace(/(Bearer\s+)[^\s,;"']+/gi, `$1${REDACTED}`);
  out = out.replace(/([?&](?:access_token|client_secret|token)=)[^&#\s]+/gi, `$1${REDACTED}`);
  return out;
}

/** Turns anything thrown into a HealthDataError, keeping its kind when it already is one. */
export function toHealthDataError(err: unknown, secrets: readonly (string | undefined)[] = []): HealthDataError {
  if (err instanceof HealthDataError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new HealthDataError('network', redact(message, secrets));
}
