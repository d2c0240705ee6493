// `npm run bench`: every benchmark as a ratio against its baseline, measured side by side in
// this run; a table, or with --json one object {machine, results}. `--only a,b` picks some.
// Never part of `npm test`: the figures are for people, the tests check behaviour.

import { activationTime, bundleSize, hostStall } from './bundle';
import { datasetVsParse } from './dataset';
import { Result, machine, round } from './harness';
import { FIRST_VALIDATION_FLAG, firstValidationChild, firstVsWarm } from './firstValidation';
import { heapVsJson } from './heap';
import { EXPORT_SERVE_FLAG, exportHeap, serveExportSandbox } from './export';
import { coverageVsParse, trendsVsParse } from './insights';
import { SERVE_FLAG, listVsRaw, serveSandbox } from './list';
import { renderVsParse } from './render';
import { RSS_GOAL_MB, jobsSpeedup, streamRss, streamVsParse } from './stream';
import { treeVsParse } from './tree';
import { validateVsParse } from './validate';

const BENCHMARKS: Record<string, () => Result | Promise<Result>> = {
  validate_vs_parse: validateVsParse,
  first_vs_warm: firstVsWarm,
  list_vs_raw: listVsRaw,
  stream_vs_parse: streamVsParse,
  jobs_speedup: jobsSpeedup,
  stream_rss_mb: streamRss,
  tree_vs_parse: treeVsParse,
  dataset_vs_parse: datasetVsParse,
  render_vs_parse: renderVsParse,
  heap_vs_json: heapVsJson,
  export_heap: exportHeap,
  coverage_vs_parse: coverageVsParse,
  trends_vs_parse: trendsVsParse,
  bundle: bundleSize,
  activation: activationTime,
  host_stall_ms: hostStall,
};

/** One line of the table: what the ratio compares, so the table reads without BENCHMARKS.md. */
function summary(name: string, r: Result): string {
  const d = r.detail;
  if (r.ratio === null) return String(d.note ?? 'not measured');
  switch (name) {
    case 'validate_vs_parse':
      return `validate ${d.validateMs} ms / JSON.parse ${d.parseMs} ms, ${d.records} records; from the text with every finding placed ${d.withPlacesMs} ms (${d.withPlacesRatio}); each 0 said from the list's other records ${d.zerosSaidMs} ms (${d.zerosVsPlacedRatio} of placing)`;
    case 'first_vs_warm':
      return `first validation after the idle warm-up (${d.warmUpMs} ms, its steps ${d.warmUpStepsMs} ms, the longest ${d.warmUpLongestStepMs} ms) ${d.firstMs} ms / warm ${d.warmMs} ms, ${d.records} records with positions, fresh process; cold (no warm-up) ${d.coldFirstMs} ms, ratio ${d.coldRatio}`;
    case 'stream_vs_parse': {
      const f = (form: string) => d[form] as Record<string, unknown>;
      return `validate --jobs 1: text ${f('text').oneJobMs} ms (${f('text').ratio}), --json ${f('json').oneJobMs} ms (${f('json').ratio}) / JSON.parse ${f(String(d.worse)).parseMs} ms, ${d.records} NDJSON records; the worse: ${d.worse}`;
    }
    case 'jobs_speedup': {
      const f = (form: string) => d[form] as Record<string, unknown>;
      return `--jobs ${d.jobs} / --jobs 1: text ${f('text').allJobsMs} / ${f('text').oneJobMs} ms (speed-up ${f('text').speedup}), --json ${f('json').allJobsMs} / ${f('json').oneJobMs} ms (speed-up ${f('json').speedup})`;
    }
    case 'stream_rss_mb': {
      const f = (form: string) => d[form] as Record<string, unknown>;
      return `peak RSS validating ${d.fileBytes} B of NDJSON: text ${f('text').peakRssMb} MB in ${f('text').seconds} s, --json ${f('json').peakRssMb} MB in ${f('json').seconds} s (goal ${RSS_GOAL_MB} MB)`;
    }
    case 'list_vs_raw':
      return `client ${d.clientMs} ms / bare GETs ${d.rawMs} ms, ${d.records} records in ${d.pages} pages`;
    case 'tree_vs_parse':
      return `tree ${d.treeMs} ms / JSON.parse ${d.parseMs} ms, ${d.records} records; tooltips on hover, ${d.microsecondsPerTooltip} µs each`;
    case 'render_vs_parse':
      return `model + first window ${d.modelMs} ms / JSON.parse ${d.parseMs} ms, ${d.recordBytes} bytes (1 MB: ${d.oneMBRecordRatio}; 100,000-record list: ${d.list100kRatio})`;
    case 'export_heap':
      return `peak heap growth ${d.peakGrowthMiB} MiB / ${d.budgetMiB} MiB, ${d.records} records streamed (held whole: ${d.wholeListHeldMiB} MiB)`;
    case 'dataset_vs_parse':
      return `ten years for one human generated ${d.generateMs} ms / JSON.parse of them ${d.parseMs} ms, ${d.records} records`;
    case 'heap_vs_json':
      return `tree ${d.treeModelMiB} MiB / parsed JSON ${d.parsedJsonMiB} MiB`;
    case 'coverage_vs_parse':
      return `coverage ${d.coverageMs} ms / JSON.parse ${d.parseMs} ms, ${d.records} records`;
    case 'trends_vs_parse':
      return `series ${d.seriesMs} ms / JSON.parse ${d.parseMs} ms, ${d.records} records of ${d.sources} sources over ${d.days} days; message ${d.messageMs} ms; split by human once per load ${d.splitMs} ms`;
    case 'bundle':
      return `extension.js ${d.extensionJsBytes} B / ${d.budgetBytes} B; loaded on first use ${sizes(d.lazyBundleBytes)} (${d.lazyBundlesTotalBytes} B); webviews ${sizes(d.webviewBytes)}; .vsix ${d.vsixBytes ?? '?'} B`;
    case 'activation':
      return `${d.activationMs} ms / ${d.budgetMs} ms`;
    case 'host_stall_ms':
      return `longest extension host stall ${d.hostStallMs} ms / ${d.goalMs} ms while ${d.records} records (${d.bytes} B) were validated live in ${d.validationMs} ms (p99 ${d.p99Ms} ms)`;
    default:
      return '';
  }
}

/** `name.js 123 B, …` of a detail's file sizes. */
function sizes(bytes: unknown): string {
  if (!bytes || typeof bytes !== 'object') return '?';
  return Object.entries(bytes as Record<string, number>).map(([file, n]) => `${file} ${n} B`).join(', ');
}

function table(results: Record<string, Result>): string {
  const rows = Object.entries(results).map(([name, r]) => [
    name,
    r.ratio === null ? '—' : round(r.ratio, 3).toFixed(3),
    `≤ ${r.goal}`,
    r.ratio === null ? 'n/a' : r.ratio <= r.goal ? 'yes' : 'NO',
    summary(name, r),
  ]);
  const head = ['benchmark', 'ratio', 'goal', 'holds', 'detail'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? new Set(args[onlyAt + 1]?.split(',')) : undefined;
  const unknown = only ? [...only].filter((n) => !(n in BENCHMARKS)) : [];
  if (unknown.length) throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`);
  const results: Record<string, Result> = {};
  const info = machine();
  for (const [name, run] of Object.entries(BENCHMARKS)) {
    if (only && !only.has(name)) continue;
    if (!json) process.stderr.write(`${name}…\n`);
    const r = await run();
    results[name] = { ...r, ratio: r.ratio === null ? null : round(r.ratio, 3) };
  }
  if (json) process.stdout.write(`${JSON.stringify({ machine: info, results })}\n`);
  else {
    const m = info;
    console.log(`${m.cpu} × ${m.cores}, ${m.memoryGiB} GiB, ${m.platform}, node ${m.node}, load ${(m.loadAverage as number[]).join(' ')}`);
    console.log(table(results));
  }
}

if (process.argv.includes(SERVE_FLAG)) {
  void serveSandbox();
} else if (process.argv.includes(FIRST_VALIDATION_FLAG)) {
  void firstValidationChild();
} else if (process.argv.includes(EXPORT_SERVE_FLAG)) {
  void serveExportSandbox();
} else {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  });
}
