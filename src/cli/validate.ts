// `health-data validate <file...>`: checks payload files (one record, an array, a wrapped list or
// NDJSON, of any size) against the schemas and prints every finding with its line and column;
// exits 1 when any record has an error. Files are read in chunks and split into records as they
// come (core/streaming), so memory holds a few batches of records, never the file.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { HealthDataError } from '../core/errors';
import type { ResourceKind } from '../core/resources';
import { RecordReport, RecordSplitter, RecordUnit, SplitError } from '../core/streaming';
import { resolveResource } from './records';
import { Output, countFindings, mark, paint, printable } from './output';
import { UnitPool } from './validateWorkers';

/** Records handed to a worker at once, and the bytes that close a batch early. */
const BATCH_RECORDS = 2_000;
const BATCH_BYTES = 1024 * 1024;
/** Batches in flight per job: enough to keep every worker busy, few enough to bound memory. */
const IN_FLIGHT_PER_JOB = 2;
const READ_CHUNK = 1024 * 1024;

export interface ValidateFlags {
  kind?: string;
  json?: boolean;
  /** Worker threads; default the number of cores. */
  jobs?: string;
}

/** What is reported of one file: its records as they are validated, then how it ended. */
interface FileSink {
  record(r: RecordReport): void;
  /** The file could not be read or split (after the records before the problem, if any). */
  end(error: string | undefined): void;
}

function parseJobs(value: string | undefined): number {
  if (value === undefined) return Math.max(1, availableParallelism());
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < 1 || n > 256) {
    throw new HealthDataError('usage', `--jobs must be a whole number from 1 to 256, got ${printable(value, 20)}`);
  }
  return n;
}

async function openPayload(file: string, stdin: NodeJS.ReadableStream): Promise<AsyncIterable<Buffer | string>> {
  if (file === '-') return stdin as AsyncIterable<Buffer | string>;
  let info;
  try {
    info = await stat(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : `cannot read it (${code ?? 'unknown error'})`);
  }
  if (info.isDirectory()) throw new Error('is a directory, not a file');
  return createReadStream(file, { highWaterMark: READ_CHUNK });
}

/**
 * Reads one payload, splits it into records and validates them on the pool, handing each
 * record's report to the sink in file order. Throws what makes the file unreadable.
 */
async function validateStream(source: AsyncIterable<Buffer | string>, pool: UnitPool, sink: FileSink): Promise<void> {
  const splitter = new RecordSplitter();
  const inFlight: Array<Promise<Awaited<ReturnType<UnitPool['check']>>>> = [];
  let batch: RecordUnit[] = [];
  let batchBytes = 0;
  let wholeError: string | undefined;
  const drainOne = async (): Promise<void> => {
    for (const result of await inFlight.shift()!) {
      if ('syntaxError' in result) wholeError = result.syntaxError;
      else for (const r of result.records) sink.record(r);
    }
  };
  const send = async (): Promise<void> => {
    if (batch.length === 0) return;
    inFlight.push(pool.check(batch));
    batch = [];
    batchBytes = 0;
    while (inFlight.length >= pool.jobs * IN_FLIGHT_PER_JOB) await drainOne();
  };
  const take = async (units: RecordUnit[]): Promise<void> => {
    for (const u of units) {
      batch.push(u);
      batchBytes += u.bytes.length;
      if (batch.length >= BATCH_RECORDS || batchBytes >= BATCH_BYTES) await send();
    }
  };
  let problem: unknown;
  try {
    for await (const chunk of source) await take(splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    await take(splitter.end());
  } catch (err) {
    problem = err;
  }
  // The records read before a problem are reported before it.
  if (batch.length > 0) inFlight.push(pool.check(batch));
  while (inFlight.length > 0) await drainOne();
  if (problem !== undefined) throw problem;
  if (wholeError !== undefined) throw new Error(`is ${wholeError}`);
  if (splitter.units === 0) throw new Error(splitter.emptyList ? 'holds an empty list: nothing to validate' : 'is empty');
}

/** Why a file could not be validated, as the end of "<file> …". */
function problemOf(err: unknown): string {
  if (err instanceof SplitError) return `is not valid JSON (${err.message})`;
  return err instanceof Error ? err.message : String(err);
}

export async function validateCommand(o: Output, files: string[], flags: ValidateFlags, stdin: NodeJS.ReadableStream): Promise<number> {
  if (files.length === 0) throw new HealthDataError('usage', 'Name at least one file to validate (or - for standard input).');
  const kind: ResourceKind | undefined = flags.kind !== undefined ? resolveResource(flags.kind).kind : undefined;
  const pool = new UnitPool(parseJobs(flags.jobs), kind);
  const totals = { records: 0, invalid: 0, unreadable: 0 };
  const out = buffered(o);
  const printer = flags.json ? jsonPrinter(out) : textPrinter(out);
  try {
    for (const file of files) {
      const sink = printer.file(file);
      const counting: FileSink = {
        record: (r) => {
          totals.records++;
          if (!r.valid) totals.invalid++;
          sink.record(r);
        },
        end: (error) => {
          if (error !== undefined) totals.unreadable++;
          sink.end(error);
        },
      };
      try {
        out.flush();
        await validateStream(await openPayload(file, stdin), pool, counting);
        counting.end(undefined);
      } catch (err) {
        counting.end(`${file === '-' ? 'standard input' : file} ${problemOf(err)}`);
      }
    }
  } finally {
    await pool.close();
  }
  printer.close(totals, files.length);
  out.flush();
  return totals.invalid > 0 || totals.unreadable > 0 ? 1 : 0;
}

interface Printer {
  file(name: string): FileSink;
  close(totals: { records: number; invalid: number; unreadable: number }, files: number): void;
}

/** Lines gathered and written some 64 KB at a time: one write per record would cost more than its validation. */
function buffered(o: Output): Output & { flush(): void } {
  let lines: string[] = [];
  let size = 0;
  const flush = () => {
    if (lines.length > 0) o.out(lines.join('\n'));
    lines = [];
    size = 0;
  };
  return {
    color: o.color,
    err: o.err,
    out(line = '') {
      lines.push(line);
      size += line.length;
      if (size > 65_536) flush();
    },
    flush,
  };
}

/** `{"files": [{"file", "records": [...], "error"?}]}`, written as it comes: one record a line. */
function jsonPrinter(o: Output): Printer {
  let files = 0;
  o.out('{"files": [');
  return {
    file(name) {
      let records = 0;
      let started = false;
      const start = () => {
        if (started) return;
        started = true;
        o.out(`${files++ > 0 ? ',' : ''}{"file": ${JSON.stringify(name)}, "records": [`);
      };
      return {
        record(r) {
          start();
          o.out(`${records++ > 0 ? ',' : ''}${JSON.stringify(r)}`);
        },
        end(error) {
          start();
          o.out(`]${error === undefined ? '' : `, "error": ${JSON.stringify(error)}`}}`);
        },
      };
    },
    close() {
      o.out(']}');
    },
  };
}

/** The file's name, then a line per record and one per finding, then a summary line. */
function textPrinter(o: Output): Printer {
  return {
    file(name) {
      let headed = false;
      return {
        record(r) {
          if (!headed) {
            headed = true;
            o.out(paint(o, 'bold', printable(name, 120)));
          }
          printRecord(o, r);
        },
        end(error) {
          if (error !== undefined) o.out(`${mark(o, 'error')} ${printable(error, 200)}`);
        },
      };
    },
    close(totals, files) {
      const tail = [`${totals.records} record${totals.records === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`];
      tail.push(totals.invalid ? paint(o, 'red', `${totals.invalid} invalid`) : paint(o, 'green', 'all valid'));
      if (totals.unreadable) tail.push(paint(o, 'red', `${totals.unreadable} file${totals.unreadable === 1 ? '' : 's'} not validated`));
      o.out(tail.join(', '));
    },
  };
}

function printRecord(o: Output, r: RecordReport): void {
  const where = r.index === null ? 'record' : `#${r.index}`;
  const status = r.valid ? paint(o, 'green', 'valid') : paint(o, 'red', 'invalid');
  const counts = countFindings(r.findings);
  o.out(`  ${where} ${r.kind ?? 'unknown kind'} ${printable(r.id ?? '(no id)', 30)}: ${status}${counts === 'clean' ? '' : ` (${counts})`}`);
  for (const f of r.findings) {
    o.out(`    ${mark(o, f.kind)} ${printable(f.path || '(record)', 50)} ${f.line}:${f.column}  ${printable(f.message, 120)}`);
  }
}
