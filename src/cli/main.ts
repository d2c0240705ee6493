// The `health-data` command: argument parsing and dispatch over core. Exit codes: 0 ok,
// 1 a request failed or a record is invalid, 2 a usage error. Errors print one line, never a
// stack trace, never a secret.

import { parseArgs } from 'node:util';
import { isMainThread } from 'node:worker_threads';
import { argsProblem } from './argsProblems';
import { HealthDataError, redact } from '../core/errors';
import type { Exchange } from '../core/service';
import { CONNECTION_OPTIONS, Connection, ConnectOptions, connect } from './connection';
import { checkInsightFlags, coverageOfService, fileCoverageCommand, serviceCoverageCommand } from './coverage';
import { Output, makeOutput, printable } from './output';
import { exchangeOptions } from './exchanges';
import { checkGetTarget, getCommand, listCommand, listQueryOf, resolveResource, tokenCommand } from './records';
import { sandboxCommand } from './sandbox';
import { schemasCommand, typesCommand } from './schemas';
import { CliRecording, RECORD_OPTIONS, recordingFrom } from './recording';
import { runCommand, runPlanOf } from './run';
import { trendsCommand } from './trends';
import { validateCommand } from './validate';
import { FileTargetError } from './fileTargets';
import { VERSION } from './version';

export const USAGE = `health-data: the health-data service from the command line

Usage:
  health-data token [--show]                         mint a client token; print expiry and claims
  health-data get <heart-rate|activity|body-fat> [<id>|<YYYY-MM-DD>] [--all]
                                                     one record; \`get body-fat\` alone is the latest reading;
                                                     by date, says how many share the date (--all prints each)
  health-data list <resource> [--from D] [--to D] [--source S] [--limit N] [--all]
                  [--offset N] [--updated-since T] [--created-since T] [--human ID]
                  [--format json|ndjson|csv] [--out FILE]
                                                     --from D alone: from D to today;
                                                     --updated-since, --created-since: a date or an ISO
                                                     date-time (records changed or made since then);
                                                     --human: one human's records; --offset: start there
                                                     --format streams the list page by page (stdout,
                                                     or FILE, which appears only once complete)
                                                     get, list: --verbose prints each request and reply
                                                     (status, headers, timing, attempts; no token) to stderr;
                                                     --curl prints the request as a cURL command, sends nothing
  health-data validate <file|folder...> [--kind K] [--format F] [--out FILE] [--fail-on KINDS] [--omit KINDS]
                       [--all-findings] [--jobs N]
                                                     exit 1 when any record has an error (- reads stdin);
                                                     an array, a wrapped list or NDJSON, of any size;
                                                     a folder: its .json, .ndjson and .jsonl files, at any depth;
                                                     in text, repeated findings grouped unless --all-findings;
                                                     a file over 16 MB shows its progress on stderr on a terminal
  health-data schemas [--out DIR]                    the records' JSON Schemas (2020-12); without --out, one JSON object
  health-data types [--out FILE]                     TypeScript declarations of the records, made from the schemas
  health-data coverage <resource> [--from D] [--to D] [--source S] [--human ID]
                                                     which fields each source sends, over every page
                                                     (--from D alone: from D to today; --human: one
                                                     human's records, as the Records view's filter)
  health-data coverage <file|folder...> [--kind K]   the same over payload files (./activity for a file so named)
  health-data trends <resource> [--from D] [--to D] [--source S] [--human ID]
                                                     the charts of Show Trends over every page, one human's
                                                     (--human, or the one with the most records): per chart
                                                     and source a line of blocks and its figures, a 0 the
                                                     source sent for a value it lacks marked as a gap
  health-data run FILE [--only NAME]... [--format text|json|junit] [--out FILE] [--fail-on KINDS]
                                                     send the saved requests of FILE (the extension's
                                                     Export Saved Requests…, or an .http file or a Postman
                                                     collection: the requests the service serves) through this
                                                     connection, one by one, each reply validated; exit 1 when
                                                     any fails (not a 2xx, not a record, or a record breaking a
                                                     rule of --fail-on)
  health-data sandbox [--port N] [--days N] [--seed S] [--humans N] [--fault F]... [--records FILE]
                                                     FILE: {"heartRate":[…],"activity":[…],"bodyFat":[…]} served too
  health-data sandbox --replay FILE.har [FILE.har...] [--port N] [--fault F]...
                                                     serve recordings (merged) instead of generated data

Recording (get, list):
  --record FILE.har   append every exchange to FILE.har (HAR 1.2): humanIds, userIds and record ids
                      pseudonymized (a keyed hash, its random key never stored; set
                      HEALTH_DATA_PSEUDONYM_KEY to a passphrase to agree across runs); no secret,
                      token or Authorization value (placeholders)
  --keep-ids          keep the real identifiers (the file then identifies people: never share it)
  --shift-dates DAYS  move every date and timestamp by DAYS days (negative: back)
  --keep-weekdays     with --shift-dates: round to whole weeks, so each date keeps its weekday

Connection (token, get, list, run, trends, coverage of a resource):
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
  --json              get: the record; list: a JSON array (= --format json); validate: a report object;
                      token: expiry and claims; coverage: {resource, from, to, records, sources,
                      overlaps, notes} (an array of them when files hold several kinds);
                      trends: {resource, from, to, human, humans, records, charts: [{id, title,
                      unit, time, xs, series: [{source, field, band, never, unusual, values, gaps}]}]};
                      run: {requests: [{name, method, path, verdict, problem, status, records,
                      counts, ...}], passed, failed} (= --format json)
  --format F          list: json, ndjson (a record a line) or csv (schema field order, nested values as
                      JSON text, cells starting = + - @ tab CR prefixed with ' against formula injection);
                      validate: text (default), json, sarif (SARIF 2.1.0), junit (JUnit XML) or
                      github (workflow annotations); run: text (default), json or junit (a testcase
                      per saved request)
  --out FILE          list --format: write FILE (via a temporary name, renamed when complete);
                      validate, run: write the report to FILE and print only the closing line
  --fail-on KINDS     validate, run: kinds of finding that fail the run besides errors: warning, zero,
                      deprecated, unknown, unusual (comma-separated or repeated; errors always fail);
                      unusual: a 0 that stands out (its source sends the field as another number
                      on nearly all of its other records in the file, or in the reply)
  --omit KINDS        validate: kinds of finding left out of the report and its counts: warning,
                      zero (not those that stand out), deprecated, unknown, unusual (not errors,
                      nor a kind --fail-on names)
  --jobs N            validate: worker threads for files over 16 MB (default: the number of
                      cores when the files add up to 128 MB on two cores, 43 MB on four; else
                      1); smaller files (NDJSON too) are validated whole, as the editor does
  --no-color          no colour (also NO_COLOR=1); colour is used only on a terminal

Faults for the sandbox (--fault, repeatable): latency, 429, 500, 502, 503, html, malformed-json,
  truncated, slow-body, reset, expired-token, revoked-token, status-in-body, no-expires-in,
  non-jwt-token, repeat-page, link-loop, oldest-first; with parameters: 429:retry-after=2, latency:ms=3000,
  503:times=2:path=/activities

Exit codes: 0 ok, 1 a request failed, a file could not be read or a record is invalid
(coverage, trends: never for records), 2 usage error.`;

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  signals: NodeJS.EventEmitter;
}

const COMMON = { json: { type: 'boolean' }, 'no-color': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

/** get and list: show the exchanges (`--verbose`), or print the request as cURL instead (`--curl`). */
const EXCHANGE_OPTIONS = { verbose: { type: 'boolean' }, curl: { type: 'boolean' } } as const;

/** list, coverage and trends over the service: a range, a source, a human, as the Records view's filters. */
const FILTER_OPTIONS = {
  ...COMMON,
  ...CONNECTION_OPTIONS,
  from: { type: 'string' },
  to: { type: 'string' },
  source: { type: 'string' },
  human: { type: 'string' },
} as const;

const COMMANDS = {
  token: { ...COMMON, ...CONNECTION_OPTIONS, show: { type: 'boolean' } },
  get: { ...COMMON, ...CONNECTION_OPTIONS, ...EXCHANGE_OPTIONS, ...RECORD_OPTIONS, all: { type: 'boolean' } },
  list: {
    ...FILTER_OPTIONS,
    ...EXCHANGE_OPTIONS,
    ...RECORD_OPTIONS,
    limit: { type: 'string' },
    offset: { type: 'string' },
    'updated-since': { type: 'string' },
    'created-since': { type: 'string' },
    all: { type: 'boolean' },
    format: { type: 'string' },
    out: { type: 'string' },
  },
  validate: { ...COMMON, kind: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' }, 'fail-on': { type: 'string', multiple: true }, omit: { type: 'string', multiple: true }, 'all-findings': { type: 'boolean' }, jobs: { type: 'string' } },
  run: { ...COMMON, ...CONNECTION_OPTIONS, only: { type: 'string', multiple: true }, format: { type: 'string' }, out: { type: 'string' }, 'fail-on': { type: 'string', multiple: true } },
  schemas: { ...COMMON, out: { type: 'string' } },
  types: { ...COMMON, out: { type: 'string' } },
  coverage: { ...FILTER_OPTIONS, kind: { type: 'string' } },
  trends: FILTER_OPTIONS,
  sandbox: {
    ...COMMON,
    port: { type: 'string' },
    host: { type: 'string' },
    days: { type: 'string' },
    seed: { type: 'string' },
    humans: { type: 'string' },
    fault: { type: 'string', multiple: true },
    records: { type: 'string' },
    replay: { type: 'string', multiple: true },
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
      throw usageError(argsProblem(err, name, COMMANDS, rest));
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
        checkGetTarget(def, positionals[1]);
        const recording = recordingFrom(values, io.env, o);
        const conn = connect(values, io.env, o, alsoRecording(exchangeOptions(values, o), recording));
        secrets = conn.secrets;
        return await recorded(recording, conn, o, values.record as string, () => getCommand(conn, o, def, positionals[1], values));
      }
      case 'list': {
        tooMany(1);
        const def = resolveResource(positionals[0]);
        const listed = listQueryOf(values);
        const recording = recordingFrom(values, io.env, o);
        const conn = connect(values, io.env, o, alsoRecording(exchangeOptions(values, o), recording));
        secrets = conn.secrets;
        return await recorded(recording, conn, o, values.record as string, () =>
          withInterrupt(io.signals, (signal) => listCommand(conn, o, def, listed, values, { signal, writeStdout: (text) => void io.stdout.write(text) })),
        );
      }
      case 'validate':
        return await validateCommand(o, positionals, values, io.stdin);
      case 'coverage': {
        const def = coverageOfService(positionals, values);
        if (!def) return await fileCoverageCommand(o, positionals, values, io.stdin);
        const dates = checkInsightFlags(values);
        const conn = connect(values, io.env, o);
        secrets = conn.secrets;
        return await serviceCoverageCommand(conn, o, def, dates, values);
      }
      case 'trends': {
        tooMany(1);
        const def = resolveResource(positionals[0]);
        const dates = checkInsightFlags(values);
        const conn = connect(values, io.env, o);
        secrets = conn.secrets;
        return await withInterrupt(io.signals, (signal) => trendsCommand(conn, o, def, dates, values, signal));
      }
      case 'run': {
        const plan = runPlanOf(positionals, values);
        const exchanges: Exchange[] = [];
        const conn = connect(values, io.env, o, { onExchange: (e) => exchanges.push(e) });
        secrets = conn.secrets;
        return await withInterrupt(io.signals, (signal) => runCommand(conn, exchanges, o, plan, signal));
      }
      case 'schemas':
        tooMany(0);
        return await schemasCommand(o, values);
      case 'types':
        tooMany(0);
        return await typesCommand(o, values);
      case 'sandbox':
        // `--replay a.har b.har`: the recordings after the first may follow as plain arguments.
        if (!values.replay) tooMany(0);
        return await sandboxCommand(o, { ...values, replay: values.replay ? [...(values.replay as string[]), ...positionals] : undefined }, io.signals);
    }
  } catch (err) {
    const usage = err instanceof HealthDataError && err.kind === 'usage';
    const message = err instanceof Error ? err.message : String(err);
    o.err(`health-data: ${redact(message, [...secrets, io.env.HEALTH_DATA_CLIENT_SECRET, io.env.HEALTH_DATA_ACCESS_TOKEN])}`);
    if (usage && !(err instanceof FileTargetError)) o.err('Run `health-data --help` for usage.');
    return usage ? 2 : 1;
  }
  return 2;
}

/** The connection's options with every exchange also kept by the recording (--record). */
function alsoRecording(options: ConnectOptions, recording: CliRecording | undefined): ConnectOptions {
  if (!recording) return options;
  if (options.needsCredentials === false) throw usageError('--curl sends nothing, so there is nothing to --record.');
  const shown = options.onExchange;
  return {
    ...options,
    onExchange: (exchange) => {
      recording.recorder.add(exchange);
      shown?.(exchange);
    },
  };
}

/**
 * Runs a command and then, with --record, writes what it exchanged, whether it succeeded or not
 * (a failed run's replies are worth keeping too).
 */
async function recorded(recording: CliRecording | undefined, conn: Connection, o: Output, file: string, work: () => Promise<number>): Promise<number> {
  if (!recording) return work();
  let code: number | undefined;
  try {
    code = await work();
    return code;
  } finally {
    const count = recording.save([...conn.secrets, conn.client.currentToken?.token]);
    o.err(`${count} exchange${count === 1 ? '' : 's'} recorded to ${printable(file, 80)}`);
  }
}

/** Runs `work` with a signal that Ctrl-C (SIGINT/SIGTERM) aborts, so a long list stops cleanly. */
async function withInterrupt<T>(signals: NodeJS.EventEmitter, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  signals.once('SIGINT', stop);
  signals.once('SIGTERM', stop);
  try {
    return await work(controller.signal);
  } finally {
    signals.off('SIGINT', stop);
    signals.off('SIGTERM', stop);
  }
}

// Not in a worker thread: dist/cli.js is also the script of `validate`'s workers.
if (require.main === module && isMainThread) {
  // `health-data list … | head`: the reader went away; stop quietly, as other tools do.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
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
