// The CLI's own JSON report (`--format json`, `--json`): `{"files":[{file, error?, records:[{index,
// kind, id, valid, findings:[{kind, path, message}]}]}]}`, written record by record.

import type { FileProblem, ReportFile, ReportRecord, ReportWriter } from './model';
import { inertJson } from './safeText';

const indent = (json: string, by: string): string => json.replace(/\n/g, `\n${by}`);

export class JsonReportWriter implements ReportWriter {
  private files = 0;
  private open = false;
  private name = '';

  start(): string {
    return '{\n  "files": [';
  }

  file(file: ReportFile): string {
    this.open = false;
    this.name = file.name;
    return inertJson(`${this.files++ === 0 ? '\n' : ',\n'}    {\n      "file": ${JSON.stringify(file.name)}`);
  }

  problem(problem: FileProblem): string {
    return inertJson(`,\n      "error": ${JSON.stringify(`${this.name} ${problem.message}`)}`);
  }

  record(record: ReportRecord): string {
    const json = JSON.stringify(
      {
        index: record.index ?? null,
        kind: record.kind ?? null,
        id: record.id ?? null,
        valid: record.valid,
        findings: record.findings.map((f) => ({ kind: f.kind, path: f.pointer, message: f.message })),
      },
      null,
      2,
    );
    const head = this.open ? ',\n        ' : ',\n      "records": [\n        ';
    this.open = true;
    return inertJson(`${head}${indent(json, '        ')}`);
  }

  endFile(): string {
    return this.open ? '\n      ]\n    }' : ',\n      "records": []\n    }';
  }

  end(): string {
    return `${this.files > 0 ? '\n  ' : ''}]\n}\n`;
  }
}
