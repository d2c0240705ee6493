// Reads the claims of a JWT without verifying it: the token view and the CLI show when a token
// expires and whom it names. The signature is the service's business, not ours.

export interface JwtClaims {
  [claim: string]: unknown;
  exp?: number;
  iat?: number;
  sub?: string;
}

/** The decoded payload of a JWT, or undefined when the text is not one. */
export function decodeJwtClaims(token: string): JwtClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const json = Buffer.from(parts[1].replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    const claims: unknown = JSON.parse(json);
    return claims && typeof claims === 'object' && !Array.isArray(claims) ? (claims as JwtClaims) : undefined;
  } catch {
    return undefined;
  }
}
