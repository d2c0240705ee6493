// The JSON Schemas of the service's records, their validators (generated at build time by
// scripts/validators.mjs, loaded on first use), and the facts the validator needs from them
// (known fields, numbers, deprecations) precomputed per kind.

import type { ValidateFunction } from 'ajv';
import { ResourceKind, resource } from '../resources';
import { pointerToken } from '../json';
import heartRateSummarySchema from './schemas/heart-rate-summary.schema.json';
import activitySummarySchema from './schemas/activity-summary.schema.json';
import bodyFatReadingSchema from './schemas/body-fat-reading.schema.json';
import zoneSchema from './schemas/zone.schema.json';
import clientTokenReplySchema from './schemas/client-token-reply.schema.json';
import payloadSchema from './schemas/payload.schema.json';

/** The part of a JSON Schema document this module reads. */
export interface SchemaDocument {
  $id: string;
  title?: string;
  description?: string;
  type?: string;
  required?: readonly string[];
  properties?: Readonly<Record<string, PropertySchema>>;
}

export interface PropertySchema {
  title?: string;
  description?: string;
  type?: string;
  format?: string;
  pattern?: string;
  minimum?: number;
  deprecated?: boolean;
  items?: { $ref?: string };
}

export const SCHEMA_BASE = 'https://health-data-explorer.dev/schemas/';
export const ZONE_SCHEMA_ID = `${SCHEMA_BASE}zone.schema.json`;
export const CLIENT_TOKEN_REPLY_SCHEMA_ID = `${SCHEMA_BASE}client-token-reply.schema.json`;

/** Frozen, so no caller of schemaFor can change what the validator checks. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Every schema document, keyed by `$id`. A new resource adds its file here. */
export const SCHEMA_DOCUMENTS: ReadonlyMap<string, SchemaDocument> = new Map(
  [heartRateSummarySchema, activitySummarySchema, bodyFatReadingSchema, zoneSchema, clientTokenReplySchema, payloadSchema].map(
    (doc) => [doc.$id, deepFreeze(doc) as SchemaDocument],
  ),
);

/** The JSON Schema document of a resource kind (its `$id` is the resource's `schemaId`). */
export function schemaFor(kind: ResourceKind): SchemaDocument {
  const id = resource(kind).schemaId;
  const doc = SCHEMA_DOCUMENTS.get(id);
  if (!doc) throw new Error(`No schema document with $id ${id}`);
  return doc;
}

let precompiled: Readonly<Record<string, ValidateFunction>> | undefined;

/**
 * Loaded with require() on the first validation, not imported: the extension's bundle keeps the
 * generated validators in a file of their own (dist/validators.js, esbuild.mjs), which activation
 * never reads. Loading it compiles nothing: the code was generated from the schemas at build time.
 */
function validators(): Readonly<Record<string, ValidateFunction>> {
  if (!precompiled) {
    const generated = require('./validators.generated') as { VALIDATORS_BY_ID: Record<string, ValidateFunction> };
    precompiled = generated.VALIDATORS_BY_ID;
  }
  return precompiled;
}

/** The validator of the schema with this `$id` (generated from it at build time). */
export function compiledSchema(id: string): ValidateFunction {
  const fn = Object.prototype.hasOwnProperty.call(validators(), id) ? validators()[id] : undefined;
  if (!fn) throw new Error(`No schema with $id ${id}`);
  return fn;
}

export function compiledValidator(kind: ResourceKind): ValidateFunction {
  return compiledSchema(resource(kind).schemaId);
}

/** What the validator knows about one property of an object schema. */
export interface FieldInfo {
  /** `/name`, the field's pointer relative to its object. */
  readonly pointer: string;
  readonly numeric: boolean;
  /** Set when the field is deprecated: the finding's message. */
  readonly deprecatedMessage?: string;
  /** The message of a `zero` finding for this field. */
  readonly zeroMessage: string;
  /** For an array of objects with their own schema (zones): that schema's shape. */
  readonly items?: ObjectShape;
}

export interface ObjectShape {
  readonly fields: ReadonlyMap<string, FieldInfo>;
  /** The schema's title, lowercased, for messages: `heart rate summary`. */
  readonly name: string;
}

const shapes = new Map<string, ObjectShape>();
const USE_INSTEAD = /\buse (\w+)/i;

function shapeOf(doc: SchemaDocument, zeroDefaults: ReadonlySet<string>, nested = false): ObjectShape {
  const name = (doc.title ?? 'record').toLowerCase();
  const fields = new Map<string, FieldInfo>();
  for (const [field, prop] of Object.entries(doc.properties ?? {})) {
    let deprecatedMessage: string | undefined;
    if (prop.deprecated) {
      const replacement = USE_INSTEAD.exec(prop.description ?? '')?.[1];
      deprecatedMessage = replacement ? `${field} is deprecated: use ${replacement}` : `${field} is deprecated`;
    }
    const ref = prop.items?.$ref;
    const itemDoc = ref ? SCHEMA_DOCUMENTS.get(new URL(ref, doc.$id).href) : undefined;
    fields.set(field, {
      pointer: `/${pointerToken(field)}`,
      numeric: prop.type === 'number' || prop.type === 'integer',
      deprecatedMessage,
      // The service sends 0 for a field the source lacks: say so instead of just "is 0".
      zeroMessage: zeroDefaults.has(field)
        ? `0 — this source may not provide ${field}`
        : nested
          ? `${field} is 0 in this ${name}`
          : `${field} is 0`,
      items: itemDoc ? shapeOf(itemDoc, new Set(), true) : undefined,
    });
  }
  return { fields, name };
}

/** Known fields of a kind's schema, precomputed once. */
export function shapeFor(kind: ResourceKind): ObjectShape {
  let shape = shapes.get(kind);
  if (!shape) {
    shape = shapeOf(schemaFor(kind), new Set(resource(kind).zeroDefaultFields));
    shapes.set(kind, shape);
  }
  return shape;
}
