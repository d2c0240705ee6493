// Identifiers replaced by pseudonyms from a keyed hash (HMAC-SHA-256). The key is random and
// lives only in memory, so nobody holding a recording can recompute a pseudonym from a real id;
// one key gives one pseudonym per identifier, so relations between records and files hold.

import { createHmac, randomBytes } from 'node:crypto';

/** Identifiers shorter than this are replaced only where a field names them, never inside text. */
const MIN_TEXT_MATCH = 8;
const HEX = /^[0-9a-f]+$/i;

export class Pseudonyms {
  private readonly key: Buffer;
  private readonly known = new Map<string, string>();
  private pattern: RegExp | undefined;

  /** `key`: 16 bytes or more; random when not given. */
  constructor(key?: Buffer) {
    if (key !== undefined && key.length < 16) throw new Error('a pseudonym key must have at least 16 bytes');
    this.key = key ?? randomBytes(32);
  }

  /**
   * The pseudonym of an identifier: hex of the same length for a hex id (ids keep their look,
   * 24 hex digits stay 24), `anon-` and 24 hex digits otherwise.
   */
  of(value: string): string {
    const hit = this.known.get(value);
    if (hit !== undefined) return hit;
    const digest = (salt: number) => createHmac('sha256', this.key).update(`${salt}:${value}`).digest('hex');
    let pseudonym: string;
    if (HEX.test(value) && value.length >= MIN_TEXT_MATCH) {
      let hex = '';
      for (let salt = 0; hex.length < value.length; salt++) hex += digest(salt);
      pseudonym = hex.slice(0, value.length);
      if (value === value.toUpperCase()) pseudonym = pseudonym.toUpperCase();
    } else {
      pseudonym = `anon-${digest(0).slice(0, 24)}`;
    }
    this.known.set(value, pseudonym);
    this.known.set(pseudonym, pseudonym);
    this.pattern = undefined;
    return pseudonym;
  }

  /** Every identifier met so far (the originals, for a leak scan). */
  originals(): string[] {
    return [...this.known].filter(([original, pseudonym]) => original !== pseudonym).map(([original]) => original);
  }

  /** `text` with every identifier met so far (of 8 characters or more) replaced wherever it appears. */
  replaceIn(text: string): string {
    if (this.known.size === 0) return text;
    if (this.pattern === undefined) {
      const long = [...this.known.keys()].filter((v) => v.length >= MIN_TEXT_MATCH && this.known.get(v) !== v);
      if (long.length === 0) return text;
      // Longest first, so an id that contains another is replaced whole.
      long.sort((a, b) => b.length - a.length);
      this.pattern = new RegExp(long.map(escapeRegExp).join('|'), 'g');
    }
    return text.replace(this.pattern, (match) => this.known.get(match) ?? match);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
