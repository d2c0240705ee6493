// JUnit XML (what every CI shows as test results): a testsuite per file, a testcase per record
// named by its kind, id and day, a failure listing the findings of a record that fails the run
// (errors, and the kinds of --fail-on), and an error for a file that could not be validated.
// A suite's cases are held until it ends, since its counts come first: a file of more than
// SUITE_CASES records is written as suites of that many (named by their records' range), so a
// report of any size holds a bounded number of cases.

import { DEFAULT_FAIL_ON, type FailOn, findingFails, recordFails } from './failOn';
import type { FileProblem, ReportFile, ReportFinding, ReportRecord, ReportWriter } from './model';
import { lineColumn, recordName } from './place';
import { xmlText } from './safeText';

export interface JunitOptions {
  readonly failOn?: FailOn;
}

function findingLine(f: ReportFinding): string {
  const where = [f.pointer || '(record)', lineColumn(f.range)].filter(Boolean).join(' at ');
  return `[${f.kind}] ${where}: ${f.message}`;
}

/** Cases in one testsuite: past this, a file's records go on in another suite. */
export const SUITE_CASES = 10_000;

export class JunitWriter implements ReportWriter {
  private file_: ReportFile | undefined;
  private cases: string[] = [];
  private failures = 0;
  private errors = 0;
  /** Whether this file's records were cut into suites, and the first and last index of this suite's. */
  private parted = false;
  private firstIndex: number | undefined;
  private lastIndex: number | undefined;

  constructor(private readonly options: JunitOptions = {}) {}

  start(): string {
    return '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="health-data validate">\n';
  }

  file(file: ReportFile): string {
    this.file_ = file;
    this.reset();
    this.parted = false;
    return '';
  }

  private reset(): void {
    this.cases = [];
    this.failures = 0;
    this.errors = 0;
    this.firstIndex = undefined;
    this.lastIndex = undefined;
  }

  /** The suite of the cases held: the file's name, with its records' range when the file is cut. */
  private suite(): string {
    let name = this.file_?.name ?? 'payload';
    if (this.parted && this.firstIndex !== undefined) name += `, records #${this.firstIndex}–#${this.lastIndex}`;
    return `  <testsuite name="${xmlText(name)}" tests="${this.cases.length}" failures="${this.failures}" errors="${this.errors}" skipped="0">\n${this.cases.join('')}  </testsuite>\n`;
  }

  private get className(): string {
    return xmlText(this.file_?.path ?? this.file_?.name ?? 'payload');
  }

  problem(problem: FileProblem): string {
    this.errors++;
    const message = `${this.file_?.name ?? 'file'} ${problem.message}`;
    this.cases.push(
      `    <testcase name="file" classname="${this.className}">\n` +
        `      <error message="${xmlText(message)}" type="file-not-validated">${xmlText(message, true)}</error>\n` +
        '    </testcase>\n',
    );
    return '';
  }

  record(record: ReportRecord): string {
    let before = '';
    if (this.cases.length >= SUITE_CASES) {
      this.parted = true;
      before = this.suite();
      this.reset();
    }
    if (record.index !== undefined) {
      this.firstIndex ??= record.index;
      this.lastIndex = record.index;
    }
    const failOn = this.options.failOn ?? DEFAULT_FAIL_ON;
    const fails = recordFails(record, failOn);
    let body = '';
    if (fails) {
      this.failures++;
      const failing = record.findings.filter((f) => findingFails(f, failOn));
      const counts = failing.length === 1 ? '1 finding' : `${failing.length} findings`;
      const type = failing.some((f) => f.kind === 'error') ? 'error' : failing[0]?.kind ?? 'error';
      body += `      <failure message="${xmlText(`${counts}: ${failing[0]?.message ?? 'invalid'}`)}" type="${type}">${xmlText(failing.map(findingLine).join('\n'), true)}</failure>\n`;
    }
    const others = record.findings.filter((f) => !fails || !findingFails(f, failOn));
    if (others.length > 0) body += `      <system-out>${xmlText(others.map(findingLine).join('\n'), true)}</system-out>\n`;
    const name = xmlText(recordName(record));
    this.cases.push(body ? `    <testcase name="${name}" classname="${this.className}">\n${body}    </testcase>\n` : `    <testcase name="${name}" classname="${this.className}"/>\n`);
    return before;
  }

  endFile(): string {
    const out = this.suite();
    this.reset();
    this.file_ = undefined;
    return out;
  }

  end(): string {
    return '</testsuites>\n';
  }
}
