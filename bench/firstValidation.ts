// The first validation after activation against a warm one: a document of 1,000 records (about
// 400 KB, below the size that goes to a worker) validated with positions, as the extension does,
// in a fresh node each time. The extension warms the validators at idle right after activation
// (DocumentValidator.warmUp → warmUpValidationInSteps: loads dist/validators.js and validates
// made-up records in 20 steps, the event loop free between them); the child awaits that same
// warm-up, then measures the first validation, as a person meets it. The cold figure (no warm-up:
// a validation that comes before the warm-up has run) is reported beside it, and so are the
// warm-up's own cost on the thread (CPU time of its steps, its longest step).

import { spawnSync } from 'node:child_process';
import { validatePayloadText } from '../src/core/validation';
import { WarmUpCost, warmUpValidationInSteps } from '../src/core/validationWorker';
import { records } from './datasets';
import { Result, median, round } from './harness';

export const FIRST_VALIDATION_FLAG = '--first-validation-child';
const COLD_FLAG = '--cold';
const RECORDS = 1_000;
const WARM_CALLS = 15;
const PROCESSES = 5;

interface ChildRun {
  firstMs: number;
  warmMs: number;
  warmUpMs: number;
  warmUpCpuMs: number;
  warmUpLongestStepMs: number;
  findings: number;
  bytes: number;
}

/** In the child: prints a ChildRun for one fresh process. */
export async function firstValidationChild(): Promise<void> {
  const corpus = records(RECORDS);
  const text = JSON.stringify(Object.values(corpus.lists).flat());
  let t = performance.now();
  let cost: WarmUpCost | undefined;
  if (!process.argv.includes(COLD_FLAG)) cost = await warmUpValidationInSteps();
  const warmUpMs = performance.now() - t;
  t = performance.now();
  const first = validatePayloadText(text);
  const firstMs = performance.now() - t;
  const warm: number[] = [];
  for (let i = 0; i < WARM_CALLS; i++) {
    t = performance.now();
    validatePayloadText(text);
    warm.push(performance.now() - t);
  }
  process.stdout.write(JSON.stringify({ firstMs, warmMs: median(warm), warmUpMs, warmUpCpuMs: cost?.totalMs ?? 0, warmUpLongestStepMs: cost?.longestStepMs ?? 0, findings: first.findings.length, bytes: text.length } satisfies ChildRun));
}

function runChildren(cold: boolean): ChildRun[] | string {
  const runs: ChildRun[] = [];
  for (let i = 0; i < PROCESSES; i++) {
    const r = spawnSync(process.execPath, [__filename, FIRST_VALIDATION_FLAG, ...(cold ? [COLD_FLAG] : [])], { encoding: 'utf8' });
    if (r.status !== 0) return `child failed: ${r.stderr.slice(0, 300)}`;
    runs.push(JSON.parse(r.stdout) as ChildRun);
  }
  return runs;
}

export function firstVsWarm(): Result {
  // Interleaved would be fairer to load changes; one after the other keeps each set comparable.
  const warmed = runChildren(false);
  const cold = runChildren(true);
  if (typeof warmed === 'string' || typeof cold === 'string') return { ratio: null, goal: 2, detail: { note: String(typeof warmed === 'string' ? warmed : cold) } };
  const ratios = warmed.map((r) => r.firstMs / r.warmMs);
  const coldRatios = cold.map((r) => r.firstMs / r.warmMs);
  return {
    ratio: median(ratios),
    goal: 2,
    detail: {
      records: RECORDS,
      bytes: warmed[0].bytes,
      findings: warmed[0].findings,
      firstMs: round(median(warmed.map((r) => r.firstMs)), 2),
      warmMs: round(median(warmed.map((r) => r.warmMs)), 2),
      warmUpMs: round(median(warmed.map((r) => r.warmUpMs)), 2),
      warmUpStepsMs: round(median(warmed.map((r) => r.warmUpCpuMs)), 2),
      warmUpLongestStepMs: round(median(warmed.map((r) => r.warmUpLongestStepMs)), 2),
      ratios: ratios.map((x) => round(x)),
      coldFirstMs: round(median(cold.map((r) => r.firstMs)), 2),
      coldRatio: round(median(coldRatios)),
      processes: PROCESSES,
    },
  };
}
