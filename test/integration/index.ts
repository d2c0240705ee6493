// The extensionTestsPath module: VS Code's extension host loads it and awaits run(). It runs
// mocha 10 (mocha 11+ is ESM-only, which the extension host's loader does not take as-is) on
// every out/test/integration/**/*.test.js with the spec reporter, and writes the run's counts
// to $MOCHA_JSON_REPORT for `npm test` (like scripts/mocha-run.cjs does for the unit tests).
// run() rejects when a test failed, which makes the extension host, and so the launcher
// process, exit with 1.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha = require('mocha');
import { recordActivation } from './support/lazyBundles';

function findTests(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(p));
    else if (entry.name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

export async function run(): Promise<void> {
  // What activation loaded, before any test runs a command (test/integration/lazyFeatures.test.ts).
  await recordActivation();

  // In the web workbench the extension host's console reaches our terminal through
  // codeAutomationLog without printf formatting, so mocha's `%s`-style report lines would
  // arrive unformatted: format them here and hand over finished lines.
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(format(...args));

  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    // The relayed console is not a TTY; colour codes would only clutter logs.
    color: false,
    timeout: Number(process.env.HDE_INTEGRATION_TEST_TIMEOUT_MS || 20_000),
    grep: process.env.HDE_INTEGRATION_GREP || undefined,
  });
  const files = findTests(__dirname);
  if (files.length === 0) throw new Error(`no *.test.js files under ${__dirname}`);
  for (const f of files) mocha.addFile(f);

  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const report = process.env.MOCHA_JSON_REPORT;
        if (report) {
          try {
            fs.mkdirSync(path.dirname(report), { recursive: true });
            fs.writeFileSync(report, JSON.stringify({ stats: runner.stats }));
          } catch (err) {
            console.error(`could not write ${report}: ${String(err)}`);
          }
        }
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else resolve();
      });
    } catch (err) {
      // A test file that does not load (syntax error, missing module) ends up here.
      console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
      reject(err);
    }
  });
}
