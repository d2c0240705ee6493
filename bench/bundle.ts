// Goal 6: what the extension costs to ship and to start. The production dist/extension.js
// against a budget of 250 KB, each bundle it requires on first use (scripts/lazyBundles.mjs) and
// each webview's bundle beside it, the .vsix, and activation (activate() entry to return) as
// measured in the real extension host by test/integration/activationTime.test.ts.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Result, round } from './harness';

export const BUNDLE_BUDGET_BYTES = 250_000;
export const ACTIVATION_BUDGET_MS = 50;

/** dist/bench.js lives in dist/ under the repository root. */
const root = resolve(__dirname, '..');
const dist = join(root, 'dist');

/** A development build ends with a source map comment; the production build has none. */
function isProduction(file: string): boolean {
  return !/\/\/# sourceMappingURL=\S+\s*$/.test(readFileSync(file, 'utf8').slice(-200));
}

function productionBuild(): string | undefined {
  const extension = join(dist, 'extension.js');
  if (existsSync(extension) && isProduction(extension)) return undefined;
  const r = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? 'built with node esbuild.mjs --production' : `production build failed: ${r.stderr || r.stdout}`;
}

function packageVsix(): { bytes?: number; files?: number; note?: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hde-bench-'));
  try {
    const out = join(dir, 'extension.vsix');
    const vsce = join(root, 'node_modules', '.bin', 'vsce');
    // The same command as `npm run package`: the README's screenshot ships inside the package.
    const args = ['package', '--no-dependencies', '--no-rewrite-relative-links', '-o', out];
    const r = spawnSync(vsce, args, { cwd: root, encoding: 'utf8', timeout: 120_000 });
    if (r.status !== 0 || !existsSync(out)) return { note: `vsce package failed: ${(r.stderr || r.stdout || String(r.error)).trim().slice(0, 300)}` };
    const files = /\((\d+) files?,/.exec(r.stdout)?.[1];
    return { bytes: statSync(out).size, files: files === undefined ? undefined : Number(files) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function bundleSize(): Result {
  const built = productionBuild();
  const extension = join(dist, 'extension.js');
  if (!existsSync(extension)) return { ratio: null, goal: 1, detail: { note: built ?? 'dist/extension.js is missing' } };
  const bytes = statSync(extension).size;
  const size = (f: string) => statSync(join(dist, f)).size;
  // The webviews' scripts (and the trends chart's CSS): what each panel loads, never the host.
  const webviews = ['webview.js', 'exchangeView.js', 'coverage.js', 'trends.js', 'trends.css'].filter((f) => existsSync(join(dist, f)));
  // Every other script in dist/ but the CLI and the benchmarks is a bundle the extension requires on first use.
  const lazy = readdirSync(dist)
    .filter((f) => f.endsWith('.js') && !['extension.js', 'bench.js', 'cli.js', ...webviews].includes(f))
    .sort();
  const vsix = packageVsix();
  return {
    ratio: bytes / BUNDLE_BUDGET_BYTES,
    goal: 1,
    detail: {
      extensionJsBytes: bytes,
      budgetBytes: BUNDLE_BUDGET_BYTES,
      lazyBundleBytes: Object.fromEntries(lazy.map((f) => [f, size(f)])),
      lazyBundlesTotalBytes: lazy.reduce((n, f) => n + size(f), 0),
      webviewBytes: Object.fromEntries(webviews.map((f) => [f, size(f)])),
      vsixBytes: vsix.bytes ?? null,
      vsixFiles: vsix.files ?? null,
      ...(vsix.note ? { vsixNote: vsix.note } : {}),
      ...(built ? { build: built } : {}),
    },
  };
}

interface ActivationRecord {
  activationMs: number;
  measuredAt?: string;
  vscodeVersion?: string;
  production?: boolean;
}

export function activationTime(): Result {
  const file = join(root, 'test-results', 'activation.json');
  if (!existsSync(file)) {
    return { ratio: null, goal: 1, detail: { note: 'not measured: run the integration tests (npm test) first; they write test-results/activation.json' } };
  }
  const measured = JSON.parse(readFileSync(file, 'utf8')) as ActivationRecord;
  return {
    ratio: measured.activationMs / ACTIVATION_BUDGET_MS,
    goal: 1,
    detail: { ...measured, activationMs: round(measured.activationMs, 2), budgetMs: ACTIVATION_BUDGET_MS, file: 'test-results/activation.json' },
  };
}

/** The goal for the longest event-loop stall of the extension host while a large payload is validated live. */
const HOST_STALL_GOAL_MS = 50;

interface HostStallRecord {
  hostStallMs: number;
  p99Ms: number;
  validationMs: number;
  bytes: number;
  records: number;
}

/**
 * The longest event-loop stall of the real extension host (perf_hooks.monitorEventLoopDelay)
 * while a ~46 MB payload of 120,000 records is validated live, as measured by
 * test/integration/offThreadValidation.test.ts in test-results/host-stall.json.
 */
export function hostStall(): Result {
  const file = join(root, 'test-results', 'host-stall.json');
  if (!existsSync(file)) {
    return { ratio: null, goal: 1, detail: { note: 'not measured: run the integration tests (npm test) first; they write test-results/host-stall.json' } };
  }
  const measured = JSON.parse(readFileSync(file, 'utf8')) as HostStallRecord;
  return {
    ratio: measured.hostStallMs / HOST_STALL_GOAL_MS,
    goal: 1,
    detail: {
      ...measured,
      hostStallMs: round(measured.hostStallMs, 1),
      p99Ms: round(measured.p99Ms, 1),
      validationMs: round(measured.validationMs, 0),
      goalMs: HOST_STALL_GOAL_MS,
      file: 'test-results/host-stall.json',
    },
  };
}
