// The CLI's own JSON report (`--format json`, `--json`): `{"files":[{file, error?, records:[{index,
// kind, id, valid, findings:[{kind, path, message}]}]}]}`, written record by record.

import type { FileProblem, ReportFile, ReportFinding, ReportRecord, ReportWriter } from './model';
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

const optional = (text: string | null | undefined): string => (text == null ? 'null' : quote(text));

/** What the JSON report shows of a record, apart from its findings. */
export interface JsonRecordHead {
  readonly index: number | null | undefined;
  readonly kind: string | null | undefined;
  readonly id: string | null | undefined;
  readonly valid: boolean;
}

/** What the JSON report shows of a finding: its pointer is given apart (ReportFinding.pointer, a streamed finding's path). */
export interface JsonFinding {
  readonly kind: string;
  readonly message: string;
  /** Written as `"standsOut": true` after the message when true (ReportFinding.standsOut). */
  readonly standsOut?: boolean;
}

/**
 * The `findings` value of a record, from `[` (no indent before it) to `]`: `[]` or a list indented
 * as inside a record. `pointerOf` gives each finding's pointer.
 */
export function jsonFindingsText<F extends JsonFinding>(findings: readonly F[], pointerOf: (f: F) => string): string {
  if (findings.length === 0) return '[]';
  let json = '[';
  for (let i = 0; i < findings.length; i++) {
    const f = findings[i];
    json += `${i === 0 ? '' : ','}\n            {\n              "kind": ${quote(f.kind)},\n              "path": ${quote(pointerOf(f))},\n              "message": ${quote(f.message)}${f.standsOut === true ? ',\n              "standsOut": true' : ''}\n            }`;
  }
  return `${json}\n          ]`;
}

/**
 * One record as `JSON.stringify(…, null, 2)` writes it, indented by 8 spaces, with inertJson's
 * escapes, its findings given as jsonFindingsText wrote them: written by hand because the generic
 * pretty printer and the escape pass over its whole output cost more than validating the record.
 * The layout is ASCII, so escaping each string alone escapes the same characters as escaping the
 * whole text.
 */
export function jsonRecordText(record: JsonRecordHead, findingsText: string): string {
  return jsonRecordOpening(record) + findingsText + JSON_RECORD_CLOSING;
}

/** A record's text up to its findings (jsonRecordText without them and JSON_RECORD_CLOSING). */
export function jsonRecordOpening(record: JsonRecordHead): string {
  const index = record.index == null ? 'null' : String(record.index);
  const id = record.id == null ? 'null' : inertJson(JSON.stringify(record.id));
  const [head, middle, tail] = jsonRecordOpeningParts(record.kind, record.valid);
  return `${head}${index}${middle}${id}${tail}`;
}

/** jsonRecordOpening around its record's index and id: what comes before the index, between them, and after the id. */
export function jsonRecordOpeningParts(kind: string | null | undefined, valid: boolean): [string, string, string] {
  return ['{\n          "index": ', `,\n          "kind": ${optional(kind)},\n          "id": `, `,\n          "valid": ${valid},\n          "findings": `];
}

/** What closes a record's text after its findings. */
export const JSON_RECORD_CLOSING = '\n        }';

const pointerOfReportFinding = (f: ReportFinding): string => f.pointer;

/** Between two records' texts in a file's `records` list. */
export const JSON_RECORD_SEPARATOR = ',\n        ';

export class JsonReportWriter implements ReportWriter {
  /** The JSON report names a finding by its pointer, never by its line and column. */
  readonly placesFindings = false;
  private files = 0;
  /** The file's `records` list is open (records written), or was closed by a problem after them. */
  private open = false;
  private closed = false;
  private name = '';

  start(): string {
    return '{\n  "files": [';
  }

  file(file: ReportFile): string {
    this.open = false;
    this.closed = false;
    this.name = file.name;
    return inertJson(`${this.files++ === 0 ? '\n' : ',\n'}    {\n      "file": ${JSON.stringify(file.name)}`);
  }

  /**
   * The file's error. A file that breaks off after some records (cut short) has its problem after
   * them: their list is closed first, and the error follows it, with `"partial": true`.
   */
  problem(problem: FileProblem): string {
    const error = inertJson(`,\n      "error": ${JSON.stringify(`${this.name} ${problem.message}`)}${problem.partial ? ',\n      "partial": true' : ''}`);
    if (!this.open) return error;
    this.open = false;
    this.closed = true;
    return `\n      ]${error}`;
  }

  record(record: ReportRecord): string {
    return this.recordsHead() + jsonRecordText(record, jsonFindingsText(record.findings, pointerOfReportFinding));
  }

  /**
   * What comes before the next records of the file: its `records` key or a separator. Records
   * written elsewhere by jsonRecordText and joined by JSON_RECORD_SEPARATOR (a streamed batch)
   * follow it.
   */
  recordsHead(): string {
    if (this.closed) throw new Error('a record after the problem that ended its file');
    const head = this.open ? JSON_RECORD_SEPARATOR : ',\n      "records": [\n        ';
    this.open = true;
    return head;
  }

  endFile(): string {
    if (this.closed) return '\n    }';
    return this.open ? '\n      ]\n    }' : ',\n      "records": []\n    }';
  }

  end(): string {
    return `${this.files > 0 ? '\n  ' : ''}]\n}\n`;
  }
}
