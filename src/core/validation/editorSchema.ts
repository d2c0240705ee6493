// The payload schema as VS Code's JSON language service gets it for `*.health.json` files: the
// same titles, descriptions and properties (completion and hover), and no validation keyword, so
// the editor never reports a second, vaguer copy of a finding the validator already gives.

import { SCHEMA_BASE, SCHEMA_DOCUMENTS } from './schemas';

/**
 * Keywords that make the language service report problems. Our validator reports each of these
 * itself, at the severity its kind has (a missing field is an error, `userId` deprecated is
 * information with a strike-through, a field of the wrong type is an error).
 */
const VALIDATION_KEYWORDS = new Set([
  'type', 'required', 'deprecated', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'pattern', 'format', 'enum', 'const', 'minItems', 'maxItems',
  'additionalProperties', 'unevaluatedProperties', 'oneOf', 'not',
]);

const PAYLOAD_ID = `${SCHEMA_BASE}payload.schema.json`;

/** `heart-rate-summary.schema.json` (or its full `$id`) → `#/$defs/heart-rate-summary`. */
function localRef(ref: string): string {
  if (ref.startsWith('#')) return ref;
  const file = ref.startsWith(SCHEMA_BASE) ? ref.slice(SCHEMA_BASE.length) : ref;
  return `#/$defs/${file.replace(/\.schema\.json$/, '')}`;
}

function strip(value: unknown, inPayload: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => strip(v, inPayload));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (VALIDATION_KEYWORDS.has(key) || key === '$schema' || key === '$id') continue;
    if (key === '$ref' && typeof child === 'string') {
      // Inside the payload document its own `#/$defs/…` stay; refs to the other files point at
      // their copies below. Inside a record document `#…` would mean that document: none are used.
      out.$ref = inPayload || !child.startsWith('#') ? localRef(child) : child;
      continue;
    }
    // `properties` holds field names, not keywords: keep every name, strip inside.
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(child as object).map(([k, v]) => [k, strip(v, inPayload)])) : strip(child, inPayload);
  }
  return out;
}

/**
 * One self-contained document (no `$id`, every other schema file copied into `$defs`), so the
 * language service resolves nothing over the network.
 */
export function editorPayloadSchema(): Record<string, unknown> {
  const payload = SCHEMA_DOCUMENTS.get(PAYLOAD_ID);
  if (!payload) throw new Error('no payload schema');
  const schema = strip(payload, true) as Record<string, unknown>;
  const defs: Record<string, unknown> = { ...(schema.$defs as Record<string, unknown>) };
  for (const [id, doc] of SCHEMA_DOCUMENTS) {
    if (id === PAYLOAD_ID || !id.startsWith(SCHEMA_BASE)) continue;
    defs[localRef(id).slice('#/$defs/'.length)] = strip(doc, false);
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $comment: 'Made from src/core/validation/schemas by editorPayloadSchema() at every build: completion and hover only; Health Data validates.',
    ...schema,
    $defs: defs,
  };
}
