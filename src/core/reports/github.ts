// GitHub Actions workflow commands: one `::error`/`::warning`/`::notice` line per finding, with the
// file, line and column the Problems panel shows, so findings appear as annotations on the diff.
// Escaped as GitHub documents (%25, %0D, %0A; and %3A, %2C in properties).

import type { FindingKind } from '../validation';
import type { FileProblem, ReportFile, ReportRecord, ReportWriter, TextRange } from './model';
import { githubData, githubProperty } from './safeText';

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

export class GithubWriter implements ReportWriter {
  private file_: ReportFile | undefined;

  start(): string {
    return '';
  }

  file(file: ReportFile): string {
    this.file_ = file;
    return '';
  }

  private line(command: string, title: string, message: string, range: TextRange | undefined): string {
    const properties: string[] = [];
    if (this.file_?.path !== undefined) {
      properties.push(`file=${githubProperty(this.file_.path)}`);
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

  problem(problem: FileProblem): string {
    return this.line('error', 'Health data: file not validated', `${this.file_?.name ?? 'file'} ${problem.message}`, problem.range);
  }

  record(record: ReportRecord): string {
    let out = '';
    for (const f of record.findings) {
      const message = record.index === undefined ? f.message : `${f.message} (record #${record.index})`;
      out += this.line(COMMAND[f.kind], TITLE[f.kind], message, f.range);
    }
    return out;
  }

  endFile(): string {
    this.file_ = undefined;
    return '';
  }

  end(): string {
    return '';
  }
}
