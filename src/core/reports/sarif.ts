// SARIF 2.1.0 (what GitHub code scanning and the SARIF viewers read): one run, a rule per kind of
// finding and one for files not validated, a result per finding at the region the Problems panel
// shows. Written as it goes: results first, then the artifacts and the invocation (JSON objects
// keep no order), so a report of many files never waits in memory.

import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import type { FindingKind } from '../validation';
import type { FileProblem, ReportFile, ReportRecord, ReportWriter, TextRange } from './model';
import { inertJson } from './safeText';
import { ByteSink, StringSink, type TextSink } from './textSinks';

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
    full: 'For the eight activity numbers the service sends 0 when the source does not provide the field, so a 0 may mean "not measured". A 0 that stands out (nearly every other record of its source in the file sends the field as another number: a tracker not worn that day) is reported at level warning.',
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
    full: 'It could not be read, is empty, is not valid JSON, or holds an empty list. A file that breaks off after records that were validated has their results before this one, which then has the property partial: true.',
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

/** A result's region as JSON: 1-based, columns in UTF-16 code units (the run's columnKind). */
function regionJson(range: TextRange): string {
  const { start, end } = range;
  const offset = range.offset !== undefined ? `,"charOffset":${range.offset}${range.length !== undefined ? `,"charLength":${range.length}` : ''}` : '';
  return `{"startLine":${start.line + 1},"startColumn":${start.character + 1},"endLine":${end.line + 1},"endColumn":${end.character + 1}${offset}}`;
}

/**
 * GitHub code scanning rejects a SARIF run with more results than this (and shows the 5,000 most
 * severe of those it takes).
 */
export const GITHUB_SARIF_RESULTS_LIMIT = 25_000;

/** Distinct messages and pointers kept as inert JSON strings; past this many the memo starts again. */
const MEMO_LIMIT = 4096;
/** Messages and pointers repeat on most records: each is quoted and made inert once. */
const quotedMemo = new Map<string, string>();

/** `text` as an inert JSON string. */
function quoted(text: string): string {
  let json = quotedMemo.get(text);
  if (json === undefined) {
    json = inertJson(JSON.stringify(text));
    if (quotedMemo.size >= MEMO_LIMIT) quotedMemo.clear();
    quotedMemo.set(text, json);
  }
  return json;
}

/**
 * One result as JSON.stringify writes the Sarif.Result { ruleId, ruleIndex, level, message,
 * locations, properties } (a test holds the two equal), from pieces already inert, after
 * `,\n    `: a result per finding is most of a large report, and building and stringifying the
 * objects was most of its time. `artifactJson`: the file's artifact location, when it has a path.
 */
function resultJson(rule: RuleText & { index: number }, messageJson: string, artifactJson: string | undefined, range: TextRange | undefined, pointer?: string, propertiesJson?: string, level = rule.level): string {
  let out = `,\n    {"ruleId":"${rule.id}","ruleIndex":${rule.index},"level":"${level}","message":{"text":${messageJson}}`;
  if (artifactJson !== undefined) {
    out += `,"locations":[{"physicalLocation":{"artifactLocation":${artifactJson}${range !== undefined ? `,"region":${regionJson(range)}` : ''}}`;
    if (pointer) out += `,"logicalLocations":[{"fullyQualifiedName":${quoted(pointer)},"kind":"property"}]`;
    out += '}]';
  }
  if (propertiesJson !== undefined) out += `,"properties":${propertiesJson}`;
  return `${out}}`;
}

/** What a SARIF result of a record needs of its file: its artifact's location, when it has a path. */
export interface SarifFileContext {
  readonly format: 'sarif';
  readonly artifactJson?: string;
}

/** Records' results as UTF-8, each after `,\n    `, and how many there are. */
export interface SarifResults {
  readonly format: 'sarif';
  readonly bytes: Uint8Array;
  readonly results: number;
}

/**
 * The results of records of the file `context` describes, each after `,\n    `, into `sink`: the
 * same text on any thread. Returns how many there are.
 */
export function writeSarifResults(context: SarifFileContext, records: readonly ReportRecord[], sink: TextSink): number {
  let results = 0;
  for (const record of records) {
    const properties: Sarif.PropertyBag = {};
    if (record.index !== undefined) properties.recordIndex = record.index;
    if (record.id !== undefined) properties.recordId = record.id;
    if (record.kind !== undefined) properties.recordKind = record.kind;
    if (record.date !== undefined) properties.recordDate = record.date;
    const propertiesJson = inertJson(JSON.stringify(properties));
    // "<message> (record #N)": the message's memoized JSON string, reopened for the suffix.
    const suffix = record.index === undefined ? '' : ` (record #${record.index})"`;
    for (const f of record.findings) {
      const message = quoted(f.message);
      const rule = RULES[f.kind];
      // A 0 that stands out keeps its rule, at a warning's level (a result may raise its rule's).
      const level = f.standsOut === true ? 'warning' : rule.level;
      sink.write(resultJson(rule, suffix === '' ? message : message.slice(0, -1) + suffix, context.artifactJson, f.range, f.pointer, propertiesJson, level));
      results++;
    }
  }
  return results;
}

/** The results of records as bytes (writeSarifResults), for SarifWriter.takeBatch. */
export function sarifResults(context: SarifFileContext, records: readonly ReportRecord[]): SarifResults {
  const sink = new ByteSink(records.length * 1536);
  const results = writeSarifResults(context, records, sink);
  return { format: 'sarif', bytes: sink.done(), results };
}

export class SarifWriter implements ReportWriter {
  private readonly artifacts: Sarif.Artifact[] = [];
  private current: { file: ReportFile; context: SarifFileContext } | undefined;
  private results = 0;

  constructor(private readonly options: SarifOptions = {}) {}

  /** Results written so far. */
  get resultCount(): number {
    return this.results;
  }

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
    let artifactJson: string | undefined;
    if (file.path !== undefined) {
      const index = this.artifacts.length;
      const location = artifactLocation(file.path);
      this.artifacts.push({ location, mimeType: 'application/json', sourceLanguage: 'json' });
      // Written once per file: a result repeats it, and making it (a file URL) cost more than the result.
      artifactJson = inertJson(JSON.stringify({ ...location, index }));
    }
    this.current = { file, context: artifactJson === undefined ? { format: 'sarif' } : { format: 'sarif', artifactJson } };
    return '';
  }

  problem(problem: FileProblem): string {
    const message = inertJson(JSON.stringify(`${this.current?.file.name ?? 'file'} ${problem.message}`));
    return this.taken(resultJson(RULES.file, message, this.current?.context.artifactJson, problem.range, undefined, problem.partial ? '{"partial":true}' : undefined), 1);
  }

  record(record: ReportRecord): string {
    const sink = new StringSink();
    const results = writeSarifResults(this.batchContext(), [record], sink);
    return this.taken(sink.text(), results);
  }

  /** What the results of the current file's records need to be written elsewhere (sarifResults). */
  batchContext(): SarifFileContext {
    return this.current?.context ?? { format: 'sarif' };
  }

  /** Results written elsewhere, in order: the first of the report loses its comma. */
  takeBatch(batch: SarifResults): Uint8Array {
    return this.taken(batch.bytes, batch.results);
  }

  /** Results each after `,\n`, counted: the first of the report written after `\n` alone. */
  private taken<T extends string | Uint8Array>(text: T, results: number): T {
    if (results === 0) return text.slice(0, 0) as T;
    const first = this.results === 0;
    this.results += results;
    return first ? (text.slice(1) as T) : text;
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
