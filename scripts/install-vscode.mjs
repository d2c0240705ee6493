#!/usr/bin/env node
// Installs VS Code's server and web workbench (npm package code-server@4.100.3) into the
// git-ignored cache .vscode-test/code-server/, for the integration and e2e tests and `npm start`.
// Only the npm registry and files already on this machine are used: no GitHub, no
// update.code.visualstudio.com, no node-gyp header download. Why each step is needed is in
// /work/shared/testing/real-vscode.md; the npm 11 install-script policy is handled below.
//
//   node scripts/install-vscode.mjs           install unless already installed (then instant)
//   node scripts/install-vscode.mjs --force   reinstall from scratch
//   HDE_VERBOSE=1                              stream npm's output instead of only logging it
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import {
  CODE_SERVER_VERSION,
  cacheDir,
  chromiumPath,
  codeServerEntry,
  codeServerPackageDir,
  isCodeServerInstalled,
  markerFile,
  readInstallMarker,
  verbose,
} from './code-server.mjs';

const force = process.argv.includes('--force');
const started = Date.now();
const say = (msg) => console.log(`install-vscode: ${msg}`);
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

function fail(msg) {
  console.error(`install-vscode: ERROR: ${msg}`);
  process.exit(1);
}

// npm 11 reads an install-script policy (allowScripts) from the package.json of the project
// being installed. npm 11.19 still runs scripts the policy does not mention (with a warning,
// "not yet covered by allowScripts") and is announced to block them later; we write a
// complete policy and set strict-allow-scripts, so that today and later exactly the reviewed
// scripts run, and any new one (e.g. after a code-server upgrade) stops the install with
// npm's list of what needs review instead of silently running or silently being skipped.
// Entries are pinned to the versions in code-server 4.100.3's npm-shrinkwrap.json files.
const TOP_LEVEL_SCRIPTS = {
  'code-server@4.100.3': true, // postinstall.sh: installs lib/vscode's dependencies (below)
  'argon2@0.31.2': true, // password hashing for --auth password; compiled locally
};
// The policy of the nested `npm install` that code-server's postinstall.sh runs in lib/vscode.
const VSCODE_SCRIPTS = {
  '@vscode/deviceid@0.1.1': true, // native addon
  '@vscode/ripgrep@1.15.11': true, // search; unpacks the rg archive prepared below
  '@vscode/spdlog@0.15.1': true, // logging; native addon
  'kerberos@2.1.1': true, // proxy authentication; native addon, needs libkrb5-dev
  'native-watchdog@1.4.2': true, // native addon
  'node-pty@1.1.0-beta33': true, // terminals; native addon
  // Its script only compiles when build-from-source is set (we set it for argon2 and
  // kerberos) and is a no-op otherwise: the prebuilt binary comes from the npm registry
  // (@parcel/watcher-linux-x64-glibc). Denying it saves a 20 s compile.
  '@parcel/watcher': false,
  '@vscode/windows-process-tree': false, // Windows only
  '@vscode/windows-registry': false, // Windows only
};
// ... and of the one it runs next in lib/vscode/extensions. Both are development dependencies
// that `--omit=dev` leaves out, but npm's strict check looks at them before omitting.
const EXTENSIONS_SCRIPTS = {
  '@parcel/watcher': false,
  esbuild: false,
};
// @vscode/ripgrep@1.15.11 downloads this archive unless it finds it in its cache folder.
const RIPGREP_PACKAGE_VERSION = '1.15.11';
const RIPGREP_RELEASE = 'v13.0.0-10';
const RIPGREP_TARGETS = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' };

// ---------------------------------------------------------------------------------------------
// 1. Checks, before anything is downloaded

function which(cmd) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, cmd);
    if (dir && existsSync(p)) return p;
  }
  return undefined;
}

const nodeMajor = Number(process.versions.node.split('.')[0]);
if (nodeMajor !== 20) {
  fail(
    `code-server ${CODE_SERVER_VERSION} needs Node 20 (its install script refuses any other major); ` +
      `this is Node ${process.versions.node}. Install Node 20 (e.g. from NodeSource) and run again.`,
  );
}
if (process.platform !== 'linux' || !RIPGREP_TARGETS[process.arch]) {
  fail(`only Linux on x64/arm64 is supported here (this is ${process.platform}/${process.arch}); ` +
    'on a desktop with internet use HDE_TEST_VSCODE=download instead');
}

if (!force && isCodeServerInstalled()) {
  const m = readInstallMarker();
  say(`code-server ${m.version} already installed in ${cacheDir} (${m.installedAt}); --force reinstalls`);
  process.exit(0);
}

// Two test runs starting at once on a fresh checkout (parallel CI jobs, a watcher) would both
// install into the same folder; the second waits for the first instead. mkdir is atomic; the
// lock names its owner so a lock left by a killed install is taken over.
const lockDir = `${cacheDir}.lock`;
const processAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};
async function acquireLock() {
  mkdirSync(dirname(lockDir), { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  let told = false;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'owner.pid'), String(process.pid));
      process.on('exit', () => rmSync(lockDir, { recursive: true, force: true }));
      return;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    let owner;
    try {
      owner = Number(readFileSync(join(lockDir, 'owner.pid'), 'utf8'));
    } catch {
      // Created a moment ago and not yet named, or left by a crash right after mkdir.
    }
    let age = 0;
    try {
      age = Date.now() - statSync(lockDir).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    if ((owner && !processAlive(owner)) || (!owner && age > 10_000)) {
      say(`removing a stale install lock (${owner ? `pid ${owner} is gone` : 'no owner'})`);
      rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (!told) say(`another install is running (pid ${owner ?? '?'}); waiting for it to finish`);
    told = true;
    if (Date.now() > deadline) fail(`gave up waiting for the install lock ${lockDir}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}
await acquireLock();
if (!force && isCodeServerInstalled()) {
  say(`code-server ${CODE_SERVER_VERSION} was installed by the other run meanwhile`);
  process.exit(0);
}

const nodedir = process.env.npm_config_nodedir || '/usr';
function missingDebianPackages() {
  const missing = [];
  if (!existsSync(chromiumPath)) missing.push('chromium');
  if (!which('rg')) missing.push('ripgrep');
  if (!existsSync('/usr/include/krb5.h') && !existsSync('/usr/include/krb5/krb5.h')) missing.push('libkrb5-dev');
  if (!which('g++') || !which('make')) missing.push('build-essential');
  if (!which('python3')) missing.push('python3');
  // The copy-as-code tests run the copied cURL command, which mints its token with curl and jq.
  if (!which('curl')) missing.push('curl');
  if (!which('jq')) missing.push('jq');
  return missing;
}
let missingApt = missingDebianPackages();
// As root with apt-get (CI, a fresh machine of ours), install what is missing from Debian's
// packages, so `npm test` works on a new machine; anywhere else, say what to run.
if (missingApt.length && process.getuid?.() === 0 && which('apt-get') && process.env.HDE_NO_APT !== '1') {
  say(`installing Debian packages: ${missingApt.join(' ')}`);
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env: aptEnv });
  const install = update.status === 0 && spawnSync('apt-get', ['install', '-y', '-qq', ...missingApt], { stdio: 'inherit', env: aptEnv });
  if (!install || install.status !== 0) say('apt-get could not install them');
  missingApt = missingDebianPackages();
}
if (missingApt.length) {
  fail(
    `missing Debian packages: ${missingApt.join(', ')}. Run:\n\n` +
      `    apt-get update && apt-get install -y ${missingApt.join(' ')}\n`,
  );
}
const rgPath = which('rg');
if (!existsSync(join(nodedir, 'include', 'node', 'node.h'))) {
  fail(
    `Node's C headers are missing (${join(nodedir, 'include/node/node.h')}); native addons build against them and ` +
      'must not be downloaded. Install the Node 20 package that ships them (NodeSource nodejs does) ' +
      'or set npm_config_nodedir to a folder with include/node/.',
  );
}
const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8' });
if (npmVersion.status !== 0) fail('npm is not on PATH');

// ---------------------------------------------------------------------------------------------
// 2. A clean cache folder with its own package.json

say(`installing code-server ${CODE_SERVER_VERSION} into ${cacheDir} (npm ${npmVersion.stdout.trim()}, about a minute)`);
// Never build on top of a half-finished install: start empty.
rmSync(cacheDir, { recursive: true, force: true });
const tmp = join(cacheDir, 'tmp');
mkdirSync(tmp, { recursive: true });
writeFileSync(
  join(cacheDir, 'package.json'),
  `${JSON.stringify(
    {
      name: 'hde-code-server-cache',
      private: true,
      description: 'code-server for Health Data Explorer tests; written by scripts/install-vscode.mjs',
      dependencies: { 'code-server': CODE_SERVER_VERSION },
      // See TOP_LEVEL_SCRIPTS. npm before 11 ignores the field and runs every script.
      allowScripts: TOP_LEVEL_SCRIPTS,
    },
    null,
    2,
  )}\n`,
);

// The archive @vscode/ripgrep would fetch from GitHub, holding Debian's rg (the same
// ripgrep 13.0.0) at its root, in the cache folder it checks first: $(os.tmpdir())/...
const rgCache = join(tmp, `vscode-ripgrep-cache-${RIPGREP_PACKAGE_VERSION}`);
const rgStage = join(tmp, 'rg-stage');
mkdirSync(rgCache, { recursive: true });
mkdirSync(rgStage, { recursive: true });
copyFileSync(realpathSync(rgPath), join(rgStage, 'rg'));
const rgArchive = join(rgCache, `ripgrep-${RIPGREP_RELEASE}-${RIPGREP_TARGETS[process.arch]}.tar.gz`);
const tar = spawnSync('tar', ['-czf', rgArchive, '-C', rgStage, 'rg'], { encoding: 'utf8' });
if (tar.status !== 0) fail(`could not pack ${rgPath} into ${rgArchive}: ${tar.stderr}`);
say(`ripgrep archive from ${rgPath} placed in ${rgCache}`);

// ---------------------------------------------------------------------------------------------
// 3. npm, in two steps

const env = {
  ...process.env,
  // Keeps the ripgrep cache (and every other temp file of the install) inside the cache folder.
  TMPDIR: tmp,
  // node-pty's install runs `npx node-gyp`; a user .npmrc with `yes = false` makes npx refuse.
  npm_config_yes: 'true',
  // Build native addons against the local headers; node-gyp must not download any.
  npm_config_nodedir: nodedir,
  // code-server's postinstall.sh refuses to run as root without it.
  npm_config_unsafe_perm: 'true',
  // argon2 (node-pre-gyp) and kerberos (prebuild-install) otherwise try GitHub for prebuilt
  // binaries first; this makes them build locally straight away.
  npm_config_build_from_source: 'true',
  // Unreviewed install scripts fail the install instead of running (see TOP_LEVEL_SCRIPTS).
  npm_config_strict_allow_scripts: 'true',
  // npm 11 matches pinned allowScripts entries against the registry URL recorded in the
  // lockfile; a user .npmrc with omit-lockfile-registry-resolved=true would leave none and
  // npm would treat the scripts as unreviewed. Also keep the install quiet and local.
  npm_config_omit_lockfile_registry_resolved: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  // The policy must come from package.json: npm 11 rejects allow-scripts from the command line
  // or environment in a project install (EALLOWSCRIPTS), and an allow-scripts in an .npmrc
  // would reach the nested install as an environment variable and trip that same check.
  npm_config_allow_scripts: undefined,
  npm_config_dangerously_allow_all_scripts: undefined,
  npm_config_ignore_scripts: undefined,
};
for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];

const logFile = join(cacheDir, 'install.log');
const log = createWriteStream(logFile);

function npm(args, label) {
  say(`${label}: npm ${args.join(' ')}`);
  log.write(`\n===== npm ${args.join(' ')}\n`);
  const tail = [];
  const scriptWarnings = [];
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: cacheDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const onData = (chunk) => {
      log.write(chunk);
      if (verbose) process.stdout.write(chunk);
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 80) tail.shift();
        if (line.startsWith('npm warn install-scripts')) scriptWarnings.push(line);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (err) => fail(`could not run npm: ${err.message}`));
    child.on('close', (code) => {
      if (code !== 0) {
        console.error(tail.join('\n'));
        const hint = tail.some((l) => l.includes('ESTRICTALLOWSCRIPTS'))
          ? '\nnpm found install scripts nobody reviewed (above). Check what they do, then add them ' +
            'to TOP_LEVEL_SCRIPTS, VSCODE_SCRIPTS or EXTENSIONS_SCRIPTS in scripts/install-vscode.mjs.'
          : '';
        fail(`${label} failed (npm exit ${code}); full log: ${logFile}${hint}`);
      }
      resolve(scriptWarnings);
    });
  });
}

// Step 1 only downloads and unpacks (all from the npm registry). Scripts wait for step 2,
// because code-server's postinstall runs `npm install` inside lib/vscode, and that nested
// install reads its policy from lib/vscode/package.json, which has to carry it by then.
await npm(['install', '--ignore-scripts', '--no-audit', '--no-fund'], 'step 1/2 download');
say(`step 1/2 done (${seconds()})`);

const vscodeDir = join(codeServerPackageDir, 'lib', 'vscode');
if (!existsSync(join(vscodeDir, 'package.json'))) fail(`unexpected package layout: ${vscodeDir}/package.json missing`);
// Our cached copy only; code-server itself never reads this field.
function addPolicy(dir, allowScripts) {
  const file = join(dir, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  pkg.allowScripts = allowScripts;
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
}
addPolicy(vscodeDir, VSCODE_SCRIPTS);
addPolicy(join(vscodeDir, 'extensions'), EXTENSIONS_SCRIPTS);

// Step 2 runs the allowed scripts: argon2's build and code-server's postinstall.sh, which
// installs VS Code's own dependencies (node-pty, spdlog, kerberos, ripgrep, ...).
const scriptWarnings = await npm(['rebuild', '--foreground-scripts'], 'step 2/2 build');
// With strict-allow-scripts npm fails on unreviewed scripts; an npm that only warns lists them.
if (scriptWarnings.length) say(`npm's notes on install scripts:\n  ${scriptWarnings.join('\n  ')}`);
say(`step 2/2 done (${seconds()})`);

// ---------------------------------------------------------------------------------------------
// 4. Verify the result really works (a skipped script only shows up here)

// Load each native addon from where code-server resolves it (argon2 is hoisted to the cache
// root; VS Code's live under lib/vscode).
const checks = [
  ['argon2', codeServerPackageDir],
  ['node-pty', vscodeDir],
  ['@vscode/spdlog', vscodeDir],
  ['native-watchdog', vscodeDir],
  ['kerberos', vscodeDir],
  ['@parcel/watcher', vscodeDir],
  ['@vscode/deviceid', vscodeDir],
];
const problems = [];
for (const [name, from] of checks) {
  const code = `require(require.resolve(${JSON.stringify(name)}, { paths: [${JSON.stringify(from)}] }))`;
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', env });
  if (r.status !== 0) {
    const why = r.stderr.split('\n').find((l) => /Error/.test(l)) ?? r.stderr;
    problems.push(`${name} does not load (its install script was skipped or failed): ${why}`);
  }
}
const bundledRg = join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg');
if (spawnSync(bundledRg, ['--version']).status !== 0) problems.push(`ripgrep missing or broken at ${bundledRg}`);
if (!existsSync(join(vscodeDir, 'node_modules.asar'))) problems.push('lib/vscode/node_modules.asar link missing (postinstall.sh did not finish)');

// --version with a private --config and XDG dirs: it would otherwise write into ~/.config.
writeFileSync(join(tmp, 'config.yaml'), 'auth: none\ncert: false\n');
const versionRun = spawnSync(
  process.execPath,
  [codeServerEntry, '--config', join(tmp, 'config.yaml'), '--version'],
  { encoding: 'utf8', env: { ...env, XDG_CONFIG_HOME: join(tmp, 'xdg-config'), XDG_DATA_HOME: join(tmp, 'xdg-data') }, timeout: 60_000 },
);
const versionLine = versionRun.stdout.split('\n').find((l) => l.startsWith(`${CODE_SERVER_VERSION} `));
if (versionRun.status !== 0 || !versionLine) {
  problems.push(`code-server --version failed (${versionRun.status ?? versionRun.signal}): ${versionRun.stdout}${versionRun.stderr}`);
}
if (problems.length) {
  fail(`the install does not work:\n  - ${problems.join('\n  - ')}\nfull log: ${logFile}`);
}
say(`code-server --version: ${versionLine}`);

// Keep the install's temp files out of the cache (a few MB of build leftovers).
for (const d of ['rg-stage', 'xdg-config', 'xdg-data', 'config.yaml']) rmSync(join(tmp, d), { recursive: true, force: true });
// The marker comes last: its presence means "installed and verified".
writeFileSync(
  markerFile,
  `${JSON.stringify({ version: CODE_SERVER_VERSION, node: process.versions.node, installedAt: new Date().toISOString() }, null, 2)}\n`,
);
await new Promise((r) => log.end(r));
say(`done in ${seconds()} (log: ${logFile})`);
