// `npm test`: builds, type-checks, runs the unit tests (plain mocha on core, sandbox, CLI), the
// integration tests inside a real VS Code extension host, then the end-to-end tests (the
// packaged .vsix in code-server, driven in Chromium), and closes with one line
// `tests: N passed, N failed`. Exits non-zero when anything fails.
//   --unit   unit tests only
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { privateTmpdir } from './code-server.mjs';

const root = new URL('..', import.meta.url).pathname;
// Every phase and every test writes its temporary files under one private folder (TMPDIR), which
// goes when this run ends, whatever the tests left in it and whatever their names.
const tmp = privateTmpdir('hde-test-');
process.env.TMPDIR = tmp;
const unitOnly = process.argv.includes('--unit');
const totals = { passed: 0, failed: 0, pending: 0 };

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  return r.status ?? 1;
}

function step(name, cmd, args) {
  console.log(`\n> ${name}`);
  const code = run(cmd, args);
  if (code !== 0) {
    console.error(`${name} failed (exit ${code})`);
    console.log(`\ntests: ${totals.passed} passed, ${totals.failed + 1} failed`);
    process.exit(1);
  }
}

function findTests(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

function addReport(file) {
  if (!existsSync(file)) return false;
  const stats = JSON.parse(readFileSync(file, 'utf8')).stats;
  totals.passed += stats.passes;
  totals.failed += stats.failures;
  totals.pending += stats.pending;
  return true;
}

rmSync(join(root, 'out'), { recursive: true, force: true });
step('build (esbuild)', 'node', ['esbuild.mjs']);
step('type-check and compile tests (tsc)', 'npx', ['tsc', '-p', '.']);
step('type-check the webview script (tsc, DOM types)', 'npx', ['tsc', '-p', 'src/webview']);

const resultsDir = join(root, 'test-results');
mkdirSync(resultsDir, { recursive: true });

let failedRuns = 0;

/** Runs one phase, which writes its mocha counts to the JSON report it is given, and adds them up. */
function phase(title, name, args) {
  console.log(`\n> ${title}`);
  const report = join(resultsDir, `${name}.json`);
  rmSync(report, { force: true });
  const code = run('node', args(report), { env: { ...process.env, MOCHA_JSON_REPORT: report } });
  // A phase that failed without writing its report (it crashed before mocha ran) counts as one failure.
  if (!addReport(report) && code !== 0) totals.failed += 1;
  if (code !== 0) failedRuns++;
}

const unitFiles = findTests(join(root, 'out/test/unit'));
if (unitFiles.length === 0) {
  console.error('no unit tests found');
  process.exit(1);
}
phase('unit tests (mocha)', 'unit', (report) => ['scripts/mocha-run.cjs', report, ...unitFiles]);
if (!unitOnly) {
  phase('integration tests (real VS Code extension host)', 'integration', () => ['scripts/integration.mjs']);
  phase('end-to-end tests (packaged .vsix in code-server, Chromium)', 'e2e', () => ['scripts/e2e.mjs']);
}

const skipped = totals.pending ? `, ${totals.pending} skipped` : '';
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(failedRuns > 0 || totals.failed > 0 ? 1 : 0);
