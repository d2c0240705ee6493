// The set-up scripts' edges: `npm start` with a port taken names the variable that moves it;
// Ctrl-C says only what it stops; temporary folders go when the scripts end, whatever the names
// inside them; and every package `npm ci` installs takes the Node we run.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '../support/repo';

interface Ran { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** Runs `node args…`; `onStdout` sees what it printed so far and may act (send a signal). */
function node(args: string[], env: NodeJS.ProcessEnv = {}, onStdout?: (text: string, kill: (s: NodeJS.Signals) => void) => void): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      onStdout?.(stdout, (s) => child.kill(s));
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

async function takePort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port };
}

const START = join(repoRoot, 'scripts', 'start.mjs');
const CODE_SERVER = join(repoRoot, 'scripts', 'code-server.mjs');
/** A file name with an ANSI escape, a right-to-left override and a bell. */
const HOSTILE_NAME = '\u001b[31m\u202Eevil\u0007.json';

/** A module script that uses code-server.mjs's temp-folder and exit helpers, then waits or ends. */
function helperScript(body: string): string[] {
  return ['--input-type=module', '-e', `
import { makeOwnedTempDir, noteRunning, privateTmpdir, removeOnExit } from ${JSON.stringify(CODE_SERVER)};
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
${body}
`];
}

describe('set-up scripts', function () {
  this.timeout(30_000);

  describe('npm start with a port taken', () => {
    for (const [variable, other, what] of [['HDE_SANDBOX_PORT', 'HDE_START_PORT', 'the sandbox'], ['HDE_START_PORT', 'HDE_SANDBOX_PORT', 'VS Code']]) {
      it(`names ${variable} when ${what}'s port is in use, before building anything`, async () => {
        const { server, port } = await takePort();
        try {
          const r = await node([START], { [variable]: String(port), [other]: '0' });
          assert.equal(r.code, 1);
          assert.match(r.stderr, new RegExp(`start: port ${port} for ${what}.* is in use: set ${variable} to another port, or to 0 for a free one \\(for example \`${variable}=0 npm start\`\\)`));
          assert.doesNotMatch(r.stderr, /--port/, 'the CLI\'s advice is not for npm start');
          assert.doesNotMatch(r.stdout, /building/);
        } finally {
          server.close();
        }
      });
    }

    it('refuses a port variable that is not a port', async () => {
      const r = await node([START], { HDE_SANDBOX_PORT: '87a87' });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /HDE_SANDBOX_PORT="87a87" is not a port: use a whole number from 0 to 65535/);
    });
  });

  describe('exit and Ctrl-C', () => {
    it('on Ctrl-C names only what runs, and removes its folders with hostile names inside', async () => {
      let dir = '';
      const r = await node(helperScript(`
const dir = makeOwnedTempDir('hde-setup-test-');
removeOnExit(dir);
writeFileSync(join(dir, ${JSON.stringify(HOSTILE_NAME)}), 'x');
noteRunning('the sandbox');
console.log('dir=' + dir);
setInterval(() => {}, 1000);
`), {}, (text, kill) => {
        const m = /dir=(.+)\n/.exec(text);
        if (m && !dir) {
          dir = m[1];
          assert.ok(existsSync(join(dir, HOSTILE_NAME)), 'calibration: the file was written');
          kill('SIGINT');
        }
      });
      assert.equal(r.code, 130, r.stderr);
      assert.match(r.stderr, /SIGINT received: stopping the sandbox\n/);
      assert.doesNotMatch(r.stderr, /Chromium|code-server/);
      assert.ok(dir && !existsSync(dir), `${dir} is still there`);
    });

    it('names nothing it did not start', async () => {
      const r = await node(helperScript(`
removeOnExit(makeOwnedTempDir('hde-setup-test-'));
console.log('ready');
setInterval(() => {}, 1000);
`), {}, (text, kill) => text.includes('ready') && kill('SIGINT'));
      assert.equal(r.code, 130);
      assert.match(r.stderr, /SIGINT received: removing temporary folders\n/);
    });

    it('a private TMPDIR takes what children write to the temporary folder, and goes at a normal exit', async () => {
      const r = await node(helperScript(`
const tmp = privateTmpdir('hde-setup-test-');
const child = spawnSync(process.execPath, ['-e', 'const fs = require("fs"), os = require("os"), p = require("path"); const d = fs.mkdtempSync(p.join(os.tmpdir(), "left-")); fs.writeFileSync(p.join(d, ${JSON.stringify(JSON.stringify(HOSTILE_NAME)).slice(1, -1)}), "x"); console.log(d);'], { env: { ...process.env, TMPDIR: tmp }, encoding: 'utf8' });
console.log('tmp=' + tmp);
console.log('child=' + child.stdout.trim());
`));
      assert.equal(r.code, 0, r.stderr);
      const tmp = /tmp=(.+)/.exec(r.stdout)?.[1] ?? '';
      const left = /child=(.+)/.exec(r.stdout)?.[1] ?? '';
      assert.ok(left.startsWith(`${tmp}/left-`), `the child wrote under ${left}`);
      assert.ok(!existsSync(tmp) && !existsSync(left), 'the folders are gone');
    });

    it('npm test and npm start keep their temporary folders in such folders', () => {
      const test = readFileSync(join(repoRoot, 'scripts', 'test.mjs'), 'utf8');
      assert.match(test, /const tmp = privateTmpdir\('hde-test-'\);\nprocess\.env\.TMPDIR = tmp;/);
      const start = readFileSync(START, 'utf8');
      assert.match(start, /const home = makeOwnedTempDir\('hde-start-'\);\nremoveOnExit\(home\);/);
    });
  });

  it('every package npm ci installs takes the Node we run (no EBADENGINE)', () => {
    const semver = require('semver') as { satisfies(version: string, range: string): boolean };
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };
    const refused = Object.entries(lock.packages)
      .filter(([, p]) => p.engines && !Array.isArray(p.engines) && p.engines.node && !semver.satisfies(process.version, p.engines.node))
      .map(([name, p]) => `${name} wants node ${(p.engines as { node: string }).node}`);
    assert.deepEqual(refused, []);
  });
});
