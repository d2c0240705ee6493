#!/usr/bin/env node
// `npm start`: the one command a new user runs to see the extension working with data. Builds
// and packages the extension, starts the local sandbox on 127.0.0.1:8787, starts VS Code's
// server (code-server) with the packaged .vsix installed and pointed at the sandbox, and prints
// the URL to open. Ctrl-C stops everything.
//   HDE_START_PORT     port of the workbench (default 8080; 0 for a free one)
//   HDE_SANDBOX_PORT   port of the sandbox (default 8787; 0 for a free one)
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCodeServer, installExtension, makeOwnedTempDir, packageVsix, repoRoot, startCodeServer, workbenchUrl } from './code-server.mjs';

const say = (msg) => console.log(`start: ${msg}`);

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
const sandboxPort = process.env.HDE_SANDBOX_PORT ?? '8787';
const sandbox = spawn(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'sandbox', '--port', sandboxPort], {
  cwd: repoRoot,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const sandboxUrl = await new Promise((resolve, reject) => {
  let out = '';
  sandbox.stdout.on('data', (d) => {
    out += d;
    const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
    if (m && out.includes('Ctrl-C')) resolve(m[1]);
  });
  sandbox.on('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it was ready:\n${out}`)));
}).catch((err) => {
  console.error(`start: ${err.message}`);
  process.exit(1);
});
const stopSandbox = () => {
  if (sandbox.exitCode === null) sandbox.kill('SIGINT');
};
process.on('exit', stopSandbox);

// A profile of its own that points the extension at the sandbox: the sandbox's credentials are
// documented defaults, handed over through healthData.sandbox.url, never written into settings.
const home = makeOwnedTempDir('hde-start-');
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

const port = Number(process.env.HDE_START_PORT ?? 8080);
const server = await startCodeServer({ port: port || undefined, userDataDir, extensionsDir, folder: workspace });
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
