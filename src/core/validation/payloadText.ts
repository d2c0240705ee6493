// Validates a payload written as JSON text (an editor's document, a fixture file) and places every
// finding on the text: the field it is about, its key for deprecated and unknown fields, and for a
// missing field the object that lacks it. Also the fix of a deprecated field: its replacement.

import { Finding } from './findings';
import { PropertyContext, TextEditSpec, propertiesAt, removePropertyEdit, renamePropertyEdit, JsonSyntaxError, JsonTextOptions, PointerNode, PointerQuery, PointerSpans, Span, locateListItems, locateQuery, parentPointer, parseJsonText } from '../json';
import { RESOURCES } from '../resources';
import { intactRecords } from './intactRecords';
import { LinesOptions, NdjsonLines, NdjsonRecords, ndjsonRecordSpans, parseNdjsonRecords } from './ndjsonText';
import { KindOptions, RecordValidation, ValidateOptions, schemaFor, validatePayload, validateRecordAt, withFallbackKind } from './validator';

export interface PlacedFinding extends Finding, Span {
  /** JSON Pointer of the field in the whole payload: `/3/value` for the fourth record's value. */
  readonly pointer: string;
  /** The pointer is not in the text (a required field that is missing): the span is its object's. */
  readonly missing: boolean;
  /** Position of the record in a list payload; undefined for a single record. */
  readonly index: number | undefined;
  readonly recordId: string | undefined;
}

export interface PayloadTextValidation {
  /**
   * When not empty the text is no JSON: `records` and `findings` are then those of the list's
   * records that hold no syntax error (intactRecords), none when the text is one record.
   */
  readonly syntaxErrors: readonly JsonSyntaxError[];
  readonly records: readonly RecordValidation[];
  readonly findings: readonly PlacedFinding[];
  /** Records that are objects whose kind could not be detected (and none was given). */
  readonly undetected: number;
  /**
   * The parsed payload, for what reports name a record by. For a text that is no JSON, the list
   * as far as it is whole (intactRecords: its intact records at their places), or undefined.
   */
  readonly payload?: unknown;
  /**
   * The text was read as NDJSON (options.lines): how many records its lines hold, and how many of
   * those lines are no JSON (their syntax errors are `syntaxErrors`). `payload` is then the list
   * of the lines' values (undefined for a broken one), each record at `/i`.
   */
  readonly lines?: NdjsonLines;
}

export interface PayloadTextOptions extends JsonTextOptions, ValidateOptions, KindOptions, LinesOptions {}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The value at a pointer of the validator's records (`''`, `/3`, `/data/3`); undefined if none. */
export function recordAt(payload: unknown, pointer: string): unknown {
  let value = payload;
  for (const token of pointer.split('/').slice(1)) {
    if (Array.isArray(value)) value = value[Number(token)];
    else if (isPlainObject(value) && Object.prototype.hasOwnProperty.call(value, token)) value = value[token];
    else return undefined;
  }
  return value;
}

/**
 * A finding of `r` placed on the span of its pointer's value (keyOffset -1: a value without a
 * key), or when `missing` on that of the nearest ancestor in the text; offsets moved by `shift`.
 */
function placedFinding(r: RecordValidation, f: Finding, keyOffset: number, keyLength: number, offset: number, length: number, container: boolean, missing: boolean, shift: number): PlacedFinding {
  if (keyOffset >= 0 && (missing || container || f.kind === 'deprecated' || f.kind === 'unknown')) {
    // A container, and a missing field's object, are shown by their key (never as a block of
    // many lines); a deprecated or unknown field too.
    offset = keyOffset;
    length = keyLength;
  } else if (missing || container) {
    // …or by the opening bracket.
    if (container) length = 1;
  } else if (keyOffset >= 0) {
    // A field: key and value.
    length = offset + length - keyOffset;
    offset = keyOffset;
  }
  return { kind: f.kind, path: f.path, message: f.message, pointer: r.pointer + f.path, offset: offset + shift, length, missing, index: r.index, recordId: r.id };
}

/** A finding whose pointer and ancestors are nowhere in the text. */
function unplacedFinding(r: RecordValidation, f: Finding): PlacedFinding {
  return { kind: f.kind, path: f.path, message: f.message, pointer: r.pointer + f.path, offset: 0, length: 0, missing: true, index: r.index, recordId: r.id };
}

/**
 * Parses the text, validates every record (detecting each one's kind unless `kind` is given)
 * and places each finding on the text. Never throws.
 */
export function validatePayloadText(text: string, options: PayloadTextOptions = {}): PayloadTextValidation {
  const parsed = parseJsonText(text, options);
  if (parsed.errors.length > 0) {
    const spans = ndjsonRecordSpans(text, parsed.errors, options.lines);
    if (spans !== undefined) return validateNdjsonText(text, spans, options);
    return validateBrokenPayloadText(text, parsed.errors, options);
  }
  return validateParsedPayloadText(text, parsed.value, options);
}

/** validatePayloadText of a text with these syntax errors: the errors, and its list's records that hold none. */
export function validateBrokenPayloadText(text: string, syntaxErrors: readonly JsonSyntaxError[], options: PayloadTextOptions = {}): PayloadTextValidation {
  let intact;
  try {
    intact = intactRecords(text, syntaxErrors, options);
  } catch {
    // Nested too deeply to scan (the scanner recurses): the syntax errors alone.
    return { syntaxErrors, records: [], findings: [], undetected: 0 };
  }
  return { syntaxErrors, records: intact.records, findings: placeFindings(intact.spans, intact.records), undetected: intact.undetected, payload: intact.payload };
}

/** validatePayloadText once the text has parsed (to `payload`): the same records and places. */
export function validateParsedPayloadText(text: string, payload: unknown, options: PayloadTextOptions = {}): PayloadTextValidation {
  const records = validatePayload(payload, options.kind, options);
  const undetected = resolveUndetected(payload, records, options);
  return { syntaxErrors: [], records, findings: placeRecordFindings(text, records, options), undetected, payload };
}

/**
 * Records whose kind was not detected: validated again as `fallbackKind` when one is given (in
 * place, in `records`), counted otherwise. Returns how many remain undetected.
 */
export function resolveUndetected(payload: unknown, records: RecordValidation[], options: PayloadTextOptions): number {
  let undetected = 0;
  if (options.kind !== undefined) return 0;
  for (let i = 0; i < records.length; i++) {
    if (records[i].kind !== undefined) continue;
    const resolved = withFallbackKind(records[i], recordAt(payload, records[i].pointer), options);
    records[i] = resolved.record;
    if (resolved.undetected) undetected++;
  }
  return undetected;
}

/** Every finding of the records placed on the text, from the spans of their pointers. */
export function placeFindings(spans: PointerSpans, records: readonly RecordValidation[]): PlacedFinding[] {
  const findings: PlacedFinding[] = [];
  for (const r of records) {
    for (const f of r.findings) {
      const pointer = r.pointer + f.path;
      let p = pointer;
      let span = spans.get(p);
      while (span === undefined && p !== '') {
        p = parentPointer(p);
        span = spans.get(p);
      }
      if (span === undefined) findings.push(unplacedFinding(r, f));
      else findings.push(placedFinding(r, f, span.key ? span.key.offset : -1, span.key ? span.key.length : 0, span.value.offset, span.value.length, span.container, p !== pointer, 0));
    }
  }
  return findings;
}

/** Where placeRecordFindings looks: records of a list scanned apart from the rest of the text. */
export interface RecordsScope {
  /** The records' pointer in the text scanned. */
  base(r: RecordValidation): string;
  /** Added to an offset in the text scanned to make it an offset in the whole text. */
  readonly shift: number;
}

/** The scope of records `first`, `first + 1`, … of a list scanned on their own, as items 0, 1, … (their offsets moved by `shift`). */
export function recordsFrom(first: number, shift: number): RecordsScope {
  return { base: (r) => `/${(r.index ?? 0) - first}`, shift };
}

/**
 * placeFindings(locatePointers(text, every finding's pointer), records), in one scan of the text
 * with no pointer looked up: each finding keeps the node its pointer was given, whose span the
 * scan sets, so placing it follows the node (and its parents for a missing field) instead of
 * splitting and hashing its pointer again. Same places, same order.
 */
export function placeRecordFindings(text: string, records: readonly RecordValidation[], options?: JsonTextOptions, scope?: RecordsScope): PlacedFinding[] {
  const query = new PointerQuery();
  const nodes = findingNodes(query, records, scope === undefined ? (r) => r.pointer : (r) => scope.base(r));
  locateQuery(text, query, options);
  return placedAt(records, nodes, scope?.shift ?? 0);
}

/**
 * placeRecordFindings of records `first`, `first + 1`, … of a strict JSON text's list (as
 * validatePayload numbers them), reading the text from `from` on: just after the list's `[`
 * (rootListStart, or memberListStart for a wrapped list), or where the records before them
 * ended. So a list placed a batch of records at a time is read once, with no pass to find where
 * its records are. Returns the offset after the last of them too; undefined when the text is no
 * strict JSON there.
 */
export function placeListRecordFindings(text: string, records: readonly RecordValidation[], first: number, from: number): { findings: PlacedFinding[]; end: number } | undefined {
  const query = new PointerQuery();
  const nodes = findingNodes(query, records, recordsFrom(first, 0).base);
  const end = locateListItems(text, query, from, records.length);
  return end < 0 ? undefined : { findings: placedAt(records, nodes, 0), end };
}

/** The node of each finding of the records, in order, below its record's node (`baseOf`). */
function findingNodes(query: PointerQuery, records: readonly RecordValidation[], baseOf: (r: RecordValidation) => string): PointerNode[] {
  const nodes: PointerNode[] = [];
  for (const r of records) {
    if (r.findings.length === 0) continue;
    const pointer = baseOf(r);
    const base = query.at(pointer);
    for (const f of r.findings) {
      const path = f.path;
      nodes.push(path === '' || path.charCodeAt(0) === 47 ? query.below(base, path) : query.at(pointer + path));
    }
  }
  return nodes;
}

/** The records' findings placed on the spans a scan set on their nodes (findingNodes), moved by `shift`. */
function placedAt(records: readonly RecordValidation[], nodes: readonly PointerNode[], shift: number): PlacedFinding[] {
  const findings: PlacedFinding[] = [];
  let k = 0;
  for (const r of records) {
    for (const f of r.findings) {
      const node = nodes[k++];
      let at: PointerNode | undefined = node;
      while (at !== undefined && at.offset < 0) at = at.parent;
      if (at === undefined) findings.push(unplacedFinding(r, f));
      else findings.push(placedFinding(r, f, at.keyOffset, at.keyLength, at.offset, at.length, at.container, at !== node, shift));
    }
  }
  return findings;
}

let replacements: Map<string, string> | undefined;

/**
 * The field that replaces a deprecated one, as the schemas say (`"description": "Deprecated: use
 * humanId…"`): `userId` → `humanId`. Undefined for a field no schema deprecates.
 */
export function deprecatedReplacement(field: string): string | undefined {
  if (replacements === undefined) {
    replacements = new Map();
    for (const r of RESOURCES) {
      for (const [name, prop] of Object.entries(schemaFor(r.kind).properties ?? {})) {
        const use = prop.deprecated ? /\buse (\w+)/i.exec(prop.description ?? '')?.[1] : undefined;
        if (use !== undefined) replacements.set(name, use);
      }
    }
  }
  return replacements.get(field);
}

export interface DeprecatedFieldFix {
  readonly field: string;
  readonly replacement: string;
  /** Rename when the object lacks the replacement; remove when it has it already. */
  readonly action: 'rename' | 'remove';
  readonly edit: TextEditSpec;
}

function fixOf(property: PropertyContext): DeprecatedFieldFix | undefined {
  const replacement = deprecatedReplacement(property.name);
  if (replacement === undefined) return undefined;
  return property.siblings.includes(replacement)
    ? { field: property.name, replacement, action: 'remove', edit: removePropertyEdit(property) }
    : { field: property.name, replacement, action: 'rename', edit: renamePropertyEdit(property, replacement) };
}

/**
 * The fix of each deprecated field whose key starts at one of the offsets (where a `deprecated`
 * finding is placed), read from the text as it is now. Offsets at no deprecated key are absent.
 */
export function deprecatedFieldFixes(text: string, keyOffsets: Iterable<number>, options?: JsonTextOptions): Map<number, DeprecatedFieldFix> {
  const fixes = new Map<number, DeprecatedFieldFix>();
  const wanted = new Set(keyOffsets);
  const properties = propertiesAt(text, wanted, options);
  for (const [offset, property] of properties) {
    const fix = fixOf(property);
    if (fix !== undefined) fixes.set(offset, fix);
  }
  // A key the text read as one value does not reach: a line of NDJSON after the first. Each such
  // line is read on its own, as the validation read it, and its fixes moved to where it stands.
  const byLine = new Map<number, number[]>();
  for (const offset of wanted) {
    if (properties.has(offset) || offset < 0 || offset >= text.length) continue;
    const start = text.lastIndexOf('\n', offset - 1) + 1;
    let offsets = byLine.get(start);
    if (offsets === undefined) byLine.set(start, (offsets = []));
    offsets.push(offset - start);
  }
  for (const [start, offsets] of byLine) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    for (const [offset, property] of propertiesAt(text.slice(start, end), offsets, options)) {
      const fix = fixOf(property);
      if (fix !== undefined) fixes.set(offset + start, { ...fix, edit: { ...fix.edit, offset: fix.edit.offset + start } });
    }
  }
  return fixes;
}

/**
 * Validates records `from` to `to` (exclusive) of an NDJSON text, each as one record (a line
 * holding a list is not read as a list): record i is at `/i` of the list of the lines' values,
 * its findings placed on its line. Lines that are no JSON are skipped.
 */
export function validateNdjsonRange(
  text: string,
  parsed: NdjsonRecords,
  options: PayloadTextOptions,
  from: number,
  to: number,
): { records: RecordValidation[]; findings: PlacedFinding[]; undetected: number } {
  const records: RecordValidation[] = [];
  for (let i = from; i < to; i++) {
    const value = parsed.values[i];
    if (value !== undefined) records.push(validateRecordAt(value, options.kind, options, i, `/${i}`));
  }
  // The lines' values are the list the records' pointers (`/i`) point into.
  const undetected = resolveUndetected(parsed.values, records, options);
  const findings: PlacedFinding[] = [];
  for (const record of records) {
    if (record.findings.length === 0) continue;
    const span = parsed.spans[record.index!];
    const line = text.slice(span.offset, span.offset + span.length);
    for (const f of placeRecordFindings(line, [record], options, { base: () => '', shift: span.offset })) findings.push(f);
  }
  return { records, findings, undetected };
}

/** validatePayloadText of a text read as NDJSON: every line's record validated, and the syntax errors of those that are no JSON. */
export function validateNdjsonText(text: string, spans: readonly Span[], options: PayloadTextOptions): PayloadTextValidation {
  const parsed = parseNdjsonRecords(text, spans, options);
  const { records, findings, undetected } = validateNdjsonRange(text, parsed, options, 0, spans.length);
  return { syntaxErrors: parsed.syntaxErrors, records, findings, undetected, payload: parsed.values, lines: { records: spans.length, broken: parsed.brokenLines } };
}
