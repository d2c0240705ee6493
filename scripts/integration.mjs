#!/usr/bin/env node
// Runs the integration tests (out/test/integration/index.js) inside a real VS Code extension
// host with @vscode/test-electron's runTests(). Builds nothing: `npm test` has already bundled
// dist/ and compiled out/. Exits with the test result.
//
// Which VS Code:
//   default                   code-server in Chromium through scripts/vscode-launcher.mjs
//                             (installs code-server first when missing; works offline)
//   VSCODE_EXECUTABLE=<path>  a VS Code you have (e.g. /usr/share/code/code)
//   HDE_TEST_VSCODE=download  let runTests download VS Code (a desktop with internet);
//                             HDE_TEST_VSCODE_VERSION picks the version (default: stable)
// MOCHA_JSON_REPORT (set by scripts/test.mjs) passes through our environment to the extension
// host, where test/integration/index.ts writes the counts.
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ensureCodeServer, makeOwnedTempDir, repoRoot } from './code-server.mjs';

const require = createRequire(import.meta.url);
const { runTests } = require('@vscode/test-electron');

const extensionTestsPath = join(repoRoot, 'out', 'test', 'integration', 'index.js');
if (!existsSync(extensionTestsPath)) {
  console.error(`integration: ${extensionTestsPath} is missing; compile first (npx tsc -p .) or run npm test`);
  process.exit(1);
}
if (!existsSync(join(repoRoot, 'dist', 'extension.js'))) {
  console.error('integration: dist/extension.js is missing; build first (node esbuild.mjs) or run npm test');
  process.exit(1);
}

const mode = process.env.HDE_TEST_VSCODE ?? '';
let vscodeExecutablePath;
if (process.env.VSCODE_EXECUTABLE) {
  vscodeExecutablePath = process.env.VSCODE_EXECUTABLE;
  if (!existsSync(vscodeExecutablePath)) {
    console.error(`integration: VSCODE_EXECUTABLE=${vscodeExecutablePath} does not exist`);
    process.exit(1);
  }
} else if (mode === 'download') {
  vscodeExecutablePath = undefined; // runTests downloads into .vscode-test/
} else if (mode === '' || mode === 'code-server') {
  try {
    ensureCodeServer();
  } catch (err) {
    console.error(`integration: ${err.message}`);
    process.exit(1);
  }
  vscodeExecutablePath = join(repoRoot, 'scripts', 'vscode-launcher.mjs');
  // runTests spawns the file directly, so it must be executable (a checkout or an archive can
  // drop the mode bit).
  if ((statSync(vscodeExecutablePath).mode & 0o111) === 0) chmodSync(vscodeExecutablePath, 0o755);
} else {
  console.error(`integration: unknown HDE_TEST_VSCODE=${mode} (use code-server or download, or set VSCODE_EXECUTABLE)`);
  process.exit(1);
}

// A fresh profile each run: no settings, state or extensions carried over between runs.
const profile = makeOwnedTempDir('hde-integration-');
const userDataDir = join(profile, 'user-data');
const extensionsDir = join(profile, 'extensions');
const fixtureWorkspace = join(repoRoot, 'test', 'fixtures', 'workspace');
const workspace = existsSync(fixtureWorkspace) ? fixtureWorkspace : mkdtempSync(join(profile, 'workspace-'));
const cleanup = () => rmSync(profile, { recursive: true, force: true });
process.on('exit', cleanup);
// runTests() handles Ctrl-C (SIGINT) by sending SIGINT to the launcher, which then stops
// code-server and Chromium and exits. Treat SIGTERM/SIGHUP (CI cancelling a job) the same way,
// so the profile folder is removed only after nothing writes into it any more. Should the
// launcher not be up yet, or not exit in time, leave anyway: it notices its parent is gone.
for (const [signal, code] of [['SIGTERM', 143], ['SIGHUP', 129]]) {
  process.on(signal, () => {
    console.error(`integration: ${signal}: stopping the test run`);
    if (process.listenerCount('SIGINT') === 0) process.exit(code);
    process.emit('SIGINT', 'SIGINT');
    setTimeout(() => process.exit(code), 15_000).unref();
  });
}

const started = Date.now();
let code;
try {
  code = await runTests({
    vscodeExecutablePath,
    version: mode === 'download' ? process.env.HDE_TEST_VSCODE_VERSION || 'stable' : undefined,
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath,
    launchArgs: [workspace, '--disable-extensions', `--user-data-dir=${userDataDir}`, `--extensions-dir=${extensionsDir}`],
  });
} catch (err) {
  // TestRunFailedError carries the launcher's exit code; anything else (a failed download,
  // a launcher that could not start) counts as 1.
  code = typeof err?.code === 'number' && err.code !== 0 ? err.code : 1;
  console.error(`integration: ${err?.message ?? err}`);
}
console.log(`integration: finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(code);
