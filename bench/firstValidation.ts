// The first validation after activation against a warm one: a document of 1,000 records (about
// 400 KB, below the size that goes to a worker) validated with positions, as the extension does,
// in a fresh node each time. The first call loads the generated validators (dist/validators.js)
// and runs every piece of code cold; nothing is compiled from a schema.

import { spawnSync } from 'node:child_process';
import { validatePayloadText } from '../src/core/validation';
import { records } from './datasets';
import { Result, median, round } from './harness';

export const FIRST_VALIDATION_FLAG = '--first-validation-child';
const RECORDS = 1_000;
const WARM_CALLS = 15;
const PROCESSES = 5;

/** In the child: prints {firstMs, warmMs} for one fresh process. */
export function firstValidationChild(): void {
  const corpus = records(RECORDS);
  const text = JSON.stringify(Object.values(corpus.lists).flat());
  let t = performance.now();
  const first = validatePayloadText(text);
  const firstMs = performance.now() - t;
  const warm: number[] = [];
  for (let i = 0; i < WARM_CALLS; i++) {
    t = performance.now();
    validatePayloadText(text);
    warm.push(performance.now() - t);
  }
  process.stdout.write(JSON.stringify({ firstMs, warmMs: median(warm), findings: first.findings.length, bytes: text.length }));
}

export function firstVsWarm(): Result {
  const runs: Array<{ firstMs: number; warmMs: number; findings: number; bytes: number }> = [];
  for (let i = 0; i < PROCESSES; i++) {
    const r = spawnSync(process.execPath, [__filename, FIRST_VALIDATION_FLAG], { encoding: 'utf8' });
    if (r.status !== 0) return { ratio: null, goal: 2, detail: { note: `child failed: ${r.stderr.slice(0, 300)}` } };
    runs.push(JSON.parse(r.stdout));
  }
  const ratios = runs.map((r) => r.firstMs / r.warmMs);
  return {
    ratio: median(ratios),
    goal: 2,
    detail: {
      records: RECORDS,
      bytes: runs[0].bytes,
      findings: runs[0].findings,
      firstMs: round(median(runs.map((r) => r.firstMs)), 2),
      warmMs: round(median(runs.map((r) => r.warmMs)), 2),
      ratios: ratios.map((x) => round(x)),
      processes: PROCESSES,
    },
  };
}
