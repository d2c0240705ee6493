// Which numeric fields a record sends as a number other than 0, as a small mask: what a count of a
// source's records needs to say its zeros ("googlefit does not provide steps: 0 on all its 4,211
// other records") when a file is read as a stream and no record is kept. Bit i is the kind's
// i-th top-level numeric field in schema order; the fast path (recordBytes) and a parsed record
// (sentMaskOf) give the same mask.

import type { ResourceKind } from '../resources';
import { shapeFor } from './schemas';

/** Bits of a mask: a kind with more numeric fields leaves the rest out (none of the service's has more than 8). */
const MAX_FIELDS = 30;

const byKind = new Map<ResourceKind, readonly string[]>();

/** The kind's top-level numeric fields, in schema order: bit i of a mask is field i. */
export function numericFieldsOf(kind: ResourceKind): readonly string[] {
  let fields = byKind.get(kind);
  if (fields === undefined) {
    fields = Object.freeze([...shapeFor(kind).fields].filter(([, info]) => info.numeric).map(([name]) => name).slice(0, MAX_FIELDS));
    byKind.set(kind, fields);
  }
  return fields;
}

/** The mask of a parsed record of `kind`: its numeric fields that are a number other than 0. */
export function sentMaskOf(record: unknown, kind: ResourceKind): number {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return 0;
  const fields = numericFieldsOf(kind);
  let mask = 0;
  for (let i = 0; i < fields.length; i++) {
    const v = (record as Record<string, unknown>)[fields[i]];
    if (typeof v === 'number' && v !== 0) mask |= 1 << i;
  }
  return mask;
}
