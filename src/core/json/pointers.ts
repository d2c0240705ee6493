// JSON Pointers (RFC 6901): how a property name becomes one token of a pointer. The validator's
// findings, the text locator and the record view all address fields this way.

/** A JSON Pointer token for a property name (RFC 6901). */
export function pointerToken(name: string): string {
  return name.includes('~') || name.includes('/') ? name.replace(/~/g, '~0').replace(/\//g, '~1') : name;
}

/** The property name a JSON Pointer token stands for (RFC 6901): pointerToken undone. */
export function tokenName(token: string): string {
  return token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token;
}
