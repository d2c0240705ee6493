// The CLI's own JSON report (`--format json`, `--json`): `{"files":[{file, error?, records:[{index,
// kind, id, valid, findings:[{kind, path, message}]}]}]}`, written record by record.

import type { FileProblem, ReportFile, ReportRecord, ReportWriter } from './model';
import { inertJson } from './safeText';

/** Strings seen often (finding kinds, pointers, messages) and their inert JSON, so each is escaped once. */
const quoted = new Map<string, string>();
const QUOTED_LIMIT = 4096;
const QUOTED_LENGTH = 200;

/** A string as inert JSON: `inertJson(JSON.stringify(text))`, remembered for short repeated texts. */
function quote(text: string): string {
  let json = quoted.get(text);
  if (json === undefined) {
    json = inertJson(JSON.stringify(text));
    if (text.length <= QUOTED_LENGTH && quoted.size < QUOTED_LIMIT) quoted.set(text, json);
  }
  return json;
}

const optional = (text: string | undefined): string => (text == null ? 'null' : quote(text));

/**
 * One record as `JSON.stringify(…, null, 2)` writes it, indented by 8 spaces, with inertJson's
 * escapes: written by hand because the generic pretty printer and the escape pass over its whole
 * output cost more than validating the record. The layout is ASCII, so escaping each string alone
 * escapes the same characters as escaping the whole text.
 */
function recordJson(record: ReportRecord): string {
  const index = record.index == null ? 'null' : JSON.stringify(record.index);
  const id = record.id == null ? 'null' : inertJson(JSON.stringify(record.id));
  let json = `{\n          "index": ${index},\n          "kind": ${optional(record.kind)},\n          "id": ${id},\n          "valid": ${record.valid},\n          "findings": `;
  const findings = record.findings;
  if (findings.length === 0) return `${json}[]\n        }`;
  json += '[';
  for (let i = 0; i < findings.length; i++) {
    const f = findings[i];
    json += `${i === 0 ? '' : ','}\n            {\n              "kind": ${quote(f.kind)},\n              "path": ${quote(f.pointer)},\n              "message": ${quote(f.message)}\n            }`;
  }
  return `${json}\n          ]\n        }`;
}

export class JsonReportWriter implements ReportWriter {
  /** The JSON report names a finding by its pointer, never by its line and column. */
  readonly placesFindings = false;
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
    const head = this.open ? ',\n        ' : ',\n      "records": [\n        ';
    this.open = true;
    return head + recordJson(record);
  }

  endFile(): string {
    return this.open ? '\n      ]\n    }' : ',\n      "records": []\n    }';
  }

  end(): string {
    return `${this.files > 0 ? '\n  ' : ''}]\n}\n`;
  }
}
