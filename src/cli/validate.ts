// `health-data validate <file...>`: checks payload files (one record, an array, or a wrapped list)
// against the schemas and reports every finding as text, JSON, SARIF, JUnit XML or GitHub
// annotations; exits 1 when a record has an error (or a finding of a --fail-on kind).

import { createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { HealthDataError } from '../core/errors';
import {
  REPORT_FORMATS,
  type ReportFormat,
  ReportTally,
  type ReportWriter,
  createReportWriter,
  parseFailOn,
  payloadReport,
  reportFileFor,
} from '../core/reports';
import { resolveResource } from './records';
import { Output, printable } from './output';
import { TextReportWriter, summaryLine } from './textReport';
import { VERSION } from './version';

/** Files larger than this are refused with a message instead of exhausting memory. */
export const MAX_PAYLOAD_BYTES = 100 * 1024 * 1024;

export async function readPayload(file: string, stdin: NodeJS.ReadableStream): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stdin) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buf.length;
      if (size > MAX_PAYLOAD_BYTES) throw new Error(`is larger than ${MAX_PAYLOAD_BYTES / 1024 / 1024} MB; larger input is not validated`);
      chunks.push(buf);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
  let info;
  try {
    info = await stat(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : `cannot read it (${code ?? 'unknown error'})`);
  }
  if (info.isDirectory()) throw new Error('is a directory, not a file');
  if (info.size > MAX_PAYLOAD_BYTES) {
    throw new Error(`is ${(info.size / 1024 / 1024).toFixed(0)} MB; files over ${MAX_PAYLOAD_BYTES / 1024 / 1024} MB are not validated`);
  }
  return readFile(file, 'utf8');
}

export interface ValidateFlags {
  kind?: string;
  json?: boolean;
  format?: string;
  out?: string;
  'fail-on'?: string[];
  /** Every finding of every record in the text report, instead of repeated ones grouped. */
  'all-findings'?: boolean;
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

/** Where the report goes: standard output, or a file (`--out`), with a closing line on the terminal. */
interface ReportSink {
  write(text: string): void;
  close(): Promise<void>;
}

function fileSink(path: string): ReportSink {
  const stream = createWriteStream(path);
  let failure: Error | undefined;
  stream.on('error', (err) => (failure ??= err));
  return {
    write: (text) => {
      if (text && !failure) stream.write(text);
    },
    close: () =>
      new Promise((resolve, reject) => {
        const fail = (err: Error): void => {
          const code = (err as NodeJS.ErrnoException).code;
          reject(new Error(`Could not write the report to ${path}: ${code === 'ENOENT' ? 'no such folder' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : err.message}`));
        };
        if (failure) return fail(failure);
        stream.end(() => (failure ? fail(failure) : resolve()));
        stream.once('error', fail);
      }),
  };
}

/** The payload of one file or of standard input, its byte-order mark dropped as an editor drops it. */
async function payloadText(file: string, stdin: NodeJS.ReadableStream): Promise<string> {
  const text = await readPayload(file, stdin);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!body.trim()) throw new Error('is empty');
  return body;
}

export async function validateCommand(o: Output, files: string[], flags: ValidateFlags, stdin: NodeJS.ReadableStream, cwd = process.cwd()): Promise<number> {
  if (files.length === 0) throw new HealthDataError('usage', 'Name at least one file to validate (or - for standard input).');
  const kind = flags.kind !== undefined ? resolveResource(flags.kind).kind : undefined;
  const format = formatOf(flags);
  let failOn;
  try {
    failOn = parseFailOn(flags['fail-on']);
  } catch (err) {
    throw new HealthDataError('usage', `${(err as Error).message}.`);
  }
  if (flags.out !== undefined && files.some((f) => f !== '-' && resolve(cwd, f) === resolve(cwd, flags.out ?? ''))) {
    // The report would overwrite a payload before it is read.
    throw new HealthDataError('usage', `--out ${printable(flags.out, 80)} is one of the files to validate: write the report elsewhere.`);
  }
  const tally = new ReportTally(failOn);
  const out = flags.out !== undefined && flags.out !== '-' ? fileSink(flags.out) : undefined;
  const emit = (text: string): void => (out ? out.write(text) : o.write(text));
  // A report in a file has no colour: it is read later, elsewhere.
  const writer: ReportWriter =
    format === 'text'
      ? new TextReportWriter(out ? { color: false } : o, tally, flags['all-findings'] === true)
      : createReportWriter(format, { baseFolder: cwd, failOn, toolVersion: VERSION });
  emit(writer.start());
  for (const file of files) {
    tally.file();
    emit(writer.file(file === '-' ? { name: 'standard input' } : reportFileFor(file, cwd, file)));
    let text: string;
    try {
      text = await payloadText(file, stdin);
    } catch (err) {
      tally.problem();
      emit(writer.problem({ message: err instanceof Error ? err.message : String(err) }));
      emit(writer.endFile());
      continue;
    }
    const report = payloadReport(text, { kind });
    if ('problem' in report) {
      tally.problem();
      emit(writer.problem(report.problem));
    } else {
      for (const record of report.records) {
        tally.record(record);
        emit(writer.record(record));
      }
    }
    emit(writer.endFile());
  }
  emit(writer.end());
  if (out) {
    await out.close();
    o.out(`${summaryLine(o, tally)}; ${format} report written to ${printable(flags.out ?? '', 120)}`);
  }
  return tally.failed ? 1 : 0;
}

/** A payload's JSON, its byte-order mark dropped; what is wrong with it as the end of "<file> …". */
export function parsePayload(text: string): unknown {
  if (!text.trim()) throw new Error('is empty');
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    const detail = err instanceof Error ? err.message.replace(/^Unexpected token.*?(, ".*")? is not valid JSON$/s, 'unexpected character') : '';
    throw new Error(`is not valid JSON (${printable(detail, 120)})`);
  }
}
