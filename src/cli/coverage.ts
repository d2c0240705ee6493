// `health-data coverage`: which fields each source really sends, over every page of a list call
// or over payload files (read as `validate` reads them), as a matrix of words or as JSON.

import { HealthDataError } from '../core/errors';
import { inertJson, payloadProblem } from '../core/reports';
import { recordAt, validatePayloadText } from '../core/validation';
import { CoverageCounter, CoverageReport, FieldCoverage, computeCoverage, splitByKind } from '../core/insights';
import { RESOURCES, ResourceDefinition, ResourceKind, findResource } from '../core/resources';
import { RecordSplitter, unitValues } from '../core/streaming';
import { isFileSystemError, whyNotReadAfterName } from './fileTargets';
import type { Connection } from './connection';
import { Output, paint, printable, table } from './output';
import { datesOfFlags, emptyListHint, resolveResource } from './records';
import { ReadProgress, SMALL_FILE_BYTES, expandFolders, payloadChunks } from './payloadFiles';
import { withoutBom } from '../core/json';

export interface CoverageFlags {
  from?: string;
  to?: string;
  source?: string;
  human?: string;
  kind?: string;
  json?: boolean;
}

/** `coverage activity` asks the service; anything else names files (`./activity` is a file). */
export function coverageOfService(positionals: readonly string[], flags: CoverageFlags): ResourceDefinition | undefined {
  if (positionals.length !== 1 || flags.kind !== undefined) return undefined;
  return findResource(positionals[0]);
}

/**
 * The dates coverage or trends over the service ask for (`--from` alone runs to today); a usage
 * error for the first wrong flag. Checked before the connection is made.
 */
export function checkInsightFlags(flags: Pick<CoverageFlags, 'from' | 'to' | 'source' | 'human'>): { from?: string; to?: string } {
  const dates = datesOfFlags(flags);
  if (flags.source !== undefined && !flags.source.trim()) throw new HealthDataError('usage', '--source is empty.');
  if (flags.human !== undefined && !flags.human.trim()) throw new HealthDataError('usage', '--human is empty.');
  return dates;
}

/** Coverage over the service, for the dates checkInsightFlags made of `flags`. */
export async function serviceCoverageCommand(conn: Connection, o: Output, def: ResourceDefinition, { from, to }: ReturnType<typeof checkInsightFlags>, flags: CoverageFlags): Promise<number> {
  let fetched = 0;
  const query = { startDate: from, endDate: to, source: flags.source?.trim(), humanId: flags.human?.trim(), all: true };
  const result = await conn.client.list(
    def.kind,
    query,
    {
      onPage: (records, page) => {
        fetched += records.length;
        o.progress(`${def.label}: ${fetched} records, ${page} page${page === 1 ? '' : 's'}…`);
      },
    },
  );
  o.progress('');
  const report = computeCoverage(def.kind, result.records, { from, to });
  if (flags.json) {
    o.out(inertJson(JSON.stringify(report, null, 2)));
    return 0;
  }
  printCoverage(o, report, query.humanId);
  if (result.records.length === 0) {
    const hint = await emptyListHint(conn, def, query);
    if (hint) o.err(paint(o, 'yellow', hint));
  }
  if (!result.complete) o.out(paint(o, 'yellow', 'The list is incomplete: paging stopped early, so the counts cover part of the range.'));
  return 0;
}

export async function fileCoverageCommand(o: Output, files: readonly string[], flags: CoverageFlags, stdin: NodeJS.ReadableStream): Promise<number> {
  if (files.length === 0) throw new HealthDataError('usage', 'Name a resource (heart-rate, activity, body-fat) or at least one file (- for standard input).');
  for (const flag of ['from', 'to', 'source', 'human'] as const) {
    if (flags[flag] !== undefined) throw new HealthDataError('usage', `--${flag} works with a resource from the service, not with files.`);
  }
  const kind = flags.kind !== undefined ? resolveResource(flags.kind).kind : undefined;
  // Counted as each chunk of a file is read: memory holds counts, not the records (any size).
  const counters = new Map<ResourceKind, CoverageCounter>();
  let undetected = 0;
  const count = (values: readonly unknown[]): void => {
    const split = splitByKind(values, kind);
    undetected += split.undetected;
    for (const { kind: k, records } of split.lists) {
      let counter = counters.get(k);
      if (!counter) counters.set(k, (counter = new CoverageCounter(k)));
      counter.add(records);
    }
  };
  let failed = false;
  const progress = new ReadProgress(o, 'counting');
  for (const file of await expandFolders(files)) {
    const say = (problem: string) => {
      progress.clear();
      o.err(`health-data: ${printable(`${file === '-' ? 'standard input' : file} ${problem}`, 200)}`);
      failed = true;
    };
    try {
      await countFile(file, stdin, say, count, progress);
    } catch (err) {
      say(err instanceof Error ? err.message : String(err));
    }
  }
  if (undetected) {
    o.err(`health-data: ${undetected} item${undetected === 1 ? '' : 's'} of no detectable kind left out (name it with --kind).`);
  }
  if (counters.size === 0) {
    if (!failed) o.err('health-data: no records of a known kind in the files.');
    return 1;
  }
  const reports = RESOURCES.filter((r) => counters.has(r.kind)).map((r) => counters.get(r.kind)!.report());
  if (flags.json) o.out(inertJson(JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)));
  else reports.forEach((report, i) => {
    if (i) o.out();
    printCoverage(o, report);
  });
  return failed ? 1 : 0;
}

/**
 * A payload file's records as `validate` splits them (an array, a wrapped list, NDJSON or one
 * record), parsed and handed to `take` a chunk of the file at a time, whatever the file's size. A
 * record that is no JSON is left out and `problem` says where; a file that is not JSON throws once
 * its records are counted (those before the place it broke, and those after a comma its list
 * lacks or has too many). A list up to SMALL_FILE_BYTES that is no JSON is read as `validate` and
 * the editor read it: the records it holds whole, after the place it broke too, then its syntax
 * error.
 */
async function countFile(file: string, stdin: NodeJS.ReadableStream, problem: (text: string) => void, take: (values: readonly unknown[]) => void, progress?: ReadProgress): Promise<void> {
  const splitter = new RecordSplitter();
  // A small input is held (its bytes, records and problems) until it is read whole: a list that
  // is no JSON is then read as `validate` and the editor read it.
  let held: { chunks: Buffer[]; bytes: number; values: unknown[]; problems: string[] } | undefined = { chunks: [], bytes: 0, values: [], problems: [] };
  const release = (): void => {
    if (!held) return;
    if (held.values.length) take(held.values);
    for (const p of held.problems) problem(p);
    held = undefined;
  };
  const takeUnits = (units: ReadonlyArray<Parameters<typeof unitValues>[0]>): void => {
    const values: unknown[] = held?.values ?? [];
    for (const unit of units) {
      const parsed = unitValues(unit);
      for (const v of parsed.values) values.push(v);
      for (const p of parsed.problems) {
        if (held) held.problems.push(p);
        else problem(p);
      }
    }
    if (!held && values.length) take(values);
  };
  try {
    for await (const chunk of await payloadChunks(file, stdin, progress)) {
      if (held) {
        held.chunks.push(chunk);
        held.bytes += chunk.length;
        if (held.bytes > SMALL_FILE_BYTES) release();
      }
      takeUnits(splitter.push(chunk));
      // Past a place that stops the split nothing more is a record; a small file is read whole
      // all the same, to count the records the editor finds after it.
      if (splitter.stopped && !held) break;
    }
    takeUnits(splitter.end());
  } catch (err) {
    release();
    throw isFileSystemError(err) ? new Error(whyNotReadAfterName(err)) : err;
  }
  const broken = splitter.syntaxErrorText;
  if (held && (broken !== undefined || held.problems.length > 0)) {
    const whole = intactValues(Buffer.concat(held.chunks).toString('utf8'));
    if (whole) {
      take(whole.values);
      throw new Error(whole.problem);
    }
  }
  release();
  if (broken !== undefined) throw new Error(`is not valid JSON (${broken})`);
  if (splitter.units === 0) throw new Error(splitter.emptyList ? 'holds an empty list: no records' : 'is empty');
}

/** The records a list that is no JSON holds whole, as `validate` reports them, and its syntax error in its words. */
function intactValues(text: string): { values: unknown[]; problem: string } | undefined {
  const body = withoutBom(text);
  const validation = validatePayloadText(body);
  const problem = payloadProblem(body, validation);
  if (validation.records.length === 0 || !problem) return undefined;
  return { values: validation.records.map((r) => recordAt(validation.payload, r.pointer)), problem: problem.message };
}

/**
 * `provided 90/90`, `never 0/90 (0 ×90)`, `sometimes 84/90 (0 ×6)`: words, colour only helps.
 * `unusual`: the cell's zeros stand out (`0 ×1 unusual`; the unusualZeros note names their days).
 */
export function coverageCell(o: Output, f: FieldCoverage, records: number, unusual = false): string {
  const parts: string[] = [];
  if (f.zero) parts.push(unusual ? paint(o, 'yellow', `0 ×${f.zero} unusual`) : `0 ×${f.zero}`);
  if (f.null) parts.push(`null ×${f.null}`);
  if (f.absent) parts.push(`absent ×${f.absent}`);
  const colour = f.verdict === 'provided' ? 'green' : f.verdict === 'never' ? 'red' : 'yellow';
  return `${paint(o, colour, f.verdict)} ${f.nonZero}/${records}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

const MAX_OVERLAP_LINES = 20;

/** The matrix of a report in words; `human`, when the records are one human's (`--human`), named in the heading. */
export function printCoverage(o: Output, report: CoverageReport, human?: string): void {
  const def = findResource(report.resource)!;
  const range = report.from && report.to ? `${report.from} – ${report.to}` : 'no dates';
  const whose = human === undefined ? '' : `, human ${printable(human, 40)}`;
  o.out(paint(o, 'bold', `${def.label}: ${report.records} record${report.records === 1 ? '' : 's'}, ${range}${whose}`));
  if (report.sources.length === 0) {
    o.out('No records from any source.');
  } else {
    for (const s of report.sources) {
      const dates = s.firstDate ? `${s.firstDate} – ${s.lastDate}` : 'no dates';
      o.out(`  ${printable(s.source ?? '(no source)', 40)}: ${s.records} record${s.records === 1 ? '' : 's'}, ${s.days} day${s.days === 1 ? '' : 's'}, ${dates}`);
    }
    o.out();
    const headers = ['field', ...report.sources.map((s) => printable(s.source ?? '(no source)', 24))];
    const unusual = new Set(report.notes.filter((n) => n.kind === 'unusualZeros').flatMap((n) => n.items.map((i) => `${n.source ?? ''}\u0000${i.name}`)));
    const rows = report.sources[0].fields.map((f, i) => [f.field, ...report.sources.map((s) => coverageCell(o, s.fields[i], s.records, unusual.has(`${s.source ?? ''}\u0000${f.field}`)))]);
    for (const line of table(o, headers, rows)) o.out(line);
    o.out(paint(o, 'dim', `provided: on every record, and not 0 or null; never: 0, null or absent on every record${def.zeroDefaultFields.length ? ` (for ${def.zeroDefaultFields.join(', ')}: the source does not provide it, the service sends 0)` : ''}; sometimes: in between.${unusual.size ? ' unusual: 0 where the source sends the field on 19 in 20 of its other records or more (Notes names the days).' : ''}`));
  }
  o.out();
  if (report.overlaps.length === 0) {
    o.out('Overlaps: none (no day has two sources for one human).');
  } else {
    o.out(paint(o, 'bold', `Overlaps: ${report.overlaps.length} day${report.overlaps.length === 1 ? '' : 's'} with two or more sources for one human (summing them double counts)`));
    for (const ov of report.overlaps.slice(0, MAX_OVERLAP_LINES)) {
      // The whole id, to paste into --human (the service's are 32 characters; a hostile one is cut).
      o.out(`  ${ov.date}  human ${printable(ov.humanId, 64)}  ${ov.sources.map((s) => printable(s, 24)).join(' + ')}`);
    }
    if (report.overlaps.length > MAX_OVERLAP_LINES) o.out(`  … and ${report.overlaps.length - MAX_OVERLAP_LINES} more (--json lists every one)`);
  }
  if (report.notes.length) {
    o.out();
    o.out(paint(o, 'bold', 'Notes:'));
    for (const note of report.notes) o.out(`  - ${printable(note.message, 300)}`);
  }
}
