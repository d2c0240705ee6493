#!/usr/bin/env node
// The end-to-end tests (out/test/e2e/*.e2e.js): plain mocha in Node driving the real VS Code web
// workbench (code-server) in Debian's Chromium, with the packaged production .vsix installed.
// Packages the extension once (production bundle, `vsce package --no-dependencies`) into
// .vscode-test/health-data-explorer.vsix and hands it to every test file as HDE_E2E_VSIX.
// Needs the tests compiled (npx tsc -p .); `npm test` runs this after the integration tests.
//   MOCHA_JSON_REPORT   where to write the run's counts (default test-results/e2e.json)
//   HDE_E2E_VSIX        test this .vsix instead of packaging one
//   --package-only      package the .vsix, print its path, exit
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCodeServer, packageVsix, repoRoot, resultsDir } from './code-server.mjs';

const say = (msg) => console.log(`e2e: ${msg}`);
const started = Date.now();
const vsixPath = join(repoRoot, '.vscode-test', 'health-data-explorer.vsix');

if (process.argv.includes('--package-only')) {
  try {
    console.log(packageVsix(vsixPath));
    process.exit(0);
  } catch (err) {
    console.error(`e2e: ${err.message}`);
    process.exit(1);
  }
}

const e2eDir = join(repoRoot, 'out', 'test', 'e2e');
const files = existsSync(e2eDir)
  ? readdirSync(e2eDir).filter((f) => f.endsWith('.e2e.js')).sort().map((f) => join(e2eDir, f))
  : [];
if (files.length === 0) {
  console.error(`e2e: no compiled tests in ${e2eDir}; compile first (npx tsc -p .) or run npm test`);
  process.exit(1);
}

let vsix = process.env.HDE_E2E_VSIX;
try {
  ensureCodeServer();
  if (!vsix) {
    say('packaging the extension (production build, vsce package)');
    vsix = packageVsix(vsixPath);
  }
} catch (err) {
  console.error(`e2e: ${err.message}`);
  process.exit(1);
}

mkdirSync(resultsDir, { recursive: true });
const report = process.env.MOCHA_JSON_REPORT || join(resultsDir, 'e2e.json');
rmSync(report, { force: true });
say(`running ${files.length} test files against ${vsix}`);
const r = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'mocha-run.cjs'), report, ...files], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, HDE_E2E_VSIX: vsix },
});
say(`finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(r.status ?? 1);
