// The extension's bundle (dist/extension.js) and the bundles it requires on first use
// (dist/<name>.js), so that activation reads only what the first screen needs. Used by esbuild.mjs;
// `--report` there prints what each bundle holds instead of writing them (test/unit/scripts/lazyBundles.test.ts).
import * as esbuild from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Every bundle required on first use: `require()` of its entry (through
 * src/extension/shared/lazyFeature.ts, or schemas.ts for the validators) becomes
 * `require('./<name>.js')` in dist/extension.js, and any other import of it fails the build.
 * A `standalone` bundle carries all its code (the validators: dist/bench.js requires them too);
 * a feature takes every module dist/extension.js already holds from it (one HealthDataError class,
 * one table of resources, no second copy of the client) and carries only its own.
 */
export const LAZY_BUNDLES = [
  { name: 'validators', entry: 'src/core/validation/validators.generated.ts', standalone: true },
  { name: 'sandbox', entry: 'src/sandbox/server.ts' },
  { name: 'account', entry: 'src/extension/account/commands.ts' },
  { name: 'requests', entry: 'src/extension/requests/commands.ts' },
  { name: 'insights', entry: 'src/extension/insights/commands.ts' },
  { name: 'export', entry: 'src/extension/export/commands.ts' },
  { name: 'recording', entry: 'src/extension/recording/index.ts' },
  { name: 'copyAsCode', entry: 'src/extension/copyAsCode/commands.ts' },
  { name: 'compare', entry: 'src/extension/compare/commands.ts' },
  { name: 'validationReport', entry: 'src/extension/validationReport/index.ts' },
  { name: 'workbench', entry: 'src/extension/workbench/commands.ts' },
  // The record view's panel, loaded with the first record opened (or restored).
  { name: 'recordPanel', entry: 'src/extension/recordView/recordPanel.ts' },
  // The exchange view's panel, loaded with the first exchange opened (or restored).
  { name: 'exchangePanel', entry: 'src/extension/workbench/exchangePanel.ts' },
  // The exchange view's words, read on its first render.
  { name: 'exchangeStrings', entry: 'src/extension/workbench/strings.ts' },
  // The hover of a payload's field (its scan and jsonc-parser's tree), loaded with the first hover of a payload.
  { name: 'fieldHover', entry: 'src/core/validation/fieldHelp.ts' },
];

const HOST_ENTRY = 'src/extension/extension.ts';
const node = { platform: 'node', format: 'cjs', target: 'node20' };
const RESOLVING = Symbol('split-bundles');
/** Marks a host value's lookup in a feature's code, where buildExtensionBundles finds which it uses. */
const HOST_MARK = 'hde-host:';

/**
 * Splits the bundles. Any import of the entry of one of `bundles`: `require()` becomes the
 * external `./<name>.js`, anything else is an error (it would put the feature back into the bundle).
 * The benchmarks and the CLI's editor schema split only the standalone ones (the validators).
 * With `host` (a feature's build): a source file whose code dist/extension.js holds
 * (`host.files`) becomes a module of the same exports, each looked up in
 * `require('./extension.js').__hostModules[file][name]` when the feature loads; a lookup the
 * feature does not use is dropped as any unused code is.
 */
export function splitPlugin({ host, bundles = LAZY_BUNDLES } = {}) {
  const byEntry = new Map(bundles.map((b) => [resolve(root, b.entry), b]));
  return {
    name: 'split-bundles',
    setup(build) {
      const own = build.initialOptions.entryPoints?.map((e) => resolve(root, e)) ?? [];
      build.onResolve({ filter: /^host-runtime$/, namespace: 'host-module' }, () => ({ path: 'host-runtime', namespace: 'host-module' }));
      build.onResolve({ filter: /^\.\/extension\.js$/, namespace: 'host-module' }, () => ({ path: './extension.js', external: true }));
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === RESOLVING || args.kind === 'entry-point' || args.path === 'vscode') return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, namespace: 'file', pluginData: RESOLVING });
        if (found.errors.length || found.external) return undefined;
        const lazy = byEntry.get(found.path);
        if (lazy && !own.includes(found.path)) {
          if (args.kind === 'require-call') return { path: `./${lazy.name}.js`, external: true };
          return { errors: [{ text: `${lazy.entry} is bundled apart (dist/${lazy.name}.js): require() it on first use (src/extension/shared/lazyFeature.ts) and import only its types` }] };
        }
        const path = relative(root, found.path);
        // Our own modules only: a package's CommonJS exports are not known before it runs.
        if (!host?.files.has(path) || !path.startsWith('src/')) return undefined;
        return { path, namespace: 'host-module' };
      });
      build.onLoad({ filter: /.*/, namespace: 'host-module' }, async (args) => {
        if (args.path === 'host-runtime') {
          return { contents: `export function hostValue(file, name) { return require('./extension.js').__hostModules[file.slice(${HOST_MARK.length})][name]; }`, loader: 'js', resolveDir: root };
        }
        const { own, reexports } = await exportsOf(host, args.path);
        const lines = [`import { hostValue } from 'host-runtime';`, ...reexports];
        own.forEach((name, i) => lines.push(`const v${i} = /* @__PURE__ */ hostValue(${JSON.stringify(HOST_MARK + args.path)}, ${JSON.stringify(name)});`));
        if (own.length) lines.push(`export { ${own.map((name, i) => `v${i} as ${JSON.stringify(name)}`).join(', ')} };`);
        return { contents: lines.join('\n'), loader: 'js', resolveDir: dirname(resolve(root, args.path)) };
      });
    },
  };
}

/**
 * What a module exports: its own names, and its re-exports of other modules as statements (kept
 * as they are, so a name re-exported by two files stays one binding). Cached per build.
 */
async function exportsOf(host, file) {
  if (!host.exports.has(file)) {
    host.exports.set(
      file,
      esbuild.build({ entryPoints: [file], bundle: false, write: false, metafile: true, format: 'esm', platform: 'node', outfile: 'exports.js', logLevel: 'silent' }).then((r) => {
        const text = r.outputFiles[0].text;
        // Imported bindings (esbuild writes `export { a } from './b'` as an import and an export).
        const imported = new Map();
        for (const [, clause, from] of text.matchAll(/^import\s+([^;]*?)\s+from\s*("[^"]+");?$/gm)) {
          const named = /\{([^}]*)\}/.exec(clause)?.[1];
          for (const part of named?.split(',') ?? []) {
            const [name, local = name] = part.trim().split(/\s+as\s+/);
            if (name) imported.set(local, `{ ${name} as NAME } from ${from}`);
          }
          const star = /\*\s*as\s+(\S+)/.exec(clause)?.[1];
          if (star) imported.set(star, `* as NAME from ${from}`);
          const fallback = /^([\w$]+)\s*(?:,|$)/.exec(clause.trim())?.[1];
          if (fallback) imported.set(fallback, `{ default as NAME } from ${from}`);
        }
        const reexports = [...text.matchAll(/^export\s*\*\s*from\s*"[^"]+";?$/gm)].map((m) => m[0]);
        const reexported = new Set();
        for (const [, list] of text.matchAll(/^export\s*\{([^}]*)\}\s*;?$/gm)) {
          for (const part of list.split(',')) {
            const [local, name = local] = part.trim().split(/\s+as\s+/);
            if (!local || !imported.has(local)) continue;
            reexported.add(name);
            reexports.push(`export ${imported.get(local).replace('NAME', name)};`);
          }
        }
        const own = Object.values(r.metafile.outputs)[0].exports.filter((n) => !reexported.has(n));
        return { own, reexports };
      }),
    );
  }
  return host.exports.get(file);
}

/** The host values a feature's code looks up: file → names. */
function hostLookups(text) {
  const used = new Map();
  for (const [, file, name] of text.matchAll(new RegExp(`"${HOST_MARK}([^"]+)",\\s*"([^"]+)"`, 'g'))) {
    if (!used.has(file)) used.set(file, new Set());
    used.get(file).add(JSON.parse(`"${name}"`));
  }
  return used;
}

/** The source files and packages whose code is in a build's one output, with their bytes there (tree-shaken files left out). */
function codeInputs(metafile) {
  const [, output] = Object.entries(metafile.outputs).find(([file]) => file.endsWith('.js'));
  return new Map(Object.entries(output.inputs).filter(([, v]) => v.bytesInOutput > 0).map(([f, v]) => [f, v.bytesInOutput]));
}

/** dist/extension.js's entry: extension.ts, plus the values its features take from it (file → names). */
function hostEntry(exported) {
  if (exported.size === 0) return { entryPoints: [HOST_ENTRY] };
  const lines = [`export * from './${HOST_ENTRY}';`];
  const objects = [];
  [...exported].forEach(([file, names], i) => {
    const list = [...names].sort();
    lines.push(`import { ${list.map((n, j) => `${JSON.stringify(n)} as m${i}_${j}`).join(', ')} } from './${file}';`);
    objects.push(`${JSON.stringify(file)}: { ${list.map((n, j) => `${JSON.stringify(n)}: m${i}_${j}`).join(', ')} }`);
  });
  lines.push(`export const __hostModules = { ${objects.join(', ')} };`);
  return { stdin: { contents: lines.join('\n'), resolveDir: root, sourcefile: HOST_ENTRY.replace(/\.ts$/, '.entry.ts'), loader: 'ts' } };
}

/**
 * Builds dist/extension.js and the lazy features (not the standalone bundles: esbuild.mjs builds
 * those as ordinary targets). Which values the host hands out is found by building: the features
 * are built against the host, the host again with what they used, until nothing new is asked.
 * Returns each bundle's name, bytes and code inputs; writes the files unless `write` is false.
 */
export async function buildExtensionBundles(common, { write = true } = {}) {
  const features = LAZY_BUNDLES.filter((b) => !b.standalone);
  const buildHost = (exported) =>
    esbuild.build({ ...common, ...node, ...hostEntry(exported), outfile: 'dist/extension.js', external: ['vscode'], plugins: [...common.plugins, splitPlugin()], metafile: true, write: false });
  const exported = new Map();
  const exportsCache = new Map();
  let host = await buildHost(exported);
  for (let round = 0; ; round++) {
    const state = { files: codeInputs(host.metafile), exports: exportsCache };
    const built = await Promise.all(
      features.map((b) =>
        esbuild.build({ ...common, ...node, entryPoints: [b.entry], outfile: `dist/${b.name}.js`, external: ['vscode'], plugins: [...common.plugins, splitPlugin({ host: state })], metafile: true, write: false }),
      ),
    );
    // Values the features take from the host that it does not hand out yet: another round.
    const missing = [];
    for (const result of built) {
      for (const [file, names] of hostLookups(result.outputFiles.find((f) => f.path.endsWith('.js')).text)) {
        if (!state.files.has(file)) throw new Error(`a lazy bundle looks up ${file}, which dist/extension.js does not hold`);
        for (const name of names) {
          if (exported.get(file)?.has(name)) continue;
          missing.push(`${file} ${name}`);
          if (!exported.has(file)) exported.set(file, new Set());
          exported.get(file).add(name);
        }
      }
    }
    if (missing.length === 0) {
      const all = [{ name: 'extension', result: host }, ...features.map((b, i) => ({ name: b.name, result: built[i] }))];
      if (write) {
        for (const { result } of all) {
          for (const file of result.outputFiles) {
            mkdirSync(dirname(file.path), { recursive: true });
            writeFileSync(file.path, file.contents);
          }
        }
      }
      return all.map(({ name, result }) => ({
        name,
        bytes: result.outputFiles.find((f) => f.path.endsWith('.js')).contents.length,
        inputs: Object.fromEntries([...codeInputs(result.metafile)].sort(([a], [b]) => (a < b ? -1 : 1))),
      }));
    }
    if (round >= 5) throw new Error(`the lazy bundles still ask dist/extension.js for new values after ${round + 1} rounds: ${missing.join(', ')}`);
    host = await buildHost(exported);
  }
}
