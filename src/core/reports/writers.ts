// One writer per machine-readable format, and the one-call form for a report held in memory
// (the editor's export, the tests). The CLI adds its coloured text writer of its own.

import type { FailOn } from './failOn';
import { GithubWriter } from './github';
import { JsonReportWriter } from './jsonReport';
import { JunitWriter } from './junit';
import type { ReportEntry, ReportFormat, ReportWriter } from './model';
import { SarifWriter } from './sarif';

export interface ReportOptions {
  /** Absolute folder the files' relative paths start from (SARIF's SRCROOT). */
  readonly baseFolder?: string;
  readonly failOn?: FailOn;
  readonly toolVersion?: string;
}

export function createReportWriter(format: Exclude<ReportFormat, 'text'>, options: ReportOptions = {}): ReportWriter {
  switch (format) {
    case 'json':
      return new JsonReportWriter();
    case 'sarif':
      return new SarifWriter(options);
    case 'junit':
      return new JunitWriter(options);
    case 'github':
      return new GithubWriter();
  }
}

/** Feeds a whole report through a writer; returns its text. */
export function writeReport(writer: ReportWriter, entries: Iterable<ReportEntry>): string {
  const parts = [writer.start()];
  for (const entry of entries) {
    parts.push(writer.file(entry.file));
    let records = 0;
    for (const record of entry.records ?? []) {
      parts.push(writer.record(record));
      records++;
    }
    // After records of its own, a file's problem leaves it validated in part (FileProblem.partial).
    if ('problem' in entry) parts.push(writer.problem(records > 0 && !entry.problem.partial ? { ...entry.problem, partial: true } : entry.problem));
    parts.push(writer.endFile());
  }
  parts.push(writer.end());
  return parts.join('');
}
