// The CLI's text report: per file its records with their findings (marks that read without
// colour), a file that could not be validated as one line, and a closing count. Fed record by
// record like the other formats (src/core/reports).

import type { FileProblem, ReportFile, ReportRecord, ReportTally, ReportWriter } from '../core/reports';
import { lineColumn, recordName } from '../core/reports';
import { FINDING_KINDS } from '../core/validation';
import { type Output, countFindings, mark, paint, printable } from './output';

type Paint = Pick<Output, 'color'>;

export class TextReportWriter implements ReportWriter {
  private file_: ReportFile | undefined;
  private headed = false;

  constructor(
    private readonly o: Paint,
    private readonly tally: ReportTally,
  ) {}

  start(): string {
    return '';
  }

  file(file: ReportFile): string {
    this.file_ = file;
    this.headed = false;
    return '';
  }

  problem(problem: FileProblem): string {
    return `${mark(this.o, 'error')} ${printable(`${this.file_?.name ?? 'file'} ${problem.message}`, 200)}\n`;
  }

  record(record: ReportRecord): string {
    const o = this.o;
    let out = '';
    if (!this.headed) {
      this.headed = true;
      out += `${paint(o, 'bold', printable(this.file_?.name ?? 'payload', 120))}\n`;
    }
    const status = record.valid ? paint(o, 'green', 'valid') : paint(o, 'red', 'invalid');
    const counts = countFindings(record.findings);
    out += `  ${printable(recordName(record), 80)}: ${status}${counts === 'clean' ? '' : ` (${counts})`}\n`;
    for (const f of record.findings) {
      const where = lineColumn(f.range);
      out += `    ${mark(o, f.kind)} ${printable(f.pointer || '(record)', 50)}${where ? ` ${paint(o, 'dim', `(${where})`)}` : ''}  ${printable(f.message, 120)}\n`;
    }
    return out;
  }

  endFile(): string {
    this.file_ = undefined;
    return '';
  }

  end(): string {
    return `${summaryLine(this.o, this.tally)}\n`;
  }
}

/** `12 records in 3 files, 1 invalid, 1 file not validated`, with the findings that fail the run. */
export function summaryLine(p: Paint, tally: ReportTally): string {
  const o = p;
  const { records, files, invalid, problems } = tally;
  const tail = [`${records} record${records === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`];
  tail.push(invalid ? paint(o, 'red', `${invalid} invalid`) : paint(o, 'green', 'all valid'));
  const failingKinds = FINDING_KINDS.filter((k) => k !== 'error' && tally.failOn.has(k) && tally.counts[k] > 0);
  if (failingKinds.length > 0) {
    tail.push(paint(o, 'red', `${tally.failing} failing on ${failingKinds.map((k) => `${tally.counts[k]} ${k}`).join(', ')}`));
  }
  if (problems) tail.push(paint(o, 'red', `${problems} file${problems === 1 ? '' : 's'} not validated`));
  return tail.join(', ');
}
