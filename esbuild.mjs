// Bundles the extension (dist/extension.js and the features it requires on first use, see
// scripts/lazyBundles.mjs), the CLI, the webview scripts and the benchmarks. `--production`
// minifies and drops source maps; `--watch` rebuilds and prints lines a problem matcher reads;
// `--report` writes nothing and prints what the extension's bundles hold, as JSON.
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readFileSync, rmSync, watch as watchFiles, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { LAZY_BUNDLES, buildExtensionBundles, splitPlugin } from './scripts/lazyBundles.mjs';
import { writeValidators } from './scripts/validators.mjs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const report = process.argv.includes('--report');

/** Prints `[watch] build started` / `file:line:col: error: text` / `[watch] build finished`. */
const problemMatcherPlugin = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: watch ? 'silent' : 'warning',
  plugins: watch ? [problemMatcherPlugin] : [],
  define: { __VERSION__: JSON.stringify(pkg.version) },
  // Prefer ES module entries: jsonc-parser's UMD `main` requires its parts dynamically, which a
  // bundle cannot follow (the packaged extension would fail with "Cannot find module").
  mainFields: ['module', 'main'],
  // node-fetch v2 uses whatwg-url only where Node has no URL class of its own (before Node 10):
  // Node's stands in, and the bundles drop whatwg-url's 280 KB of Unicode tables.
  alias: { 'whatwg-url': 'node:url' },
};

if (report) {
  console.log(JSON.stringify(await buildExtensionBundles(common, { write: false }), null, 2));
  process.exit(0);
}

const targets = [
  // The bundles that carry all their code (the validators), each dist/<name>.js.
  ...LAZY_BUNDLES.filter((b) => b.standalone).map((b) => ({
    entryPoints: [b.entry],
    outfile: `dist/${b.name}.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  })),
  // The thread that validates large documents for the extension (loaded by the first of them,
  // never at activation); it carries its own copy of the validators.
  {
    entryPoints: ['src/core/validationWorker/worker.ts'],
    outfile: 'dist/validationWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  // The insights webviews, each a bundle of its own: the trends one carries uPlot (and its CSS,
  // written beside it as dist/trends.css), which neither the extension nor the record view loads.
  ...['coverage', 'trends'].map((name) => ({
    entryPoints: [`src/webview/insights/${name}.ts`],
    outfile: `dist/${name}.js`,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  })),
  {
    entryPoints: ['src/webview/exchange/main.ts'],
    outfile: 'dist/exchangeView.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  {
    entryPoints: ['bench/index.ts'],
    outfile: 'dist/bench.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // As in the extension, so the first validation pays for loading them.
    plugins: [...common.plugins, splitPlugin({ bundles: LAZY_BUNDLES.filter((b) => b.standalone) })],
  },
].filter((t) => existsSync(t.entryPoints[0]));

// The validators are generated from the schemas before anything is bundled (scripts/validators.mjs).
writeValidators();

/**
 * dist/payload.editor.schema.json, the schema contributed to VS Code's JSON support (see
 * src/core/validation/editorSchema.ts): made from the schemas at every build, never edited.
 */
async function writeEditorSchema() {
  const built = await esbuild.build({
    ...common, entryPoints: ['src/core/validation/editorSchema.ts'], write: false, platform: 'node', format: 'cjs', target: 'node20', sourcemap: false,
    plugins: [splitPlugin({ bundles: LAZY_BUNDLES.filter((b) => b.standalone) })],
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', built.outputFiles[0].text)(module, module.exports, createRequire(import.meta.url));
  mkdirSync('dist', { recursive: true });
  writeFileSync('dist/payload.editor.schema.json', `${JSON.stringify(module.exports.editorPayloadSchema(), null, 2)}\n`);
}
// A full build starts from an empty dist/: a bundle no longer built (a renamed or dropped lazy
// feature) must not linger there, be packaged into the .vsix or be counted by the benchmarks.
if (!watch) rmSync('dist', { recursive: true, force: true });
await writeEditorSchema();

/** The extension's bundles, built together (which modules the features share depends on all). */
async function extensionBundles() {
  if (!watch) return buildExtensionBundles(common);
  console.log('[watch] build started');
  try {
    await buildExtensionBundles({ ...common, logLevel: 'silent', plugins: [] });
  } catch (err) {
    for (const { text, location } of err.errors ?? [{ text: String(err) }]) {
      console.error(`✘ [ERROR] ${text}`);
      if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
    }
  }
  console.log('[watch] build finished');
}

if (watch) {
  const contexts = await Promise.all(targets.map((t) => esbuild.context({ ...common, ...t })));
  await Promise.all(contexts.map((c) => c.watch()));
  await extensionBundles();
  let timer;
  watchFiles('src', { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(() => void extensionBundles(), 100);
  });
} else {
  await Promise.all([...targets.map((t) => esbuild.build({ ...common, ...t })), extensionBundles()]);
}
