// The ajv compiler, set up with the service's schemas and its date formats. Only schemas.ts
// loads it, on the first validation: activation never pays for ajv, and the extension's bundle
// ships it as a separate file (dist/schemaCompiler.js) that is read only then.

import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import { DATE_FORMAT, DATE_TIME_FORMAT } from './dateFormats';

/** Compiles a schema by `$id`, once each; undefined for an `$id` it was not given. */
export type SchemaCompiler = (id: string) => ValidateFunction | undefined;

export function createSchemaCompiler(documents: Iterable<object>): SchemaCompiler {
  // allErrors: one finding per problem. verbose: errors carry the offending value and the schema
  // around the keyword, so messages can quote the value and the field's description without
  // any lookup. strict: a mistake in a schema file fails loudly at compile time.
  // validateSchema off: checking our own files against the 2020-12 meta-schema costs ~65 ms on
  // first use; test/unit/schemas.test.ts does it instead.
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, validateSchema: false });
  // ajv-formats' full `date` and `date-time` (2015-02-30 is no date), behind a fast path.
  ajv.addFormat('date', DATE_FORMAT).addFormat('date-time', DATE_TIME_FORMAT);
  for (const doc of documents) ajv.addSchema(doc);
  return (id) => ajv.getSchema(id);
}
