// `health-data validate <file...>`: checks payload files (one record, an array, a wrapped list or
// NDJSON, of any size) against the schemas and reports every finding as text, JSON, SARIF, JUnit
// XML or GitHub annotations; exits 1 when a record has an error (or a finding of a --fail-on kind).
// A file under SMALL_FILE_BYTES is read whole and placed exactly as the Problems panel places it;
// a larger one (and NDJSON) is split into records as it is read (core/streaming) and validated on
// worker threads (--jobs), so memory holds a few batches of records, never the file. Both feed
// the same report writers record by record.

import { createWriteStream, rmSync } from 'node:fs';
import { type FileHandle, mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HealthDataError } from '../core/errors';
import {
  type BatchContext,
  type FileProblem,
  JsonReportWriter,
  GITHUB_SARIF_RESULTS_LIMIT,
  GithubWriter,
  type OmitKinds,
  SarifWriter,
  REPORT_FORMATS,
  type ReportFormat,
  type ReportRecord,
  ReportTally,
  type ReportWriter,
  createReportWriter,
  explainLineZeros,
  isBatchWriter,
  parseFailOn,
  parseOmit,
  payloadReport,
  reportFileFor,
  streamedProblem,
  streamedRecord,
  takeBatch,
  withoutOmitted,
} from '../core/reports';
import type { ResourceKind } from '../core/resources';
import { KIND_LIST } from '../core/validation';
import type { ZeroPlace } from '../core/views';
import { RecordSplitter, type RecordReport, RecordUnit, UTF16_MESSAGE, startsAsUtf16 } from '../core/streaming';
import { FileTargetError, checkWriteTarget, whyNotReadAfterName, whyNotWritten } from './fileTargets';
import { ReadProgress, SMALL_FILE_BYTES, expandFolders, readAhead, statPayloadFile } from './payloadFiles';
import { resolveResource } from './records';
import { Output, drained, printable, thousands } from './output';
import { TextReportWriter, summaryLine } from './textReport';
import { type GroupedBatch, type RenderedBatch, type ReportBatch, UnitPool } from './validateWorkers';
import { type SentCount, SentCounter } from './streamedZeros';
import { VERSION } from './version';
import { withoutBom } from '../core/json';

/** Records handed to a worker at once, and the bytes that close a batch early. */
const BATCH_RECORDS = 2_000;
const BATCH_BYTES = 1024 * 1024;
/** Batches in flight per job: enough to keep every worker busy, few enough to bound memory. */
const IN_FLIGHT_PER_JOB = 2;
/** Report text gathered and written some 64 KB at a time: one write per record costs more than its validation. */
const OUTPUT_BLOCK = 65_536;

export interface ValidateFlags {
  kind?: string;
  json?: boolean;
  format?: string;
  out?: string;
  'fail-on'?: string[];
  /** Every finding of every record in the text report, instead of repeated ones grouped. */
  'all-findings'?: boolean;
  /** Worker threads for streamed files; by default one per core on enough bytes (defaultJobs), else 1. */
  jobs?: string;
  /** Kinds of finding left out of the report. */
  omit?: string[];
}

function formatOf(flags: ValidateFlags): ReportFormat {
  const format = flags.format?.trim().toLowerCase();
  if (format === undefined) return flags.json ? 'json' : 'text';
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    throw new HealthDataError('usage', `--format takes ${REPORT_FORMATS.join(', ')}, not "${format.slice(0, 30)}".`);
  }
  if (flags.json && format !== 'json') throw new HealthDataError('usage', `--json is --format json: it cannot go with --format ${format}.`);
  return format as ReportFormat;
}

/** `--jobs` as given; undefined when not given (see defaultJobs). */
function parseJobs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < 1 || n > 256) {
    throw new HealthDataError('usage', `--jobs must be a whole number from 1 to 256, got "${printable(value, 20)}".`);
  }
  return n;
}

/**
 * Files that add up to less than this are checked in the CLI's own thread when --jobs is not
 * given on a machine of `cores` cores: worker threads take longer to start and warm up than
 * they save on less. Measured on two cores (BENCHMARKS.md): NDJSON files of 1 to 80 MB took
 * up to a quarter longer with two workers than with none, 100 MB about the same, 128 MB 3–4 %
 * less, 300 MB a quarter less. Each further core shares the work after that start, so the size at
 * which workers pay falls with the cores: 128 MB on two, 64 MB on three, 43 MB on four.
 */
export function workersFromBytes(cores: number): number {
  return Math.ceil(WORKERS_FROM_BYTES_ON_TWO_CORES / Math.max(1, cores - 1));
}
export const WORKERS_FROM_BYTES_ON_TWO_CORES = 128 * 1024 * 1024;

/**
 * The jobs of a run without --jobs: one, unless the files add up to workersFromBytes(cores) or
 * more, or standard input (of a size not known ahead) is read; then one per core. A file that
 * cannot be read counts for nothing here (it is reported when it is read).
 */
export async function defaultJobs(files: readonly string[], cores = availableParallelism()): Promise<number> {
  if (cores <= 1) return 1;
  const enough = workersFromBytes(cores);
  let bytes = 0;
  for (const file of files) {
    if (file === '-') return cores;
    try {
      bytes += (await stat(file)).size;
    } catch {
      continue;
    }
    if (bytes >= enough) return cores;
  }
  return 1;
}

/** A payload: its bytes when small enough to read whole, else its chunks as they are read. */
type Payload = { readonly whole: Buffer } | { readonly chunks: AsyncIterable<Buffer>; readonly size?: number };

function asBuffer(chunk: unknown): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
}

/** Standard input, gathered up to SMALL_FILE_BYTES; past that, streamed on from what was gathered. */
async function stdinPayload(stdin: NodeJS.ReadableStream): Promise<Payload> {
  const iterator = (stdin as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done) return { whole: Buffer.concat(head) };
    const buf = asBuffer(next.value);
    head.push(buf);
    size += buf.length;
    if (size > SMALL_FILE_BYTES) break;
  }
  async function* rest(): AsyncIterable<Buffer> {
    yield* head.splice(0);
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield asBuffer(next.value);
  }
  return { chunks: rest() };
}

/** Standard input copied to be read twice, or why it could not be, with its chunks to read once instead. */
type StdinCopy = { readonly path: string; readonly size: number; readonly remove: () => Promise<void> } | { readonly notKept: string; readonly chunks: AsyncIterable<Buffer> };

/**
 * Standard input past SMALL_FILE_BYTES kept in a private temporary file (a folder of its own,
 * readable by its owner only), so that it can be read twice as a large file is (streamedZeros.ts);
 * `remove` deletes it. Memory stays bounded: each chunk is written before the next is read. Where
 * no copy can be made (no TMPDIR, a full disk), nothing is lost: what was copied is read back,
 * then the rest of standard input, once.
 */
async function keptInTemporaryFile(chunks: AsyncIterable<Buffer>): Promise<StdinCopy> {
  const iterator = chunks[Symbol.asyncIterator]();
  let dir: string;
  try {
    dir = await mkdtemp(join(tmpdir(), 'health-data-'));
  } catch (err) {
    return { notKept: reasonOf(err), chunks: restOf(iterator) };
  }
  // Health records on disk: removed however the run ends, Ctrl-C included.
  const guard = removedAtExit(dir);
  const remove = async () => {
    guard();
    await rm(dir, { recursive: true, force: true });
  };
  let handle: FileHandle;
  try {
    handle = await open(join(dir, STDIN_COPY), 'wx', 0o600);
  } catch (err) {
    await remove();
    return { notKept: reasonOf(err), chunks: restOf(iterator) };
  }
  const path = join(dir, STDIN_COPY);
  let size = 0;
  try {
    // What stops the reading of standard input itself is said as it would be without the copy.
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const chunk = next.value;
      let written = 0;
      try {
        while (written < chunk.length) written += (await handle.write(chunk, written, chunk.length - written)).bytesWritten;
      } catch (err) {
        await handle.close();
        return { notKept: reasonOf(err), chunks: copiedThenRest(path, size + written, chunk.subarray(written), iterator, remove) };
      }
      size += chunk.length;
    }
  } catch (err) {
    await handle.close();
    await remove();
    throw err;
  }
  await handle.close();
  return { path, size, remove };
}

const STDIN_COPY = 'standard input';

const EXIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Removes `dir` when the process exits or a signal ends it (the signal then does what it would
 * have done); the function returned stops watching.
 */
function removedAtExit(dir: string): () => void {
  const removeNow = () => rmSync(dir, { recursive: true, force: true });
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    removeNow();
    process.kill(process.pid, signal);
  };
  const stop = () => {
    process.off('exit', removeNow);
    for (const signal of EXIT_SIGNALS) process.off(signal, onSignal);
  };
  process.once('exit', removeNow);
  for (const signal of EXIT_SIGNALS) process.once(signal, onSignal);
  return stop;
}

const reasonOf = (err: unknown): string => {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : err instanceof Error ? err.message : String(err);
};

async function* restOf(iterator: AsyncIterator<Buffer>): AsyncIterable<Buffer> {
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
}

/** The part of standard input that was copied, read back, then what was not, once; the copy removed at the end. */
async function* copiedThenRest(path: string, copied: number, pending: Buffer, iterator: AsyncIterator<Buffer>, remove: () => Promise<void>): AsyncIterable<Buffer> {
  try {
    if (copied > 0) yield* readAhead(path);
    if (pending.length > 0) yield pending;
    yield* restOf(iterator);
  } finally {
    await remove();
  }
}

/** Said on stderr when standard input could not be copied to be read twice: its zeros were judged record by record. */
function notReadTwice(reason: string, rule: string): string {
  const so = rule === '--omit zero' ? '--omit zero left out every 0 of it, also any that would stand out' : `${rule} found no 0 that stands out in it`;
  return `health-data: standard input could not be kept in a temporary file to be read twice (${reason}; TMPDIR names the folder for such files): each of its records was judged as it was read, so ${so}.`;
}

async function openPayload(file: string, stdin: NodeJS.ReadableStream, progress: ReadProgress): Promise<Payload> {
  if (file === '-') return stdinPayload(stdin);
  const info = await statPayloadFile(file);
  if (info.size <= SMALL_FILE_BYTES) return { whole: await readFile(file) };
  return { chunks: progress.over(readAhead(file), file, info.size), size: info.size };
}

/** What a file's validation hands on: its records in order, then at most one problem. */
interface FileSink {
  record(r: ReportRecord): void;
  /** When given, records checked in this thread come here as checked, instead of to `record`. */
  streamed?(r: RecordReport): void;
  /** Records the pool rendered for the JSON report (UnitPool reducing to 'json'). */
  rendered(batch: RenderedBatch): void;
  /** Records the pool gathered for the grouped text (UnitPool reducing to 'groups'). */
  grouped(batch: GroupedBatch): void;
  /** Records the pool wrote for a SARIF, JUnit or GitHub writer (UnitPool reducing to 'report'). */
  reported(batch: ReportBatch): void;
  /** Records the pool counted by kind and source (UnitPool reducing to 'counts': a file's first pass). */
  counted?(counts: readonly SentCount[]): void;
  problem(p: FileProblem): void;
  /** Undefined, or a promise of the moment the report's reader has taken what was written. */
  backlog?(): Promise<void> | undefined;
}

/**
 * Splits a payload read in chunks into records and validates them on the pool, handing each
 * record to the sink in file order, then the problem that stopped the file, if any. `context`:
 * the report writer's context of the file, when the pool writes its records.
 */
async function validateStream(source: AsyncIterable<Buffer>, pool: UnitPool, sink: FileSink, context?: BatchContext): Promise<void> {
  const splitter = new RecordSplitter();
  const inFlight: Array<ReturnType<UnitPool['check']>> = [];
  let batch: RecordUnit[] = [];
  let batchBytes = 0;
  let wholeError: string | undefined;
  const drainOne = async (): Promise<void> => {
    const batch = await inFlight.shift()!;
    if ('rendered' in batch) {
      sink.rendered(batch.rendered);
      wholeError = batch.rendered.syntaxError ?? wholeError;
      return;
    }
    if ('grouped' in batch) {
      sink.grouped(batch.grouped);
      wholeError = batch.grouped.syntaxError ?? wholeError;
      return;
    }
    if ('report' in batch) {
      sink.reported(batch.report);
      wholeError = batch.report.syntaxError ?? wholeError;
      return;
    }
    if ('counted' in batch) {
      sink.counted?.(batch.counted);
      return;
    }
    for (const result of batch.results) {
      if ('syntaxError' in result) wholeError = result.syntaxError;
      else if (sink.streamed) for (const r of result.records) sink.streamed(r);
      else for (const r of result.records) sink.record(streamedRecord(r));
    }
  };
  const send = async (): Promise<void> => {
    if (batch.length === 0) return;
    inFlight.push(pool.check(batch, context));
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
    for await (const chunk of source) {
      await take(splitter.push(chunk));
      // Past a place that stops the split nothing more is a record: the rest is not read.
      if (splitter.stopped) break;
      // A reader slower than validation (a pipe): wait for it, reading no further meanwhile.
      const backlog = sink.backlog?.();
      if (backlog) await backlog;
    }
    await take(splitter.end());
  } catch (err) {
    problem = err;
  }
  // The records read before a problem are reported before it (and those after a missing comma).
  if (batch.length > 0) inFlight.push(pool.check(batch, context));
  while (inFlight.length > 0) await drainOne();
  const syntax = splitter.syntaxError;
  if (problem !== undefined) sink.problem(streamedProblem(whyNotReadAfterName(problem)));
  else if (syntax !== undefined) sink.problem(streamedProblem(`is not valid JSON (${splitter.syntaxErrorText})`, syntax));
  else if (wholeError !== undefined) sink.problem(streamedProblem(`is ${wholeError}`));
  else if (splitter.units === 0) sink.problem(streamedProblem(splitter.emptyList ? 'holds an empty list: nothing to validate' : 'is empty'));
}

/**
 * A large file's first pass (streamedZeros.ts): its records counted by kind and source on the
 * pool's workers (those of the second pass), with progress on a terminal. What is wrong with the
 * file is said by the second pass.
 */
async function countSources(file: string, size: number, pool: UnitPool, progress: ReadProgress): Promise<SentCount[]> {
  const counter = new SentCounter();
  const ignore = (): void => undefined;
  const sink: FileSink = { record: ignore, rendered: ignore, grouped: ignore, reported: ignore, problem: ignore, counted: (counts) => counter.merge(counts) };
  pool.counting = true;
  try {
    await validateStream(progress.over(readAhead(file), file, size), pool, sink);
  } finally {
    pool.counting = false;
  }
  return counter.data();
}

/**
 * A payload read whole: validated as the editor validates it. A list that is no JSON has the
 * records it holds whole reported, then its syntax error, as the editor shows them. Another text
 * that is no JSON may be NDJSON: it is then validated as a stream of its lines, as a large file
 * is (a broken line is a record with an error; a finding placed where its value starts, where the
 * editor, which reads NDJSON a line at a time too, places it on its key); its records (of at most
 * SMALL_FILE_BYTES) are gathered first. A text that breaks
 * off keeps the editor's message and range, after the records read before the break. Each 0 is
 * said from the other records of its source `where` they are (the file, standard input), as the
 * Problems panel says it.
 */
async function validateWhole(bytes: Buffer, kind: ResourceKind | undefined, pool: UnitPool, sink: FileSink, where: ZeroPlace, context?: BatchContext): Promise<void> {
  if (startsAsUtf16(bytes)) return sink.problem({ message: UTF16_MESSAGE });
  const text = bytes.toString('utf8');
  const body = withoutBom(text);
  if (!body.trim()) return sink.problem({ message: 'is empty' });
  const report = payloadReport(body, { kind }, where);
  if (!('problem' in report)) {
    for (const record of report.records) sink.record(record);
    return;
  }
  if (report.records !== undefined) {
    // A list with a syntax error: the records it holds whole, after the error too, placed as the
    // Problems panel places them, then the error (the editor and its export say the same).
    for (const record of report.records) sink.record(record);
    return sink.problem(report.problem);
  }
  if (report.problem.range === undefined) return sink.problem(report.problem);
  // Checked in this thread, every record kept (the text is small), so that the zeros of NDJSON
  // lines are said from the file's other records before any is reported.
  const checked: RecordReport[] = [];
  let problem: FileProblem | undefined;
  const unused = () => {
    throw new Error('validateWhole: records checked in this thread come whole');
  };
  await validateStream(
    (async function* () {
      yield bytes;
    })(),
    pool.inThread(),
    { record: unused, streamed: (r) => checked.push(r), rendered: unused, grouped: unused, reported: unused, problem: (p) => (problem = p) },
    context,
  );
  if (checked.length === 0) return sink.problem(report.problem);
  for (const r of explainLineZeros(checked, body, where)) sink.record(streamedRecord(r));
  // A text that breaks off (cut short, brackets that do not close): the records before the break
  // are reported, as they are from a large file, then the editor's message with its place.
  if (problem !== undefined) sink.problem(report.problem);
}

/** Said on stderr when records of no detectable kind were checked against no schema: --kind names their kind. */
function undetectedKinds(count: number): string {
  const records = count === 1 ? '1 record of no detectable kind was' : `${count} records of no detectable kind were`;
  return `health-data: ${records} not checked against a schema; name their kind with --kind (${KIND_LIST}).`;
}

/** Where the report goes: standard output, or a file (`--out`), with a closing line on the terminal. */
interface ReportSink {
  write(text: string | Uint8Array): void;
  backlog(): Promise<void> | undefined;
  close(): Promise<void>;
}

function fileSink(path: string): ReportSink {
  // Made before any payload is read: a report that cannot be kept is said first (a 1 GB file takes seconds).
  checkWriteTarget('--out', path, { stream: true });
  const stream = createWriteStream(path);
  let failure: Error | undefined;
  stream.on('error', (err) => (failure ??= err));
  return {
    write: (text) => {
      if (text.length > 0 && !failure) stream.write(text);
    },
    backlog: () => (failure ? undefined : drained(stream)),
    close: () =>
      new Promise((resolve, reject) => {
        const fail = (err: Error): void => {
          reject(new Error(`Could not write the report to ${printable(path, 80)}: ${whyNotWritten(err)}`));
        };
        if (failure) return fail(failure);
        stream.end(() => (failure ? fail(failure) : resolve()));
        stream.once('error', fail);
      }),
  };
}

/** Text handed on some 64 KB at a time; bytes (UTF-8 already) as they come, after the text before them. */
function blocks(write: (text: string | Uint8Array) => void): { emit(text: string): void; emitBytes(bytes: Uint8Array): void; flush(): void } {
  let parts: string[] = [];
  let size = 0;
  const flush = (): void => {
    if (parts.length > 0) write(parts.join(''));
    parts = [];
    size = 0;
  };
  return {
    emit(text) {
      if (!text) return;
      parts.push(text);
      size += text.length;
      if (size >= OUTPUT_BLOCK) flush();
    },
    emitBytes(bytes) {
      flush();
      if (bytes.length > 0) write(bytes);
    },
    flush,
  };
}

/** Annotations of one level GitHub Actions shows per step (and 50 per job). */
const ANNOTATIONS_PER_LEVEL = 10;

/** The kinds GitHub shows as notices (annotations) and notes (SARIF). */
const NOTE_KINDS = ['zero', 'deprecated', 'unknown'] as const;


/** The findings of a note kind reported as notes: a 0 that stands out is reported as a warning (and `--omit zero` keeps it). */
const notesOf = (tally: ReportTally, kind: (typeof NOTE_KINDS)[number]): number => (kind === 'zero' ? tally.counts.zero - tally.standingOut : tally.counts[kind]);

/** The note kinds the run found and `--omit` could leave out (none that fails the run). */
const omittableNotes = (tally: ReportTally): Array<(typeof NOTE_KINDS)[number]> => NOTE_KINDS.filter((k) => notesOf(tally, k) > 0 && !tally.failOn.has(k));

/** What GitHub Actions does not show of a `--format github` run's annotations, when it drops some. */
function annotationsBeyondLimit(tally: ReportTally): string | undefined {
  const { counts } = tally;
  const levels: Array<[string, number]> = [
    ['error', counts.error + tally.problems],
    // A 0 that stands out is written as a warning.
    ['warning', counts.warning + tally.standingOut],
    ['notice', NOTE_KINDS.reduce((sum, k) => sum + notesOf(tally, k), 0)],
  ];
  const over = levels.filter(([, n]) => n > ANNOTATIONS_PER_LEVEL);
  if (over.length === 0) return undefined;
  const written = over.map(([level, count]) => `${thousands(count)} ${level}${count === 1 ? '' : 's'}`).join(', ');
  const notices = omittableNotes(tally);
  const omit = over.some(([level]) => level === 'notice') && notices.length > 0 ? ` --omit ${notices.join(',')} keeps the notices out;` : '';
  return `health-data: ${written} written as annotations; GitHub Actions shows ${ANNOTATIONS_PER_LEVEL} of each level per step (50 per job), the rest only in this log.${omit} --format sarif puts every finding in code scanning.`;
}

/** What to do about a SARIF report that GitHub code scanning would reject. */
function sarifTooLarge(results: number, tally: ReportTally): string {
  const notes = omittableNotes(tally);
  const left = results - notes.reduce((sum, k) => sum + notesOf(tally, k), 0);
  const advice =
    notes.length > 0 && left <= GITHUB_SARIF_RESULTS_LIMIT
      ? `--omit ${notes.join(',')} leaves out the ${notes.length === 1 ? 'notes of that kind' : 'notes'} (${thousands(results - left)} results); ${thousands(left)} ${left === 1 ? 'remains' : 'remain'}`
      : 'validate fewer files per report and upload each under its own category';
  return `health-data: the SARIF report holds ${thousands(results)} results; GitHub code scanning rejects a run of more than ${thousands(GITHUB_SARIF_RESULTS_LIMIT)} (and shows the 5,000 most severe). ${advice}.`;
}

export async function validateCommand(o: Output, files: string[], flags: ValidateFlags, stdin: NodeJS.ReadableStream, cwd = process.cwd()): Promise<number> {
  if (files.length === 0) throw new HealthDataError('usage', 'Name at least one file to validate (or - for standard input).');
  const kind = flags.kind !== undefined ? resolveResource(flags.kind).kind : undefined;
  const format = formatOf(flags);
  const asked = parseJobs(flags.jobs);
  let failOn;
  let omit: OmitKinds;
  try {
    failOn = parseFailOn(flags['fail-on']);
    omit = parseOmit(flags.omit, failOn);
  } catch (err) {
    throw new HealthDataError('usage', `${(err as Error).message}.`);
  }
  // A folder stands for the payload files under it, not for the report written there.
  files = await expandFolders(files, flags.out === undefined || flags.out === '-' ? undefined : resolve(cwd, flags.out));
  if (flags.out !== undefined && files.some((f) => f !== '-' && resolve(cwd, f) === resolve(cwd, flags.out ?? ''))) {
    // The report would overwrite a payload before it is read.
    throw new FileTargetError(`--out ${printable(flags.out, 80)} is one of the files to validate: write the report elsewhere.`);
  }
  const jobs = asked ?? (await defaultJobs(files));
  const tally = new ReportTally(failOn, omit);
  const out = flags.out !== undefined && flags.out !== '-' ? fileSink(flags.out) : undefined;
  const progress = new ReadProgress(o, 'validating');
  const output = blocks((text) => {
    if (out) return out.write(text);
    progress.clear();
    o.write(text);
  });
  const emit = output.emit;
  // A report in a file has no colour: it is read later, elsewhere.
  const writer: ReportWriter =
    format === 'text'
      ? new TextReportWriter(out ? { color: false } : o, tally, flags['all-findings'] === true)
      : createReportWriter(format, { baseFolder: cwd, failOn, toolVersion: VERSION });
  // Workers start on the first streamed batch: a run of small files starts none. For the JSON
  // report they write the records' text too, and for the grouped text they group the findings.
  // For SARIF, JUnit and GitHub they write the records in the report's format.
  const json = writer instanceof JsonReportWriter ? writer : undefined;
  const grouping = writer instanceof TextReportWriter && !writer.placesFindings ? writer : undefined;
  const batchWriter = isBatchWriter(writer) ? writer : undefined;
  const reduce = json ? { as: 'json' as const, failOn } : grouping ? { as: 'groups' as const, failOn } : batchWriter ? { as: 'report' as const, failOn } : undefined;
  // The grouped text judges a streamed file's zeros once it is read, and leaves out then what
  // --omit zero leaves out: the workers keep them until then.
  const poolOmit = grouping !== undefined && omit.has('zero') && !omit.has('unusual') ? new Set([...omit].filter((k) => k !== 'zero')) : omit;
  const pool = new UnitPool(jobs, kind, writer.placesFindings !== false, reduce, poolOmit);
  // A report that writes each record as it is read, under a rule that needs to know a 0 that
  // stands out: a large payload is read twice, first to count its sources (standard input from a
  // copy in a temporary file). The grouped text judges the zeros once the payload is read.
  const unusualRule = failOn.has('unusual') ? '--fail-on unusual' : omit.has('unusual') ? '--omit unusual' : omit.has('zero') ? '--omit zero' : undefined;
  const counting = unusualRule !== undefined && grouping === undefined;
  const countProgress = new ReadProgress(o, 'counting the sources of');
  let fileNumber = 0;
  /** Why standard input could not be copied to be read twice, when it could not. */
  let notKept: string | undefined;
  const sink: FileSink = {
    record(whole) {
      const findings = withoutOmitted(whole.findings, omit);
      const record = findings === whole.findings ? whole : { ...whole, findings };
      tally.record(record);
      emit(writer.record(record));
    },
    rendered(batch) {
      if (batch.tally.records === 0) return;
      tally.addRecords(batch.tally);
      emit(json!.recordsHead());
      output.emitBytes(batch.bytes);
    },
    grouped(batch) {
      if (batch.tally.records === 0) return;
      tally.addRecords(batch.tally);
      grouping!.gathered(batch.groups);
    },
    reported(batch) {
      if (batch.tally.records === 0) return;
      tally.addRecords(batch.tally);
      const text = takeBatch(batchWriter!, batch.written);
      if (typeof text === 'string') emit(text);
      else output.emitBytes(text);
    },
    problem(problem) {
      const partial = tally.problem();
      emit(writer.problem(partial ? { ...problem, partial } : problem));
    },
    backlog: () => (out ? out.backlog() : o.backlog?.()),
  };
  try {
    emit(writer.start());
    for (const file of files) {
      tally.file();
      emit(writer.file(file === '-' ? { name: 'standard input' } : reportFileFor(file, cwd, file)));
      try {
        const payload = await openPayload(file, stdin, progress);
        const context = batchWriter?.batchContext();
        if ('whole' in payload) await validateWhole(payload.whole, kind, pool, sink, file === '-' ? 'in standard input' : 'in this file', context);
        else {
          let chunks = payload.chunks;
          let kept: { readonly remove: () => Promise<void> } | undefined;
          try {
            if (counting && file !== '-' && payload.size !== undefined) {
              pool.zeros = { file: fileNumber++, counts: await countSources(file, payload.size, pool, countProgress), where: 'in this file' };
            } else if (counting && file === '-') {
              // Standard input cannot be read twice: a copy of it can.
              const copy = await keptInTemporaryFile(payload.chunks);
              if ('notKept' in copy) {
                chunks = copy.chunks;
                notKept = copy.notKept;
              } else {
                kept = copy;
                pool.zeros = { file: fileNumber++, counts: await countSources(copy.path, copy.size, pool, countProgress), where: 'in standard input' };
                chunks = progress.over(readAhead(copy.path), copy.path, copy.size);
              }
            }
            await validateStream(chunks, pool, sink, context);
          } finally {
            pool.zeros = undefined;
            await kept?.remove();
          }
        }
      } catch (err) {
        sink.problem({ message: whyNotReadAfterName(err) });
      }
      emit(writer.endFile());
      // What is known of a file is shown before the next one is read.
      output.flush();
    }
    emit(writer.end());
    output.flush();
  } finally {
    await pool.close();
  }
  if (out) {
    await out.close();
    o.out(`${summaryLine(o, tally)}; ${format} report written to ${printable(flags.out ?? '', 120)}`);
  }
  if (writer instanceof SarifWriter && writer.resultCount > GITHUB_SARIF_RESULTS_LIMIT) o.err(sarifTooLarge(writer.resultCount, tally));
  if (writer instanceof GithubWriter) {
    const beyond = annotationsBeyondLimit(tally);
    if (beyond) o.err(beyond);
  }
  if (tally.undetected > 0) o.err(undetectedKinds(tally.undetected));
  if (notKept !== undefined && unusualRule !== undefined) o.err(notReadTwice(notKept, unusualRule));
  return tally.failed ? 1 : 0;
}
