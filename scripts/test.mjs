// `npm test`: builds, type-checks, runs the unit tests (plain mocha on core, sandbox, CLI), the
// integration tests inside a real VS Code extension host, then the end-to-end tests (the
// packaged .vsix in code-server, driven in Chromium), and closes with one line
// `tests: N passed, N failed`. Exits non-zero when anything fails.
//   --unit   unit tests only
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
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

const resultsDir = join(root, 'test-results');
mkdirSync(resultsDir, { recursive: true });

let failedRuns = 0;
const unitFiles = findTests(join(root, 'out/test/unit'));
if (unitFiles.length === 0) {
  console.error('no unit tests found');
  process.exit(1);
}
console.log('\n> unit tests (mocha)');
const unitReport = join(resultsDir, 'unit.json');
rmSync(unitReport, { force: true });
const unitCode = run('node', ['scripts/mocha-run.cjs', unitReport, ...unitFiles]);
if (!addReport(unitReport)) {
  // The spec reporter ran but the JSON report is missing: count the run as one failure.
  if (unitCode !== 0) totals.failed += 1;
}
if (unitCode !== 0) failedRuns++;

if (!unitOnly && existsSync(join(root, 'scripts/integration.mjs'))) {
  console.log('\n> integration tests (real VS Code extension host)');
  const integrationReport = join(resultsDir, 'integration.json');
  rmSync(integrationReport, { force: true });
  const code = run('node', ['scripts/integration.mjs'], { env: { ...process.env, MOCHA_JSON_REPORT: integrationReport } });
  if (!addReport(integrationReport) && code !== 0) totals.failed += 1;
  if (code !== 0) failedRuns++;
}

if (!unitOnly && existsSync(join(root, 'scripts/e2e.mjs'))) {
  console.log('\n> end-to-end tests (packaged .vsix in code-server, Chromium)');
  const e2eReport = join(resultsDir, 'e2e.json');
  rmSync(e2eReport, { force: true });
  const code = run('node', ['scripts/e2e.mjs'], { env: { ...process.env, MOCHA_JSON_REPORT: e2eReport } });
  if (!addReport(e2eReport) && code !== 0) totals.failed += 1;
  if (code !== 0) failedRuns++;
}

const skipped = totals.pending ? `, ${totals.pending} skipped` : '';
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(failedRuns > 0 || totals.failed > 0 ? 1 : 0);
