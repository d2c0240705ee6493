// Client tokens as the service issues them: HS256 JWTs signed with a key that lives only in this
// process, valid for a set lifetime, revocable all at once. A registry of what was issued is
// the authority, so an opaque (non-JWT) token from the 'non-jwt-token' fault works the same way.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type TokenCheck =
  | { ok: true }
  | { ok: false; reason: 'invalid' | 'expired' | 'revoked' };

interface IssuedToken {
  expiresAtMs: number;
  revoked: boolean;
}

export interface MintedToken {
  token: string;
  expiresIn: number;
}

const base64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

/** Registry entries past expiry by this much are forgotten, so a long-running sandbox stays small. */
const FORGET_AFTER_MS = 3_600_000;

export class TokenIssuer {
  private readonly key = randomBytes(32);
  private readonly issued = new Map<string, IssuedToken>();

  constructor(
    private readonly clientId: string,
    private readonly lifetimeSeconds: number,
  ) {}

  /** A new client token; `opaque` gives a random string instead of a JWT. */
  mint(opaque = false): MintedToken {
    const nowMs = Date.now();
    this.forgetOld(nowMs);
    const iat = Math.floor(nowMs / 1000);
    const token = opaque ? randomBytes(20).toString('hex') : this.sign({
      iss: 'health-data-sandbox',
      sub: this.clientId,
      typ: 'client',
      iat,
      exp: iat + Math.ceil(this.lifetimeSeconds),
      jti: randomBytes(8).toString('hex'),
    });
    // Expiry is kept to the millisecond here: the `exp` claim is whole seconds, and a one-second
    // token must not die early because it was minted late in a second.
    this.issued.set(token, { expiresAtMs: nowMs + this.lifetimeSeconds * 1000, revoked: false });
    return { token, expiresIn: this.lifetimeSeconds };
  }

  check(token: string): TokenCheck {
    if (token.split('.').length === 3 && !this.signatureHolds(token)) return { ok: false, reason: 'invalid' };
    const entry = this.issued.get(token);
    if (!entry) return { ok: false, reason: 'invalid' };
    if (entry.revoked) return { ok: false, reason: 'revoked' };
    if (Date.now() >= entry.expiresAtMs) return { ok: false, reason: 'expired' };
    return { ok: true };
  }

  /** Every token issued so far is rejected from now on; returns how many were live. */
  revokeAll(): number {
    let live = 0;
    const nowMs = Date.now();
    for (const entry of this.issued.values()) {
      if (!entry.revoked && nowMs < entry.expiresAtMs) live++;
      entry.revoked = true;
    }
    return live;
  }

  private sign(claims: Record<string, unknown>): string {
    const unsigned = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
    return `${unsigned}.${this.mac(unsigned).toString('base64url')}`;
  }

  private signatureHolds(token: string): boolean {
    const cut = token.lastIndexOf('.');
    const given = Buffer.from(token.slice(cut + 1), 'base64url');
    const expected = this.mac(token.slice(0, cut));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private mac(text: string): Buffer {
    return createHmac('sha256', this.key).update(text).digest();
  }

  private forgetOld(nowMs: number): void {
    if (this.issued.size < 1000) return;
    for (const [token, entry] of this.issued) {
      if (nowMs - entry.expiresAtMs > FORGET_AFTER_MS) this.issued.delete(token);
    }
  }
}
