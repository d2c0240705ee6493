#!/usr/bin/env node
// `npm start`: the one command a new user runs to see the extension working with data. Builds
// and packages the extension, starts the local sandbox on 127.0.0.1:8787, starts VS Code's
// server (code-server) with the packaged .vsix installed and pointed at the sandbox, and prints
// the URL to open. Ctrl-C stops everything.
//   HDE_START_PORT     port of the workbench (default 8080; 0 for a free one)
//   HDE_SANDBOX_PORT   port of the sandbox (default 8787; 0 for a free one)
// Everything it writes to temporary folders (its profile, code-server's session) goes when it ends.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ensureCodeServer, installExtension, makeOwnedTempDir, noteRunning, packageVsix, removeOnExit, repoRoot, startCodeServer, workbenchUrl } from './code-server.mjs';

const say = (msg) => console.log(`start: ${msg}`);
const fail = (msg) => {
  console.error(`start: ${msg}`);
  process.exit(1);
};

// The two ports, each from its environment variable; checked before the minute of packaging, so a
// port in use is said at once, with the variable that moves it.
const PORTS = [
  { variable: 'HDE_SANDBOX_PORT', what: 'the sandbox', fallback: 8787 },
  { variable: 'HDE_START_PORT', what: 'VS Code (code-server)', fallback: 8080 },
];
const portAdvice = ({ variable }) => `set ${variable} to another port, or to 0 for a free one (for example \`${variable}=0 npm start\`)`;
for (const p of PORTS) {
  const text = (process.env[p.variable] ?? '').trim();
  p.port = text === '' ? p.fallback : Number(text);
  if ((text !== '' && !/^\d+$/.test(text)) || p.port > 65_535) {
    fail(`${p.variable}="${String(text).slice(0, 20)}" is not a port: use a whole number from 0 to 65535 (0: a free one).`);
  }
}
const [sandboxPortSpec, workbenchPortSpec] = PORTS;
for (const p of PORTS) {
  if (p.port === 0) continue;
  const problem = await new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err) => resolve(err.code));
    probe.listen(p.port, '127.0.0.1', () => probe.close(() => resolve(undefined)));
  });
  if (problem === 'EADDRINUSE') fail(`port ${p.port} for ${p.what} is in use: ${portAdvice(p)}.`);
  if (problem) fail(`cannot listen on 127.0.0.1:${p.port} for ${p.what} (${problem}): ${portAdvice(p)}.`);
}

say('building and packaging the extension');
const vsix = join(repoRoot, 'health-data-explorer.vsix');
try {
  packageVsix(vsix, { showOutput: true });
} catch (err) {
  console.error(`start: ${err.message}`);
  process.exit(1);
}

ensureCodeServer();

// The sandbox in a child process of its own: the CLI's `sandbox` command, so what runs here is
// exactly what `health-data sandbox` runs.
const sandbox = spawn(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'sandbox', '--port', String(sandboxPortSpec.port)], {
  cwd: repoRoot,
  stdio: ['ignore', 'pipe', 'pipe'],
});
const sandboxGone = noteRunning('the sandbox');
const sandboxUrl = await new Promise((resolve, reject) => {
  let out = '';
  let err = '';
  sandbox.stdout.on('data', (d) => {
    out += d;
    const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
    if (m && out.includes('Ctrl-C')) resolve(m[1]);
  });
  // What it says on stderr is passed on as it comes, and kept for the message should it exit.
  sandbox.stderr.on('data', (d) => {
    err += d;
    process.stderr.write(d);
  });
  sandbox.on('exit', (code) => {
    sandboxGone();
    // The CLI's own advice (--port) is for `health-data sandbox`; here the variable moves it.
    const said = (err.trim() || out.trim() || '(it printed nothing)').replace(/\n?Run `health-data --help` for usage\.$/, '');
    const inUse = /in use|EADDRINUSE/.test(said) ? `\nport ${sandboxPortSpec.port} is in use: ${portAdvice(sandboxPortSpec)}.` : '';
    reject(new Error(`the sandbox exited (${code}) before it was ready: ${said}${inUse}`));
  });
}).catch((err) => fail(err.message));
const stopSandbox = () => {
  if (sandbox.exitCode === null) sandbox.kill('SIGINT');
};
process.on('exit', stopSandbox);

// A profile of its own that points the extension at the sandbox: the sandbox's credentials are
// documented defaults, handed over through healthData.sandbox.url, never written into settings.
const home = makeOwnedTempDir('hde-start-');
removeOnExit(home);
const userDataDir = join(home, 'user-data');
const extensionsDir = join(home, 'extensions');
mkdirSync(join(userDataDir, 'User'), { recursive: true });
writeFileSync(
  join(userDataDir, 'User', 'settings.json'),
  `${JSON.stringify(
    {
      'healthData.sandbox.url': sandboxUrl,
      'healthData.activeEnvironment': 'Local sandbox',
      'workbench.startupEditor': 'none',
      'workbench.colorTheme': 'Default Dark Modern',
      'security.workspace.trust.enabled': false,
    },
    null,
    2,
  )}\n`,
);
// A small workspace with example payloads to validate.
const workspace = join(home, 'workspace');
cpSync(join(repoRoot, 'examples'), workspace, { recursive: true });

say(`installing ${vsix}`);
installExtension(vsix, extensionsDir);

const server = await startCodeServer({ port: workbenchPortSpec.port || undefined, userDataDir, extensionsDir, folder: workspace }).catch((err) => {
  const inUse = /EADDRINUSE/.test(err.message) ? `\nport ${workbenchPortSpec.port} is in use: ${portAdvice(workbenchPortSpec)}.` : '';
  fail(`${err.message}${inUse}`);
});
const url = workbenchUrl(server, { folder: workspace });

console.log(`
Health Data Explorer is running.

  Open ${url}
  and click the Health Data icon (a heart) in the activity bar: the Records view lists the
  sandbox's heart rate summaries, activity summaries and body fat readings by date.

  The sandbox:  ${sandboxUrl}  (client id sandbox-client, client secret sandbox-secret)
  The CLI:      HEALTH_DATA_BASE_URL=${sandboxUrl} HEALTH_DATA_CLIENT_ID=sandbox-client \\
                HEALTH_DATA_CLIENT_SECRET=sandbox-secret node dist/cli.js list activity

Press Ctrl-C to stop.`);

const stop = async () => {
  stopSandbox();
  await server.stop();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
if (!existsSync(vsix)) process.exit(1);
