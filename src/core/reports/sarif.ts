// SARIF 2.1.0 (what GitHub code scanning and the SARIF viewers read): one run, a rule per kind of
// finding and one for files not validated, a result per finding at the region the Problems panel
// shows. Written as it goes: results first, then the artifacts and the invocation (JSON objects
// keep no order), so a report of many files never waits in memory.

import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import type { FindingKind } from '../validation';
import type { FileProblem, ReportFile, ReportRecord, ReportWriter, TextRange } from './model';
import { inertJson } from './safeText';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
/** The uriBaseId of paths relative to the report's base folder. */
export const SARIF_BASE_ID = 'SRCROOT';

interface RuleText {
  readonly id: string;
  readonly name: string;
  readonly short: string;
  readonly full: string;
  readonly level: Sarif.ReportingConfiguration.level;
}

/** Index = position in the driver's rules: one per finding kind, in FINDING_KINDS order, then files. */
const RULES: Readonly<Record<FindingKind | 'file', RuleText & { index: number }>> = {
  error: {
    index: 0,
    id: 'schema-error',
    name: 'SchemaError',
    short: 'The record breaks its JSON Schema.',
    full: 'A required field is missing, a field has the wrong type or format, or a number is out of range: the record is invalid.',
    level: 'error',
  },
  warning: {
    index: 1,
    id: 'implausible-value',
    name: 'ImplausibleValue',
    short: 'The record is well-formed but implausible or inconsistent.',
    full: 'Such as minHR above maxHR, a zone whose min is above its max, a heart rate outside 20–250 bpm, body fat outside 2–75 %, updatedAt before createdAt, or a date in the future.',
    level: 'warning',
  },
  zero: {
    index: 2,
    id: 'zero-value',
    name: 'ZeroValue',
    short: 'A number is 0.',
    full: 'For the eight activity numbers the service sends 0 when the source does not provide the field, so a 0 may mean "not measured".',
    level: 'note',
  },
  deprecated: {
    index: 3,
    id: 'deprecated-field',
    name: 'DeprecatedField',
    short: 'A field the schema marks deprecated.',
    full: 'userId is deprecated in favour of humanId; the service announced its removal.',
    level: 'note',
  },
  unknown: {
    index: 4,
    id: 'unknown-field',
    name: 'UnknownField',
    short: 'A field the schema does not define.',
    full: 'Sources add fields; they are allowed and reported so drift is visible.',
    level: 'note',
  },
  file: {
    index: 5,
    id: 'file-not-validated',
    name: 'FileNotValidated',
    short: 'The file could not be validated.',
    full: 'It could not be read, is empty, is not valid JSON, or holds an empty list.',
    level: 'error',
  },
};

const RULE_ORDER = Object.values(RULES).sort((a, b) => a.index - b.index);

export interface SarifOptions {
  /** Absolute path of the folder relative paths start from (the working directory, the workspace folder). */
  readonly baseFolder?: string;
  readonly toolVersion?: string;
}

/** A relative path as a URI reference (each segment percent-encoded), or an absolute one as a file URI. */
export function artifactLocation(path: string): Sarif.ArtifactLocation {
  if (/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(path)) return { uri: pathToFileURL(path).href };
  return { uri: path.split('/').map(encodeURIComponent).join('/'), uriBaseId: SARIF_BASE_ID };
}

/** SARIF regions are 1-based, columns in UTF-16 code units (the run's columnKind). */
function regionOf(range: TextRange): Sarif.Region {
  return {
    startLine: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
    ...(range.offset !== undefined ? { charOffset: range.offset, charLength: range.length } : {}),
  };
}

export class SarifWriter implements ReportWriter {
  private readonly artifacts: Sarif.Artifact[] = [];
  private current: { file: ReportFile; index: number | undefined } | undefined;
  private results = 0;

  constructor(private readonly options: SarifOptions = {}) {}

  start(): string {
    const rules: Sarif.ReportingDescriptor[] = RULE_ORDER.map((r) => ({
      id: r.id,
      name: r.name,
      shortDescription: { text: r.short },
      fullDescription: { text: r.full },
      defaultConfiguration: { level: r.level },
      properties: { tags: ['health-data'] },
    }));
    const driver: Sarif.ToolComponent = { name: 'health-data', fullName: 'Health Data Explorer payload validator', rules };
    if (this.options.toolVersion !== undefined && /^\d+\.\d+\.\d+/.test(this.options.toolVersion)) {
      driver.version = this.options.toolVersion;
      driver.semanticVersion = this.options.toolVersion;
    }
    const run: Partial<Sarif.Run> = { tool: { driver }, columnKind: 'utf16CodeUnits' };
    if (this.options.baseFolder !== undefined) {
      const base = pathToFileURL(this.options.baseFolder).href;
      run.originalUriBaseIds = { [SARIF_BASE_ID]: { uri: base.endsWith('/') ? base : `${base}/` } };
    }
    const head = JSON.stringify({ $schema: SARIF_SCHEMA_URI, version: '2.1.0' });
    const runHead = JSON.stringify(run, null, 2).replace(/\n}$/, '');
    // `{"$schema":…,"version":"2.1.0","runs":[{…,"results":[` and then the results.
    return inertJson(`${head.slice(0, -1)},\n"runs": [\n${runHead},\n  "results": [`);
  }

  file(file: ReportFile): string {
    let index: number | undefined;
    if (file.path !== undefined) {
      index = this.artifacts.length;
      this.artifacts.push({ location: artifactLocation(file.path), mimeType: 'application/json', sourceLanguage: 'json' });
    }
    this.current = { file, index };
    return '';
  }

  private location(range: TextRange | undefined, pointer?: string): Sarif.Location[] | undefined {
    const current = this.current;
    if (current?.file.path === undefined) return undefined;
    const location: Sarif.Location = {
      physicalLocation: {
        artifactLocation: { ...artifactLocation(current.file.path), index: current.index },
        ...(range !== undefined ? { region: regionOf(range) } : {}),
      },
    };
    if (pointer) location.logicalLocations = [{ fullyQualifiedName: pointer, kind: 'property' }];
    return [location];
  }

  private result(rule: RuleText & { index: number }, text: string, range: TextRange | undefined, pointer?: string, properties?: Sarif.PropertyBag): string {
    const result: Sarif.Result = { ruleId: rule.id, ruleIndex: rule.index, level: rule.level as Sarif.Result.level, message: { text } };
    const locations = this.location(range, pointer);
    if (locations !== undefined) result.locations = locations;
    if (properties !== undefined) result.properties = properties;
    const json = JSON.stringify(result);
    return inertJson(`${this.results++ === 0 ? '\n' : ',\n'}    ${json}`);
  }

  problem(problem: FileProblem): string {
    return this.result(RULES.file, `${this.current?.file.name ?? 'file'} ${problem.message}`, problem.range);
  }

  record(record: ReportRecord): string {
    let out = '';
    const properties: Sarif.PropertyBag = {};
    if (record.index !== undefined) properties.recordIndex = record.index;
    if (record.id !== undefined) properties.recordId = record.id;
    if (record.kind !== undefined) properties.recordKind = record.kind;
    if (record.date !== undefined) properties.recordDate = record.date;
    for (const f of record.findings) {
      const text = record.index === undefined ? f.message : `${f.message} (record #${record.index})`;
      out += this.result(RULES[f.kind], text, f.range, f.pointer, properties);
    }
    return out;
  }

  endFile(): string {
    this.current = undefined;
    return '';
  }

  end(): string {
    const artifacts = JSON.stringify(this.artifacts, null, 2).replace(/\n/g, '\n  ');
    const invocations = JSON.stringify([{ executionSuccessful: true }]);
    return inertJson(`${this.results > 0 ? '\n  ' : ''}],\n  "artifacts": ${artifacts},\n  "invocations": ${invocations}\n}\n]\n}\n`);
  }
}
