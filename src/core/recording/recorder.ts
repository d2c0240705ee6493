// A recording in progress: the exchanges of a client kept as they happen, written out as HAR
// with identities replaced and credentials left out, and checked for leaks before it is written.

import { createHash } from 'node:crypto';
import type { Exchange } from '../service';
import { effectiveShift } from './dateShift';
import { HarLog, harEntryOf, harLog } from './har';
import { Scrubber } from './scrub';

export interface RecordingOptions {
  /** Keep the real identifiers (the caller warns that the file then holds them). */
  keepIds?: boolean;
  /** Move every date by this many days. */
  shiftDays?: number;
  /** Round the shift to whole weeks, so each date keeps its weekday. */
  keepWeekdays?: boolean;
  /** The credentials in use, read when the recording is written (they may change meanwhile). */
  secrets?: () => readonly (string | undefined)[];
  /** The pseudonym key; random (and kept in memory only) when not given. */
  key?: Buffer;
}

/** The most days a recording's dates may move, either way (100 years). */
export const MAX_SHIFT_DAYS = 36_500;

/** A pseudonym key from a passphrase (HEALTH_DATA_PSEUDONYM_KEY), so separate runs agree. */
export function pseudonymKeyFrom(passphrase: string): Buffer {
  if (passphrase.length < 16) throw new Error('the pseudonym key must have at least 16 characters');
  return createHash('sha256').update(passphrase).digest();
}

export class Recorder {
  private readonly exchanges: Exchange[] = [];
  /** Shift actually applied (rounded to weeks when weekdays are kept). */
  readonly shiftDays: number;

  constructor(private readonly options: RecordingOptions = {}) {
    const days = options.shiftDays ?? 0;
    if (!Number.isInteger(days) || Math.abs(days) > MAX_SHIFT_DAYS) throw new Error(`the date shift must be a whole number of days from -${MAX_SHIFT_DAYS} to ${MAX_SHIFT_DAYS}`);
    this.shiftDays = effectiveShift(days, options.keepWeekdays ?? false);
  }

  /** Keeps one exchange; pass this as the client's onExchange. */
  readonly add = (exchange: Exchange): void => {
    this.exchanges.push(exchange);
  };

  get count(): number {
    return this.exchanges.length;
  }

  /**
   * The recording as HAR: `previous` entries (a file being appended to, already scrubbed) first;
   * `credentials` are made sure of besides options.secrets. Throws when a credential or an original identifier would still be written.
   */
  toHar(creator: { name: string; version: string }, previous?: HarLog, credentials: readonly (string | undefined)[] = []): HarLog {
    const secrets = [...(this.options.secrets?.() ?? []), ...credentials];
    const scrubber = new Scrubber({ keepIds: this.options.keepIds, shiftDays: this.shiftDays, secrets }, this.options.key);
    for (const e of this.exchanges) scrubber.learn(e);
    const entries = [...(previous?.log.entries ?? []), ...this.exchanges.map((e) => harEntryOf(scrubber.scrub(e)))];
    const notes = [this.options.keepIds ? 'real identifiers kept (--keep-ids)' : 'identifiers pseudonymized (keyed hash, key not stored)'];
    if (this.shiftDays) notes.push(`dates shifted by ${this.shiftDays} days`);
    const har = harLog(entries, creator, `Health Data Explorer recording: ${notes.join('; ')}; credentials replaced by [redacted]`);
    const leak = leakIn(JSON.stringify(har), secrets, this.options.keepIds ? [] : scrubber.pseudonyms.originals());
    if (leak) throw new Error(`The recording was not written: it would still hold ${leak}.`);
    return har;
  }
}

/** What of `secrets` or `originals` (or a JWT) the text holds, in words; undefined when none. */
export function leakIn(text: string, secrets: readonly (string | undefined)[], originals: readonly string[]): string | undefined {
  if (secrets.some((s) => s !== undefined && s.length >= 4 && text.includes(s))) return 'a credential';
  if (/\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/.test(text)) return 'a token (a JWT)';
  // Short ids are replaced only where a field names them, so only long ones can be looked for.
  if (originals.some((id) => id.length >= 8 && text.includes(id))) return 'an original identifier';
  return undefined;
}
