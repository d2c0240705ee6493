/// <reference lib="dom" />
// End to end, a payload with more findings than the Problems panel lists: the packaged .vsix in
// code-server, in Chromium. VS Code passes at most 1,000 diagnostics of a file on to the panel and
// drops the rest with its own "Not showing N further errors and warnings"; what the panel shows
// must be our own note that says how many findings there are, and no finding lost silently.
//   node esbuild.mjs && npx tsc -p . && node scripts/e2e.mjs
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ACTIVITY } from '../fixtures/payloads';
import { Workbench, codeServerModule, packagedVsix, screenshotOnFailure } from './support/workbench';

/** Records that each have one schema error: more errors than VS Code passes on. */
const RECORDS = 1_200;
const FILE = 'many-errors.health.json';

describe('e2e: the Problems panel with more findings than it lists', function () {
  this.timeout(240_000);
  let wb: Workbench | undefined;
  let scratch: string;

  before(async () => {
    const cs = await codeServerModule();
    cs.ensureCodeServer();
    scratch = cs.makeOwnedTempDir('hde-e2e-problems-');
    const folder = path.join(scratch, 'workspace');
    fs.mkdirSync(folder, { recursive: true });
    // `steps` as a string: an error in each record, besides the fixture's own findings.
    const record = JSON.stringify({ ...(JSON.parse(ACTIVITY) as object), steps: 'many' });
    fs.writeFileSync(path.join(folder, FILE), `[\n${new Array<string>(RECORDS).fill(record).join(',\n')}\n]\n`);
    wb = await Workbench.open({
      vsix: packagedVsix(),
      folder,
      settings: { 'workbench.startupEditor': 'none', 'workbench.tips.enabled': false, 'security.workspace.trust.enabled': false },
    });
  });

  screenshotOnFailure('problems-failed', () => wb);

  after(async () => {
    await wb?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** The Problems panel's rows (after its filter), as text. */
  const problemRows = () =>
    wb!.page.evaluate(() => Array.from(document.querySelectorAll('.markers-panel .monaco-list-row')).map((r) => r.textContent ?? ''));

  it('shows our note on how many findings there are, not VS Code\'s "Not showing N further"', async () => {
    const page = wb!.page;
    // Quick Open, as Ctrl+P: the palette's input without its '>' looks for files.
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 20_000 });
    await input.fill(FILE);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: FILE }).first().waitFor({ timeout: 20_000 });
    await page.keyboard.press('Enter');
    await page.locator(`.tabs-container .tab[aria-label^="${FILE}"]`).waitFor({ timeout: 20_000 });
    await wb!.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    const filter = page.locator('.markers-panel-container .viewpane-filter input, .part.panel .viewpane-filter input').first();
    await filter.waitFor({ timeout: 20_000 });
    // Live validation has run when the file's findings are listed.
    await page.waitForFunction((name) => Array.from(document.querySelectorAll('.markers-panel .monaco-list-row')).some((r) => r.textContent?.includes(name)), FILE, { timeout: 60_000 });
    await filter.fill('Showing');
    const total = RECORDS * 9;
    await page.waitForFunction(
      () => Array.from(document.querySelectorAll('.markers-panel .monaco-list-row')).some((r) => /Showing 999 of \d+ findings/.test(r.textContent ?? '')),
      undefined,
      { timeout: 20_000 },
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}; rows: ${JSON.stringify(await problemRows())}`);
    });
    const note = (await problemRows()).find((r) => r.includes('Showing 999 of'))!;
    const counted = Number(/Showing 999 of (\d+) findings/.exec(note)?.[1]);
    assert.ok(counted > 999, note);
    assert.ok(counted >= RECORDS && counted <= total, `${counted} findings for ${RECORDS} records`);
    await wb!.screenshot('problems-note');
    // VS Code's own note would mean it dropped some of ours: filtered for it, nothing is left
    // (the filter has applied once our note is gone from the list).
    await filter.fill('further errors');
    await page.waitForFunction(() => !Array.from(document.querySelectorAll('.markers-panel .monaco-list-row')).some((r) => /Showing 999 of/.test(r.textContent ?? '')), undefined, { timeout: 10_000 });
    assert.deepEqual((await problemRows()).filter((r) => /further errors/.test(r)), []);
  });
});
