// A 0 explained by the source's other records. The schema can only say that a 0 may mean "the
// source does not provide this"; the records around it tell which: a source that sent 0 for a
// field on every other record of the kind does not provide it, and a 0 from a source that
// usually sends the field stands out (a day it did not sync, a device taken off). Compares a
// record's top-level zero findings with the other records of the same source: the Records view's
// for one record (compareZeros), or those of a list, a reply's page, the tree (ZeroTally) or an
// editor document (explainDocumentZeros).

import { truncate, type Finding, type FindingKind } from '../validation/findings';
import { recordAt, type PayloadTextValidation, type PlacedFinding } from '../validation/payloadText';
import { payloadRecords } from '../validation/validator';
import { tokenName } from '../json/pointers';
import { textField } from './labels';
import { isUnusualZero } from '../validation/unusualZero';

/** Fewer other records than this: the source "may not" provide the field, not "does not". */
export const ZERO_EVIDENCE = 3;

export interface ZeroComparison {
  /** The record's zero findings reworded by what the source's other records sent; every other finding as it was. */
  readonly findings: readonly Finding[];
  /** How many other records of the source were compared; 0 when none (the findings are then unchanged). */
  readonly compared: number;
  /** The record's source, as the messages quote it; undefined when the record names none. */
  readonly source: string | undefined;
  /** Zero findings whose field nearly every other record of the source sends (isUnusualZero): the 0 stands out. */
  readonly unusual: number;
}

/** The top-level field a finding's path names (`/steps` → `steps`), or undefined for a nested one. */
export function topField(path: string): string | undefined {
  return /^\/[^/]+$/.test(path) ? tokenName(path.slice(1)) : undefined;
}

const idOf = (record: unknown): unknown => (record !== null && typeof record === 'object' ? (record as { id?: unknown }).id : undefined);

/**
 * Rewords the zero findings of `record` from the other records of its source among `others`
 * (records of its kind; the record itself, by identity or id, is not counted). A field counts as
 * sent when it is a number other than 0; 0, null, absent or another type count as not sent.
 */
export function compareZeros(record: unknown, findings: readonly Finding[], others: Iterable<unknown>): ZeroComparison {
  const source = textField(record, 'source');
  if (source === undefined || !findings.some((f) => f.kind === 'zero' && topField(f.path) !== undefined)) return { findings, compared: 0, source, unusual: 0 };
  // The record and the other records of its source, counted as one list (of the record's kind).
  const tally = new ZeroTally('loaded');
  tally.add(undefined, record);
  const id = idOf(record);
  for (const other of others) {
    if (other === record || (id !== undefined && idOf(other) === id) || textField(other, 'source') !== source) continue;
    tally.add(undefined, other);
  }
  const compared = tally.othersOf(undefined, record);
  if (compared === 0) return { findings, compared, source, unusual: 0 };
  return { findings: tally.explain(undefined, record, findings), compared, source, unusual: tally.unusual(undefined, record, findings).length };
}

/** Where the other records a 0 is said from are: the Records view's, a list's, a reply's page, an editor document's, a file's (the CLI's). */
export type ZeroPlace = 'loaded' | 'in this list' | 'in this reply' | 'in this document' | 'in this file' | 'in standard input';

/**
 * A 0 of `field` from `source`, said from the `compared` other records of the source (`where`
 * they are: the Records view's, `loaded`, or the same list's, `in this list`), `sent` of which
 * have the field as a number other than 0.
 */
function zeroMessage(source: string, field: string, sent: number, compared: number, where: ZeroPlace): string {
  const name = truncate(source);
  const quoted = truncate(field);
  // The view says which records these are (the kind, the environment, the filters) once, above.
  const others = compared === 1 ? `its other record ${where}` : `its ${compared} other records ${where}`;
  if (sent === 0) return compared >= ZERO_EVIDENCE ? `0 — ${name} does not provide ${quoted}: 0 on all ${others}` : `0 — ${name} may not provide ${quoted}: 0 on ${others}`;
  const onOthers = compared === 1 ? others : sent === compared ? `all ${others}` : `${sent} of ${others}`;
  // The source sends the field: this 0 is a value it measured, or (nearly always sent) one that stands out.
  return isUnusualZero(sent, compared) ? `0 — unusual for ${name}: ${quoted} is not 0 on ${onOthers}` : `0 — ${name} provides ${quoted}: not 0 on ${onOthers}`;
}

/**
 * A 0 of `field` from `source` said from the `compared` other records of the source `where`
 * they are, `sent` of which have the field as a number other than 0, and whether it stands out:
 * for counts kept elsewhere (a file read as a stream, whose records are not kept).
 */
export function zeroWords(source: string, field: string, sent: number, compared: number, where: ZeroPlace): { readonly message: string; readonly standsOut: boolean } {
  return { message: zeroMessage(source, field, sent, compared, where), standsOut: isUnusualZero(sent, compared) };
}

/** One kind and source of a list: its records, and how many of them send each field as a number other than 0. */
interface SourceTally {
  records: number;
  readonly sent: Map<string, number>;
  /** What a zero finding says, by its path, once said (null: the finding stays as it is); dropped when a record is added. */
  said?: Map<string, Said | null>;
}

/** A zero finding's words from the other records of its source, and whether the 0 stands out. */
interface Said {
  readonly message: string;
  readonly standsOut: boolean;
}

const keyOf = (kind: string | undefined, source: string): string => `${kind ?? ''}\u0000${source}`;

/**
 * The zeros of a list explained by the list itself: each source's records counted once, with how
 * many of them send each field as a number other than 0, so a list of 100,000 records costs one
 * pass more, not one per record. Records are told apart by kind and source; a record without a
 * source is left as it is. One message per kind, source and field, shared by the records that have it.
 */
export class ZeroTally {
  private readonly sources = new Map<string, SourceTally>();

  /** `where` the records are, as the messages say it: a list's (`in this list`), a reply's page (`in this reply`), the Records view's (`loaded`), a document's or a file's. */
  constructor(private readonly where: ZeroPlace = 'in this list') {}

  /** Counts a record of the list (`kind` as the validator found it). */
  add(kind: string | undefined, record: unknown): void {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) return;
    const source = textField(record, 'source');
    if (source === undefined) return;
    const key = keyOf(kind, source);
    let tally = this.sources.get(key);
    if (!tally) this.sources.set(key, (tally = { records: 0, sent: new Map() }));
    tally.records++;
    // Counts that change change what is said.
    tally.said = undefined;
    for (const field in record) {
      if (!Object.prototype.hasOwnProperty.call(record, field)) continue;
      const value = (record as Record<string, unknown>)[field];
      if (typeof value === 'number' && value !== 0) tally.sent.set(field, (tally.sent.get(field) ?? 0) + 1);
    }
  }

  /** How many other records of the list share the record's kind and source (0 without a source). */
  othersOf(kind: string | undefined, record: unknown): number {
    const tally = this.tallyOf(kind, record)?.tally;
    return tally ? tally.records - 1 : 0;
  }

  /** The count of the record's kind and source; undefined without a source or a count. */
  private tallyOf(kind: string | undefined, record: unknown): { source: string; tally: SourceTally } | undefined {
    const source = textField(record, 'source');
    if (source === undefined) return undefined;
    const tally = this.sources.get(keyOf(kind, source));
    return tally && { source, tally };
  }

  /**
   * The record's zero findings reworded from the list's other records of its kind and source (the
   * record was added: its own 0 is not among those that send the field); the others as they were.
   */
  explain(kind: string | undefined, record: unknown, findings: readonly Finding[]): readonly Finding[] {
    const found = this.tallyOf(kind, record);
    if (!found || found.tally.records < 2 || !findings.some((f) => f.kind === 'zero')) return findings;
    return findings.map((f) => {
      const said = this.said(found, f);
      return said === undefined ? f : { kind: f.kind, path: f.path, message: said.message };
    });
  }

  /**
   * What a zero finding of the record (which was added) says from the other records of its kind
   * and source, and whether the 0 stands out; undefined for any other finding, or a record
   * without a source or other records.
   */
  sayZero(kind: string | undefined, record: unknown, finding: Finding): { readonly message: string; readonly standsOut: boolean } | undefined {
    const found = this.tallyOf(kind, record);
    return found && found.tally.records >= 2 ? this.said(found, finding) : undefined;
  }

  /**
   * A zero finding of a top-level field said from the other records of the record's kind and
   * source (`found`), and whether that 0 stands out; undefined for any other finding. Said once
   * per kind, source and path, shared by the records that have it.
   */
  private said(found: { source: string; tally: SourceTally }, f: Finding): Said | undefined {
    if (f.kind !== 'zero') return undefined;
    const byPath = (found.tally.said ??= new Map());
    let said = byPath.get(f.path);
    if (said === undefined) {
      const field = topField(f.path);
      const compared = found.tally.records - 1;
      // The record's own value is 0: whatever sends the field is another record.
      const sent = field === undefined ? 0 : (found.tally.sent.get(field) ?? 0);
      said = field === undefined ? null : { message: zeroMessage(found.source, field, sent, compared, this.where), standsOut: isUnusualZero(sent, compared) };
      byPath.set(f.path, said);
    }
    return said ?? undefined;
  }

  /**
   * Placed findings of the list's records (found by their `index` with `recordOf`) with their zero
   * findings reworded, and `standsOut` on a 0 that stands out; the same array when none changes.
   */
  explainPlaced(findings: readonly PlacedFinding[], recordOf: ListRecordOf): readonly PlacedFinding[] {
    let out: PlacedFinding[] | undefined;
    // A record's findings come one after the other: its count is looked up once.
    let lastIndex: number | undefined;
    let found: { source: string; tally: SourceTally } | undefined;
    for (let i = 0; i < findings.length; i++) {
      const f = findings[i];
      if (f.kind !== 'zero' || f.index === undefined) continue;
      if (f.index !== lastIndex) {
        lastIndex = f.index;
        const entry = recordOf(f.index);
        found = entry && this.tallyOf(entry.kind, entry.record);
        if (found !== undefined && found.tally.records < 2) found = undefined;
      }
      if (found === undefined) continue;
      const said = this.said(found, f);
      if (said === undefined) continue;
      out ??= findings.slice();
      // Written out, not spread: ten times faster over the hundred thousand zeros of a large document.
      const explained: ZeroPlacedFinding = {
        kind: f.kind,
        path: f.path,
        message: said.message,
        pointer: f.pointer,
        offset: f.offset,
        length: f.length,
        missing: f.missing,
        index: f.index,
        recordId: f.recordId,
        standsOut: said.standsOut,
      };
      out[i] = explained;
    }
    return out ?? findings;
  }

  /**
   * Whether the record's source is known not to provide `field`: it is 0, null or absent on the
   * record and on every other record of its kind and source here, and there are at least
   * ZERO_EVIDENCE others (the words' "does not provide", not "may not").
   */
  doesNotProvide(kind: string | undefined, record: unknown, field: string): boolean {
    const tally = this.tallyOf(kind, record)?.tally;
    return tally !== undefined && tally.records - 1 >= ZERO_EVIDENCE && !tally.sent.has(field);
  }

  /** The record's zero fields that nearly every other record of its kind and source sends as another number (isUnusualZero): its 0s that stand out. */
  unusual(kind: string | undefined, record: unknown, findings: readonly Finding[]): string[] {
    const tally = this.tallyOf(kind, record)?.tally;
    if (!tally || tally.records < 2) return [];
    const fields: string[] = [];
    for (const f of findings) {
      const field = f.kind === 'zero' ? topField(f.path) : undefined;
      if (field !== undefined && isUnusualZero(tally.sent.get(field) ?? 0, tally.records - 1)) fields.push(field);
    }
    return fields;
  }
}

/** A list's record and its kind (as the validator found it) by its place in the list; undefined if none. */
export type ListRecordOf = (index: number) => { readonly record: unknown; readonly kind: string | undefined } | undefined;

/** A zero finding said from its source's other records: `standsOut` when nearly all of them send the field (isUnusualZero). */
export type ZeroPlacedFinding = PlacedFinding & { readonly standsOut: boolean };

/** Whether a finding is a 0 that stands out among its source's other records (explainPlaced said so). */
export function standsOut(finding: object): boolean {
  return (finding as { standsOut?: unknown }).standsOut === true;
}

/**
 * The kind a finding is shown as: a 0 that stands out as a warning (the Problems panel's severity,
 * and the rank it is kept by when a document has more findings than are shown), any other as its own.
 */
export function shownAsKind(finding: Pick<Finding, 'kind'>): FindingKind {
  return finding.kind === 'zero' && standsOut(finding) ? 'warning' : finding.kind;
}

/**
 * A document's findings with each 0 said from the document's other records of the same kind and
 * source (`0 — googlefit does not provide steps: 0 on all its 24 other records in this document`),
 * as the record view says it from the Records view's: the same validation when the document holds
 * one record or no zero finding.
 */
export function explainDocumentZeros(validation: PayloadTextValidation, where: ZeroPlace = 'in this document'): PayloadTextValidation {
  if (validation.records.length < 2 || !validation.findings.some((f) => f.kind === 'zero')) return validation;
  const tally = new ZeroTally(where);
  // The list's records by their place in it (a record's pointer read only where the list has none there).
  const list = payloadRecords(validation.payload);
  const byIndex: Array<{ record: unknown; kind: string | undefined } | undefined> = [];
  for (const r of validation.records) {
    const listed = r.index === undefined ? undefined : list[r.index];
    const entry = { record: listed ?? recordAt(validation.payload, r.pointer), kind: r.kind };
    tally.add(entry.kind, entry.record);
    if (r.index !== undefined) byIndex[r.index] = entry;
  }
  const findings = tally.explainPlaced(validation.findings, (index) => byIndex[index]);
  return findings === validation.findings ? validation : { ...validation, findings };
}
