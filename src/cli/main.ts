// The `health-data` command: argument parsing and dispatch over core. Exit codes: 0 ok,
// 1 a request failed or a record is invalid, 2 a usage error. Errors print one line, never a
// stack trace, never a secret.

import { parseArgs } from 'node:util';
import { isMainThread } from 'node:worker_threads';
import { HealthDataError, redact } from '../core/errors';
import { CONNECTION_OPTIONS, connect } from './connection';
import { Output, makeOutput } from './output';
import { exchangeOptions } from './exchanges';
import { getCommand, listCommand, resolveResource, tokenCommand } from './records';
import { sandboxCommand } from './sandbox';
import { schemasCommand, typesCommand } from './schemas';
import { validateCommand } from './validate';
import { VERSION } from './version';

export const USAGE = `health-data: the health-data service from the command line

Usage:
  health-data token [--show]                         mint a client token; print expiry and claims
  health-data get <heart-rate|activity|body-fat> [<id>|<YYYY-MM-DD>] [--all]
                                                     one record; \`get body-fat\` alone is the latest reading;
                                                     by date, says how many share the date (--all prints each)
  health-data list <resource> [--from D] [--to D] [--source S] [--limit N] [--all]
                                                     get, list: --verbose prints each request and reply
                                                     (status, headers, timing, attempts; no token) to stderr;
                                                     --curl prints the request as a cURL command, sends nothing
  health-data validate <file...> [--kind K] [--format F] [--out FILE] [--fail-on KINDS] [--all-findings] [--jobs N]
                                                     exit 1 when any record has an error (- reads stdin);
                                                     an array, a wrapped list or NDJSON, of any size;
                                                     in text, repeated findings grouped unless --all-findings
  health-data schemas [--out DIR]                    the records' JSON Schemas (2020-12); without --out, one JSON object
  health-data types [--out FILE]                     TypeScript declarations of the records, made from the schemas
  health-data sandbox [--port N] [--days N] [--seed S] [--humans N] [--fault F]... [--records FILE]
                                                     FILE: {"heartRate":[…],"activity":[…],"bodyFat":[…]} served too

Connection (token, get, list):
  --base-url URL      data host (or HEALTH_DATA_BASE_URL)
  --auth-url URL      token host (or HEALTH_DATA_AUTH_URL; defaults to the base URL)
  --auth-header NAME  header that carries the token (default Authorization)
  --auth-scheme S     scheme before the token (default Bearer; '' for none)
  --token-in-query    send the token as ?access_token= instead of a header
  --timeout MS        per-request timeout (default 30000)
Credentials come from the environment only (flags show in \`ps\`):
  HEALTH_DATA_CLIENT_ID, HEALTH_DATA_CLIENT_SECRET, and optionally HEALTH_DATA_ACCESS_TOKEN
  (a per-user access token used for data calls instead of the client token).

Output:
  --json              get: the record; list: a JSON array; validate: a report object; token: expiry and claims
  --format F          validate: text (default), json, sarif (SARIF 2.1.0), junit (JUnit XML) or
                      github (workflow annotations)
  --out FILE          validate: write the report to FILE and print only the closing line
  --fail-on KINDS     validate: kinds of finding that fail the run besides errors: warning, zero,
                      deprecated, unknown (comma-separated or repeated; errors always fail)
  --jobs N            validate: worker threads for files over 16 MB and NDJSON (default: the
                      number of cores); smaller files are validated whole, as the editor does
  --no-color          no colour (also NO_COLOR=1); colour is used only on a terminal

Faults for the sandbox (--fault, repeatable): latency, 429, 500, 502, 503, html, malformed-json,
  truncated, slow-body, reset, expired-token, revoked-token, status-in-body, no-expires-in,
  non-jwt-token, repeat-page, link-loop, oldest-first; with parameters: 429:retry-after=2, latency:ms=3000,
  503:times=2:path=/activities

Exit codes: 0 ok, 1 a request failed or a record is invalid, 2 usage error.`;

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  signals: NodeJS.EventEmitter;
}

const COMMON = { json: { type: 'boolean' }, 'no-color': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

/** get and list: show the exchanges (`--verbose`), or print the request as cURL instead (`--curl`). */
const EXCHANGE_OPTIONS = { verbose: { type: 'boolean' }, curl: { type: 'boolean' } } as const;

const COMMANDS = {
  token: { ...COMMON, ...CONNECTION_OPTIONS, show: { type: 'boolean' } },
  get: { ...COMMON, ...CONNECTION_OPTIONS, ...EXCHANGE_OPTIONS, all: { type: 'boolean' } },
  list: {
    ...COMMON,
    ...CONNECTION_OPTIONS,
    ...EXCHANGE_OPTIONS,
    from: { type: 'string' },
    to: { type: 'string' },
    source: { type: 'string' },
    limit: { type: 'string' },
    all: { type: 'boolean' },
  },
  validate: { ...COMMON, kind: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' }, 'fail-on': { type: 'string', multiple: true }, 'all-findings': { type: 'boolean' }, jobs: { type: 'string' } },
  schemas: { ...COMMON, out: { type: 'string' } },
  types: { ...COMMON, out: { type: 'string' } },
  sandbox: {
    ...COMMON,
    port: { type: 'string' },
    host: { type: 'string' },
    days: { type: 'string' },
    seed: { type: 'string' },
    humans: { type: 'string' },
    fault: { type: 'string', multiple: true },
    records: { type: 'string' },
  },
} as const;

type CommandName = keyof typeof COMMANDS;

const usageError = (message: string): HealthDataError => new HealthDataError('usage', message);

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  let o: Output = makeOutput(io.stdout, io.stderr, io.env, argv.includes('--no-color'));
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    o.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v') {
    o.out(VERSION);
    return 0;
  }
  let secrets: string[] = [];
  try {
    if (!Object.prototype.hasOwnProperty.call(COMMANDS, command)) {
      throw usageError(`Unknown command "${command.slice(0, 30)}". Commands: ${Object.keys(COMMANDS).join(', ')}.`);
    }
    const name = command as CommandName;
    let parsed;
    try {
      parsed = parseArgs({ args: rest, options: COMMANDS[name], allowPositionals: true, strict: true });
    } catch (err) {
      throw usageError(err instanceof Error ? err.message.replace(/\. To specify a positional.*$/s, '.') : String(err));
    }
    const { values, positionals } = parsed as { values: Record<string, unknown>; positionals: string[] };
    o = makeOutput(io.stdout, io.stderr, io.env, Boolean(values['no-color']));
    if (values.help) {
      o.out(USAGE);
      return 0;
    }
    const tooMany = (max: number): void => {
      if (positionals.length > max) throw usageError(`Too many arguments for ${name}: ${positionals.slice(max).join(' ').slice(0, 60)}`);
    };
    switch (name) {
      case 'token': {
        tooMany(0);
        const conn = connect(values, io.env, o);
        secrets = conn.secrets;
        return await tokenCommand(conn, o, values);
      }
      case 'get': {
        tooMany(2);
        const def = resolveResource(positionals[0]);
        const conn = connect(values, io.env, o, exchangeOptions(values, o));
        secrets = conn.secrets;
        return await getCommand(conn, o, def, positionals[1], values);
      }
      case 'list': {
        tooMany(1);
        const def = resolveResource(positionals[0]);
        const conn = connect(values, io.env, o, exchangeOptions(values, o));
        secrets = conn.secrets;
        return await listCommand(conn, o, def, values);
      }
      case 'validate':
        return await validateCommand(o, positionals, values, io.stdin);
      case 'schemas':
        tooMany(0);
        return await schemasCommand(o, values);
      case 'types':
        tooMany(0);
        return await typesCommand(o, values);
      case 'sandbox':
        tooMany(0);
        return await sandboxCommand(o, values, io.signals);
    }
  } catch (err) {
    const usage = err instanceof HealthDataError && err.kind === 'usage';
    const message = err instanceof Error ? err.message : String(err);
    o.err(`health-data: ${redact(message, [...secrets, io.env.HEALTH_DATA_CLIENT_SECRET, io.env.HEALTH_DATA_ACCESS_TOKEN])}`);
    if (usage) o.err('Run `health-data --help` for usage.');
    return usage ? 2 : 1;
  }
  return 2;
}

// Not in a worker thread: dist/cli.js is also the script of `validate`'s workers.
if (require.main === module && isMainThread) {
  // `health-data validate … | head`: a reader that stops early is no failure of ours.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    signals: process,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      // runCli catches everything it expects; this is a last line without a stack trace.
      process.stderr.write(`health-data: unexpected failure: ${redact(String(err), [process.env.HEALTH_DATA_CLIENT_SECRET])}\n`);
      process.exitCode = 1;
    },
  );
}
