// Generates types/health-data.d.ts, the TypeScript declarations of the records, from the same JSON
// Schemas the validator uses, with json-schema-to-typescript (a well-kept generator: $refs,
// JSDoc from descriptions, `@deprecated`). `npm run types` writes the file; a unit test checks
// that the shipped one is what this makes.
//   node out/scripts/typeDeclarations.js [--check]

import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { RESOURCES } from '../src/core/resources';
import { SCHEMA_DOCUMENTS, ZONE_SCHEMA_ID, deprecatedReplacement } from '../src/core/validation';
import { writeOrCheck } from './generatedFile';

export const TYPES_PATH = 'types/health-data.d.ts';

type Schema = Record<string, unknown>;

/** A schema's title as a type name: `Heart rate summary` → `HeartRateSummary`. */
const typeName = (title: string): string => title.replace(/(^|\s)(\w)/g, (_, _s: string, c: string) => c.toUpperCase());

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * One schema for the generator: the resources and the zone under `definitions`, their `$ref`s
 * pointing there, the deprecated and zero-default fields tagged
 * (`@deprecated Use humanId instead.`, `@default 0`), the properties untitled.
 */
function generatorSchema(): JSONSchema {
  const definitions: Record<string, Schema> = {};
  const refs = new Map<string, string>();
  const ids = [...RESOURCES.map((r) => r.schemaId), ZONE_SCHEMA_ID];
  for (const id of ids) refs.set(id, `#/definitions/${typeName(String(SCHEMA_DOCUMENTS.get(id)?.title))}`);
  for (const id of ids) {
    const doc = clone(SCHEMA_DOCUMENTS.get(id)) as unknown as Schema;
    delete doc.$schema;
    delete doc.$id;
    const zeroDefaults = RESOURCES.find((r) => r.schemaId === id)?.zeroDefaultFields ?? [];
    for (const [name, prop] of Object.entries((doc.properties ?? {}) as Record<string, Schema>)) {
      // A titled property becomes a named type of its own (`Id1`, `Date`…): inline, with JSDoc, reads better.
      delete prop.title;
      const items = prop.items as Schema | undefined;
      if (typeof items?.$ref === 'string') items.$ref = refs.get(new URL(items.$ref, id).href) ?? items.$ref;
      // Tags of our own wording: the generator's bare `@deprecated` would not name the replacement.
      if (prop.deprecated === true) {
        const replacement = deprecatedReplacement(name);
        delete prop.deprecated;
        prop.description = `${String(prop.description)}\n\n@deprecated ${replacement ? `Use \`${replacement}\` instead.` : 'To be removed.'}`;
      }
      if (zeroDefaults.includes(name)) {
        prop.description = `${String(prop.description)}\n\n@default 0 — the service sends 0 when the source does not provide ${name}.`;
      }
    }
    definitions[typeName(String(doc.title))] = doc;
  }
  return {
    title: 'Health data record',
    description: 'A record of the health-data service: a heart rate summary, an activity summary or a body fat reading.',
    anyOf: RESOURCES.map((r) => ({ $ref: refs.get(r.schemaId) })),
    definitions,
  } as JSONSchema;
}

const BANNER = `/* Health Data Explorer: TypeScript declarations of the health-data service's records.
 * Generated from the JSON Schemas (health-data schemas) by json-schema-to-typescript; do not edit:
 * run \`npm run types\`. Fields the schemas do not define are allowed (sources add fields). */`;

export async function typeDeclarations(): Promise<string> {
  return compile(generatorSchema(), 'HealthDataRecord', {
    bannerComment: BANNER,
    additionalProperties: true,
    unreachableDefinitions: true,
    strictIndexSignatures: false,
    format: true,
    style: { singleQuote: true, printWidth: 120 },
  });
}

if (require.main === module) void typeDeclarations().then((text) => writeOrCheck(TYPES_PATH, text, 'npm run types'));
