// What the validator says about a record (findings), and how ajv's errors become findings a
// person understands. Messages quote record values only in short, truncated form.

import type { ErrorObject } from 'ajv';
import { pointerToken } from '../json';

/** The kinds of finding, most serious first: the one order every list, count and legend uses. */
export const FINDING_KINDS = ['error', 'warning', 'zero', 'deprecated', 'unknown'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

/** Findings are read-only: the common ones are frozen and shared between records. */
export interface Finding {
  readonly kind: FindingKind;
  /** JSON Pointer of the field within the record; '' only for the record as a whole. */
  readonly path: string;
  readonly message: string;
}

/** Longest piece of a record value a message may quote. */
export const MAX_QUOTED = 60;

/** A string cut to MAX_QUOTED characters (with an ellipsis), for messages. */
export function truncate(text: string): string {
  const cut = text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED - 1)}…` : text;
  return escapeInvisible(cut);
}

/**
 * Control characters (C0, DEL, C1), invisible direction marks, isolates and overrides, and the
 * zero-width and separator characters: what must never reach a terminal or a message raw.
 */
export const INVISIBLE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;
const INVISIBLE_ALL = new RegExp(INVISIBLE_CHARACTERS.source, 'g');

/** `\u001b` for ESC: the code of a character as text a person can read. */
export const unicodeEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text with each invisible character written out (as \uXXXX by default): it must not hide text
 * or turn our own words around (U+202E reverses what follows).
 */
export function escapeInvisible(text: string, replace: (c: string) => string = unicodeEscape): string {
  return INVISIBLE_CHARACTERS.test(text) ? text.replace(INVISIBLE_ALL, replace) : text;
}

/** A short rendering of any value for a message: never long, whatever the value's size. */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      // Slice before quoting so a huge string is never copied whole.
      return JSON.stringify(truncate(value));
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return 'nothing';
    case 'object':
      if (value === null) return 'null';
      return Array.isArray(value) ? 'an array' : 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/** Like describeValue, naming the type of a string so `"12"` is not mistaken for 12. */
function describeForType(value: unknown): string {
  return typeof value === 'string' ? `the string ${describeValue(value)}` : describeValue(value);
}


/** How a message names the field at a pointer: `value`, `zones/2/min`. */
export function fieldLabel(path: string): string {
  const label = path.startsWith('/') ? path.slice(1) : path;
  const plain = label.includes('~') ? label.replace(/~1/g, '/').replace(/~0/g, '~') : label;
  return truncate(plain || 'record');
}

/** The first sentence of a schema description, as a phrase: `the measurement of the day, in bpm`. */
function hintOf(schema: unknown): string | undefined {
  const description = (schema as { description?: unknown } | undefined)?.description;
  if (typeof description !== 'string' || !description) return undefined;
  const end = description.indexOf('. ');
  const sentence = end >= 0 ? description.slice(0, end) : description.replace(/\.$/, '');
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}

const FORMAT_TEXT: Readonly<Record<string, string>> = {
  date: 'a real calendar date YYYY-MM-DD',
  'date-time': 'a real date and time with an offset from UTC, like 2026-11-20T08:00:00Z',
};

const COMPARISON: Readonly<Record<string, string>> = { '>=': '≥', '<=': '≤', '>': '>', '<': '<' };

const ARTICLE_TYPE: Readonly<Record<string, string>> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
};

/** One finding for one ajv error; the pointer is the field itself, even for a missing field. */
export function findingOfAjvError(error: ErrorObject): Finding {
  const params = error.params as Record<string, unknown>;
  const data: unknown = error.data;
  if (error.keyword === 'required') {
    const missing = String(params.missingProperty);
    const path = `${error.instancePath}/${pointerToken(missing)}`;
    const properties = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
    const known = properties !== undefined && Object.prototype.hasOwnProperty.call(properties, missing);
    const hint = known ? hintOf(properties[missing]) : undefined;
    const label = fieldLabel(path);
    const message = hint ? `${label} is required (${hint}) but missing` : `${label} is required but missing`;
    return { kind: 'error', path, message };
  }
  const path = error.instancePath;
  const label = fieldLabel(path);
  let message: string;
  switch (error.keyword) {
    case 'type': {
      const expected = String(params.type);
      message = `${label} must be ${ARTICLE_TYPE[expected] ?? expected}, got ${describeForType(data)}`;
      break;
    }
    case 'format': {
      const format = String(params.format);
      message = `${label} must be ${FORMAT_TEXT[format] ?? `in the format ${format}`}, got ${describeValue(data)}`;
      break;
    }
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum': {
      const comparison = String(params.comparison);
      message = `${label} must be ${COMPARISON[comparison] ?? comparison} ${String(params.limit)}, got ${describeValue(data)}`;
      break;
    }
    case 'pattern': {
      const hint = hintOf(error.parentSchema);
      message = `${label} ${hint ? `must be ${hint}` : 'has the wrong form'}, got ${describeValue(data)}`;
      break;
    }
    case 'minLength':
      message =
        params.limit === 1
          ? `${label} must not be empty`
          : `${label} must be at least ${String(params.limit)} characters long`;
      break;
    default:
      message = `${label} ${error.message ?? 'is not valid'}`;
  }
  return { kind: 'error', path, message };
}
