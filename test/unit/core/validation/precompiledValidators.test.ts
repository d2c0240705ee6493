// The validators are ajv's standalone code generated from the schema files at build time: the
// committed module matches the schemas, and no bundle compiles code at run time.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RESOURCES } from '../../../../src/core/resources';
import { SCHEMA_DOCUMENTS, compiledSchema, validate } from '../../../../src/core/validation';
import { repoRoot } from '../../support/repo';

const generated = join(repoRoot, 'src', 'core', 'validation', 'validators.generated.ts');
const check = (file?: string) =>
  spawnSync(process.execPath, ['scripts/validators.mjs', '--check', ...(file ? [file] : [])], { cwd: repoRoot, encoding: 'utf8' });

describe('precompiled validators', () => {
  it('the generated module is what the schema files give today (node scripts/validators.mjs --check)', () => {
    const r = check();
    assert.equal(r.status, 0, r.stderr);
  });

  it('the check refuses a module that no longer matches the schemas', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hde-validators-'));
    try {
      const stale = join(dir, 'stale.ts');
      // What a schema edit without a rebuild leaves: one bound of the old schema.
      writeFileSync(stale, readFileSync(generated, 'utf8').replace('"minimum":0', '"minimum":1'));
      const r = check(stale);
      assert.equal(r.status, 1);
      assert.match(r.stderr, /out of date/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('there is a validator for every schema $id, and the kinds use them', () => {
    for (const id of SCHEMA_DOCUMENTS.keys()) assert.equal(typeof compiledSchema(id), 'function', id);
    assert.throws(() => compiledSchema('https://health-data-explorer.dev/schemas/nothing.schema.json'), /No schema/);
    for (const r of RESOURCES) assert.equal(validate({}, r.kind).findings.some((f) => f.path === '/id'), true, r.kind);
  });

  it('no bundle compiles code at run time: no ajv compiler, no new Function', function () {
    const bundles = ['extension.js', 'cli.js', 'validators.js'].map((f) => join(repoRoot, 'dist', f));
    if (!bundles.every((f) => existsSync(f))) this.skip(); // npm test builds them before the unit tests
    for (const file of bundles) {
      const text = readFileSync(file, 'utf8');
      assert.doesNotMatch(text, /\bnew Function\b|\bFunction\(/, file);
      // ajv's compiler (and its error text) would come with its code generator.
      assert.doesNotMatch(text, /schema with key or id|strict mode: unknown keyword/, file);
    }
    // The validators stay out of the extension's bundle: activation never reads them.
    assert.doesNotMatch(readFileSync(bundles[0], 'utf8'), /must have required property/);
  });
});
