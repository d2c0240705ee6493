// Counting a record's schema fields for coverage: the generated classifier of its resource (a
// named read per field, classifiers.generated.ts) for plain objects; by hasOwnProperty for others.
// The generated trend readers' type is here too, beside the classifiers'.

/**
 * Adds each schema field's value to `counts` (3 per field: non-zero, zero, null; absent is what
 * is left) and a deprecated field's presence to `deprecated`; returns how many schema fields the
 * record has.
 */
export type CoverageClassifier = (record: Record<string, unknown>, counts: Int32Array, deprecated: Int32Array) => number;

/**
 * Writes the fields a resource's trend charts draw (`trendFields` order) of one record into
 * `values`, field i at `at + i * stride`: the number, or NaN for anything else.
 */
export type TrendReader = (record: Record<string, unknown>, values: Float64Array, at: number, stride: number) => void;

const hasOwn = Object.prototype.hasOwnProperty;

/** What a generated classifier counts, without trusting a named read: for records with another prototype. */
export function classifyByName(record: Record<string, unknown>, fields: readonly string[], isDeprecated: readonly boolean[], counts: Int32Array, deprecated: Int32Array): number {
  let present = 0;
  for (let i = 0; i < fields.length; i++) {
    if (!hasOwn.call(record, fields[i])) continue;
    const v = record[fields[i]];
    counts[i * 3 + (v === null ? 2 : v === 0 ? 1 : 0)]++;
    present++;
    if (isDeprecated[i]) deprecated[i]++;
  }
  return present;
}
