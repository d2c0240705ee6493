// `health-data validate <file...>`: checks payload files (one record, an array, or a wrapped list)
// against the schemas and prints every finding; exits 1 when any record has an error.

import { readFile, stat } from 'node:fs/promises';
import { HealthDataError } from '../core/errors';
import { RecordValidation, validatePayload } from '../core/validation';
import { resolveResource } from './records';
import { Output, countFindings, mark, paint, printable } from './output';

/** Files larger than this are refused with a message instead of exhausting memory. */
export const MAX_PAYLOAD_BYTES = 100 * 1024 * 1024;

interface FileReport {
  file: string;
  error?: string;
  records: Array<{ index: number | null; kind: string | null; id: string | null; valid: boolean; findings: Array<{ kind: string; path: string; message: string }> }>;
}

export async function readPayload(file: string, stdin: NodeJS.ReadableStream): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stdin) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buf.length;
      if (size > MAX_PAYLOAD_BYTES) throw new Error(`standard input is larger than ${MAX_PAYLOAD_BYTES / 1024 / 1024} MB`);
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

export function parsePayload(text: string): unknown {
  if (!text.trim()) throw new Error('is empty');
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    const detail = err instanceof Error ? err.message.replace(/^Unexpected token.*?(, ".*")? is not valid JSON$/s, 'unexpected character') : '';
    throw new Error(`is not valid JSON (${printable(detail, 120)})`);
  }
}

export async function validateCommand(
  o: Output,
  files: string[],
  flags: { kind?: string; json?: boolean },
  stdin: NodeJS.ReadableStream,
): Promise<number> {
  if (files.length === 0) throw new HealthDataError('usage', 'Name at least one file to validate (or - for standard input).');
  const kind = flags.kind !== undefined ? resolveResource(flags.kind).kind : undefined;
  const reports: FileReport[] = [];
  let failed = false;
  for (const file of files) {
    const report: FileReport = { file, records: [] };
    reports.push(report);
    let results: RecordValidation[];
    try {
      results = validatePayload(parsePayload(await readPayload(file, stdin)), kind);
    } catch (err) {
      report.error = `${file === '-' ? 'standard input' : file} ${err instanceof Error ? err.message : String(err)}`;
      failed = true;
      continue;
    }
    if (results.length === 0) {
      report.error = `${file} holds an empty list: nothing to validate`;
      failed = true;
      continue;
    }
    for (const r of results) {
      if (!r.valid) failed = true;
      report.records.push({
        index: r.index ?? null,
        kind: r.kind ?? null,
        id: r.id ?? null,
        valid: r.valid,
        findings: r.findings.map((f) => ({ kind: f.kind, path: r.pointer + f.path, message: f.message })),
      });
    }
  }
  if (flags.json) {
    o.out(JSON.stringify({ files: reports }, null, 2));
    return failed ? 1 : 0;
  }
  for (const report of reports) printReport(o, report);
  const records = reports.reduce((n, r) => n + r.records.length, 0);
  const invalid = reports.reduce((n, r) => n + r.records.filter((x) => !x.valid).length, 0);
  const unreadable = reports.filter((r) => r.error).length;
  const tail = [`${records} record${records === 1 ? '' : 's'} in ${reports.length} file${reports.length === 1 ? '' : 's'}`];
  tail.push(invalid ? paint(o, 'red', `${invalid} invalid`) : paint(o, 'green', 'all valid'));
  if (unreadable) tail.push(paint(o, 'red', `${unreadable} file${unreadable === 1 ? '' : 's'} not validated`));
  o.out(tail.join(', '));
  return failed ? 1 : 0;
}

function printReport(o: Output, report: FileReport): void {
  if (report.error) {
    o.out(`${mark(o, 'error')} ${printable(report.error, 200)}`);
    return;
  }
  o.out(paint(o, 'bold', printable(report.file, 120)));
  for (const r of report.records) {
    const where = r.index === null ? 'record' : `#${r.index}`;
    const status = r.valid ? paint(o, 'green', 'valid') : paint(o, 'red', 'invalid');
    const counts = countFindings(r.findings as never);
    o.out(`  ${where} ${r.kind ?? 'unknown kind'} ${printable(r.id ?? '(no id)', 30)}: ${status}${counts === 'clean' ? '' : ` (${counts})`}`);
    for (const f of r.findings) o.out(`    ${mark(o, f.kind as never)} ${printable(f.path || '(record)', 50)}  ${printable(f.message, 120)}`);
  }
}
