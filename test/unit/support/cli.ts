// Shared by the CLI tests that run the `health-data` CLI in this process (runCli), as
// `node dist/cli.js` would run it, with streams of its own.
import { EventEmitter } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../../src/cli/main';

export interface CliRun {
  args: string[];
  code: number;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it, decoded as UTF-8 once it is all there. */
function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (d: Buffer) => chunks.push(d));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * Runs the CLI with `args`, `env` and, when given, `input` on its standard input (else none);
 * `signals` stands in for the process (emit 'SIGINT' on it to press Ctrl-C); `terminal`: which
 * of its standard output and standard error are terminals.
 */
export async function runCliInProcess(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  input?: string,
  signals = new EventEmitter(),
  terminal: { stdout?: boolean; stderr?: boolean } = {},
): Promise<CliRun> {
  const out = sink();
  const err = sink();
  // A terminal as the CLI tells one: the stream says isTTY.
  if (terminal.stdout) Object.assign(out.stream, { isTTY: true });
  if (terminal.stderr) Object.assign(err.stream, { isTTY: true });
  const stdin = Readable.from(input === undefined ? [] : [input]);
  const code = await runCli(args, { stdout: out.stream, stderr: err.stream, stdin, env, signals });
  // Let the streams hand over what was written last.
  await new Promise((r) => setImmediate(r));
  return { args, code, stdout: out.text(), stderr: err.text() };
}
