// Shared helpers for running VS Code's own server and web workbench (the npm package
// `code-server`) and driving the workbench in Debian's Chromium through playwright-core.
// Used by the integration-test launcher (scripts/vscode-launcher.mjs), by the e2e test library
// (test/e2e/workbench.ts) and later by `npm start`. See /work/shared/testing/real-vscode.md for
// why this is how we get a real VS Code extension host on machines that cannot download VS Code.
//
// Process hygiene is the point of most of this file: code-server and Chromium each run in a
// process group of their own, every group we start is recorded, and every way out of the
// Node process (normal exit, process.exit, uncaught error, SIGINT/SIGTERM/SIGHUP) kills them.
// This module has no top-level await, so CommonJS code can load it with a dynamic import().
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The only code-server release that fits: VS Code 1.100.3, and its install script wants Node 20. */
export const CODE_SERVER_VERSION = '4.100.3';
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Ignored by git (.vscode-test/), next to where @vscode/test-electron keeps its downloads. */
export const cacheDir = process.env.HDE_CODE_SERVER_DIR
  ? resolve(process.env.HDE_CODE_SERVER_DIR)
  : join(repoRoot, '.vscode-test', 'code-server');
export const codeServerPackageDir = join(cacheDir, 'node_modules', 'code-server');
export const codeServerEntry = join(codeServerPackageDir, 'out', 'node', 'entry.js');
/** Written last by install-vscode.mjs; its presence means the install completed and was verified. */
export const markerFile = join(cacheDir, 'installed.json');
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** Keeps Chromium from phoning home or stalling on a closed network, and lets it run as root. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const resultsDir = join(repoRoot, 'test-results');

export const verbose = /^(1|true|yes)$/i.test(process.env.HDE_VERBOSE ?? '');

// ---------------------------------------------------------------------------------------------
// Installation state

export function readInstallMarker() {
  try {
    return JSON.parse(readFileSync(markerFile, 'utf8'));
  } catch {
    return undefined;
  }
}

export function isCodeServerInstalled() {
  return readInstallMarker()?.version === CODE_SERVER_VERSION && existsSync(codeServerEntry);
}

/** Installs code-server (scripts/install-vscode.mjs) unless already there; throws when that fails. */
export function ensureCodeServer() {
  if (isCodeServerInstalled()) return;
  const r = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'install-vscode.mjs')], { stdio: 'inherit' });
  if (r.status !== 0 || !isCodeServerInstalled()) {
    throw new Error(`installing code-server failed (exit ${r.status ?? r.signal}); see the output above`);
  }
}

// ---------------------------------------------------------------------------------------------
// The extension package

/**
 * The production bundle (`node esbuild.mjs --production`) packaged as users get it
 * (`vsce package --no-dependencies`) into outPath; returns outPath. Throws when a step fails
 * or no .vsix is written.
 * @param {string} outPath
 * @param {{ showOutput?: boolean }} [o] showOutput: print the build's and vsce's output as they
 *   run; otherwise it is kept, and printed (to stderr) only when a step fails
 */
export function packageVsix(outPath, o = {}) {
  const run = (cmd, args, what) => {
    const r = spawnSync(cmd, args, { cwd: repoRoot, encoding: 'utf8', stdio: o.showOutput ? 'inherit' : 'pipe' });
    if (r.status !== 0) {
      if (!o.showOutput) process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
      throw new Error(`${what} failed (exit ${r.status ?? r.signal})`);
    }
  };
  run(process.execPath, ['esbuild.mjs', '--production'], 'the production build (node esbuild.mjs --production)');
  mkdirSync(dirname(outPath), { recursive: true });
  rmSync(outPath, { force: true });
  // --no-rewrite-relative-links: the README's image links are relative and resolve inside the
  // package, and the repository URL is not a GitHub one, which vsce otherwise refuses.
  const vsce = join(repoRoot, 'node_modules', '.bin', 'vsce');
  run(vsce, ['package', '--no-dependencies', '--no-rewrite-relative-links', '-o', outPath], 'vsce package');
  if (!existsSync(outPath)) throw new Error(`vsce package wrote no ${outPath}`);
  return outPath;
}

// ---------------------------------------------------------------------------------------------
// Cleanup of everything we start, however the process ends

/** pgid -> description, for process groups that must not outlive this process. */
const liveGroups = new Map();
/** Directories to remove on exit (private temp dirs of servers). */
const liveDirs = new Set();
/** What runs besides the process groups (Chromium, a sandbox), for the Ctrl-C message. */
const liveOthers = new Map();
let handlersInstalled = false;
let nextOther = 0;

function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the whole group is gone already
  }
}

function killEverythingNow() {
  for (const pgid of liveGroups.keys()) killGroup(pgid, 'SIGKILL');
  liveGroups.clear();
  for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
  liveDirs.clear();
}

/**
 * Without a listener, SIGINT/SIGTERM end Node without an 'exit' event, which would orphan the
 * detached code-server. With one, we exit ourselves and the 'exit' handler does the killing
 * (playwright-core's own 'exit' handler kills the browsers it launched the same way).
 */
function installExitHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', killEverythingNow);
  const signals = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
  for (const [sig, code] of Object.entries(signals)) {
    process.on(sig, () => {
      process.stderr.write(`\n${sig} received: ${stoppingWhat()}\n`);
      process.exit(code);
    });
  }
}

/** "stopping code-server and the sandbox": only what was started and still runs. */
function stoppingWhat() {
  const names = [...new Set([...liveGroups.values(), ...liveOthers.values()])];
  if (names.length === 0) return liveDirs.size ? 'removing temporary folders' : 'stopping';
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `stopping ${list}`;
}

/**
 * Names something that runs until the returned function is called and that our exit stops by
 * other means (playwright's own handler stops Chromium; a child process dies with us), so the
 * Ctrl-C message says what it stops. Installs the exit handlers.
 */
export function noteRunning(what) {
  installExitHandlers();
  const key = nextOther++;
  liveOthers.set(key, what);
  return () => liveOthers.delete(key);
}

/** Removes `dir` (whatever names it holds) when this process ends, however it ends but SIGKILL. */
export function removeOnExit(dir) {
  installExitHandlers();
  liveDirs.add(dir);
  return () => {
    rmSync(dir, { recursive: true, force: true });
    liveDirs.delete(dir);
  };
}

/**
 * A private temporary folder for everything this process and its children write to the system's
 * temporary folder (`TMPDIR`, which os.tmpdir() reads): set it in their environment, and the whole
 * lot goes when this process ends. Returns the folder.
 */
export function privateTmpdir(prefix) {
  const dir = makeOwnedTempDir(prefix);
  removeOnExit(dir);
  return dir;
}

/** Registers a process group that must die with us (used for code-server; exported for callers). */
export function trackProcessGroup(pgid, what) {
  installExitHandlers();
  liveGroups.set(pgid, what);
  return () => liveGroups.delete(pgid);
}

/**
 * A private temp folder that names its owner (owner.pid), so a later run can remove it when
 * the owner was killed outright (SIGKILL leaves no chance to clean up) — see sweepStaleDirs.
 */
export function makeOwnedTempDir(prefix) {
  sweepStaleDirs(prefix);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, 'owner.pid'), String(process.pid));
  return dir;
}

/** Removes folders from makeOwnedTempDir(prefix) whose owner process no longer exists. */
export function sweepStaleDirs(prefix) {
  let names = [];
  try {
    names = readdirSync(tmpdir()).filter((n) => n.startsWith(prefix));
  } catch {
    return;
  }
  for (const name of names) {
    const dir = join(tmpdir(), name);
    let pid;
    try {
      pid = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'));
    } catch {
      continue; // not ours, or still being created
    }
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (err) {
      if (err.code === 'ESRCH') rmSync(dir, { recursive: true, force: true });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// code-server

/**
 * Our 'exit' and signal handlers cannot run when we are SIGKILLed (OOM killer, a CI runner's
 * hard kill), and code-server's inner server process neither dies with its parent nor stops by
 * itself then (it was seen spinning at 25% CPU, writing to a dead pipe). So a tiny watchdog
 * process, outside both groups, kills the code-server group once we are gone, and leaves by
 * itself once the group is gone.
 */
const REAPER = `
const [owner, pgid] = process.argv.slice(1).map(Number);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; } };
setInterval(() => {
  if (!alive(-pgid)) process.exit(0);
  if (!alive(owner)) { try { process.kill(-pgid, 'SIGKILL'); } catch {} process.exit(0); }
}, 500);
`;

function startReaper(pgid) {
  const reaper = spawn(process.execPath, ['-e', REAPER, String(process.pid), String(pgid)], { detached: true, stdio: 'ignore' });
  reaper.unref();
}

/** A port the kernel picked as free on 127.0.0.1 (a small race remains; startCodeServer retries). */
export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

const delay = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The environment code-server (and so the extension host) gets: ours, minus what would make it
 * talk to a VS Code we happen to run inside (VSCODE_IPC_HOOK_CLI makes the CLI open folders in
 * that window instead of serving), plus private temp/config locations and no marketplace.
 */
function serverEnv(extra, dirs) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') continue;
    if (v !== undefined) env[k] = v;
  }
  Object.assign(env, {
    // Keeps its sockets and temp files out of /tmp and away from other servers.
    TMPDIR: dirs.tmp,
    // code-server keeps logs, its session socket and state under these; a shared one would let
    // two servers started at once find each other's session socket.
    XDG_DATA_HOME: dirs.data,
    XDG_CONFIG_HOME: dirs.config,
    XDG_CACHE_HOME: dirs.cache,
    XDG_RUNTIME_DIR: dirs.runtime,
    // An empty gallery: no marketplace look-ups on a closed network.
    EXTENSIONS_GALLERY: '{"serviceUrl":""}',
  });
  return { ...env, ...extra };
}

function lastLines(lines) {
  return lines.length ? `\n--- last code-server output ---\n${lines.join('\n')}\n---` : '';
}

/**
 * Starts code-server on 127.0.0.1 and resolves once /healthz answers.
 * @param {object} o
 * @param {string} [o.folder] folder the workbench opens by default
 * @param {string} [o.userDataDir] default: a fresh private one
 * @param {string} [o.extensionsDir] default: a fresh private one
 * @param {Record<string,string>} [o.env] extra environment (reaches the extension host)
 * @param {string[]} [o.args] extra code-server arguments
 * @param {number} [o.port] default: a free port
 * @param {number} [o.startTimeoutMs]
 * @param {boolean} [o.keepDirs] keep the private session folder after stop() (debugging)
 * @param {(line: string) => void} [o.onOutput] receives every line the server prints
 */
export async function startCodeServer(o = {}) {
  if (!isCodeServerInstalled()) {
    throw new Error(
      `code-server ${CODE_SERVER_VERSION} is not installed in ${cacheDir}; run: node scripts/install-vscode.mjs`,
    );
  }
  let lastError;
  // Retry only for the race between freePort() and code-server binding the port.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(o, o.port ?? (await freePort()));
    } catch (err) {
      lastError = err;
      if (o.port || !/EADDRINUSE/.test(String(err?.message))) throw err;
    }
  }
  throw lastError;
}

async function startOnce(o, port) {
  installExitHandlers();
  const session = makeOwnedTempDir('hde-code-server-');
  if (!o.keepDirs) liveDirs.add(session);
  const dirs = {};
  for (const name of ['tmp', 'data', 'config', 'cache', 'runtime', 'user-data', 'extensions']) {
    dirs[name] = join(session, name);
    mkdirSync(dirs[name], { recursive: true, mode: 0o700 });
  }
  // Without --config it writes ~/.config/code-server/config.yaml, even for --version.
  const configFile = join(session, 'config.yaml');
  writeFileSync(configFile, 'auth: none\ncert: false\n');
  const userDataDir = o.userDataDir ?? dirs['user-data'];
  const extensionsDir = o.extensionsDir ?? dirs.extensions;
  mkdirSync(userDataDir, { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });

  const args = [
    codeServerEntry,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--config', configFile,
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    ...(o.args ?? []),
    ...(o.folder ? [o.folder] : []),
  ];
  const logFile = join(session, 'code-server.log');
  const log = createWriteStream(logFile);
  const tail = [];
  const child = spawn(process.execPath, args, {
    cwd: o.folder && existsSync(o.folder) ? o.folder : repoRoot,
    env: serverEnv(o.env ?? {}, dirs),
    // A process group of its own: one kill(-pgid) reaches the extension host and pty host too.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  startReaper(child.pid);
  const untrack = trackProcessGroup(child.pid, 'code-server');
  let exited = false;
  const exitPromise = new Promise((res) => {
    child.on('exit', (code, signal) => {
      exited = true;
      res({ code, signal });
    });
  });
  const onChunk = (chunk) => {
    log.write(chunk);
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > 60) tail.shift();
      o.onOutput?.(line);
      if (verbose) process.stderr.write(`[code-server] ${line}\n`);
    }
  };
  child.stdout.on('data', onChunk);
  child.stderr.on('data', onChunk);

  const url = `http://127.0.0.1:${port}`;
  let stopped = false;
  const server = {
    url,
    port,
    pid: child.pid,
    session,
    userDataDir,
    extensionsDir,
    logFile,
    exited: exitPromise,
    /** The last lines code-server printed, for error messages. */
    outputTail: () => tail.join('\n'),
    /** SIGTERM to the whole group, SIGKILL after a grace period; removes the private folder. */
    async stop() {
      if (stopped) return;
      stopped = true;
      if (!exited) {
        killGroup(child.pid, 'SIGTERM');
        await Promise.race([exitPromise, delay(3000)]);
      }
      // The leader may be gone while an extension host of its group lingers: always sweep.
      killGroup(child.pid, 'SIGKILL');
      untrack();
      await new Promise((r) => log.end(r));
      if (!o.keepDirs) {
        rmSync(session, { recursive: true, force: true });
        liveDirs.delete(session);
      }
    },
  };

  const deadline = Date.now() + (o.startTimeoutMs ?? 60_000);
  while (true) {
    if (exited) {
      const { code, signal } = await exitPromise;
      await server.stop();
      throw new Error(`code-server exited during start-up (${code ?? signal})${lastLines(tail)}`);
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`code-server did not answer ${url}/healthz within ${o.startTimeoutMs ?? 60_000} ms${lastLines(tail)}`);
    }
    await delay(200);
  }
  return server;
}

/** `code-server --install-extension <vsix|id> --extensions-dir <dir>`; throws with its output on failure. */
export function installExtension(vsixOrId, extensionsDir) {
  if (!isCodeServerInstalled()) throw new Error('code-server is not installed; run: node scripts/install-vscode.mjs');
  const session = makeOwnedTempDir('hde-code-server-install-');
  try {
    const dirs = {};
    for (const name of ['tmp', 'data', 'config', 'cache', 'runtime']) {
      dirs[name] = join(session, name);
      mkdirSync(dirs[name], { recursive: true });
    }
    const configFile = join(session, 'config.yaml');
    writeFileSync(configFile, 'auth: none\ncert: false\n');
    mkdirSync(extensionsDir, { recursive: true });
    const r = spawnSync(
      process.execPath,
      [codeServerEntry, '--config', configFile, '--user-data-dir', join(session, 'user-data'),
        '--extensions-dir', extensionsDir, '--install-extension', vsixOrId, '--force'],
      { env: serverEnv({}, dirs), encoding: 'utf8', timeout: 120_000 },
    );
    if (r.status !== 0) {
      throw new Error(`code-server --install-extension ${vsixOrId} failed (${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
    }
    return r.stdout;
  } finally {
    rmSync(session, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Chromium and the workbench page

/** Launches Debian's Chromium through playwright-core (no Playwright browser download). */
export async function launchChromium({ headless = !/^(0|false|no)$/i.test(process.env.HDE_HEADLESS ?? '') } = {}) {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: run \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
  }
  installExitHandlers();
  const { chromium } = await import('playwright-core');
  // Chromium keeps its crash database and caches under XDG folders (~/.config/chromium,
  // ~/.cache/chromium-headless) whatever --user-data-dir says: point those at a private folder.
  const home = makeOwnedTempDir('hde-chromium-');
  liveDirs.add(home);
  const env = { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };
  // playwright-core starts Chromium in a process group of its own and kills that group on our
  // 'exit' and on SIGINT/SIGTERM/SIGHUP, so no extra bookkeeping is needed for the process.
  const browser = await chromium.launch({ executablePath: chromiumPath, headless, args: CHROMIUM_ARGS, env, timeout: 60_000 });
  const gone = noteRunning('Chromium');
  browser.on('disconnected', () => {
    gone();
    rmSync(home, { recursive: true, force: true });
    liveDirs.delete(home);
  });
  return browser;
}

/** A `vscode-remote://` URI for a path on the server, with the exact authority the page uses. */
export function remoteUri(server, absPath) {
  return `vscode-remote://127.0.0.1:${server.port}${pathToFileURL(absPath).pathname}`;
}

/**
 * The workbench URL for a folder and, optionally, an extension-development/test payload.
 * @param {{ port: number, url: string }} server
 * @param {{ folder?: string, extensionDevelopmentPath?: string, extensionTestsPath?: string }} o
 */
export function workbenchUrl(server, o = {}) {
  const query = [];
  if (o.folder) query.push(`folder=${encodeURIComponent(o.folder)}`);
  const payload = [];
  if (o.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remoteUri(server, o.extensionDevelopmentPath)]);
  if (o.extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(server, o.extensionTestsPath)]);
  if (payload.length) {
    payload.push(['skipWelcome', 'true']);
    query.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  }
  return `${server.url}/${query.length ? `?${query.join('&')}` : ''}`;
}

/**
 * Opens the workbench in a fresh browser context (so SecretStorage and other browser state
 * start empty). The automation hooks must be exposed before the page loads.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {{ onExit?: (code: number, logs?: { relativePath: string, contents: string }[]) => void, onLog?: (type: string, args: unknown[]) => void,
 *           viewport?: { width: number, height: number } }} [o]
 */
export async function openWorkbenchPage(browser, url, o = {}) {
  const context = await browser.newContext({ viewport: o.viewport ?? { width: 1400, height: 900 } });
  const page = await context.newPage();
  // Called by the workbench when the test extension host ends: 0 when run() resolved.
  // `logs` are the workbench's own log files (kept in the browser), worth saving on failure.
  await page.exposeFunction('codeAutomationExit', (code, logs) => o.onExit?.(Number(code), logs));
  // The extension host's console (mocha's report) is relayed here.
  await page.exposeFunction('codeAutomationLog', (type, args) => o.onLog?.(String(type), Array.isArray(args) ? args : [args]));
  if (verbose) {
    // The workbench styles its console lines (`%c`, `color: #33f`); drop that for a terminal.
    const plain = (t) => t.replace(/%c/g, '').replace(/\s*color: #[0-9a-f]{3,6}\s*/gi, ' ').trim();
    page.on('console', (m) => process.stderr.write(`[workbench ${m.type()}] ${plain(m.text())}\n`));
    page.on('pageerror', (e) => process.stderr.write(`[workbench pageerror] ${e.message}\n`));
  }
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  return page;
}

/** Waits for the workbench's activity bar: the UI is up and extensions are being loaded. */
export async function waitForWorkbench(page, timeoutMs = 60_000) {
  await page.waitForSelector('.monaco-workbench .part.activitybar', { timeout: timeoutMs });
}

/**
 * Runs a command from the palette by its full title, e.g. "Health Data: Show Version". The
 * palette is opened again (up to four times) when it is hidden before the command is picked:
 * F1 pressed while a webview has the focus reaches the workbench late, and a click that takes
 * the focus from a webview is answered late too, either of which can close a palette just opened.
 */
export async function runPaletteCommand(page, title, timeoutMs = 20_000) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  for (let attempt = 1; ; attempt++) {
    try {
      if (attempt > 1) {
        // Focus was where F1 does not reach the workbench (e.g. in a webview): take it from there
        // without a click, and let the webview's late answer to that come before the palette is
        // opened again. (A click at the editor area's corner landed on its first tab, which made
        // another file the active editor than the one the command was meant for.)
        await page.keyboard.press('Escape');
        await page.evaluate(() => {
          const active = document.activeElement;
          if (active && active !== document.body && typeof active.blur === 'function') active.blur();
        });
        await page.waitForTimeout(1_000);
      }
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: attempt === 1 ? 3000 : timeoutMs });
      await input.fill(`>${title}`, { timeout: 5000 });
      // Wait until the entry is listed, so Enter does not pick a stale first row.
      await row.waitFor({ state: 'visible', timeout: timeoutMs });
      await input.press('Enter', { timeout: 5000 });
      return;
    } catch (err) {
      if (attempt === 4) throw err;
    }
  }
}

/** Saves a full-page screenshot under test-results/ and returns its path. */
export async function screenshot(page, name) {
  const file = join(resultsDir, `${name.replace(/[^\w/.-]+|\.\.+/g, '_')}.png`);
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
