// The extension's bundle budget, over what the production build holds (`node esbuild.mjs
// --production --report`, which writes nothing): dist/extension.js stays within 250,000 bytes,
// the features loaded on first use stay out of it, no module is both in it and in a feature, and
// every lazy bundle ships in the .vsix.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../support/repo';

/** The budget of issue 14. */
const BUNDLE_BUDGET_BYTES = 250_000;

interface BuiltBundle {
  name: string;
  bytes: number;
  /** Source files and packages with code in the bundle, with their bytes; `host-module:` ones are taken from dist/extension.js. */
  inputs: Record<string, number>;
}

/** What must never be back in dist/extension.js: each heavy feature's own code and libraries. */
const LAZY_CODE = [
  'src/sandbox/server.ts',
  'src/sandbox/data.ts',
  'src/core/insights/',
  'src/core/recording/',
  'src/core/export/',
  'src/core/reports/',
  'src/core/exchanges/',
  'node_modules/csv-stringify/',
  'src/extension/insights/',
  'src/extension/export/',
  'src/extension/recording/',
  'src/extension/copyAsCode/',
  'src/extension/compare/',
  'src/extension/validationReport/',
  'src/extension/requests/commands.ts',
  'src/extension/account/commands.ts',
  'src/extension/workbench/commands.ts',
  'src/extension/workbench/requestForm.ts',
  'src/extension/workbench/strings.ts',
  'src/extension/recordView/recordPanel.ts',
  'src/extension/workbench/exchangePanel.ts',
  'src/core/views/rowModel.ts',
  'src/core/views/exchangeViewModel.ts',
  'src/core/validation/fieldHelp.ts',
];

describe('the extension bundle budget (production build)', function () {
  this.timeout(120_000);
  let bundles: BuiltBundle[];
  let host: BuiltBundle;

  before(() => {
    const r = spawnSync(process.execPath, ['esbuild.mjs', '--production', '--report'], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    assert.equal(r.status, 0, r.stderr);
    bundles = JSON.parse(r.stdout) as BuiltBundle[];
    host = bundles.find((b) => b.name === 'extension')!;
    assert.ok(host, 'no extension bundle in the report');
  });

  it(`dist/extension.js is at most ${BUNDLE_BUDGET_BYTES} bytes`, () => {
    assert.ok(host.bytes <= BUNDLE_BUDGET_BYTES, `dist/extension.js is ${host.bytes} bytes`);
  });

  it('no lazy feature is pulled back into dist/extension.js', () => {
    const back = Object.keys(host.inputs).filter((file) => LAZY_CODE.some((lazy) => file.startsWith(lazy)));
    assert.deepEqual(back, []);
    assert.ok(bundles.length >= 11, `only ${bundles.length} bundles`);
  });

  it('each feature bundle holds its own code and takes the rest from dist/extension.js (no module in both)', () => {
    for (const feature of bundles.filter((b) => b !== host)) {
      const own = Object.keys(feature.inputs).filter((f) => !f.startsWith('host-module:'));
      assert.ok(own.length > 0, `${feature.name} holds no code of its own`);
      assert.deepEqual(own.filter((f) => f in host.inputs), [], `${feature.name} repeats modules of dist/extension.js`);
    }
    // The sharing is real: the errors every feature throws are one class.
    assert.ok(Object.keys(bundles.find((b) => b.name === 'insights')!.inputs).includes('host-module:src/core/errors.ts'));
  });

  it('every lazy bundle is packaged (.vscodeignore)', () => {
    const ignore = readFileSync(join(repoRoot, '.vscodeignore'), 'utf8').split('\n').map((l) => l.trim());
    const missing = [...bundles.map((b) => b.name), 'validators'].filter((name) => !ignore.includes(`!dist/${name}.js`));
    assert.deepEqual(missing, []);
  });

  it('a static import of a lazy feature fails the build', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hde-split-'));
    try {
      const entry = join(dir, 'entry.ts');
      writeFileSync(entry, `import { registerCompare } from ${JSON.stringify(join(repoRoot, 'src/extension/compare/commands'))};\nexport const x = registerCompare;\n`);
      const script = [
        "import * as esbuild from 'esbuild';",
        "import { splitPlugin } from './scripts/lazyBundles.mjs';",
        `await esbuild.build({ entryPoints: [${JSON.stringify(entry)}], bundle: true, write: false, platform: 'node', format: 'cjs', external: ['vscode'], logLevel: 'silent', plugins: [splitPlugin()] })`,
        "  .then(() => console.log('built'), (err) => console.log(err.errors.map((e) => e.text).join('\\n')));",
      ].join('\n');
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /src\/extension\/compare\/commands\.ts is bundled apart \(dist\/compare\.js\): require\(\) it on first use/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
