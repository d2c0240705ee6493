// JUnit XML (what every CI shows as test results): a testsuite per file, a testcase per record
// named by its kind, id and day, a failure listing the findings of a record that fails the run
// (errors, and the kinds of --fail-on), and an error for a file that could not be validated.
// A suite's cases are held until it ends, since its counts come first: a file of more than
// SUITE_CASES records is written as suites of that many (named by their records' range), so a
// report of any size holds a bounded number of cases.

import { DEFAULT_FAIL_ON, type FailOn, findingFails, recordFails, type RuleKind } from './failOn';
import type { FileProblem, ReportFile, ReportFinding, ReportRecord, ReportWriter } from './model';
import { lineColumn, recordName } from './place';
import { xmlText } from './safeText';
import { ByteSink } from './textSinks';

export interface JunitOptions {
  readonly failOn?: FailOn;
}

function findingLine(f: ReportFinding): string {
  const where = [f.pointer || '(record)', lineColumn(f.range)].filter(Boolean).join(' at ');
  return `[${f.kind}] ${where}: ${f.message}`;
}

/** Cases in one testsuite: past this, a file's records go on in another suite. */
export const SUITE_CASES = 10_000;

/** What a record's testcase needs of its file: the class name (XML text already) and the kinds that fail. */
export interface JunitFileContext {
  readonly format: 'junit';
  readonly className: string;
  readonly failOn: readonly RuleKind[];
}

/**
 * Records' testcases as UTF-8, one after another: where each ends, whether it failed and its
 * record's index (-1: none), for the suites that will hold them.
 */
export interface JunitCases {
  readonly format: 'junit';
  readonly bytes: Uint8Array;
  readonly ends: Int32Array;
  readonly failed: Uint8Array;
  readonly indices: Int32Array;
}

/** The testcase of a record of the file `context` describes, and whether it is a failure. */
function testCase(className: string, failOn: FailOn, record: ReportRecord): { text: string; fails: boolean } {
  const fails = recordFails(record, failOn);
  let body = '';
  if (fails) {
    const failing = record.findings.filter((f) => findingFails(f, failOn));
    const counts = failing.length === 1 ? '1 finding' : `${failing.length} findings`;
    const type = failing.some((f) => f.kind === 'error') ? 'error' : failing[0]?.kind ?? 'error';
    body += `      <failure message="${xmlText(`${counts}: ${failing[0]?.message ?? 'invalid'}`)}" type="${type}">${xmlText(failing.map(findingLine).join('\n'), true)}</failure>\n`;
  }
  const others = record.findings.filter((f) => !fails || !findingFails(f, failOn));
  if (others.length > 0) body += `      <system-out>${xmlText(others.map(findingLine).join('\n'), true)}</system-out>\n`;
  const name = xmlText(recordName(record));
  const text = body ? `    <testcase name="${name}" classname="${className}">\n${body}    </testcase>\n` : `    <testcase name="${name}" classname="${className}"/>\n`;
  return { text, fails };
}

/** The testcases of records of the file `context` describes, as bytes: the same text on any thread. */
export function junitCases(context: JunitFileContext, records: readonly ReportRecord[]): JunitCases {
  const failOn: FailOn = new Set(context.failOn);
  const sink = new ByteSink(records.length * 1024);
  const ends = new Int32Array(records.length);
  const failed = new Uint8Array(records.length);
  const indices = new Int32Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const { text, fails } = testCase(context.className, failOn, records[i]);
    sink.write(text);
    ends[i] = sink.length;
    failed[i] = fails ? 1 : 0;
    indices[i] = records[i].index ?? -1;
  }
  return { format: 'junit', bytes: sink.done(), ends, failed, indices };
}

const utf8 = new TextDecoder();

export class JunitWriter implements ReportWriter {
  private file_: ReportFile | undefined;
  /** The suite's testcases as written: a record's, or a run of a batch's (JunitCases) as bytes. */
  private cases: Array<string | Uint8Array> = [];
  private caseCount = 0;
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
    this.caseCount = 0;
    this.failures = 0;
    this.errors = 0;
    this.firstIndex = undefined;
    this.lastIndex = undefined;
  }

  /** The suite of the cases held: the file's name, with its records' range when the file is cut. */
  private suite(): string {
    let name = this.file_?.name ?? 'payload';
    if (this.parted && this.firstIndex !== undefined) name += `, records #${this.firstIndex}–#${this.lastIndex}`;
    const cases = this.cases.map((c) => (typeof c === 'string' ? c : utf8.decode(c))).join('');
    return `  <testsuite name="${xmlText(name)}" tests="${this.caseCount}" failures="${this.failures}" errors="${this.errors}" skipped="0">\n${cases}  </testsuite>\n`;
  }

  private get className(): string {
    return xmlText(this.file_?.path ?? this.file_?.name ?? 'payload');
  }

  problem(problem: FileProblem): string {
    this.errors++;
    this.caseCount++;
    const message = `${this.file_?.name ?? 'file'} ${problem.message}`;
    this.cases.push(
      `    <testcase name="file" classname="${this.className}">\n` +
        `      <error message="${xmlText(message)}" type="${problem.partial ? 'file-validated-in-part' : 'file-not-validated'}">${xmlText(message, true)}</error>\n` +
        '    </testcase>\n',
    );
    return '';
  }

  record(record: ReportRecord): string {
    const before = this.room();
    if (record.index !== undefined) this.indexed(record.index);
    const { text, fails } = testCase(this.className, this.options.failOn ?? DEFAULT_FAIL_ON, record);
    if (fails) this.failures++;
    this.cases.push(text);
    this.caseCount++;
    return before;
  }

  /** Room for one more case: when the suite is full, its text (the file is then cut into suites). */
  private room(): string {
    if (this.caseCount < SUITE_CASES) return '';
    this.parted = true;
    const full = this.suite();
    this.reset();
    return full;
  }

  private indexed(index: number): void {
    this.firstIndex ??= index;
    this.lastIndex = index;
  }

  /** What the testcases of the current file's records need to be written elsewhere (junitCases). */
  batchContext(): JunitFileContext {
    return { format: 'junit', className: this.className, failOn: [...(this.options.failOn ?? DEFAULT_FAIL_ON)] };
  }

  /** Testcases written elsewhere, in order: held in the suite, which is written when full. */
  takeBatch(batch: JunitCases): string {
    let before = '';
    let runStart = 0;
    for (let i = 0; i < batch.ends.length; i++) {
      const start = i === 0 ? 0 : batch.ends[i - 1];
      if (this.caseCount >= SUITE_CASES) {
        if (start > runStart) this.cases.push(batch.bytes.subarray(runStart, start));
        runStart = start;
        before += this.room();
      }
      if (batch.indices[i] >= 0) this.indexed(batch.indices[i]);
      if (batch.failed[i] === 1) this.failures++;
      this.caseCount++;
    }
    const end = batch.ends.length === 0 ? 0 : batch.ends[batch.ends.length - 1];
    if (end > runStart) this.cases.push(batch.bytes.subarray(runStart, end));
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
