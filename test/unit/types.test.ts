// The shipped TypeScript declarations (types/health-data.d.ts): what the generator makes from the
// schemas today, and right about the records: every sandbox record compiles as a typed constant
// under `tsc --strict`, and a record with a field of the wrong type does not.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { TYPES_PATH, typeDeclarations } from '../../scripts/typeDeclarations';
import { resource, RESOURCES } from '../../src/core/resources';
import { generateDataset } from '../../src/sandbox/data';
import { repoRoot } from './support/repo';

const TYPES_FILE = join(repoRoot, TYPES_PATH);
const TYPE_OF = { heartRate: 'HeartRateSummary', activity: 'ActivitySummary', bodyFat: 'BodyFatReading' } as const;

/** Diagnostics of compiling `source` (beside the declarations) with --strict, as text. */
function compile(source: string): string[] {
  const main = join(repoRoot, 'types', '__check__.ts');
  // The ES library alone (no DOM): what app code needs, and a third of the time.
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, lib: ['lib.es2022.d.ts'], types: [] };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (f) => (f === main ? source : read(f));
  const exists = host.fileExists.bind(host);
  host.fileExists = (f) => f === main || exists(f);
  const getSource = host.getSourceFile.bind(host);
  host.getSourceFile = (f, v, onError, create) => (f === main ? ts.createSourceFile(f, source, v) : getSource(f, v, onError, create));
  const program = ts.createProgram([main], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? `${d.file.fileName.split('/').pop()}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('TypeScript declarations of the records', function () {
  this.timeout(120_000);

  it(`${TYPES_PATH} is what the generator makes from the schemas now (npm run types)`, async () => {
    assert.equal(readFileSync(TYPES_FILE, 'utf8'), await typeDeclarations(), `${TYPES_PATH} is out of date: run npm run types`);
  });

  it('marks userId @deprecated with its replacement and documents the zero-default fields', () => {
    const text = readFileSync(TYPES_FILE, 'utf8');
    assert.equal(text.match(/@deprecated Use `humanId` instead\.\n\s+\*\/\n\s+userId\?: string;/g)?.length, 3);
    for (const field of resource('activity').zeroDefaultFields) {
      assert.match(text, new RegExp(`@default 0 — the service sends 0 when the source does not provide ${field}\\.\\n\\s+\\*/\\n\\s+${field}: number;`));
    }
    assert.doesNotMatch(text, /export (type|interface) Date\b/, 'no type shadows a global');
  });

  it('every sandbox record compiles as a typed constant under --strict; a wrong field type does not', () => {
    const data = generateDataset({ seed: 'types', days: 14, humans: 2, today: '2026-11-20' }) as unknown as Record<string, unknown[]>;
    const lines = [`import type { HealthDataRecord, ${Object.values(TYPE_OF).join(', ')} } from './health-data';`];
    let n = 0;
    for (const r of RESOURCES) {
      for (const record of data[r.kind]) lines.push(`export const r${n++}: ${TYPE_OF[r.kind]} = ${JSON.stringify(record)};`);
    }
    lines.push(`export const all: HealthDataRecord[] = [${Array.from({ length: n }, (_, i) => `r${i}`).join(', ')}];`);
    assert.ok(n > 40, `${n} records`);
    assert.deepEqual(compile(lines.join('\n')), []);

    const activity = JSON.stringify({ ...(data.activity[0] as object), steps: '12224' });
    const wrong = compile(`import type { ActivitySummary } from './health-data';\nexport const bad: ActivitySummary = ${activity};`);
    assert.equal(wrong.length, 1, wrong.join('\n'));
    assert.match(wrong[0], /Type 'string' is not assignable to type 'number'/);
    const missing = compile(`import type { BodyFatReading } from './health-data';\nexport const bad: BodyFatReading = { id: 'x', humanId: 'h', source: 's', createdAt: '', updatedAt: '', timestamp: '', unit: '%' };`);
    assert.match(missing.join('\n'), /Property 'value' is missing/);
  });
});
