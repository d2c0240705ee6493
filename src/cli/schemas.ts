// `health-data schemas` and `health-data types`: the records' JSON Schemas (2020-12, with their
// $ids, descriptions and units) and the TypeScript declarations generated from them at build time
// (types/health-data.d.ts, which the package ships), for app code.

import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SCHEMA_DOCUMENTS } from '../core/validation';
import { whyNotWritten } from './fileTargets';
import { Output, printable } from './output';

/** The shipped declarations, relative to the package's root. */
export const TYPES_FILE = 'types/health-data.d.ts';

/** `activity-summary.schema.json` for its `$id`. */
export function schemaFileName(id: string): string {
  return id.slice(id.lastIndexOf('/') + 1);
}

function writeFailure(path: string, err: unknown): Error {
  return new Error(`Could not write ${printable(path, 120)}: ${whyNotWritten(err)}`);
}

export async function schemasCommand(o: Output, flags: { out?: string }): Promise<number> {
  const docs = [...SCHEMA_DOCUMENTS.values()];
  if (flags.out === undefined || flags.out === '-') {
    o.out(JSON.stringify(Object.fromEntries(docs.map((d) => [schemaFileName(d.$id), d])), null, 2));
    return 0;
  }
  const dir = flags.out;
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw writeFailure(dir, err);
  }
  for (const doc of docs) {
    const path = join(dir, schemaFileName(doc.$id));
    try {
      await writeFile(path, `${JSON.stringify(doc, null, 2)}\n`);
    } catch (err) {
      throw writeFailure(path, err);
    }
  }
  o.out(`${docs.length} schemas written to ${printable(dir, 120)}: ${docs.map((d) => schemaFileName(d.$id)).join(', ')}`);
  return 0;
}

/** The package's root: the folder above this file (dist/, or out/src/cli/ in tests) that holds the declarations. */
function typesPath(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, TYPES_FILE);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`${TYPES_FILE} is missing from this installation`);
  }
}

export async function typesCommand(o: Output, flags: { out?: string }): Promise<number> {
  const declarations = await readFile(typesPath(), 'utf8');
  if (flags.out === undefined || flags.out === '-') {
    o.write(declarations);
    return 0;
  }
  try {
    await mkdir(dirname(flags.out), { recursive: true });
    await writeFile(flags.out, declarations);
  } catch (err) {
    throw writeFailure(flags.out, err);
  }
  o.out(`TypeScript declarations written to ${printable(flags.out, 120)}`);
  return 0;
}
