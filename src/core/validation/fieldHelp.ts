// What the schema says about the field at a place in a payload's text: the editor's hover for the
// documents Health Data validates that VS Code's JSON language service does not know as payloads
// (the lists the commands open, files named by the glob setting, NDJSON). A record's top-level
// field is described by its kind's schema, a heart rate zone's field by the zone schema; the
// record's kind is the one given or the one its fields tell. A bundle of its own (dist/fieldHover.js,
// scripts/lazyBundles.mjs), loaded with the first hover: import it only with `require()` from the extension.

import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, JsonNode, LF, OPEN_BRACE, OPEN_BRACKET, QUOTE, jsonNodeAt, jsonTree } from '../json/locate';
import { LIST_WRAPPERS, ResourceKind, resource } from '../resources';
import { PropertySchema, SCHEMA_DOCUMENTS, SchemaDocument, ZONE_SCHEMA_ID, schemaFor } from './schemas';
import { detectKind } from './validator';

export interface FieldHelp {
  /** The record's kind, as given or as its fields tell it. */
  readonly kind: ResourceKind;
  /** The field's name, as written in the text. */
  readonly field: string;
  /** The object it is a field of: the record, or one of its heart rate zones. */
  readonly owner: 'record' | 'zone';
  /** The owner's schema title: `Activity summary`, `Heart rate zone`. */
  readonly ownerTitle: string;
  /** The schema's words for the field; undefined for a field the schema does not define. */
  readonly title?: string;
  readonly description?: string;
  /** `integer ≥ 0`, `string (date)`: the type the schema gives, in words; undefined when it gives none. */
  readonly type?: string;
  readonly required: boolean;
  readonly deprecated: boolean;
  /** The hovered text: the field's name or its value (offsets into the whole text). */
  readonly span: { readonly offset: number; readonly length: number };
}

export interface FieldHelpOptions {
  /** Every record is of this kind. */
  readonly kind?: ResourceKind;
  /** The kind of a record whose fields do not tell theirs. */
  readonly fallbackKind?: ResourceKind;
  /** Each line of the text is a record (NDJSON). */
  readonly ndjson?: boolean;
}

const WRAPPERS: ReadonlySet<string> = new Set(LIST_WRAPPERS);

/**
 * A record larger than this is not parsed for a hover (jsonc-parser's tree of it would keep the
 * editor waiting): about 40 ms. A record of the service is a few hundred characters.
 */
export const MAX_HOVER_RECORD_CHARS = 512 * 1024;

/**
 * Texts up to this long get a hover: the scan to the offset reads 4–6 ms a MB, so a hover at the
 * end of the longest waits about 25 ms.
 */
export const MAX_HOVER_TEXT_CHARS = 4 * 1024 * 1024;

/** The schema's help for the field whose name or value holds `offset`; undefined anywhere else. */
export function fieldHelpAt(text: string, offset: number, options: FieldHelpOptions = {}): FieldHelp | undefined {
  if (offset < 0 || offset > text.length) return undefined;
  if (options.ndjson) {
    // One line, read as a document of its own; its places moved back into the whole text.
    const start = text.lastIndexOf('\n', offset - 1) + 1;
    const newline = text.indexOf('\n', offset);
    const line = text.slice(start, newline < 0 ? text.length : newline);
    const help = fieldHelpAt(line, offset - start, { ...options, ndjson: false });
    return help && { ...help, span: { offset: help.span.offset + start, length: help.span.length } };
  }
  // Only the record around the offset is parsed: found by a scan of brackets and strings up to it.
  const found = recordAround(text, offset);
  if (!found || found.end - found.start > MAX_HOVER_RECORD_CHARS) return undefined;
  const root = jsonTree(text.slice(found.start, found.end));
  if (!root || root.type !== 'object' || (found.whole && isWrapper(root))) return undefined;
  const help = helpIn(root, offset - found.start, options);
  return help && { ...help, span: { offset: help.span.offset + found.start, length: help.span.length } };
}

/** The help at `offset` of a record's tree (`record` its root, offsets in its own text). */
function helpIn(record: JsonNode, offset: number, options: FieldHelpOptions): FieldHelp | undefined {
  const at = jsonNodeAt(record, offset);
  // The property whose name or plain value is at the offset (not a place inside an object or array value).
  let property: JsonNode | undefined = at;
  if (property && property.type !== 'property') property = property.parent?.type === 'property' ? property.parent : undefined;
  if (!property?.children || property.children.length === 0) return undefined;
  const [key, value] = property.children;
  const hovered = at === key ? key : at === value && value.type !== 'object' && value.type !== 'array' ? value : at === property ? key : undefined;
  if (!hovered || typeof key.value !== 'string') return undefined;
  const object = property.parent;
  if (!object || object.type !== 'object') return undefined;
  const kind = kindOf(record, options);
  if (!kind) return undefined;
  let owner: FieldHelp['owner'];
  if (object === record) owner = 'record';
  else {
    // A zone: an element of the record's zones field.
    const holder = object.parent?.type === 'array' ? object.parent.parent : undefined;
    if (holder?.type !== 'property' || holder.parent !== record || holder.children?.[0]?.value !== resource(kind).zonesField) return undefined;
    owner = 'zone';
  }
  const schema: SchemaDocument | undefined = owner === 'zone' ? SCHEMA_DOCUMENTS.get(ZONE_SCHEMA_ID) : schemaFor(kind);
  if (!schema) return undefined;
  const field = key.value;
  const prop: PropertySchema | undefined = Object.prototype.hasOwnProperty.call(schema.properties ?? {}, field) ? schema.properties![field] : undefined;
  return {
    kind,
    field,
    owner,
    ownerTitle: schema.title ?? (owner === 'zone' ? 'Heart rate zone' : resource(kind).singular),
    title: prop?.title,
    description: prop?.description,
    type: prop && typeWords(prop),
    required: prop !== undefined && (schema.required ?? []).includes(field),
    deprecated: prop?.deprecated === true,
    span: { offset: hovered.offset, length: hovered.length },
  };
}

/** An object or array open at the offset: where it starts, and the member name it is the value of. */
interface Open {
  readonly start: number;
  readonly array: boolean;
  readonly key: string | undefined;
}

/**
 * The span of the record that holds `offset`: an element of a top-level list, of a wrapper's list
 * (`data`, `items`, `results`), or the whole text's object (`whole`: it may be a wrapper, which
 * the caller tells once it has its members). Strings, escapes and comments are skipped; a text cut
 * short ends its record at its end.
 */
function recordAround(text: string, offset: number): { start: number; end: number; whole: boolean } | undefined {
  const stack: Open[] = [];
  let key: string | undefined;
  let lastString = -1;
  let lastStringEnd = -1;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end >= offset) break; // the offset is in this string
      lastString = i;
      lastStringEnd = end;
      i = end;
    } else if (c === SLASH) {
      const end = commentEnd(text, i);
      if (end > i) i = end - 1;
    } else if (c === COLON) {
      if (stack.length > 0 && !stack[stack.length - 1].array && lastString >= 0) key = nameOf(text.slice(lastString, lastStringEnd + 1));
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const parent = stack[stack.length - 1];
      stack.push({ start: i, array: c === OPEN_BRACKET, key: parent && !parent.array ? key : undefined });
      key = undefined;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      stack.pop();
      key = undefined;
    } else if (c === COMMA) {
      key = undefined;
    }
  }
  const [root, list, item] = stack;
  let record: Open | undefined;
  let whole = false;
  if (!root) return undefined;
  if (root.array) record = list && !list.array ? list : undefined;
  else if (list?.array && list.key !== undefined && WRAPPERS.has(list.key)) record = item && !item.array ? item : undefined;
  else {
    record = root;
    whole = true;
  }
  if (!record) return undefined;
  return { start: record.start, end: containerEnd(text, record.start), whole };
}

const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const STAR = 0x2a;

/** The offset of the quote that closes the string opening at `i` (of the line break, or the text's end, when none does). */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE || c === LF) return j; // a string never spans a line break
  }
  return text.length;
}

/** The offset after a comment starting at `i` (`//` to the line's end, `/* … *\/`); `i` when none starts there. */
function commentEnd(text: string, i: number): number {
  const next = text.charCodeAt(i + 1);
  if (next === SLASH) {
    const end = text.indexOf('\n', i);
    return end < 0 ? text.length : end;
  }
  if (next === STAR) {
    const end = text.indexOf('*/', i + 2);
    return end < 0 ? text.length : end + 2;
  }
  return i;
}

/** The offset after the object or array that opens at `start` (the text's end when it is cut short). */
function containerEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i);
    else if (c === SLASH) {
      const end = commentEnd(text, i);
      if (end > i) i = end - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
  }
  return text.length;
}

/** A member name as JSON reads its quoted text; undefined when that is no JSON string. */
function nameOf(quoted: string): string | undefined {
  if (!quoted.includes('\\')) return quoted.slice(1, -1);
  try {
    const name: unknown = JSON.parse(quoted);
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/** A top-level object that holds its records in `data`, `items` or `results`. */
function isWrapper(object: JsonNode): boolean {
  return (object.children ?? []).some((p) => WRAPPERS.has(String(p.children?.[0]?.value)) && p.children?.[1]?.type === 'array');
}

/** The record's kind: the one given, the one its field names tell, or the fallback. */
function kindOf(record: JsonNode, options: FieldHelpOptions): ResourceKind | undefined {
  if (options.kind) return options.kind;
  // Only the names matter to detectKind: an object of them, not the record's whole value.
  const names: Record<string, true> = Object.create(null) as Record<string, true>;
  for (const p of record.children ?? []) {
    const name = p.children?.[0]?.value;
    if (typeof name === 'string') names[name] = true;
  }
  return detectKind(names) ?? options.fallbackKind;
}

function typeWords(prop: PropertySchema): string | undefined {
  if (!prop.type) return undefined;
  let words = prop.type;
  if (prop.format) words += ` (${prop.format})`;
  if (prop.minimum !== undefined) words += ` ≥ ${prop.minimum}`;
  return words;
}
