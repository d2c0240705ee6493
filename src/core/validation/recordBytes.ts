// A record checked from its UTF-8 bytes, without decoding them or building its object: the
// streaming CLI's fast path. Most records of a large file are well-formed and differ only in their
// values; for those this gives exactly what JSON.parse, the generated validator, the field walk
// (fieldFindings.ts) and the plausibility checks give, at a fraction of the cost.
//
// It answers only when it is sure. Anything it does not handle exactly (an error of any kind, a
// warning that could fire, a syntax error, an escape in a value it reads, a key met twice, zones
// that are not plain objects, a schema keyword it does not know) makes it give up, and the record
// goes the usual way, which has the last word. A differential test holds the two to each other.

import { isCalendarDate, localDateOf } from '../dates';
import { pointerToken } from '../json';
import { RESOURCES, ResourceKind, isResourceKind, resource } from '../resources';
import { fastDate, fastDateTime } from './dateFormats';
import { unknownFieldFinding } from './fieldFindings';
import { Finding } from './findings';
import { BODY_FAT_MAX, BODY_FAT_MIN, Clock, HEART_RATE_FIELDS, HEART_RATE_MAX, HEART_RATE_MIN } from './plausibility';
import { SCHEMA_DOCUMENTS, ZONE_SCHEMA_ID, schemaFor, shapeFor } from './schemas';
import { numericFieldsOf } from './sentFields';

/**
 * What the fast path found: the record's kind, id, day and findings (all but errors, of which it
 * has none). One object, filled again by every call: read it before the next.
 */
export interface ByteRecord {
  kind: ResourceKind;
  id: string;
  date: string | null;
  /** Shared and frozen: records with the same findings get the same list. */
  findings: readonly Finding[];
  /** Where finding i is shown: the offset of its field's key in the bytes. */
  offset(i: number): number;
  /** Where the record ends: `to`, or for a line read with `to` unknown, its newline (see checkRecordBytes). */
  end: number;
  /** The record's `source`. */
  source: string;
  /** Its numeric fields sent as a number other than 0 (sentFields.ts: bit i is numericFieldsOf(kind)[i]). */
  sent: number;
}

// Value types as the scanner records them.
const T_STRING = 1;
const T_NUMBER = 2;
const T_OBJECT = 3;
const T_ARRAY = 4;
const T_LITERAL = 5;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_KEYS = 64;
const MAX_ZONES = 64;
const MAX_DEPTH = 64;
/** Unknown field names longer than this, or with characters a message escapes, go the usual way. */
const MAX_UNKNOWN_LENGTH = 48;

/** What a kind's schema asks of one of its fields, and the field's findings. */
interface FieldRule {
  readonly type: 'string' | 'number' | 'integer' | 'object' | 'array';
  readonly format?: 'date' | 'date-time';
  readonly pattern?: RegExp;
  readonly minimum?: number;
  readonly deprecated?: Finding;
  readonly zero?: Finding;
  /** A numeric field's bit in a record's `sent` mask (sentFields.ts); 0 for a field past the mask's width. */
  readonly sentBit: number;
  /** The field holds the kind's zones (an array of objects of the zone schema). */
  readonly zones?: boolean;
}

interface KindRules {
  readonly kind: ResourceKind;
  /** By field id; undefined where the kind's schema does not have the field. */
  readonly fields: ReadonlyArray<FieldRule | undefined>;
  readonly required: readonly number[];
  readonly unknown: Map<string, Finding>;
  readonly schemaName: string;
  readonly datingField: 'date' | 'timestamp';
}

/** Keywords of a property schema the rules below carry out; any other disables the fast path for its kind. */
const HANDLED = new Set(['title', 'description', 'examples', 'type', 'format', 'pattern', 'minimum', 'deprecated', 'items']);
const HANDLED_DOC = new Set(['$schema', '$id', 'title', 'description', 'type', 'required', 'properties']);

/** Every field name of every kind's schema, and of a zone's: one id each, its index here. */
const names: string[] = [];
const nameBytes: Buffer[] = [];
/** Open addressing: slot → field id + 1 (0 empty), by hash of the name's bytes. */
const TABLE_BITS = 9;
/** Field ids stay below this (a schema with more fields is not taken). */
const TABLE_SIZE_LIMIT = 128;
const table = new Int32Array(1 << TABLE_BITS);

function hashOf(bytes: Uint8Array, from: number, to: number): number {
  let h = to - from;
  for (let i = from; i < to; i++) h = (Math.imul(h, 31) + bytes[i]) | 0;
  return (h ^ (h >>> 9)) & ((1 << TABLE_BITS) - 1);
}

function idOf(name: string): number {
  const at = names.indexOf(name);
  if (at >= 0) return at;
  const bytes = Buffer.from(name, 'utf8');
  names.push(name);
  nameBytes.push(bytes);
  let slot = hashOf(bytes, 0, bytes.length);
  while (table[slot] !== 0) slot = (slot + 1) & (table.length - 1);
  table[slot] = names.length;
  return names.length - 1;
}

/** The field id of the key at each position of the last record (-1 unknown). */
const lastId = new Int32Array(MAX_KEYS).fill(-1);

/** The offset after the key at `at` when it is exactly field `id`'s name in quotes; else -1. */
function knownKeyEnd(bytes: Uint8Array, at: number, id: number): number {
  const name = nameBytes[id];
  const n = name.length;
  const from = at + 1;
  if (from + n >= end || bytes[from + n] !== QUOTE) return -1;
  for (let i = 0; i < n; i++) if (name[i] !== bytes[from + i]) return -1;
  return from + n + 1;
}

/** The field id of the key in bytes[from, to), or -1. */
function lookup(bytes: Uint8Array, from: number, to: number): number {
  const n = to - from;
  for (let slot = hashOf(bytes, from, to); ; slot = (slot + 1) & (table.length - 1)) {
    const entry = table[slot];
    if (entry === 0) return -1;
    const name = nameBytes[entry - 1];
    if (name.length !== n) continue;
    let same = true;
    for (let i = 0; i < n && same; i++) same = name[i] === bytes[from + i];
    if (same) return entry - 1;
  }
}

const frozen = (f: Finding): Finding => Object.freeze(f);

const ZONE_FIELDS = ['name', 'min', 'max', 'duration', 'caloriesBurned'] as const;
/** Zone fields by field id (each zone field's index in ZONE_FIELDS, or -1). */
let zoneSlot: Int8Array;
/** Zone fields' zero findings by zone index, then by ZONE_FIELDS index; their messages by ZONE_FIELDS index. */
const zoneZero: Finding[][] = [];
let zoneZeroMessages: string[] = [];

function ruleOf(prop: Record<string, unknown>, field: string, zeroMessage: string, deprecatedMessage: string | undefined, sentBit: number): FieldRule | undefined {
  for (const k of Object.keys(prop)) if (!HANDLED.has(k)) return undefined;
  const type = prop.type;
  if (type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'object' && type !== 'array') return undefined;
  const format = prop.format;
  if (format !== undefined && format !== 'date' && format !== 'date-time') return undefined;
  const path = `/${pointerToken(field)}`;
  const numeric = type === 'number' || type === 'integer';
  const items = prop.items as { $ref?: string } | undefined;
  if (items !== undefined && !(type === 'array' && items.$ref === 'zone.schema.json')) return undefined;
  return {
    type,
    format,
    pattern: typeof prop.pattern === 'string' ? new RegExp(prop.pattern, 'u') : undefined,
    minimum: typeof prop.minimum === 'number' ? prop.minimum : undefined,
    deprecated: deprecatedMessage === undefined ? undefined : frozen({ kind: 'deprecated', path, message: deprecatedMessage }),
    zero: numeric ? frozen({ kind: 'zero', path, message: zeroMessage }) : undefined,
    sentBit,
    zones: items !== undefined,
  };
}

/** The rules of each kind, from its schema and the facts the walk uses (shapeFor); null when its schema asks for more than they handle. */
const rules = new Map<ResourceKind, KindRules | null>();

function zoneSchemaHandled(): boolean {
  const zone = SCHEMA_DOCUMENTS.get(ZONE_SCHEMA_ID) as unknown as Record<string, unknown> | undefined;
  if (zone === undefined) return false;
  for (const k of Object.keys(zone)) if (!HANDLED_DOC.has(k)) return false;
  const props = zone.properties as Record<string, Record<string, unknown>>;
  const required = zone.required as string[];
  const want = ['name:string', 'min:number', 'max:number', 'duration:number', 'caloriesBurned:number'];
  const have = Object.entries(props).map(([k, p]) => `${k}:${String(p.type)}`);
  if (have.length !== want.length || want.some((w, i) => have[i] !== w)) return false;
  for (const p of Object.values(props)) for (const k of Object.keys(p)) if (k !== 'title' && k !== 'description' && k !== 'type' && k !== 'examples') return false;
  return required.length === ZONE_FIELDS.length && ZONE_FIELDS.every((f) => required.includes(f));
}

function rulesOf(kind: ResourceKind): KindRules | null {
  let r = rules.get(kind);
  if (r !== undefined) return r;
  r = null;
  const doc = schemaFor(kind) as unknown as Record<string, unknown>;
  const shape = shapeFor(kind);
  let handled = doc.type === 'object' && Object.keys(doc).every((k) => HANDLED_DOC.has(k));
  const props = (doc.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const field of Object.keys(props)) idOf(field);
  // Every slot filled: a packed array, not a sparse one (a dictionary to V8).
  const fields = new Array<FieldRule | undefined>(TABLE_SIZE_LIMIT).fill(undefined);
  if (names.length > TABLE_SIZE_LIMIT) handled = false;
  const numeric = numericFieldsOf(kind);
  for (const [field, prop] of Object.entries(props)) {
    const info = shape.fields.get(field)!;
    const bit = numeric.indexOf(field);
    const rule = ruleOf(prop, field, info.zeroMessage, info.deprecatedMessage, bit < 0 ? 0 : 1 << bit);
    if (rule === undefined || (rule.zones && !zoneSchemaHandled())) handled = false;
    fields[idOf(field)] = rule;
  }
  if (handled) {
    const required = ((doc.required ?? []) as string[]).map(idOf);
    r = { kind, fields, required, unknown: new Map(), schemaName: shape.name, datingField: resource(kind).datingField };
  }
  rules.set(kind, r);
  return r;
}

function prepare(): void {
  if (zoneSlot !== undefined) return;
  for (const { kind, signatureFields } of RESOURCES) {
    rulesOf(kind);
    signatureFields.forEach(idOf);
  }
  for (const f of ZONE_FIELDS) idOf(f);
  for (const f of NAMED) ids[f] = idOf(f);
  for (const f of HEART_RATE_FIELDS) idOf(f);
  signatureIds = RESOURCES.map((r) => ({ kind: r.kind, ids: r.signatureFields.map(idOf) }));
  heartRateIds = HEART_RATE_FIELDS.map(idOf);
  fieldKey = new Int32Array(names.length);
  zoneSlot = new Int8Array(names.length + 1).fill(-1);
  ZONE_FIELDS.forEach((f, i) => (zoneSlot[idOf(f)] = i));
  // The walk's messages (schemas.ts shapeOf), from the zone schema as the heart rate schema refers to it.
  const zone = shapeFor('heartRate').fields.get('zones')?.items;
  zoneZeroMessages = ZONE_FIELDS.map((f) => zone?.fields.get(f)?.zeroMessage ?? '');
  if (zoneZeroMessages.includes('')) rules.set('heartRate', null);
}

function zoneZeroFinding(zone: number, slot: number): Finding {
  let row = zoneZero[zone];
  if (row === undefined) zoneZero[zone] = row = [];
  let f = row[slot];
  if (f === undefined) {
    const field = ZONE_FIELDS[slot];
    row[slot] = f = frozen({ kind: 'zero', path: `/zones/${zone}/${field}`, message: zoneZeroMessages[slot] });
  }
  return f;
}

// ---- The scan: one record's bytes, its keys and values noted in reused arrays. ----

const keyField = new Int32Array(MAX_KEYS);
/** The key of each field id in the record, or -1. */
let fieldKey = new Int32Array(0);
const keyAt = new Int32Array(MAX_KEYS);
const keyType = new Uint8Array(MAX_KEYS);
const keyNum = new Float64Array(MAX_KEYS);
const keyFrom = new Int32Array(MAX_KEYS);
const keyTo = new Int32Array(MAX_KEYS);
/** The string value has an escape or a byte beyond ASCII: its text is not read here. */
const keyPlain = new Uint8Array(MAX_KEYS);
const unknownName: string[] = [];
let keys = 0;

// Zones of the record, as scanned (the `zones` key of any kind, read the same way).
let zoneCount = 0;
const zoneMin = new Float64Array(MAX_ZONES);
const zoneMax = new Float64Array(MAX_ZONES);
/** Zero events in key order: zone index << 3 | zone field slot, and the key's offset. */
const zeroEvent = new Int32Array(MAX_ZONES * 8);
const zeroAt = new Int32Array(MAX_ZONES * 8);
let zeroEvents = 0;
let zonesKey = -1;

let b: Buffer = Buffer.alloc(0);
let end = 0;
/** A string of the record had a byte beyond ASCII / the last whitespace carriage return. */
let nonAscii = false;
let lastCr = -1;
/** Set by readString when the string it read had an escape or a byte beyond ASCII (never cleared by it). */
let unplain = false;
/** Set by readNumber: the number's value. */
let numberValue = 0;

// Every reader takes the bytes and an offset in them, and returns the offset after what it read,
// or -1 when that is no JSON (or nothing this fast path takes): the state stays in locals.

function skipSpace(buf: Buffer, i: number): number {
  for (; i < end; i++) {
    const c = buf[i];
    if (c === 0x0d) lastCr = i;
    else if (c !== 0x20 && c !== 0x09 && (c !== 0x0a || oneLine)) return i;
  }
  return i;
}

/** The record is a line whose end is not known: a newline ends it (and is no whitespace inside it). */
let oneLine = false;

/** Bytes a string's scan stops at: 1 the closing quote, 2 a backslash, 3 a control character, 4 beyond ASCII. */
const STRING_STOP = new Uint8Array(256);
STRING_STOP.fill(3, 0, 0x20);
STRING_STOP.fill(4, 0x80, 0x100);
STRING_STOP[QUOTE] = 1;
STRING_STOP[BACKSLASH] = 2;

/** The string whose quote is at i. */
function readString(buf: Buffer, i: number): number {
  const stop = end;
  for (i++; i < stop; i++) {
    const s = STRING_STOP[buf[i]];
    if (s === 0) continue;
    if (s === 1) return i + 1;
    if (s === 3) return -1;
    unplain = true;
    if (s === 4) nonAscii = true;
    else {
      const e = buf[++i];
      if (e === 0x75) {
        for (let k = 0; k < 4; k++) {
          const h = buf[++i];
          if (!((h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66))) return -1;
        }
      } else if (!(e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) return -1;
    }
  }
  return -1;
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/**
 * The number at i, its value in numberValue exactly as JSON.parse reads it: up to 15 digits and
 * no exponent is one exact integer divided by one exact power of ten (so correctly rounded);
 * anything else is read by Number from its text.
 */
function readNumber(buf: Buffer, i: number): number {
  const start = i;
  const negative = buf[i] === 0x2d;
  if (negative) i++;
  let m = 0;
  let digits = 0;
  let c = buf[i];
  if (c === 0x30) i++;
  else if (c >= 0x31 && c <= 0x39) {
    for (; i < end && (c = buf[i]) >= 0x30 && c <= 0x39; i++) {
      m = m * 10 + (c - 0x30);
      digits++;
    }
  } else return -1;
  let fraction = 0;
  if (i < end && buf[i] === 0x2e) {
    const from = ++i;
    for (; i < end && (c = buf[i]) >= 0x30 && c <= 0x39; i++) m = m * 10 + (c - 0x30);
    fraction = i - from;
    if (fraction === 0) return -1;
    digits += fraction;
  }
  let exact = digits <= 15;
  if (i < end && ((c = buf[i]) === 0x65 || c === 0x45)) {
    exact = false;
    i++;
    if (i < end && (buf[i] === 0x2b || buf[i] === 0x2d)) i++;
    const from = i;
    while (i < end && (c = buf[i]) >= 0x30 && c <= 0x39) i++;
    if (i === from) return -1;
  }
  if (exact) {
    const v = fraction === 0 ? m : m / POW10[fraction];
    numberValue = negative ? -v : v;
  } else {
    numberValue = Number(buf.toString('latin1', start, i));
  }
  return i;
}

function literal(buf: Buffer, i: number, word: readonly number[]): number {
  if (i + word.length > end) return -1;
  for (let k = 0; k < word.length; k++) if (buf[i + k] !== word[k]) return -1;
  return i + word.length;
}
const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

/** Set by skipValue: the type of the value it read. */
let skippedType = 0;

/** Any JSON value at i, its syntax checked and nothing kept; its type in skippedType. */
function skipValue(buf: Buffer, i: number, depth: number): number {
  if (i >= end) return -1;
  const c = buf[i];
  if (c === QUOTE) {
    skippedType = T_STRING;
    return readString(buf, i);
  }
  if (c === 0x7b || c === 0x5b) {
    if (depth >= MAX_DEPTH) return -1;
    const object = c === 0x7b;
    const close = object ? 0x7d : 0x5d;
    i = skipSpace(buf, i + 1);
    if (buf[i] !== close) {
      for (;;) {
        if (object) {
          if (buf[i] !== QUOTE || (i = readString(buf, i)) < 0) return -1;
          i = skipSpace(buf, i);
          if (buf[i] !== 0x3a) return -1;
          i = skipSpace(buf, i + 1);
        }
        if ((i = skipValue(buf, i, depth + 1)) < 0) return -1;
        i = skipSpace(buf, i);
        const d = buf[i];
        if (d === close) break;
        if (d !== 0x2c) return -1;
        i = skipSpace(buf, i + 1);
      }
    }
    skippedType = object ? T_OBJECT : T_ARRAY;
    return i + 1;
  }
  skippedType = T_LITERAL;
  if (c === 0x74) return literal(buf, i, TRUE);
  if (c === 0x66) return literal(buf, i, FALSE);
  if (c === 0x6e) return literal(buf, i, NULL);
  skippedType = T_NUMBER;
  return readNumber(buf, i);
}

/** The zones array at i: plain objects of the zone's fields, a string name and finite numbers. */
function readZones(buf: Buffer, i: number): number {
  i = skipSpace(buf, i + 1);
  zoneCount = 0;
  if (buf[i] === 0x5d) return i + 1;
  for (;;) {
    if (buf[i] !== 0x7b || zoneCount >= MAX_ZONES) return -1;
    const zone = zoneCount++;
    let present = 0;
    i = skipSpace(buf, i + 1);
    if (buf[i] !== 0x7d) {
      for (;;) {
        if (buf[i] !== QUOTE) return -1;
        const at = i;
        unplain = false;
        if ((i = readString(buf, i)) < 0 || unplain) return -1;
        const id = lookup(buf, at + 1, i - 1);
        const slot = id < 0 ? -1 : zoneSlot[id];
        // A field the zone schema does not know (an unknown finding of its own) goes the usual way.
        if (slot < 0 || (present & (1 << slot)) !== 0) return -1;
        present |= 1 << slot;
        i = skipSpace(buf, i);
        if (buf[i] !== 0x3a) return -1;
        i = skipSpace(buf, i + 1);
        if (slot === 0) {
          if (buf[i] !== QUOTE || (i = readString(buf, i)) < 0) return -1;
        } else {
          if ((i = readNumber(buf, i)) < 0) return -1;
          const v = numberValue;
          if (v - v !== 0) return -1;
          if (slot === 1) zoneMin[zone] = v;
          else if (slot === 2) zoneMax[zone] = v;
          if (v === 0) {
            zeroEvent[zeroEvents] = (zone << 3) | slot;
            zeroAt[zeroEvents++] = at;
          }
        }
        i = skipSpace(buf, i);
        const d = buf[i++];
        if (d === 0x7d) break;
        if (d !== 0x2c) return -1;
        i = skipSpace(buf, i);
      }
    } else i++;
    if (present !== 0b11111) return -1;
    i = skipSpace(buf, i);
    const d = buf[i++];
    if (d === 0x5d) return i;
    if (d !== 0x2c) return -1;
    i = skipSpace(buf, i);
  }
}

/** Scans the record in buf[from, end): its keys and values noted. False to give up. */
function scan(buf: Buffer, from: number): boolean {
  keys = 0;
  serial++;
  fieldKey.fill(-1);
  zoneCount = 0;
  zeroEvents = 0;
  zonesKey = -1;
  nonAscii = false;
  lastCr = -1;
  let i = skipSpace(buf, from);
  if (buf[i] !== 0x7b) return false;
  i = skipSpace(buf, i + 1);
  if (buf[i] === 0x7d) return false;
  for (;;) {
    if (buf[i] !== QUOTE || keys >= MAX_KEYS) return false;
    const at = i;
    const k = keys++;
    // Records of a file have their keys in the same order: the key at k is nearly always the
    // last one's, read here at once; any other is read as a string and looked up.
    let id = lastId[k];
    const known = id >= 0 ? knownKeyEnd(buf, at, id) : -1;
    if (known > 0) i = known;
    else {
      unplain = false;
      if ((i = readString(buf, i)) < 0 || unplain) return false;
      lastId[k] = id = lookup(buf, at + 1, i - 1);
    }
    keyField[k] = id;
    keyAt[k] = at;
    if (id >= 0) {
      if (fieldKey[id] >= 0) return false;
      fieldKey[id] = k;
    } else if (!unknownKey(buf, at, i, k)) return false;
    i = skipSpace(buf, i);
    if (buf[i] !== 0x3a) return false;
    i = skipSpace(buf, i + 1);
    const c = buf[i];
    if (c === QUOTE) {
      unplain = false;
      keyFrom[k] = i + 1;
      if ((i = readString(buf, i)) < 0) return false;
      keyType[k] = T_STRING;
      keyTo[k] = i - 1;
      keyPlain[k] = unplain ? 0 : 1;
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      if ((i = readNumber(buf, i)) < 0) return false;
      keyType[k] = T_NUMBER;
      keyNum[k] = numberValue;
    } else if (c === 0x5b && id === ids.zones) {
      if ((i = readZones(buf, i)) < 0) return false;
      zonesKey = k;
      keyType[k] = T_ARRAY;
    } else {
      if ((i = skipValue(buf, i, 0)) < 0) return false;
      keyType[k] = skippedType;
    }
    if (buf[i] !== 0x2c && buf[i] !== 0x7d) i = skipSpace(buf, i);
    const d = buf[i++];
    if (d === 0x7d) break;
    if (d !== 0x2c || i >= end) return false;
    if (buf[i] !== QUOTE) i = skipSpace(buf, i);
  }
  closeAt = i - 1;
  i = skipSpace(buf, i);
  result.end = i;
  return i === end || (oneLine && buf[i] === 0x0a);
}

/**
 * Notes the unknown field whose key is buf[at, after): its name, for its finding. Names that a
 * message or a pointer would escape, that read as an array index, that are long, or that are met
 * twice go the usual way.
 */
function unknownKey(buf: Buffer, at: number, after: number, k: number): boolean {
  const n = after - 2 - at;
  if (n === 0 || n > MAX_UNKNOWN_LENGTH) return false;
  const c0 = buf[at + 1];
  if (c0 >= 0x30 && c0 <= 0x39) return false;
  for (let i = at + 1; i < after - 1; i++) {
    const c = buf[i];
    if (c >= 0x7f || c === 0x7e || c === 0x2f) return false;
  }
  const name = buf.toString('latin1', at + 1, after - 1);
  for (let u = 0; u < k; u++) if (keyField[u] < 0 && unknownName[u] === name) return false;
  unknownName[k] = name;
  return true;
}

// ---- After the scan: the kind, its schema, the plausibility checks that must not fire, the findings. ----


/** The text of key k's plain string value, decoded once per record. */
function textOf(k: number): string {
  if (keyTextOf[k] !== serial) {
    keyText[k] = b.toString('latin1', keyFrom[k], keyTo[k]);
    keyTextOf[k] = serial;
  }
  return keyText[k];
}
const keyText: string[] = [];
const keyTextOf = new Float64Array(MAX_KEYS);
/** Counts the records scanned: keyTextOf says which record a decoded text belongs to. */
let serial = 0;

const digit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * Whether buf[from, to) is a YYYY-MM-DD the `date` format accepts: 1 surely, 0 surely not by
 * fastDate's pattern, -1 when only the month's length can tell (a day from 29 to 31): ask fastDate.
 */
function datePrefix(buf: Buffer, from: number): number {
  for (let k = 0; k < 4; k++) if (!digit(buf[from + k])) return 0;
  if (buf[from + 4] !== 0x2d || buf[from + 7] !== 0x2d) return 0;
  const m1 = buf[from + 5];
  const m2 = buf[from + 6];
  if (!(m1 === 0x30 ? m2 >= 0x31 && m2 <= 0x39 : m1 === 0x31 && m2 >= 0x30 && m2 <= 0x32)) return 0;
  const d1 = buf[from + 8];
  const d2 = buf[from + 9];
  if (d1 === 0x30) return d2 >= 0x31 && d2 <= 0x39 ? 1 : 0;
  if (d1 === 0x31) return digit(d2) ? 1 : 0;
  if (d1 === 0x32) return digit(d2) ? (d2 === 0x39 ? -1 : 1) : 0;
  if (d1 === 0x33) return d2 === 0x30 || d2 === 0x31 ? -1 : 0;
  return 0;
}

function dateBytes(buf: Buffer, from: number, to: number): number {
  return to - from === 10 ? datePrefix(buf, from) : 0;
}

/** Whether buf[from, to) is a date-time fastDateTime accepts, answered as datePrefix does. */
function dateTimeBytes(buf: Buffer, from: number, to: number): number {
  const n = to - from;
  if (n < 20 || n > 40) return 0;
  const date = datePrefix(buf, from);
  if (date === 0) return 0;
  const t = buf[from + 10];
  if (t !== 0x54 && t !== 0x74 && t !== 0x20) return 0;
  if (!hour(buf, from + 11) || buf[from + 13] !== 0x3a || !minute(buf, from + 14) || buf[from + 16] !== 0x3a || !minute(buf, from + 17)) return 0;
  let i = from + 19;
  if (buf[i] === 0x2e) {
    const start = ++i;
    while (i < to && digit(buf[i])) i++;
    if (i === start) return 0;
  }
  const z = buf[i];
  if (z === 0x5a || z === 0x7a) return i + 1 === to ? date : 0;
  if ((z !== 0x2b && z !== 0x2d) || i + 6 !== to) return 0;
  return hour(buf, i + 1) && buf[i + 3] === 0x3a && minute(buf, i + 4) ? date : 0;
}

const hour = (buf: Buffer, i: number): boolean => {
  const h1 = buf[i];
  const h2 = buf[i + 1];
  return h1 === 0x30 || h1 === 0x31 ? digit(h2) : h1 === 0x32 && h2 >= 0x30 && h2 <= 0x33;
};
const minute = (buf: Buffer, i: number): boolean => buf[i] >= 0x30 && buf[i] <= 0x35 && digit(buf[i + 1]);

/** The last `date` read, and what localDateOf gives for it: records of a list come a day at a time. */
const lastDate = Buffer.alloc(16);
let lastDateLength = -1;
let lastDay: string | undefined;

/** What localDateOf gives for a kind dated by `date`: the plain string of key k when it is a calendar date. */
function dayOfDate(k: number): string | undefined {
  const from = keyFrom[k];
  const n = keyTo[k] - from;
  if (n === lastDateLength) {
    let same = true;
    for (let i = 0; i < n && same; i++) same = lastDate[i] === b[from + i];
    if (same) return lastDay;
  }
  const date = textOf(k);
  lastDay = isCalendarDate(date) ? date : undefined;
  lastDateLength = n <= lastDate.length ? n : -1;
  if (lastDateLength >= 0) b.copy(lastDate, 0, from, from + n);
  return lastDay;
}

/** JavaScript's order of key k's plain (ASCII) string against `s`: negative, 0 or positive. */
function compareText(k: number, s: string): number {
  const from = keyFrom[k];
  const n = keyTo[k] - from;
  const m = Math.min(n, s.length);
  for (let i = 0; i < m; i++) {
    const d = b[from + i] - s.charCodeAt(i);
    if (d !== 0) return d;
  }
  return n - s.length;
}

let signatureIds: ReadonlyArray<{ kind: ResourceKind; ids: number[] }> = [];
let heartRateIds: number[] = [];
/** Fields read by name below. */
const NAMED = ['id', 'source', 'date', 'timestamp', 'tzOffset', 'createdAt', 'updatedAt', 'minHR', 'maxHR', 'value', 'zones'] as const;
const ids = {} as Record<(typeof NAMED)[number], number>;

function detect(): ResourceKind | undefined {
  let best: ResourceKind | undefined;
  let bestScore = 0;
  let tie = false;
  for (const { kind, ids: signature } of signatureIds) {
    let score = 0;
    for (const id of signature) if (fieldKey[id] >= 0) score++;
    if (score > bestScore) {
      best = kind;
      bestScore = score;
      tie = false;
    } else if (score === bestScore && score > 0) tie = true;
  }
  return tie ? undefined : best;
}

function unknownFinding(r: KindRules, name: string): Finding {
  let f = r.unknown.get(name);
  if (f === undefined) {
    f = unknownFieldFinding('', name, r.schemaName);
    if (r.unknown.size < 256) r.unknown.set(name, f);
  }
  return f;
}

/** The number of a field, or undefined when the record does not have it as a number. */
function numberOf(id: number): number | undefined {
  const k = fieldKey[id];
  return k >= 0 && keyType[k] === T_NUMBER ? keyNum[k] : undefined;
}

/** The text of a field when it is a plain string; undefined when absent or no string; null when not plain. */
function stringOf(id: number): string | undefined | null {
  const k = fieldKey[id];
  if (k < 0 || keyType[k] !== T_STRING) return undefined;
  return keyPlain[k] === 1 ? textOf(k) : null;
}

/** Whether no plausibility check (plausibility.ts) can warn about the record: false when one might. */
function plausible(r: KindRules, clock: Clock): boolean {
  const created = fieldKey[ids.createdAt];
  const updated = fieldKey[ids.updatedAt];
  if (created >= 0 && updated >= 0 && keyType[created] === T_STRING && keyType[updated] === T_STRING) {
    if (keyPlain[created] !== 1 || keyPlain[updated] !== 1) return false;
    // Both passed the date-time format: the same shape in UTC orders like the time.
    const cFrom = keyFrom[created];
    const uFrom = keyFrom[updated];
    const n = keyTo[created] - cFrom;
    if (n !== keyTo[updated] - uFrom || b[cFrom + n - 1] !== 0x5a || b[uFrom + n - 1] !== 0x5a || b[cFrom + 10] !== b[uFrom + 10]) {
      if (textOf(created) !== textOf(updated)) return false;
    } else {
      for (let i = 0; i < n; i++) {
        const d = b[uFrom + i] - b[cFrom + i];
        if (d < 0) return false;
        if (d > 0) break;
      }
    }
  }
  if (r.datingField === 'date') {
    const date = fieldKey[ids.date];
    if (date >= 0 && keyType[date] === T_STRING && (keyPlain[date] !== 1 || compareText(date, clock.latestToday) > 0)) return false;
  } else {
    const timestamp = fieldKey[ids.timestamp];
    if (timestamp >= 0 && keyType[timestamp] === T_STRING && (keyPlain[timestamp] !== 1 || !(compareText(timestamp, clock.safelyPast) < 0))) return false;
  }
  return KIND_PLAUSIBLE[r.kind]();
}

/**
 * Per kind, whether its own plausibility checks (plausibility.ts PLAUSIBILITY) cannot warn: a new
 * kind says what it needs here as it does there.
 */
const KIND_PLAUSIBLE: { readonly [K in ResourceKind]: () => boolean } = {
  heartRate: () => {
    for (const id of heartRateIds) {
      const v = numberOf(id);
      if (v !== undefined && (v < HEART_RATE_MIN || v > HEART_RATE_MAX)) return false;
    }
    const min = numberOf(ids.minHR);
    const max = numberOf(ids.maxHR);
    if (min !== undefined && max !== undefined && min > max) return false;
    for (let z = 0; z < zoneCount; z++) if (zoneMin[z] > zoneMax[z]) return false;
    return true;
  },
  activity: () => true,
  bodyFat: () => {
    // Outside the plausible range it may warn, depending on the unit: the usual way decides.
    const v = numberOf(ids.value);
    return v === undefined || (v >= BODY_FAT_MIN && v <= BODY_FAT_MAX);
  },
};

/** Whether the record passes its kind's schema (every rule of rulesOf). */
function schemaHolds(r: KindRules): boolean {
  for (const id of r.required) if (fieldKey[id] < 0) return false;
  for (let k = 0; k < keys; k++) {
    const id = keyField[k];
    const rule = id < 0 ? undefined : r.fields[id];
    if (rule === undefined) continue;
    const t = keyType[k];
    switch (rule.type) {
      case 'string':
        if (t !== T_STRING) return false;
        if (rule.format !== undefined || rule.pattern !== undefined) {
          if (keyPlain[k] !== 1) return false;
          if (rule.format === 'date-time') {
            const sure = dateTimeBytes(b, keyFrom[k], keyTo[k]);
            if (sure === 0 || (sure < 0 && !fastDateTime(textOf(k)))) return false;
          } else if (rule.format === 'date') {
            const sure = dateBytes(b, keyFrom[k], keyTo[k]);
            if (sure === 0 || (sure < 0 && !fastDate(textOf(k)))) return false;
          }
          if (rule.pattern !== undefined && !rule.pattern.test(textOf(k))) return false;
        }
        break;
      case 'number':
      case 'integer': {
        if (t !== T_NUMBER) return false;
        const v = keyNum[k];
        if (v - v !== 0 || (rule.type === 'integer' && !Number.isInteger(v))) return false;
        if (rule.minimum !== undefined && v < rule.minimum) return false;
        break;
      }
      case 'object':
        if (t !== T_OBJECT) return false;
        break;
      case 'array':
        if (t !== T_ARRAY || (rule.zones && zonesKey !== k)) return false;
        break;
    }
  }
  return true;
}

/** The findings of the record being checked (the first `found`), and where each is. */
const scratch: Finding[] = [];
const scratchAt = new Int32Array(MAX_KEYS + MAX_ZONES * 8);
let found = 0;
const RECENT = 8;
const recent: Finding[][] = [];
let nextRecent = 0;

function sharedList(): readonly Finding[] {
  const n = found;
  if (n === 0) return NONE;
  for (const list of recent) {
    if (list.length !== n) continue;
    let same = true;
    for (let i = 0; i < n && same; i++) same = list[i] === scratch[i];
    if (same) return list;
  }
  const copy = Object.freeze(scratch.slice(0, n)) as Finding[];
  recent[nextRecent] = copy;
  nextRecent = (nextRecent + 1) % RECENT;
  return copy;
}
const NONE: readonly Finding[] = Object.freeze([]);

/**
 * Checks the record in bytes[from, to) as `kind` (or the kind its fields tell). Undefined when
 * the fast path is not sure: the caller then parses and validates the record the usual way.
 * `line`: the record is the NDJSON line that starts at `from` and ends at the next newline or at
 * `to`, whichever comes first (`end` of the result says where; undefined leaves it unknown).
 */
export function checkRecordBytes(bytes: Buffer, from: number, to: number, kind: ResourceKind | undefined, clock: Clock, line = false): ByteRecord | undefined {
  prepare();
  if (kind !== undefined && !isResourceKind(kind)) return undefined;
  b = bytes;
  end = to;
  oneLine = line;
  try {
    return scan(bytes, from) ? checked(kind, clock) : undefined;
  } finally {
    // Not kept alive by the scanner between calls.
    b = EMPTY;
  }
}

function checked(kind: ResourceKind | undefined, clock: Clock): ByteRecord | undefined {
  const actual = kind ?? detect();
  if (actual === undefined) return undefined;
  const r = rulesOf(actual);
  if (r === null || !schemaHolds(r) || !plausible(r, clock)) return undefined;
  const idKey = fieldKey[ids.id];
  if (idKey < 0 || keyPlain[idKey] !== 1) return undefined;
  const id = textOf(idKey);
  const source = sourceOf();
  if (source === undefined) return undefined;
  let day: string | undefined;
  if (r.datingField === 'date') {
    const k = fieldKey[ids.date];
    if (k >= 0 && keyType[k] === T_STRING) {
      if (keyPlain[k] !== 1) return undefined;
      day = dayOfDate(k);
    }
  } else {
    const timestamp = stringOf(ids.timestamp);
    const tzOffset = stringOf(ids.tzOffset);
    if (timestamp === null || tzOffset === null) return undefined;
    day = localDateOf({ timestamp, tzOffset }, actual);
  }
  // The findings in the walk's order: the record's keys in order, a zone's where its key is.
  found = 0;
  let sent = 0;
  for (let k = 0; k < keys; k++) {
    const id = keyField[k];
    const rule = id < 0 ? undefined : r.fields[id];
    if (rule === undefined) {
      scratchAt[found] = keyAt[k];
      scratch[found++] = unknownFinding(r, id < 0 ? unknownName[k] : names[id]);
      continue;
    }
    if (rule.deprecated !== undefined) {
      scratchAt[found] = keyAt[k];
      scratch[found++] = rule.deprecated;
    }
    if (rule.zero !== undefined) {
      if (keyNum[k] === 0) {
        scratchAt[found] = keyAt[k];
        scratch[found++] = rule.zero;
      } else sent |= rule.sentBit;
    } else if (rule.zones) {
      for (let e = 0; e < zeroEvents; e++) {
        scratchAt[found] = zeroAt[e];
        scratch[found++] = zoneZeroFinding(zeroEvent[e] >> 3, zeroEvent[e] & 7);
      }
    }
  }
  result.kind = actual;
  result.id = id;
  result.date = day ?? null;
  result.findings = sharedList();
  result.source = source;
  result.sent = sent;
  return result;
}

const result: ByteRecord = { kind: 'heartRate', id: '', date: null, findings: [], offset: (i) => scratchAt[i], end: 0, source: '', sent: 0 };

/** Sources met lately, as bytes and text: a file has a handful, so a record's is found by a compare, not decoded. */
const recentSources: Array<{ bytes: Buffer; text: string }> = [];
const RECENT_SOURCES = 16;

/** The record's `source` as a plain string (the schema held: it is a string); undefined when not plain (the usual way then decodes it). */
function sourceOf(): string | undefined {
  const k = fieldKey[ids.source];
  if (k < 0 || keyType[k] !== T_STRING || keyPlain[k] !== 1) return undefined;
  const from = keyFrom[k];
  const n = keyTo[k] - from;
  for (let r = 0; r < recentSources.length; r++) {
    const known = recentSources[r].bytes;
    if (known.length !== n) continue;
    let same = true;
    for (let i = 0; i < n && same; i++) same = known[i] === b[from + i];
    if (same) return recentSources[r].text;
  }
  const text = textOf(k);
  if (recentSources.length < RECENT_SOURCES) recentSources.push({ bytes: Buffer.from(text, 'latin1'), text });
  return text;
}
const EMPTY = Buffer.alloc(0);

/** Offset of the last record's closing brace. */
let closeAt = 0;

/**
 * Whether the columns of the last record checked are its byte offsets: it has no byte beyond
 * ASCII, and no carriage return before its end (one after it, as a CRLF line has, moves nothing).
 */
export function lastRecordPlain(): boolean {
  return !nonAscii && lastCr < closeAt;
}
