// Runs generated code for real (bash, node, python3) as child processes, asynchronously so a
// sandbox in this process keeps answering while they run.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ProgramRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runProgram(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ProgramRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'hde-programs-'));
let files = 0;

/** Writes `text` to a new file in a scratch folder and returns its path. */
export function scratchFile(name: string, text: string): string {
  const path = join(scratch, `${++files}-${name}`);
  writeFileSync(path, text);
  return path;
}

/** A folder to put first on PATH, holding a `curl` that prints its arguments as JSON instead of sending. */
export function fakeCurlFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'hde-fake-curl-'));
  const curl = join(folder, 'curl');
  writeFileSync(curl, `#!${process.execPath}\nprocess.stdout.write(JSON.stringify(process.argv.slice(2)));\n`);
  chmodSync(curl, 0o755);
  return folder;
}

/** python3 with the requests package, as this machine has it. */
export const python = (() => {
  const probe = spawnSync('python3', ['-c', 'import requests'], { stdio: 'ignore' });
  const present = !probe.error && spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0;
  return { present, requests: present && probe.status === 0 };
})();
