// Keeps the layers honest: src/core and src/sandbox run outside VS Code, so nothing there may
// import 'vscode'; the CLI stands on core, never on the extension; and no file of src/ reaches
// itself again through its imports (type-only imports count: they tie the files as much).
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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


/** The files of `targets` that are in src/extension. */
const intoExtension = (targets: readonly string[]): string[] => targets.filter((t) => !relative(join(root, 'src', 'extension'), t).startsWith('..'));

/** Every relative import of a file (static, `import()`, `require()`, type-only), resolved to a file. */
export function relativeImports(file: string, text = readFileSync(file, 'utf8')): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\(\s*|^import\s+)['"](\.{1,2}\/[^'"]*)['"]/gm)) {
    const base = join(dirname(file), m[1]);
    const found = [base, `${base}.ts`, join(base, 'index.ts')].find((p) => /\.ts$/.test(p) && existsSync(p) && statSync(p).isFile());
    if (found) out.push(found);
  }
  return out;
}

/** The import cycles among the given files: each a list of files (Tarjan's strongly connected components). */
export function importCycles(files: readonly string[], importsOf: (file: string) => string[] = relativeImports): string[][] {
  const edges = new Map(files.map((f) => [f, importsOf(f).filter((t) => t !== f)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return cycles;
}

describe('layers', () => {
  for (const layer of ['src/core', 'src/sandbox', 'src/cli']) {
    it(`nothing in ${layer} imports 'vscode'`, () => {
      const offenders = sourceFiles(join(root, layer)).filter((f) => importsOf(f, /vscode/));
      assert.deepEqual(offenders, []);
    });
  }

  it('nothing in src/core, src/sandbox or src/cli imports from src/extension', () => {
    const files = ['src/core', 'src/sandbox', 'src/cli'].flatMap((l) => sourceFiles(join(root, l))).filter((f) => f.endsWith('.ts'));
    assert.ok(files.length > 100);
    const offenders = files.flatMap((f) => intoExtension(relativeImports(f)).map((t) => `${relative(root, f)} -> ${relative(root, t)}`));
    assert.deepEqual(offenders, []);
  });

  it('no import cycles in src/ (files, and folders through their entry files)', () => {
    const files = sourceFiles(join(root, 'src')).filter((f) => f.endsWith('.ts'));
    const cycles = importCycles(files).map((c) => c.map((f) => relative(root, f)));
    assert.deepEqual(cycles, []);
  });

  it('each webview script imports its own folder, its host/webview protocol and the shared text-only DOM helpers, nothing else', () => {
    const webview = join(root, 'src', 'webview');
    const views = join(root, 'src', 'core', 'views');
    // Each webview folder and the one protocol module it may use.
    const allowed = new Map([
      [webview, join(views, 'recordViewProtocol.ts')],
      [join(webview, 'exchange'), join(views, 'exchangeViewProtocol.ts')],
      [join(webview, 'insights'), join(views, 'insightsProtocol.ts')],
    ]);
    const shared = join(webview, 'dom.ts');
    const files = sourceFiles(webview).filter((f) => f.endsWith('.ts'));
    assert.ok(files.some((f) => dirname(f) === join(webview, 'exchange')), 'the exchange view script was not found');
    assert.ok(files.some((f) => dirname(f) === join(webview, 'insights')), 'the insights scripts were not found');
    const offenders = files.flatMap((f) => {
      const protocol = allowed.get(dirname(f));
      if (!protocol) return [`${relative(root, f)} is in no known webview folder`];
      return relativeImports(f)
        .filter((t) => t !== protocol && t !== shared && dirname(t) !== dirname(f))
        .map((t) => `${relative(root, f)} -> ${relative(root, t)}`);
    });
    assert.deepEqual(offenders, []);
  });

  it('the insights protocol imports only types, so the insights webviews bundle no code of core', () => {
    const text = readFileSync(join(root, 'src/core/views/insightsProtocol.ts'), 'utf8');
    const imports = text.split('\n').filter((line) => /^(?:import|export)\b.*\bfrom\s+['"]\./.test(line));
    assert.ok(imports.length > 0);
    assert.deepEqual(imports.filter((line) => !/^(?:import|export) type\b/.test(line)), []);
  });

  it('the cycle check itself finds a cycle, through an entry file too', () => {
    const graph: Record<string, string[]> = { a: ['b'], b: ['c/index'], 'c/index': ['c/x'], 'c/x': ['a'], d: ['a'] };
    assert.deepEqual(importCycles(Object.keys(graph), (f) => graph[f]), [['a', 'b', 'c/index', 'c/x']]);
    assert.deepEqual(importCycles(['d', 'a'], (f) => (f === 'd' ? ['a'] : [])), []);
  });

  it('the relative import reader finds static imports, require() and import() of a file or a folder', () => {
    // Guards the two checks above that rely on it (src/extension out of the lower layers, no cycles).
    const probe = join(root, 'out', 'layers-probe-relative.ts');
    const text = [
      "import { a } from '../src/extension/tree/filters';",
      "const b = require('../src/extension/recordView/html');",
      "const c = import('../src/extension/extension');",
      "export * from '../src/core/json';",
    ].join('\n');
    require('node:fs').writeFileSync(probe, text);
    try {
      const found = relativeImports(probe).map((t) => relative(root, t));
      assert.deepEqual(found, ['src/extension/tree/filters.ts', 'src/extension/recordView/html.ts', 'src/extension/extension.ts', join('src/core/json', 'index.ts')]);
      assert.equal(intoExtension(relativeImports(probe)).length, 3);
    } finally {
      require('node:fs').rmSync(probe);
    }
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
