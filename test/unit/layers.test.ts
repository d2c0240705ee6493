// Keeps the layers honest: src/core and src/sandbox run outside VS Code, so nothing there may
// import 'vscode'; and the CLI stands on core, never on the extension.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './support/repo';

const root = repoRoot;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|js|mjs|cjs)$/.test(name)) out.push(p);
  }
  return out;
}

const importsOf = (file: string, module: RegExp): boolean => {
  const text = readFileSync(file, 'utf8');
  const pattern = new RegExp(`(?:from\\s+|require\\(\\s*|import\\(\\s*|import\\s+)['"]${module.source}['"]`);
  return pattern.test(text);
};

describe('layers', () => {
  for (const layer of ['src/core', 'src/sandbox', 'src/cli']) {
    it(`nothing in ${layer} imports 'vscode'`, () => {
      const offenders = sourceFiles(join(root, layer)).filter((f) => importsOf(f, /vscode/));
      assert.deepEqual(offenders, []);
    });
  }

  it('nothing in src/core, src/sandbox or src/cli imports from src/extension', () => {
    const files = ['src/core', 'src/sandbox', 'src/cli'].flatMap((l) => sourceFiles(join(root, l)));
    const offenders = files.filter((f) => /from\s+['"][./]*(?:\.\.\/)+extension\//.test(readFileSync(f, 'utf8')));
    assert.deepEqual(offenders, []);
  });

  it('the import check itself catches an import of vscode', () => {
    // Guards against a regex that can never match, which would make the tests above pass vacuously.
    const probe = join(root, 'out', 'layers-probe.ts');
    require('node:fs').writeFileSync(probe, "import * as vscode from 'vscode';\n");
    try {
      assert.equal(importsOf(probe, /vscode/), true);
    } finally {
      require('node:fs').rmSync(probe);
    }
  });
});
