#!/usr/bin/env node
// A stand-in for the VS Code executable that @vscode/test-electron's runTests() spawns, for
// machines where VS Code cannot be downloaded. It takes the same arguments
// (--extensionDevelopmentPath=… --extensionTestsPath=… --user-data-dir=… --extensions-dir=…
// <folder>, plus Electron flags it ignores), runs the tests in a real VS Code extension host
// served by code-server, with the workbench open in Debian's Chromium, relays the extension
// host's console to stdout and exits with the tests' result (0 = run() resolved).
//
// Environment:
//   HDE_TEST_TIMEOUT_MS        whole run, default 1800000 (30 min); exceeded = exit 124
//   HDE_TEST_START_TIMEOUT_MS  until the extension host says anything, default 180000; 0 = off
//   HDE_VERBOSE=1              also print code-server's and the workbench's own output
//   HDE_HEADLESS=0             show the browser window (needs a display)
// Everything else in our environment reaches code-server and so the extension host's
// process.env: that is how a test run hands the extension e.g. a sandbox's address.
import { mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { format, inspect } from 'node:util';
import {
  isCodeServerInstalled,
  launchChromium,
  openWorkbenchPage,
  resultsDir,
  screenshot,
  startCodeServer,
  verbose,
  workbenchUrl,
} from './code-server.mjs';

const started = Date.now();
const log = (msg) => process.stderr.write(`[vscode-launcher] ${msg}\n`);

// ---------------------------------------------------------------------------------------------
// Arguments, the way runTests passes them

/** Only these take a value; every other --flag is an Electron/VS Code switch we do not need. */
const VALUE_OPTIONS = new Set(['extensionDevelopmentPath', 'extensionTestsPath', 'user-data-dir', 'extensions-dir']);

function parseArgs(argv) {
  const o = { extensionDevelopmentPath: [], folder: undefined, ignored: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const key = a.slice(2, eq < 0 ? undefined : eq);
      if (!VALUE_OPTIONS.has(key)) {
        o.ignored.push(a);
        continue;
      }
      const value = eq < 0 ? argv[++i] : a.slice(eq + 1);
      if (value === undefined) throw new Error(`${a} needs a value`);
      if (key === 'extensionDevelopmentPath') o.extensionDevelopmentPath.push(resolve(value));
      else o[key] = resolve(value);
    } else if (o.folder === undefined) {
      o.folder = resolve(a);
    } else {
      o.ignored.push(a);
    }
  }
  return o;
}

let opts;
try {
  opts = parseArgs(process.argv.slice(2));
  if (!opts.extensionTestsPath) throw new Error('--extensionTestsPath=<path of the tests index.js> is required');
  if (opts.extensionDevelopmentPath.length === 0) throw new Error('--extensionDevelopmentPath=<extension folder> is required');
  if (opts.extensionTestsPath && !isAbsolute(opts.extensionTestsPath)) throw new Error('bad --extensionTestsPath');
} catch (err) {
  log(`usage error: ${err.message}`);
  log('usage: vscode-launcher --extensionDevelopmentPath=<dir> --extensionTestsPath=<file> [--user-data-dir=<dir>] [--extensions-dir=<dir>] [folder]');
  process.exit(2);
}
if (!isCodeServerInstalled()) {
  log('code-server is not installed: run `node scripts/install-vscode.mjs` (scripts/integration.mjs does it for you)');
  process.exit(2);
}
if (verbose && opts.ignored.length) log(`ignoring: ${opts.ignored.join(' ')}`);

// ---------------------------------------------------------------------------------------------
// One way out, whatever happens: screenshot on failure, then browser and server go.

let server;
let browser;
let page;
let finishing = false;
const timers = [];

async function finish(code, reason) {
  if (finishing) return;
  finishing = true;
  for (const t of timers) clearTimeout(t);
  if (reason) log(reason);
  if (code !== 0 && page) {
    try {
      const file = await Promise.race([
        screenshot(page, `vscode-launcher-failure-${new Date().toISOString().replace(/[:.]/g, '-')}`),
        new Promise((_, rej) => setTimeout(() => rej(new Error('timed out')), 10_000)),
      ]);
      log(`screenshot of the workbench: ${file}`);
    } catch (err) {
      log(`no screenshot: ${err.message}`);
    }
  }
  if (code !== 0 && server) log(`code-server's last output:\n${server.outputTail() || '(none)'}`);
  await Promise.race([browser?.close().catch(() => {}), new Promise((r) => setTimeout(r, 10_000))]);
  await server?.stop().catch((err) => log(`stopping code-server: ${err.message}`));
  if (verbose) log(`finished in ${((Date.now() - started) / 1000).toFixed(1)} s with exit code ${code}`);
  // The 'exit' handler of code-server.mjs SIGKILLs anything still registered.
  process.exit(code);
}

process.on('unhandledRejection', (err) => finish(1, `internal error: ${err?.stack ?? err}`));
process.on('uncaughtException', (err) => finish(1, `internal error: ${err?.stack ?? err}`));

const timeoutMs = Number(process.env.HDE_TEST_TIMEOUT_MS || 1_800_000);
timers.push(
  setTimeout(
    () => finish(124, `TIMEOUT: the test run did not finish within ${timeoutMs / 1000} s (HDE_TEST_TIMEOUT_MS); killing it`),
    timeoutMs,
  ),
);

// runTests() kills us with SIGINT on Ctrl-C, but when its process is killed outright we are
// re-parented, so notice that instead of running on until the timeout.
const parentPid = process.ppid;
const parentWatch = setInterval(() => {
  if (process.ppid !== parentPid) finish(1, 'the process that started us went away; stopping');
}, 1000);
parentWatch.unref();

// ---------------------------------------------------------------------------------------------
// The run

/**
 * codeAutomationLog carries the workbench's own log as well as the extension host's console,
 * with nothing to tell them apart. These are the workbench's start-up chatter on every run;
 * they go to HDE_VERBOSE only. Anything else (mocha's report, the extension's logging, any
 * error) is printed.
 */
const WORKBENCH_CHATTER = [
  /^Resolving connection token \(/,
  /^Resolved connection token \(/,
  /^Creating a socket \(renderer-/,
  /^Ignoring fetching additional builtin extensions from gallery/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\] registered/,
  /^ChatSessionStore: Migrating/,
];

/** The extension host's console: mocha's report and whatever the extension logs. */
function relay(type, args) {
  // After the extension host ended, only the workbench winding down can still log.
  if (hostExited) return;
  const text = args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 4 }))).join(' ');
  if (type !== 'error' && WORKBENCH_CHATTER.some((re) => re.test(text))) {
    if (verbose) process.stderr.write(`[workbench] ${text}\n`);
    return;
  }
  if (startWatch) {
    clearTimeout(startWatch);
    startWatch = undefined;
  }
  const out = type === 'error' || type === 'warn' ? process.stderr : process.stdout;
  out.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** The workbench's own log files (from the browser's IndexedDB), kept for a failed run. */
function saveWorkbenchLogs(logs) {
  if (!Array.isArray(logs) || logs.length === 0) return;
  const dir = join(resultsDir, 'vscode-logs');
  for (const { relativePath, contents } of logs) {
    const file = join(dir, String(relativePath).replace(/\.\.+/g, '_'));
    mkdirSync(resolve(file, '..'), { recursive: true });
    writeFileSync(file, contents);
  }
  log(`workbench logs saved in ${dir}`);
}

let startWatch;
let hostExited = false;
const startTimeoutMs = Number(process.env.HDE_TEST_START_TIMEOUT_MS ?? 180_000);

try {
  server = await startCodeServer({ folder: opts.folder, userDataDir: opts['user-data-dir'], extensionsDir: opts['extensions-dir'] });
  server.exited.then(({ code, signal }) => finish(1, `code-server exited unexpectedly (${code ?? signal})`));
  if (verbose) log(`code-server ${server.url} (pid ${server.pid}) up after ${Date.now() - started} ms`);

  browser = await launchChromium();
  browser.on('disconnected', () => finish(1, 'Chromium went away before the tests finished'));

  const exitCode = new Promise((res) => {
    openWorkbenchPage(
      browser,
      workbenchUrl(server, {
        folder: opts.folder,
        extensionDevelopmentPath: opts.extensionDevelopmentPath[0],
        extensionTestsPath: opts.extensionTestsPath,
      }),
      {
        onLog: relay,
        onExit: (code, logs) => {
          hostExited = true;
          if (code !== 0) saveWorkbenchLogs(logs);
          res(code);
        },
      },
    ).then((p) => {
      page = p;
      p.on('crash', () => finish(1, 'the workbench page crashed'));
    }, (err) => finish(1, `could not open the workbench: ${err.message}`));
  });
  if (opts.extensionDevelopmentPath.length > 1) {
    log(`only the first --extensionDevelopmentPath is loaded (${opts.extensionDevelopmentPath[0]})`);
  }
  if (startTimeoutMs > 0) {
    startWatch = setTimeout(
      () => finish(1, `the extension host said nothing within ${startTimeoutMs / 1000} s (HDE_TEST_START_TIMEOUT_MS): the tests did not start`),
      startTimeoutMs,
    );
    timers.push(startWatch);
  }
  const code = await exitCode;
  if (verbose) log(`extension host exited with ${code}`);
  await finish(code === 0 ? 0 : 1, code === 0 ? undefined : format('the tests failed (extension host exit code %s)', code));
} catch (err) {
  await finish(1, `could not run the tests: ${err?.message ?? err}`);
}
