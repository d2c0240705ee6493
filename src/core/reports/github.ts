// GitHub Actions workflow commands: one `::error`/`::warning`/`::notice` line per finding, with the
// file, line and column the Problems panel shows, so findings appear as annotations on the diff.
// Escaped as GitHub documents (%25, %0D, %0A; and %3A, %2C in properties).

import type { FindingKind } from '../validation';
import type { FileProblem, ReportFile, ReportRecord, ReportWriter, TextRange } from './model';
import { githubData, githubProperty } from './safeText';
import { ByteSink, StringSink, type TextSink } from './textSinks';

const COMMAND: Readonly<Record<FindingKind, 'error' | 'warning' | 'notice'>> = {
  error: 'error',
  warning: 'warning',
  zero: 'notice',
  deprecated: 'notice',
  unknown: 'notice',
};

const TITLE: Readonly<Record<FindingKind, string>> = {
  error: 'Health data: schema error',
  warning: 'Health data: implausible value',
  zero: 'Health data: zero value',
  deprecated: 'Health data: deprecated field',
  unknown: 'Health data: unknown field',
};

const UNUSUAL_ZERO_TITLE = 'Health data: unusual zero';

/** One workflow command line; `path` undefined: a line without a file. */
function commandLine(path: string | undefined, command: string, title: string, message: string, range: TextRange | undefined): string {
  const properties: string[] = [];
  if (path !== undefined) {
    properties.push(`file=${githubProperty(path)}`);
    if (range !== undefined) {
      properties.push(
        `line=${range.start.line + 1}`,
        `endLine=${range.end.line + 1}`,
        `col=${range.start.character + 1}`,
        // GitHub takes a column range on one line only.
        ...(range.end.line === range.start.line ? [`endColumn=${range.end.character + 1}`] : []),
      );
    }
  }
  properties.push(`title=${githubProperty(title)}`);
  return `::${command} ${properties.join(',')}::${githubData(message)}\n`;
}

/** What a record's annotations need of its file: its path, when it has one. */
export interface GithubFileContext {
  readonly format: 'github';
  readonly path?: string;
}

/** Records' annotation lines as UTF-8. */
export interface GithubLines {
  readonly format: 'github';
  readonly bytes: Uint8Array;
}

/** The annotations of records of the file `context` describes, into `sink`: the same text on any thread. */
export function writeGithubLines(context: GithubFileContext, records: readonly ReportRecord[], sink: TextSink): void {
  for (const record of records) {
    for (const f of record.findings) {
      const message = record.index === undefined ? f.message : `${f.message} (record #${record.index})`;
      // A 0 that stands out is a warning, as in the Problems panel: among the annotations GitHub shows first.
      if (f.standsOut === true) sink.write(commandLine(context.path, 'warning', UNUSUAL_ZERO_TITLE, message, f.range));
      else sink.write(commandLine(context.path, COMMAND[f.kind], TITLE[f.kind], message, f.range));
    }
  }
}

/** The annotations of records as bytes (writeGithubLines), for GithubWriter.takeBatch. */
export function githubLines(context: GithubFileContext, records: readonly ReportRecord[]): GithubLines {
  const sink = new ByteSink(records.length * 1024);
  writeGithubLines(context, records, sink);
  return { format: 'github', bytes: sink.done() };
}

export class GithubWriter implements ReportWriter {
  private file_: ReportFile | undefined;

  start(): string {
    return '';
  }

  file(file: ReportFile): string {
    this.file_ = file;
    return '';
  }

  problem(problem: FileProblem): string {
    const title = problem.partial ? 'Health data: file validated only in part' : 'Health data: file not validated';
    return commandLine(this.file_?.path, 'error', title, `${this.file_?.name ?? 'file'} ${problem.message}`, problem.range);
  }

  record(record: ReportRecord): string {
    const sink = new StringSink();
    writeGithubLines(this.batchContext(), [record], sink);
    return sink.text();
  }

  /** What the annotations of the current file's records need to be written elsewhere (githubLines). */
  batchContext(): GithubFileContext {
    return this.file_?.path === undefined ? { format: 'github' } : { format: 'github', path: this.file_.path };
  }

  /** Annotations written elsewhere, in order. */
  takeBatch(batch: GithubLines): Uint8Array {
    return batch.bytes;
  }

  endFile(): string {
    this.file_ = undefined;
    return '';
  }

  end(): string {
    return '';
  }
}
