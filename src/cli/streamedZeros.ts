// A streamed file read twice, for the reports that write each record as it is read (JSON, SARIF,
// JUnit, GitHub, the text with --all-findings) when a rule names a 0 that stands out
// (`--fail-on unusual`, `--omit unusual`, `--omit zero`): the first pass counts the records of
// each kind and source and the numeric fields they send (`SentCounter`, on the workers too), the
// second says each record's zeros from those counts (`ZeroSayer`), in the words and with the
// `standsOut` of a file read whole, before the rules are applied. Memory stays bounded: at most
// MAX_COUNTED kinds and sources are counted; records of others keep their own words.

import { isResourceKind, type ResourceKind } from '../core/resources';
import type { PositionedFinding, RecordReport, UnitResult } from '../core/streaming';
import { numericFieldsOf } from '../core/validation/sentFields';
import { type ZeroPlace, topField, zeroWords } from '../core/views';

/** A kind and source of a streamed file: its records, and per numeric field (sentFields.ts order) how many send it as a number other than 0. */
export interface SentCount {
  readonly kind: string;
  readonly source: string;
  records: number;
  readonly sent: number[];
}

/** Kinds and sources counted in a file at most (here and in the grouped text): memory stays bounded whatever a file holds. */
export const MAX_COUNTED = 1000;

/** Counts one record whose numeric fields sent as a number other than 0 are `sent` (a mask, sentFields.ts). */
export function countRecord(count: SentCount, sent: number): void {
  count.records++;
  for (let i = 0; sent !== 0; i++, sent >>>= 1) if (sent & 1) count.sent[i]++;
}

/** Adds another count of the same kind and source (a worker's batch) to `count`. */
export function addCount(count: SentCount, other: SentCount): void {
  count.records += other.records;
  other.sent.forEach((n, i) => (count.sent[i] += n));
}

const keyOf = (kind: string, source: string): string => `${kind}\u0000${source}`;

/** The first pass: each record counted by kind and source. Plain data out (`data`), merged in file order or any order. */
export class SentCounter {
  private readonly counts = new Map<string, SentCount>();
  private lastKind: string | null = null;
  private lastSource: string | null = null;
  private last: SentCount | undefined;

  add(r: RecordReport): void {
    const { kind, source } = r;
    if (kind === null || source === null) return;
    let count = this.last;
    if (kind !== this.lastKind || source !== this.lastSource) {
      this.lastKind = kind;
      this.lastSource = source;
      count = this.last = this.countOf(kind, source);
    }
    if (count !== undefined) countRecord(count, r.sent);
  }

  merge(counts: readonly SentCount[]): void {
    for (const c of counts) {
      const count = this.countOf(c.kind, c.source);
      if (count !== undefined) addCount(count, c);
    }
    this.lastKind = this.lastSource = null;
    this.last = undefined;
  }

  data(): SentCount[] {
    return [...this.counts.values()];
  }

  /** A kind's and source's count, made when first met; undefined for a kind the service does not have, or past MAX_COUNTED. */
  private countOf(kind: string, source: string): SentCount | undefined {
    const key = keyOf(kind, source);
    let count = this.counts.get(key);
    if (count === undefined) {
      if (!isResourceKind(kind) || this.counts.size >= MAX_COUNTED) return undefined;
      this.counts.set(key, (count = { kind, source, records: 0, sent: new Array<number>(numericFieldsOf(kind).length).fill(0) }));
    }
    return count;
  }
}

/** A kind and source's count as the second pass reads it: its fields, and each field's words once said. */
interface Known {
  readonly count: SentCount;
  readonly fields: readonly string[];
  /** By field: its 0's message and whether it stands out, once said. */
  readonly said: Map<string, { readonly message: string; readonly standsOut: boolean }>;
  /** Findings lists records share (an NDJSON line's), said once each. */
  readonly shared: WeakMap<readonly PositionedFinding[], readonly PositionedFinding[]>;
}

/** The second pass: a record's zeros said from the whole file's counts of its kind and source. */
export class ZeroSayer {
  private readonly known = new Map<string, Known>();

  constructor(
    counts: readonly SentCount[],
    private readonly where: ZeroPlace,
  ) {
    for (const count of counts) {
      if (!isResourceKind(count.kind)) continue;
      this.known.set(keyOf(count.kind, count.source), { count, fields: numericFieldsOf(count.kind as ResourceKind), said: new Map(), shared: new WeakMap() });
    }
  }

  /** The results with each record's zeros said; the same objects where nothing changes. */
  sayAll(results: UnitResult[]): UnitResult[] {
    return results.map((result) => {
      if ('syntaxError' in result) return result;
      let changed = false;
      const records = result.records.map((r) => {
        const said = this.say(r);
        if (said !== r) changed = true;
        return said;
      });
      return changed ? { records } : result;
    });
  }

  /** A record with its zeros said from its source's count (a source with no other record keeps the record's own words). */
  say(r: RecordReport): RecordReport {
    if (r.kind === null || r.source === null || r.findings.length === 0) return r;
    const known = this.known.get(keyOf(r.kind, r.source));
    if (known === undefined || known.count.records < 2) return r;
    const shared = r.pointer === '' && Object.isFrozen(r.findings);
    let findings = shared ? known.shared.get(r.findings) : undefined;
    if (findings === undefined) {
      findings = this.sayFindings(known, r.findings, r.pointer);
      if (shared) known.shared.set(r.findings, Object.freeze(findings));
    }
    return findings === r.findings ? r : { ...r, findings };
  }

  private sayFindings(known: Known, findings: readonly PositionedFinding[], pointer: string): readonly PositionedFinding[] {
    let out: PositionedFinding[] | undefined;
    for (let i = 0; i < findings.length; i++) {
      const f = findings[i];
      const words = f.kind === 'zero' ? this.wordsOf(known, f.path, pointer) : undefined;
      if (words === undefined) continue;
      out ??= findings.slice();
      out[i] = words.standsOut ? { ...f, message: words.message, standsOut: true } : { ...f, message: words.message };
    }
    return out ?? findings;
  }

  /** The words of a 0 at `path` (in the payload; the record is at `pointer`) when it is a top-level numeric field the count has. */
  private wordsOf(known: Known, path: string, pointer: string): { readonly message: string; readonly standsOut: boolean } | undefined {
    const field = path.startsWith(pointer) ? topField(path.slice(pointer.length)) : undefined;
    if (field === undefined) return undefined;
    let words = known.said.get(field);
    if (words === undefined) {
      const bit = known.fields.indexOf(field);
      if (bit < 0) return undefined;
      const { count } = known;
      // The record's own value is 0: whatever sends the field is another record.
      words = zeroWords(count.source, field, count.sent[bit], count.records - 1, this.where);
      known.said.set(field, words);
    }
    return words;
  }
}
