// The shapes of the insights reports (coverage, trend charts), apart from the code that makes
// them: the webviews' protocol imports these types and nothing that runs.

import type { ResourceKind } from '../resources';

export type Verdict = 'provided' | 'never' | 'sometimes';

export interface FieldCoverage {
  field: string;
  nonZero: number;
  zero: number;
  null: number;
  absent: number;
  verdict: Verdict;
}

export interface SourceCoverage {
  /** null for records without a string `source`. */
  source: string | null;
  records: number;
  days: number;
  firstDate: string | null;
  lastDate: string | null;
  fields: FieldCoverage[];
}

export interface Overlap {
  date: string;
  humanId: string;
  sources: string[];
}

export type NoteKind = 'notRecords' | 'undated' | 'noTzOffset' | 'units' | 'unknownFields' | 'deprecatedFields' | 'unusualZeros';

export interface CoverageNote {
  kind: NoteKind;
  /** The source the note is about; null when it is about records without one, or about none. */
  source: string | null;
  /** Records (or items) the note counts. */
  count: number;
  /** Units, or field names, with how many records carry each: `percent ×12`. */
  items: Array<{ name: string; count: number }>;
  message: string;
  /**
   * unusualZeros: the days of the records with such a 0, ascending (at most UNUSUAL_ZERO_DAYS of
   * each field are kept: more than that and `count` is a lower bound).
   */
  dates?: string[];
}

/** The `--json` shape of `health-data coverage`. */
export interface CoverageReport {
  resource: string;
  from: string | null;
  to: string | null;
  records: number;
  sources: SourceCoverage[];
  overlaps: Overlap[];
  notes: CoverageNote[];
}

/** What a cell counts a value as. */
export type ValueClass = 'nonZero' | 'zero' | 'null' | 'absent';

export interface TrendSeries {
  source: string;
  field: string;
  /** Part of a min–max band (drawn thin, the band shaded between). */
  band: boolean;
  /** Aligned with the chart's `xs`; null where the source has no value. */
  values: Array<number | null>;
  /** Index of the record behind each value in the records given, -1 where none. */
  refs: number[];
  /** x indices where the source sent a defaulted 0 (a zero-default field, or any 0 of a field it never provides): marked gaps. */
  gaps: number[];
  /** The source sends no non-zero value of this field in these records (coverage's "never"). */
  never: boolean;
  /**
   * Its gaps (of a zero-default field) are zeros that stand out: the source sends the field as
   * another number on 19 in 20 of its other records here or more (isUnusualZero, as the Problems
   * panel judges a 0), so a gap is a day without the value (a device not worn), not a field the
   * source lacks.
   */
  unusual: boolean;
}

export interface TrendChart {
  id: string;
  kind: ResourceKind;
  title: string;
  unit: string;
  /** `day`: xs are UTC midnights of dates; `instant`: local wall time written as UTC. */
  time: 'day' | 'instant';
  /** Seconds since 1970, ascending, distinct. */
  xs: number[];
  series: TrendSeries[];
  /** Pairs of indices into `series`: [lower, upper]. */
  bands: Array<[number, number]>;
}
