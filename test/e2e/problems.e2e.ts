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
import { generateDataset } from '../../src/sandbox/data';
import { Workbench, codeServerModule, packagedVsix, screenshotOnFailure, screenshotsDir } from './support/workbench';

/** Records that each have one schema error: more errors than VS Code passes on. */
const RECORDS = 1_200;
const FILE = 'many-errors.health.json';
/** Three records, the middle one without a comma after its first field: as while typing. */
const TYPING = 'typing.health.json';
/** A month of activity summaries of two people, one of them a day without steps from a tracker that always sends them. */
const MONTH = 'month.health.json';
/** The same month as NDJSON (as Export Records writes it), a line cut short among them. */
const LINES = 'month.ndjson';
/** A few records in a file VS Code's JSON support has no schema for: Health Data's hover documents their fields once validated. */
const PLAIN = 'records.json';

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
    const whole = JSON.stringify(JSON.parse(ACTIVITY), null, 2);
    fs.writeFileSync(path.join(folder, TYPING), `[\n${[whole, whole.replace(/,\n/, '\n'), whole].join(',\n')}\n]\n`);
    const month = generateDataset({ today: '2026-11-20', days: 30, humans: 2, seed: 'e2e-problems' }).activity as Array<Record<string, unknown>>;
    const fitbit = month.find((r) => r.source === 'fitbit')!;
    fs.writeFileSync(path.join(folder, MONTH), JSON.stringify([...month, { ...fitbit, id: 'not-worn', steps: 0 }], null, 2));
    const lines = [...month, { ...fitbit, id: 'not-worn', steps: 0 }].map((r) => JSON.stringify(r));
    lines.splice(3, 0, lines[3].slice(0, 60));
    fs.writeFileSync(path.join(folder, LINES), `${lines.join('\n')}\n`);
    const googlefit = month.find((r) => r.source === 'googlefit')!;
    fs.writeFileSync(path.join(folder, PLAIN), `${JSON.stringify([googlefit, fitbit], null, 2)}\n`);
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

  /** Opens a file of the workspace with Quick Open, as Ctrl+P does. */
  const openFile = async (name: string) => {
    const page = wb!.page;
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 20_000 });
    // The palette's input without its '>' looks for files.
    await input.fill(name);
    // The file chosen (the list's focused row), not a recent file the list showed before it filtered.
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name }).first().waitFor({ timeout: 20_000 });
    await page.keyboard.press('Enter');
    await page.locator(`.tabs-container .tab.active[aria-label^="${name}"]`).waitFor({ timeout: 20_000 });
  };

  it('shows our note on how many findings there are, not VS Code\'s "Not showing N further"', async () => {
    const page = wb!.page;
    await openFile(FILE);
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

  it('a list with a comma missing in one record lists the syntax error (once) and the other records\' findings', async () => {
    const page = wb!.page;
    await openFile(TYPING);
    await wb!.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    const filter = page.locator('.markers-panel-container .viewpane-filter input, .part.panel .viewpane-filter input').first();
    // Only this file's rows (the other file's thousand would push them out of the virtual list).
    await filter.fill(`**/${TYPING}`);
    const rows = async () => (await problemRows()).filter((r) => r.includes('record #') || r.includes('Not valid JSON'));
    await page
      .waitForFunction(() => Array.from(document.querySelectorAll('.markers-panel .monaco-list-row')).some((r) => /Expected comma/.test(r.textContent ?? '')), undefined, { timeout: 60_000 })
      .catch(async (err: Error) => {
        throw new Error(`${err.message}; rows: ${JSON.stringify(await problemRows())}`);
      });
    await filter.fill(`userId, **/${TYPING}`);
    await page.waitForFunction(() => Array.from(document.querySelectorAll('.markers-panel .monaco-list-row')).some((r) => /\(record #2\)/.test(r.textContent ?? '')), undefined, { timeout: 20_000 });
    const deprecated = (await rows()).filter((r) => r.includes(TYPING) || r.includes('userId is deprecated'));
    assert.ok(deprecated.some((r) => r.includes('(record #0)')) && deprecated.some((r) => r.includes('(record #2)')), JSON.stringify(deprecated));
    assert.ok(!deprecated.some((r) => r.includes('(record #1)')), `the broken record is not checked: ${JSON.stringify(deprecated)}`);
    // The syntax error is listed once, by VS Code's JSON support: none of ours beside it.
    await filter.fill(`**/${TYPING}`);
    // The file's row and its two userId rows before; every row of the file once the filter applies.
    await page.waitForFunction(() => document.querySelectorAll('.markers-panel .monaco-list-row').length > 3, undefined, { timeout: 10_000 });
    const listed = await problemRows();
    assert.ok(listed.some((r) => /Expected comma/.test(r)), JSON.stringify(listed));
    assert.deepEqual(listed.filter((r) => /Not valid JSON/.test(r)), []);
    await filter.fill(`**/${TYPING}`);
    await wb!.screenshot('problems-syntax-error');
  });

  it('says each 0 of a list from the file\'s other records of its source; a 0 that stands out is a warning', async () => {
    const page = wb!.page;
    await openFile(MONTH);
    await wb!.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    const filter = page.locator('.markers-panel-container .viewpane-filter input, .part.panel .viewpane-filter input').first();
    await filter.fill(`unusual, **/${MONTH}`);
    const unusualRow = page.locator('.markers-panel .monaco-list-row', { hasText: 'unusual for fitbit: steps' });
    await unusualRow
      .first()
      .waitFor({ timeout: 60_000 })
      .catch(async (err: Error) => {
        throw new Error(`${err.message}; rows: ${JSON.stringify(await problemRows())}`);
      });
    const text = (await unusualRow.first().textContent()) ?? '';
    assert.match(text, /0 — unusual for fitbit: steps is not 0 on all its \d+ other records in this document \(record #\d+\)/);
    // Shown as a warning: the panel's warning icon on its row.
    assert.equal(await unusualRow.first().locator('.codicon-warning').count(), 1, text);
    await filter.fill(`does not provide steps, **/${MONTH}`);
    const noSteps = page.locator('.markers-panel .monaco-list-row', { hasText: 'googlefit does not provide steps: 0 on all its' });
    await noSteps.first().waitFor({ timeout: 20_000 });
    assert.equal(await noSteps.first().locator('.codicon-info').count(), 1, 'a source that never sends the field: information');
    // The file's findings, the warnings first as the panel sorts them (the README shows this one).
    await filter.fill(`**/${MONTH}`);
    await page.waitForFunction(() => document.querySelectorAll('.markers-panel .monaco-list-row').length > 8, undefined, { timeout: 10_000 });
    const rows = await problemRows();
    assert.match(rows[1] ?? '', /unusual for fitbit/, JSON.stringify(rows.slice(0, 4)));
    await page.mouse.move(5, 5);
    await wb!.screenshot('problems-zeros');
    fs.mkdirSync(screenshotsDir(), { recursive: true });
    await page.locator('.part.panel').screenshot({ path: path.join(screenshotsDir(), 'problems-zeros-panel.png') });
  });
  it('validates NDJSON from the palette: a line cut short is a syntax error on its line, the other lines\' records are validated; an untitled text document too', async () => {
    const page = wb!.page;
    await openFile(LINES);
    // The palette offers the command for an NDJSON document (and runCommand fails when it does not).
    await wb!.runCommand('Health Data: Validate JSON Payload');
    await wb!.waitForNotification(/1 line of the document is not valid JSON: the \d+ records of its other lines were validated; fix it to validate its record\./);
    await wb!.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    const filter = page.locator('.markers-panel-container .viewpane-filter input, .part.panel .viewpane-filter input').first();
    await filter.fill(`**/${LINES}`);
    await page
      .waitForFunction(
        (name) => {
          // This file's rows only: the filter of the test before has gone.
          const rows = Array.from(document.querySelectorAll('.markers-panel .monaco-list-row')).map((r) => r.textContent ?? '');
          return rows.some((r) => r.startsWith(name)) && !rows.some((r) => r.startsWith('month.health.json')) && rows.some((r) => /unusual for fitbit: steps/.test(r));
        },
        LINES,
        { timeout: 30_000 },
      )
      .catch(async (err: Error) => {
        throw new Error(`${err.message}; rows: ${JSON.stringify(await problemRows())}`);
      });
    const rows = await problemRows();
    // The cut line (line 4) holds the syntax error; the records after it are numbered as the CLI numbers them.
    assert.ok(rows.some((r) => /Not valid JSON.*\[Ln 4, Col \d+\]/.test(r)), JSON.stringify(rows.slice(0, 6)));
    assert.ok(rows.some((r) => /0 — unusual for fitbit: steps is not 0 on all its \d+ other records in this document \(record #\d+\)/.test(r)), JSON.stringify(rows.slice(0, 6)));
    await page.mouse.move(5, 5);
    await wb!.screenshot('problems-ndjson');

    // Pasted into a new untitled text document (plain text): offered and validated the same way.
    await wb!.runCommand('File: New Untitled Text File');
    await page.locator('.monaco-editor.focused, .editor-instance .monaco-editor').first().waitFor({ timeout: 20_000 });
    const pasted = fs.readFileSync(path.join(scratch, 'workspace', LINES), 'utf8').split('\n').filter((l, i) => l !== '' && i !== 3).slice(0, 5).join('\n');
    await page.keyboard.insertText(pasted);
    await wb!.runCommand('Health Data: Validate JSON Payload');
    await wb!.waitForNotification(/5 records validated\./);
  });

  it('documents a field on hover in a payload VS Code has no schema for, once Health Data has validated it', async () => {
    const page = wb!.page;
    await openFile(PLAIN);
    const steps = page.locator('.editor-instance .view-line span', { hasText: /^"steps"$/ }).first();
    await steps.waitFor({ timeout: 20_000 });
    const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: 'Steps taken during the activity' });
    await wb!.runCommand('Health Data: Validate JSON Payload');
    await wb!.waitForNotification(/2 records validated\./);
    await page.keyboard.press('Escape');
    await steps.hover();
    await hover.waitFor({ state: 'visible', timeout: 20_000 });
    const text = (await hover.innerText()).replace(/\s+/g, ' ');
    // The schema's words as written: no Markdown escape shows, the name is code, the facts below.
    assert.ok(text.includes('Steps · steps · activity summary'), text);
    assert.ok(text.includes('Steps taken during the activity. 0 when the source does not provide them.'), text);
    assert.ok(text.includes('number ≥ 0 · required'), text);
    assert.ok(!text.includes('\\'), text);
    assert.equal(await hover.locator('code', { hasText: /^steps$/ }).count(), 1);
    // The hover fades in: a picture of it once it has (what is checked was checked above).
    await page.waitForTimeout(300);
    await wb!.screenshot('hover-field');
    await page.keyboard.press('Escape');
  });
});
