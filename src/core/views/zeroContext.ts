// A 0 explained by the source's other records. The schema can only say that a 0 may mean "the
// source does not provide this"; the records around it tell which: a source that sent 0 for a
// field on every other record of the kind does not provide it, and a 0 from a source that
// usually sends the field stands out (a day it did not sync, a device taken off). Compares the
// record's top-level zero findings with the other records of the same source (the Records view's).

import { truncate, type Finding } from '../validation/findings';
import { tokenName } from '../json/pointers';
import { textField } from './labels';

/** Fewer other records than this: the source "may not" provide the field, not "does not". */
export const ZERO_EVIDENCE = 3;

export interface ZeroComparison {
  /** The record's zero findings reworded by what the source's other records sent; every other finding as it was. */
  readonly findings: readonly Finding[];
  /** How many other records of the source were compared; 0 when none (the findings are then unchanged). */
  readonly compared: number;
  /** The record's source, as the messages quote it; undefined when the record names none. */
  readonly source: string | undefined;
  /** Zero findings whose field the source sends on some other record: the 0 stands out. */
  readonly unusual: number;
}

/** The top-level field a finding's path names (`/steps` → `steps`), or undefined for a nested one. */
function topField(path: string): string | undefined {
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
  const fields = new Map<string, number>();
  for (const f of findings) {
    const field = f.kind === 'zero' ? topField(f.path) : undefined;
    if (field !== undefined) fields.set(field, 0);
  }
  if (source === undefined || fields.size === 0) return { findings, compared: 0, source, unusual: 0 };
  const id = idOf(record);
  let compared = 0;
  for (const other of others) {
    if (other === record || other === null || typeof other !== 'object') continue;
    if (id !== undefined && idOf(other) === id) continue;
    if ((other as { source?: unknown }).source !== source) continue;
    compared++;
    for (const [field, sent] of fields) {
      const value = (other as Record<string, unknown>)[field];
      if (typeof value === 'number' && value !== 0) fields.set(field, sent + 1);
    }
  }
  if (compared === 0) return { findings, compared, source, unusual: 0 };
  const name = truncate(source);
  // The view says which records these are (the kind, the environment, the filters) once, above.
  const othersText = compared === 1 ? 'its other record loaded' : `its ${compared} other records loaded`;
  let unusual = 0;
  const reworded = findings.map((f) => {
    const field = f.kind === 'zero' ? topField(f.path) : undefined;
    if (field === undefined) return f;
    const sent = fields.get(field) ?? 0;
    const quoted = truncate(field);
    let message: string;
    if (sent > 0) {
      unusual++;
      message = `0 — unusual for ${name}: ${quoted} is not 0 on ${compared === 1 ? othersText : `${sent} of ${othersText}`}`;
    } else if (compared >= ZERO_EVIDENCE) {
      message = `0 — ${name} does not provide ${quoted}: 0 on all ${othersText}`;
    } else {
      message = `0 — ${name} may not provide ${quoted}: 0 on ${othersText}`;
    }
    return { kind: f.kind, path: f.path, message };
  });
  return { findings: reworded, compared, source, unusual };
}
