// The measuring part of the benchmarks: two workloads run side by side, interleaved, after a
// warm-up, and compared by the median of their per-pair ratios, so noise from other processes
// on the machine hits both sides of a pair alike and an outlier pair moves nothing.

import * as os from 'node:os';

export interface Result {
  /** What is measured divided by its baseline; null when it could not be measured. */
  ratio: number | null;
  /** The ratio must be at most this. */
  goal: number;
  detail: Record<string, unknown>;
}

export interface Pair {
  /** Median of the per-pair ratios a/b. */
  ratio: number;
  /** Median time of one call of each side, ms. */
  aMs: number;
  bMs: number;
  /** Every pair's ratio, in run order, for the curious. */
  ratios: number[];
  runs: number;
}

export interface PairOptions {
  /** Timed pairs after the warm-up; at least 5. */
  runs?: number;
  /** Untimed pairs first, so both sides are compiled and their caches warm. */
  warmup?: number;
  /** Calls of each side per pair, A and B taking turns, so a burst of load hits both. */
  turns?: number;
  /**
   * A full collection before each call (default), so neither side pays for the other's garbage.
   * Off, both run on the heap as the previous call left it, as an application's would be.
   */
  collect?: boolean;
}

const gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc;

/** A full collection, when node runs with --expose-gc: garbage of one side is not paid by the other. */
export function collect(): void {
  gc?.();
}

export const canCollect = (): boolean => gc !== undefined;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function timed(fn: () => unknown, full: boolean): Promise<number> {
  if (full) collect();
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/**
 * Runs `a` and `b` in pairs. Within a pair they take turns `turns` times, alternating which goes
 * first (ABBA…), so neither side always follows the other's garbage or warms the other's caches,
 * and load from other processes lands on both; the pair's ratio is A's total over B's.
 */
export async function sideBySide(a: () => unknown, b: () => unknown, options: PairOptions = {}): Promise<Pair> {
  const runs = Math.max(5, options.runs ?? 7);
  const warmup = options.warmup ?? 2;
  const turns = Math.max(1, options.turns ?? 3);
  const full = options.collect ?? true;
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  let order = 0;
  for (let i = 0; i < warmup + runs; i++) {
    let ta = 0;
    let tb = 0;
    for (let t = 0; t < turns; t++) {
      if (order++ % 2 === 0) {
        ta += await timed(a, full);
        tb += await timed(b, full);
      } else {
        tb += await timed(b, full);
        ta += await timed(a, full);
      }
    }
    if (i < warmup) continue;
    as.push(ta / turns);
    bs.push(tb / turns);
    ratios.push(ta / tb);
  }
  return { ratio: median(ratios), aMs: median(as), bMs: median(bs), ratios, runs };
}

/** Rounds for printing and for the JSON: 3 significant decimals are plenty for noisy timings. */
export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function pairDetail(pair: Pair, aName: string, bName: string): Record<string, unknown> {
  return {
    [`${aName}Ms`]: round(pair.aMs, 2),
    [`${bName}Ms`]: round(pair.bMs, 2),
    runs: pair.runs,
    ratios: pair.ratios.map((r) => round(r)),
  };
}

/** The machine the figures came from: they mean little without it. */
export function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    v8: process.versions.v8,
    loadAverage: os.loadavg().map((l) => round(l, 2)),
    exposeGc: canCollect(),
    date: new Date().toISOString(),
  };
}
