// `health-data validate` on large NDJSON files, as a user runs it (node dist/cli.js, a fresh
// process each time), in its default text form and with --json: peak memory on 1 GB, one job's
// time against JSON.parse of the same records, and every core against one. Each figure is the
// worse of the two forms. The files are made in a temporary folder and deleted.

import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { RESOURCES } from '../src/core/resources';
import { records } from './datasets';
import { Result, median, round } from './harness';

const root = resolve(__dirname, '..');
const cli = join(root, 'dist', 'cli.js');
export const RSS_GOAL_MB = 300;
const BIG_MB = Number(process.env.HDE_BENCH_STREAM_MB ?? 1024);
const SPEED_MB = 100;

/** An NDJSON file of about `mb` MB: 10,000 records of the three kinds, repeated. */
function ndjson(dir: string, mb: number): string {
  const corpus = records(10_000);
  const block = Buffer.from(`${RESOURCES.flatMap(({ kind }) => corpus.lists[kind].map((r) => JSON.stringify(r))).join('\n')}\n`);
  const file = join(dir, `records-${mb}mb.ndjson`);
  const fd = openSync(file, 'w');
  try {
    for (let written = 0; written < mb * 1024 * 1024; written += block.length) writeSync(fd, block);
  } finally {
    closeSync(fd);
  }
  return file;
}

/** Runs the CLI on a file; its wall time and peak RSS (the workers are threads of the same process). */
function runCli(file: string, jobs: number, preload: string, form: Form): { ms: number; rssMb: number; code: number | null } {
  const started = performance.now();
  const r = spawnSync(process.execPath, ['-r', preload, cli, 'validate', file, ...(form === 'json' ? ['--json'] : ['--no-color']), '--jobs', String(jobs)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  const ms = performance.now() - started;
  const kb = Number(/maxrss=(\d+)/.exec(r.stderr ?? '')?.[1] ?? NaN);
  return { ms, rssMb: kb / 1024, code: r.status };
}

/** The report forms measured: the default grouped text, and --json (every finding of every record). */
type Form = 'text' | 'json';
const FORMS: readonly Form[] = ['text', 'json'];

let cache: Record<string, Result> | undefined;

function measure(): Record<string, Result> {
  if (cache) return cache;
  const dir = mkdtempSync(join(tmpdir(), 'hde-bench-stream-'));
  try {
    const preload = join(dir, 'rss.js');
    writeFileSync(preload, "process.on('exit', () => process.stderr.write(`maxrss=${process.resourceUsage().maxRSS}\\n`));");
    const cores = availableParallelism();
    // Speed: 100 MB, one job against JSON.parse of the same lines, then every core against one.
    const small = ndjson(dir, SPEED_MB);
    const lines = readFileSync(small, 'utf8').split('\n').filter((l) => l.length > 0);
    const parseMs = (): number => {
      const t = performance.now();
      for (let i = 0; i < lines.length; i++) JSON.parse(lines[i]);
      return performance.now() - t;
    };
    type Run = { one: number; parse: number; all: number };
    const pairs: Record<Form, Run[]> = { text: [], json: [] };
    for (let i = 0; i < 3; i++) {
      for (const form of FORMS) {
        const one = runCli(small, 1, preload, form).ms;
        const parse = parseMs();
        const all = runCli(small, cores, preload, form).ms;
        pairs[form].push({ one, parse, all });
      }
    }
    const bytes = statSync(small).size;
    // Memory: 1 GB with every core.
    const big = ndjson(dir, BIG_MB);
    const bigBytes = statSync(big).size;
    const runs = { text: runCli(big, cores, preload, 'text'), json: runCli(big, cores, preload, 'json') };
    const worse = (of: (form: Form) => number): Form => (of('text') >= of('json') ? 'text' : 'json');
    const memoryForm = worse((f) => runs[f].rssMb);
    const oneVsParse = (form: Form): number => median(pairs[form].map((p) => p.one / p.parse));
    const speedForm = worse(oneVsParse);
    const allVsOne = (form: Form): number => median(pairs[form].map((p) => p.all / p.one));
    const jobsForm = worse(allVsOne);
    const perForm = <T>(of: (form: Form) => T): Record<Form, T> => ({ text: of('text'), json: of('json') });
    cache = {
      stream_rss_mb: {
        ratio: runs[memoryForm].rssMb,
        goal: RSS_GOAL_MB,
        detail: {
          fileBytes: bigBytes,
          jobs: cores,
          worse: memoryForm,
          ...perForm((f) => ({ peakRssMb: round(runs[f].rssMb, 1), seconds: round(runs[f].ms / 1000, 1), mbPerSecond: round(bigBytes / 1048576 / (runs[f].ms / 1000), 1), exitCode: runs[f].code })),
        },
      },
      stream_vs_parse: {
        ratio: oneVsParse(speedForm),
        goal: 2,
        detail: {
          fileBytes: bytes,
          records: lines.length,
          worse: speedForm,
          ...perForm((f) => ({
            ratio: round(oneVsParse(f)),
            oneJobMs: round(median(pairs[f].map((p) => p.one))),
            parseMs: round(median(pairs[f].map((p) => p.parse))),
            ratios: pairs[f].map((p) => round(p.one / p.parse)),
          })),
          note: 'one job (the whole CLI: process start, reading, splitting, parsing, validating, the report: grouped text, or JSON with positions) / JSON.parse of the same lines in place; the worse of the two forms; <= 2 means at least half of JSON.parse\'s throughput per core',
        },
      },
      jobs_speedup: {
        ratio: allVsOne(jobsForm),
        goal: 1,
        detail: {
          jobs: cores,
          worse: jobsForm,
          ...perForm((f) => ({ allJobsMs: round(median(pairs[f].map((p) => p.all))), oneJobMs: round(median(pairs[f].map((p) => p.one))), speedup: round(median(pairs[f].map((p) => p.one / p.all))) })),
        },
      },
    };
    return cache;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const streamRss = (): Result => measure().stream_rss_mb;
export const streamVsParse = (): Result => measure().stream_vs_parse;
export const jobsSpeedup = (): Result => measure().jobs_speedup;
