// `health-data validate <file...>`: checks payload files (one record, an array, or a wrapped list)
// against the schemas and prints every finding; exits 1 when any record has an error.

import { readFile, stat } from 'node:fs/promises';
import { HealthDataError } from '../core/errors';
import { FINDING_KINDS, RecordValidation, validatePayload } from '../core/validation';
import { resolveResource } from './records';
import { Output, countFindings, mark, paint, printable } from './output';

/** Files larger than this are refused with a message instead of exhausting memory. */
export const MAX_PAYLOAD_BYTES = 100 * 1024 * 1024;

interface FileReport {
  file: string;
  error?: string;
  records: Array<{ index: number | null; kind: string | null; id: string | null; valid: boolean; findings: Array<{ kind: string; path: string; message: string }> }>;
}

async function readPayload(file: string, stdin: NodeJS.ReadableStream): Promise<string> {
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

function parsePayload(text: string): unknown {
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
  flags: { kind?: string; json?: boolean; 'all-findings'?: boolean },
  stdin: NodeJS.ReadableStream,
): Promise<number> {
  if (files.length === 0) throw new HealthDataError('usage', 'Name at least one file to validate (or - for standard input).');
  const kind = flags.kind !== undefined ? resolveResource(flags.kind).kind : undefined;
  const reports: FileReport[] = [];
  /** Each record's JSON Pointer in its file, so its findings group by the path inside the record. */
  const pointers = new Map<ReportedRecord, string>();
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
      const record: ReportedRecord = {
        index: r.index ?? null,
        kind: r.kind ?? null,
        id: r.id ?? null,
        valid: r.valid,
        findings: r.findings.map((f) => ({ kind: f.kind, path: r.pointer + f.path, message: f.message })),
      };
      report.records.push(record);
      pointers.set(record, r.pointer);
    }
  }
  if (flags.json) {
    o.out(JSON.stringify({ files: reports }, null, 2));
    return failed ? 1 : 0;
  }
  const grouped = !flags['all-findings'];
  for (const report of reports) {
    if (grouped) printSummary(o, report, pointers);
    else printReport(o, report);
  }
  if (grouped && reports.some((r) => r.records.some((x) => x.findings.length > 0))) {
    o.out(paint(o, 'dim', 'Repeated findings are grouped; --all-findings lists every finding of every record.'));
  }
  const records = reports.reduce((n, r) => n + r.records.length, 0);
  const invalid = reports.reduce((n, r) => n + r.records.filter((x) => !x.valid).length, 0);
  const unreadable = reports.filter((r) => r.error).length;
  const tail = [`${records} record${records === 1 ? '' : 's'} in ${reports.length} file${reports.length === 1 ? '' : 's'}`];
  tail.push(invalid ? paint(o, 'red', `${invalid} invalid`) : paint(o, 'green', 'all valid'));
  if (unreadable) tail.push(paint(o, 'red', `${unreadable} file${unreadable === 1 ? '' : 's'} not validated`));
  o.out(tail.join(', '));
  return failed ? 1 : 0;
}

type ReportedRecord = FileReport['records'][number];

const recordLine = (o: Output, r: ReportedRecord): string => {
  const where = r.index === null ? 'record' : `#${r.index}`;
  const status = r.valid ? paint(o, 'green', 'valid') : paint(o, 'red', 'invalid');
  const counts = countFindings(r.findings as never);
  return `  ${where} ${r.kind ?? 'unknown kind'} ${printable(r.id ?? '(no id)', 30)}: ${status}${counts === 'clean' ? '' : ` (${counts})`}`;
};

/** A record's place in its file, as the full list names it. */
const placeOf = (r: ReportedRecord): string => (r.index === null ? 'the record' : `#${r.index}`);

/** The same finding (kind, field, message) on many records: one line with the count. */
interface FindingGroup { kind: string; path: string; message: string; places: string[] }

const MAX_PLACES = 5;
const MAX_INVALID_LINES = 20;

/**
 * The default: each file's invalid records by name, then each distinct finding once with the
 * number of records that have it, so 56 readings with `userId` give one line, not 56.
 */
function printSummary(o: Output, report: FileReport, pointers: ReadonlyMap<ReportedRecord, string>): void {
  if (report.error) {
    printReport(o, report);
    return;
  }
  const n = report.records.length;
  const invalid = report.records.filter((r) => !r.valid);
  const counts = invalid.length ? paint(o, 'red', `${invalid.length} invalid`) : paint(o, 'green', 'all valid');
  o.out(`${paint(o, 'bold', printable(report.file, 120))}: ${n} record${n === 1 ? '' : 's'}, ${counts}`);
  const shown = n === 1 ? report.records : invalid;
  for (const r of shown.slice(0, MAX_INVALID_LINES)) o.out(recordLine(o, r));
  if (shown.length > MAX_INVALID_LINES) o.out(`  … and ${shown.length - MAX_INVALID_LINES} more invalid records`);
  const groups = new Map<string, FindingGroup>();
  for (const r of report.records) {
    const prefix = pointers.get(r) ?? '';
    for (const f of r.findings) {
      // The path inside the record, so the same field of every record of a list is one group.
      const path = f.path.slice(prefix.length);
      const key = `${f.kind}\u0000${path}\u0000${f.message}`;
      const group = groups.get(key) ?? { kind: f.kind, path, message: f.message, places: [] };
      groups.set(key, group);
      const place = placeOf(r);
      if (group.places.at(-1) !== place) group.places.push(place);
    }
  }
  const order = (g: FindingGroup): number => FINDING_KINDS.indexOf(g.kind as never);
  const sorted = [...groups.values()].sort((a, b) => order(a) - order(b) || b.places.length - a.places.length);
  for (const g of sorted) {
    const k = g.places.length;
    const where = k === n && n > 1
      ? `all ${n} records`
      : k === 1 ? g.places[0] : `${k} records (${g.places.slice(0, MAX_PLACES).join(', ')}${k > MAX_PLACES ? ', …' : ''})`;
    o.out(`    ${mark(o, g.kind as never)} ${printable(g.path || '(record)', 50)}  ${printable(g.message, 120)} — ${where}`);
  }
}

function printReport(o: Output, report: FileReport): void {
  if (report.error) {
    o.out(`${mark(o, 'error')} ${printable(report.error, 200)}`);
    return;
  }
  o.out(paint(o, 'bold', printable(report.file, 120)));
  for (const r of report.records) {
    o.out(recordLine(o, r));
    for (const f of r.findings) o.out(`    ${mark(o, f.kind as never)} ${printable(f.path || '(record)', 50)}  ${printable(f.message, 120)}`);
  }
}
