// The messages between the extension host (or any caller) and a validation worker thread. Plain
// data only: postMessage copies it.

import type { JsonSyntaxError } from '../json';
import type { FindingKind, NdjsonLines, PayloadTextOptions, PlacedFinding } from '../validation';

/** Line and character (UTF-16) of a place in the text, 0-based, as an editor counts them. */
export type LineCharacter = readonly [line: number, character: number];

/** A finding with its range in lines, worked out where the text is, so the editor's thread need not. */
export interface RangedFinding extends PlacedFinding {
  readonly start: LineCharacter;
  readonly end: LineCharacter;
}

export type FindingCounts = Record<FindingKind, number>;

export const noFindings = (): FindingCounts => ({ error: 0, warning: 0, zero: 0, deprecated: 0, unknown: 0 });

/** Marks the worker thread's workerData, so the script does nothing when loaded otherwise. */
export const WORKER_ROLE = 'health-data-validation-worker';

export type ToWorker =
  | { readonly type: 'warm' }
  /** A piece of the text of run `id`, sent ahead of its `validate` (a large text, a bit at a time). */
  | { readonly type: 'slice'; readonly id: number; readonly text: string }
  | {
      readonly type: 'validate';
      readonly id: number;
      /** The text; null when it came in slices. */
      readonly text: string | null;
      readonly options: PayloadTextOptions;
      readonly batchRecords: number;
      /** Findings of one kind (as shown: shownAsKind) past this many are counted, not sent (nobody shows them). */
      readonly keepPerKind: number;
    };

/** Which thread did the work: the tests check it was not the caller's. */
export interface WorkerThread {
  readonly threadId: number;
  readonly isMainThread: boolean;
  /** The thread's own nice value where a thread has one (Linux): see WORKER_NICE. */
  readonly nice?: number;
}

/**
 * A validation worker's nice value on Linux, where each thread has its own: when the CPU is
 * contended, the editor's thread (nice 0) runs before it and the validation takes the rest, so a
 * long validation never makes the editor wait. Elsewhere the call would lower the whole process.
 */
export const WORKER_NICE = 10;

export interface ValidationTotals {
  readonly syntaxErrors: number;
  readonly records: number;
  readonly undetected: number;
  readonly counts: FindingCounts;
  /** Of the zeros, those that stand out among their source's other records (shown as warnings). */
  readonly standingOut: number;
  /** The text was read as NDJSON: its records (lines), and the lines that are no JSON. */
  readonly lines?: NdjsonLines;
}

export type FromWorker =
  | { readonly type: 'warm'; readonly thread: WorkerThread }
  | {
      readonly type: 'batch';
      readonly id: number;
      readonly syntaxErrors: readonly JsonSyntaxError[];
      readonly findings: readonly RangedFinding[];
      /** Findings so far, sent or not (see keepPerKind). */
      readonly found: number;
      readonly done: number;
      readonly total: number;
      /** In the first batch of a text read as NDJSON: its records (lines), and the lines that are no JSON. */
      readonly lines?: NdjsonLines;
    }
  | { readonly type: 'done'; readonly id: number; readonly totals: ValidationTotals; readonly thread: WorkerThread; readonly ms: number }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };
