/// <reference lib="dom" />
// End to end, as a user sees it: the packaged .vsix in the real VS Code web workbench
// (code-server) in Chromium, pointed at a sandbox run here (with a hostile activity summary of
// our own). Opening the Records view fills the History view; a click on a list page there opens
// the exchange view, read from its webview's DOM: method, URL, status, the paging headers, the
// page as its records with their findings, and the hostile strings as text with no script
// running. Then "New Request…" is driven through its quick input: an endpoint picked, a bad
// limit refused with the form's message, a good one sent, its exchange shown. Once per theme,
// with screenshots in test-results/screenshots/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { generateDataset } from '../../src/sandbox/data';
import { Sandbox, startSandbox } from '../../src/sandbox/server';
import { THEMES, Workbench, installedForSuite, openOnSandbox, screenshotIfFailed, screenshotsDir } from './support/workbench';

const VIEWPORT = { width: 1400, height: 1100 };
const SEED = 'e2e-workbench';
const DATE = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const PWN = 'window.__pwned=1';

/** What the exchange view shows, read from its DOM. */
interface ExchangeDom {
  method: string;
  url: string;
  facts: string[];
  keyHeaders: string[];
  records: number;
  recordTitles: string[];
  /** The rows' numbers (`#0`…) and the tooltip of the first. */
  recordIndices: string[];
  firstIndexTitle: string;
  countsShown: boolean;
  /** Finding-count badges in the records' rows, and those of them that count 0. */
  rowBadges: number;
  rowZeroBadges: number;
  foreign: string[];
  pwned: boolean;
  bodyClass: string;
  /** The Timing section: its connection line, each phase's name and ms, each bar's width in px, its total. */
  timingConnection: string;
  timingPhases: string[];
  timingBars: number[];
  timingTotal: string;
  /** The attempts table's first-byte cells. */
  attemptFirstBytes: string[];
}

async function readExchange(frame: Frame): Promise<ExchangeDom> {
  return frame.evaluate(() => ({
    method: document.querySelector('.title .method')?.textContent ?? '',
    url: document.querySelector('.title .url')?.textContent ?? '',
    facts: Array.from(document.querySelectorAll('.subtitle .fact')).map((f) => f.textContent ?? ''),
    keyHeaders: Array.from(document.querySelectorAll('.key-headers th')).map((t) => t.textContent ?? ''),
    records: document.querySelectorAll('.body-records > li').length,
    recordTitles: Array.from(document.querySelectorAll('.body-records .record-title')).map((t) => t.textContent ?? ''),
    recordIndices: Array.from(document.querySelectorAll('.body-records .record-index')).map((t) => t.textContent ?? ''),
    firstIndexTitle: document.querySelector('.body-records .record-index')?.getAttribute('title') ?? '',
    countsShown: document.querySelector('.body .counts') !== null,
    rowBadges: document.querySelectorAll('.body-records .count').length,
    rowZeroBadges: document.querySelectorAll('.body-records .count-none').length,
    // Elements of a tag the exchange view never makes, and event-handler attributes: there only
    // if a payload string had become markup.
    foreign: Array.from(document.body.querySelectorAll('*'))
      .filter((e) => !['MAIN', 'DIV', 'HEADER', 'P', 'SPAN', 'H1', 'H2', 'H3', 'SECTION', 'UL', 'OL', 'LI', 'BUTTON', 'CODE', 'TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TR', 'TH', 'TD', 'DETAILS', 'SUMMARY', 'PRE', 'SCRIPT'].includes(e.tagName))
      .concat(Array.from(document.querySelectorAll('*')).filter((e) => Array.from(e.attributes).some((a) => /^on/i.test(a.name))))
      .map((e) => e.outerHTML.slice(0, 120)),
    pwned: (window as unknown as { __pwned?: unknown }).__pwned !== undefined,
    bodyClass: document.body.className,
    timingConnection: document.querySelector('.timing-connection')?.textContent ?? '',
    timingPhases: Array.from(document.querySelectorAll('.timing-table tbody tr')).map((r) => `${r.querySelector('th')?.textContent ?? ''} ${r.querySelector('td.num')?.textContent ?? ''}`),
    timingBars: Array.from(document.querySelectorAll('.timing-bar')).map((b) => b.getBoundingClientRect().width),
    timingTotal: document.querySelector('.timing-total')?.textContent ?? '',
    attemptFirstBytes: Array.from(document.querySelectorAll('.attempt-first-byte')).map((c) => c.textContent ?? ''),
  }));
}

describe('e2e: the request workbench (History, exchange view, New Request) in Chromium', function () {
  this.timeout(300_000);
  const setup = installedForSuite('hde-e2e-workbench-');
  let sandbox: Sandbox;
  const shotsDir = screenshotsDir;

  before(async () => {
    const human = generateDataset({ seed: SEED, days: 3 }).humans[0];
    const hostile = {
      id: 'hostile-exchange-1',
      humanId: human,
      source: `<img src=x onerror="${PWN}">`,
      date: DATE,
      duration: 60, distance: 10, steps: 12, vigorous: 0, moderate: 0, light: 1, sedentary: 2, calories: 3,
      note: `<script>${PWN}</script>`,
      sourceData: { html: `<iframe srcdoc="<script>parent.${PWN}</script>"></iframe>` },
      createdAt: `${DATE}T08:00:00.000Z`,
      updatedAt: `${DATE}T09:00:00.000Z`,
    };
    sandbox = await startSandbox({ seed: SEED, days: 3, extraRecords: { heartRate: [], activity: [hostile], bodyFat: [] } });
  });

  after(async () => {
    await sandbox?.close();
  });

  for (const theme of THEMES) {
    describe(`in ${theme.name}`, () => {
      let wb: Workbench | undefined;
      const shot = (name: string) => path.join('screenshots', name);

      before(async () => {
        wb = await openOnSandbox({ extensionsDir: setup.extensionsDir, sandboxUrl: sandbox.url, theme, viewport: VIEWPORT });
        const item = await wb.waitForActivityBarItem('Health Data', 60_000);
        await item.click();
      });

      afterEach(async function () {
        await screenshotIfFailed(wb, this.currentTest, `workbench-failed-${theme.slug}`);
      });

      after(async () => {
        await wb?.close();
      });

      it('the History view fills with the tree\'s requests, and a list page opens as its records', async () => {
        const page = wb!.page;
        // The Records view loads its three lists; each is a row of the History view under Today.
        const row = page.locator('.part.sidebar .monaco-list-row', { hasText: 'GET /v1/human/activities/summaries?' }).first();
        await row.waitFor({ state: 'visible', timeout: 60_000 });
        await page.locator('.part.sidebar .monaco-list-row', { hasText: 'POST /v1/admin/token' }).first().waitFor({ state: 'visible', timeout: 20_000 });
        // The rows settle first: a row re-rendered under the pointer (the other two lists arriving)
        // takes the click as a selection only, and nothing opens.
        for (const path of ['/v1/human/heart_rate/', '/v1/human/body_fat/']) {
          await page.locator('.part.sidebar .monaco-list-row', { hasText: `GET ${path}` }).first().waitFor({ state: 'visible', timeout: 20_000 });
        }
        await page.waitForTimeout(1000);
        assert.ok(await page.locator('.part.sidebar .monaco-list-row', { hasText: 'Today' }).count(), 'no Today group');
        await page.locator('.part.sidebar').screenshot({ path: path.join(shotsDir(), `history-${theme.slug}.png`) });
        await row.click();
        const { frame } = await wb!.webviewFrame(
          () => {
            const app = document.getElementById('app');
            return app !== null && !app.hasAttribute('aria-busy') && document.querySelectorAll('.body-records > li').length > 0;
          },
          undefined,
          'the exchange view of the activity list',
          30_000,
        );
        const dom = await readExchange(frame);
        assert.equal(dom.method, 'GET');
        assert.match(dom.url, /^http:\/\/127\.0\.0\.1:\d+\/v1\/human\/activities\/summaries\?/);
        assert.ok(dom.facts.some((f) => /200 OK/.test(f)), dom.facts.join(' | '));
        assert.ok(dom.keyHeaders.includes('x-total-count') && dom.keyHeaders.includes('x-request-id'), dom.keyHeaders.join(', '));
        assert.ok(dom.countsShown, 'the validation summary is shown');
        // A record's row shows the kinds it has (every sandbox record sends the deprecated userId), no zeros.
        assert.ok(dom.rowBadges >= dom.records, `${dom.rowBadges} badges in ${dom.records} rows`);
        assert.equal(dom.rowZeroBadges, 0);
        assert.ok(dom.records > 0 && dom.records <= 50, `${dom.records} records`);
        assert.ok(dom.recordTitles.some((t) => t.includes('onerror')), `the hostile record is listed: ${dom.recordTitles.join(' | ')}`);
        // Numbered from 0, as the Problems panel ("(record #0)") and the CLI number them.
        assert.deepEqual(dom.recordIndices, Array.from({ length: dom.records }, (_, i) => `#${i}`));
        assert.equal(dom.firstIndexTitle, 'Record 0 of the list, numbered from 0 as the Problems panel and the CLI number records');
        assert.ok(dom.bodyClass.split(/\s+/).includes(theme.bodyClass), dom.bodyClass);
        // The hostile record is on the page: its strings are text, nothing ran.
        assert.deepEqual(dom.foreign, [], 'a payload string became markup');
        assert.equal(dom.pwned, false, 'a payload script ran');
        await wb!.screenshotAs(shot(`exchange-view-${theme.slug}`));
        // Where the time went: the phases of a request over a connection to the sandbox, each
        // with its bar and its ms; the first byte's wait in the facts too.
        assert.match(dom.timingConnection, /^(?:New connection|Connection) to 127\.0\.0\.1:\d+/);
        const phases = dom.timingPhases.map((p) => p.replace(/ [\d.]+ ms$/, ''));
        assert.ok(['Queued', 'Request sent', 'Waiting for the first byte', 'Download'].every((p) => phases.includes(p)), dom.timingPhases.join(' | '));
        assert.ok(dom.timingPhases.every((p) => / \d+(?:\.\d)? ms$/.test(p)), dom.timingPhases.join(' | '));
        assert.equal(dom.timingBars.length, dom.timingPhases.length);
        assert.ok(dom.timingBars.every((w) => w >= 1), `bar widths ${dom.timingBars.join(', ')}`);
        assert.match(dom.timingTotal, /^The attempt took \d+ ms$/);
        assert.ok(dom.attemptFirstBytes.length >= 1 && dom.attemptFirstBytes.every((c) => /^\d+(?:\.\d)? ms$/.test(c)), dom.attemptFirstBytes.join(' | '));
        assert.ok(dom.facts.some((f) => /^Time: \d+ ms \(first byte after [\d.]+ ms\)$/.test(f)), dom.facts.join(' | '));
        const timing = frame.locator('section.timing');
        await timing.scrollIntoViewIfNeeded();
        await timing.screenshot({ path: path.join(shotsDir(), `exchange-timing-${theme.slug}.png`) });
      });

      it('New Request…: pick an endpoint, a bad limit is refused with the form\'s message, a good one is sent and shown', async () => {
        const page = wb!.page;
        const input = page.locator('.quick-input-widget .quick-input-box input');
        const rows = page.locator('.quick-input-widget .monaco-list-row');
        // The test before ended in the exchange view: VS Code gives the focus back to its webview
        // after a while, which would close a palette opened before that.
        await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
        await page.waitForFunction(() => document.activeElement?.tagName === 'IFRAME', undefined, { timeout: 5_000 }).catch(() => undefined);
        await wb!.runCommand('Health Data: New Request…');
        // The endpoints' pick, not the palette closing after Enter (its bundle loads on this first call).
        await page.locator('.quick-input-widget .quick-input-box input[placeholder^="Which endpoint of the service?"]').waitFor({ state: 'visible', timeout: 20_000 });
        await input.fill('List activity summaries');
        await rows.first().waitFor({ state: 'visible' });
        await input.press('Enter');
        // The form: Send first, then a row per parameter.
        await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'updated_since' }).waitFor({ state: 'visible', timeout: 20_000 });
        await page.locator('.quick-input-widget').screenshot({ path: path.join(shotsDir(), `new-request-form-${theme.slug}.png`) });
        await input.fill('limit');
        await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Records per page' }).first().waitFor({ state: 'visible' });
        await input.press('Enter');
        // limit's own box (its title names it), not the form still closing.
        await page.locator('.quick-input-widget .quick-input-title', { hasText: 'New Request · limit' }).waitFor({ state: 'visible', timeout: 10_000 });
        await input.fill('5000');
        const message = page.locator('.quick-input-widget .quick-input-message');
        await page.waitForFunction(() => /limit is a whole number from 1 to 500/.test(document.querySelector('.quick-input-widget .quick-input-message')?.textContent ?? ''), undefined, { timeout: 10_000 });
        assert.match((await message.textContent()) ?? '', /limit is a whole number from 1 to 500/);
        await page.locator('.quick-input-widget').screenshot({ path: path.join(shotsDir(), `new-request-check-${theme.slug}.png`) });
        await input.fill('3');
        await input.press('Enter');
        // Back in the form, limit set: Send is the first row.
        await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'limit=3' }).first().waitFor({ state: 'visible', timeout: 10_000 });
        await input.fill('');
        await input.press('Enter');
        const { frame } = await wb!.webviewFrame(
          () => {
            const url = document.querySelector('.title .url')?.textContent ?? '';
            return /limit=3/.test(url) && document.querySelectorAll('.body-records > li').length === 3;
          },
          undefined,
          'the exchange view of the request sent',
          30_000,
        );
        const dom = await readExchange(frame);
        assert.equal(dom.records, 3);
        // The pointer off the History view, so no tooltip of a row covers the view (the README shows this one).
        await page.mouse.move(VIEWPORT.width - 4, VIEWPORT.height / 2);
        await page.locator('.workbench-hover-container').waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
        await wb!.screenshotAs(shot(`new-request-exchange-${theme.slug}`));
        // Copy as Code… from the view's toolbar: the language and the token's way are asked in the workbench.
        await frame.locator('button.action-copyAsCode').click();
        await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'health-data CLI' }).first().click({ timeout: 20_000 });
        await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Token minted by health-data' }).first().click({ timeout: 20_000 });
        await page.locator('.notification-toast', { hasText: 'health-data CLI copied' }).first().waitFor({ state: 'visible', timeout: 20_000 });
      });

      it('New Request…: a cURL command pasted into the box is read (its line breaks gone), the form lists what is not kept, and it is sent', async () => {
        const page = wb!.page;
        const input = page.locator('.quick-input-widget .quick-input-box input');
        const row = (text: string | RegExp) => page.locator('.quick-input-widget .monaco-list-row', { hasText: text }).first();
        const command = [
          "curl 'https://api.example.com/v1/human/activities/summaries?limit=2&offset=1&page_token=zz' \\",
          "  -H 'accept: application/json' \\",
          "  -H 'authorization: Bearer pasted-token' \\",
          "  -H 'x-trace: 1' \\",
          '  --compressed',
        ].join('\n');
        // The last test ended in Copy as Code's picks, opened from the exchange view: once they close,
        // VS Code gives the focus back to that webview, which would close a palette opened before it.
        await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
        await page.waitForFunction(() => document.activeElement?.tagName === 'IFRAME', undefined, { timeout: 5_000 }).catch(() => undefined);
        await wb!.runCommand('Health Data: New Request…');
        // The clipboard is not read (in a browser VS Code would ask for the page's permission, and
        // say so in an error): the endpoints only, and no error.
        await row('List activity summaries').waitFor({ state: 'visible', timeout: 20_000 });
        assert.equal(await row('on the clipboard').count(), 0);
        assert.equal(await page.locator('.notification-toast', { hasText: 'clipboard' }).count(), 0);
        // Typing an endpoint filters the endpoints; it is not read as a request.
        await input.fill('GET /v1/human/heart');
        await row('List heart rate summaries').waitFor({ state: 'visible', timeout: 10_000 });
        assert.equal(await row('Not a request to the service').count(), 0);
        await input.fill('');
        // Put into the box as a paste puts it (the box drops its line breaks): read whole, what is not kept said.
        await input.fill(command);
        assert.equal((await input.inputValue()).includes('\n'), false);
        await row('The pasted cURL command').waitFor({ state: 'visible', timeout: 10_000 });
        const pastedRow = (await row('The pasted cURL command').textContent()) ?? '';
        assert.match(pastedRow, /^\S* ?GET \/v1\/human\/activities\/summaries\?limit=2&offset=1\s*The pasted cURL command\s*4 things not kept: Sent to .+ \(127\.0\.0\.1:\d+\), not to api\.example\.com\./);
        assert.match(pastedRow, /The command's token is left out: the extension adds its own\./);
        assert.doesNotMatch(pastedRow, /pasted-token/);
        await page.locator('.quick-input-widget').screenshot({ path: path.join(shotsDir(), `new-request-pasted-${theme.slug}.png`) });
        await input.press('Enter');
        // The form, filled in: limit and offset set, what was not kept listed under it.
        // (The pick's row says the same words: the form is there once its Send row is.)
        await row(/Send\s*GET \/v1\/human\/activities\/summaries\?limit=2&offset=1/).waitFor({ state: 'visible', timeout: 10_000 });
        assert.match((await page.locator('.quick-input-widget .monaco-list-row').first().textContent()) ?? '', /^\s*Send\s*GET \/v1\/human\/activities\/summaries\?limit=2&offset=1/);
        // What is not kept, one row each, under its own heading.
        await row(/Sent to .+ \(127\.0\.0\.1:\d+\), not to api\.example\.com\.\s*Not kept/).waitFor({ state: 'visible', timeout: 10_000 });
        for (const note of ["The command's token is left out: the extension adds its own.", 'Headers left out (the extension sends its own): x-trace.', 'Parameters the endpoint does not take, left out: page_token.']) {
          await row(note).waitFor({ state: 'visible', timeout: 10_000 });
        }
        await page.locator('.quick-input-widget').screenshot({ path: path.join(shotsDir(), `new-request-pasted-form-${theme.slug}.png`) });
        await input.press('Enter');
        const { frame } = await wb!.webviewFrame(
          () => /limit=2&offset=1$/.test(document.querySelector('.title .url')?.textContent ?? '') && document.querySelectorAll('.body-records > li').length === 2,
          undefined,
          'the exchange view of the pasted request',
          30_000,
        );
        assert.equal((await readExchange(frame)).records, 2);
      });

      it("a record fetched by id: its zeros said from the Records view's records of its source, and what they were compared with", async () => {
        const page = wb!.page;
        const input = page.locator('.quick-input-widget .quick-input-box input');
        const row = (text: string | RegExp) => page.locator('.quick-input-widget .monaco-list-row', { hasText: text }).first();
        const googlefit = (sandbox.dataset.activity as Array<{ id: string; source: string }>).filter((r) => r.source === 'googlefit');
        assert.ok(googlefit.length >= 2, `${googlefit.length} googlefit days`);
        await page.waitForFunction(() => document.activeElement?.tagName === 'IFRAME', undefined, { timeout: 5_000 }).catch(() => undefined);
        await wb!.runCommand('Health Data: New Request…');
        await row('List activity summaries').waitFor({ state: 'visible', timeout: 20_000 });
        await input.fill(`GET ${sandbox.url}/v1/human/activities/summaries/${googlefit[0].id}`);
        await row(`/v1/human/activities/summaries/${googlefit[0].id}`).waitFor({ state: 'visible', timeout: 10_000 });
        await input.press('Enter');
        await row(/^\s*Send/).waitFor({ state: 'visible', timeout: 10_000 });
        await input.press('Enter');
        const { frame } = await wb!.webviewFrame(
          () => document.querySelector('.zero-basis') !== null,
          undefined,
          'the exchange view of the record, its zeros compared',
          30_000,
        );
        const shown = await frame.evaluate(() => ({
          basis: document.querySelector('.zero-basis')?.textContent ?? '',
          steps: Array.from(document.querySelectorAll('.finding-list .finding')).find((f) => f.querySelector('.path')?.textContent === '/steps')?.querySelector('.message')?.textContent ?? '',
        }));
        // The sandbox's days: googlefit sends no steps on any of them (its other days, as many as the range holds).
        const others = googlefit.length - 1;
        const summaries = others === 1 ? 'one other googlefit activity summary' : `${others} other googlefit activity summaries`;
        assert.ok(shown.basis.startsWith(`Zeros compared with the ${summaries} the Records view has loaded (`), shown.basis);
        const onOthers = others === 1 ? 'its other record loaded' : `its ${others} other records loaded`;
        assert.equal(shown.steps, others >= 3 ? `0 — googlefit does not provide steps: 0 on all ${onOthers}` : `0 — googlefit may not provide steps: 0 on ${onOthers}`);
        await page.mouse.move(VIEWPORT.width - 4, VIEWPORT.height / 2);
        await wb!.screenshotAs(shot(`exchange-record-zeros-${theme.slug}`));
      });

      it('Save Request… keeps a request under Saved by the name given; Export Saved Requests… writes it to a file, Run Saved Requests passes it; Remove from Saved puts it back', async () => {
        const page = wb!.page;
        const sidebar = page.locator('.part.sidebar');
        const mint = sidebar.locator('.monaco-list-row', { hasText: 'POST /v1/admin/token' }).first();
        await mint.waitFor({ state: 'visible', timeout: 20_000 });
        await wb!.runContextMenuEntry(mint, 'Save Request…');
        // The name offered says what the request is; the one typed is kept.
        const input = page.locator('.quick-input-widget .quick-input-box input');
        await input.waitFor({ state: 'visible', timeout: 10_000 });
        assert.equal(await input.inputValue(), 'Token mint');
        await input.fill('Mint for the sandbox');
        await input.press('Enter');
        const saved = sidebar.locator('.monaco-list-row', { hasText: 'Mint for the sandbox' }).first();
        await saved.waitFor({ state: 'visible', timeout: 10_000 });
        assert.match((await sidebar.locator('.monaco-list-row', { hasText: /^Saved/ }).first().textContent()) ?? '', /Saved\s*1 request/);
        assert.match((await saved.textContent()) ?? '', /^Mint for the sandbox\s*200 · POST \/v1\/admin\/token$/);
        // Its row's buttons: Send Again and Edit and Resend.
        await saved.hover();
        await saved.locator('.action-label[aria-label="Send Again"]').waitFor({ state: 'visible', timeout: 10_000 });
        assert.equal(await saved.locator('.action-label[aria-label="Edit and Resend…"]').count(), 1);
        await page.mouse.move(VIEWPORT.width - 4, VIEWPORT.height / 2);
        await page.locator('.workbench-hover-container').waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
        await sidebar.screenshot({ path: path.join(shotsDir(), `history-saved-${theme.slug}.png`) });
        if (theme.slug === 'dark-modern') {
          // Export Saved Requests… from the History view's … menu: what goes in the file, then
          // where (the workspace's folder and the name offered), then what was written.
          await wb!.runViewMenuEntry('History', 'Export Saved Requests…', ['Import Saved Requests…']);
          const choices = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
          await choices.first().waitFor({ state: 'visible', timeout: 10_000 });
          assert.match((await choices.first().textContent()) ?? '', /Requests only \(recommended to share\)\s*No reply bodies, so no health records/);
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => /saved-requests\.health-requests\.json$/.test(document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input')?.value ?? ''), undefined, { timeout: 10_000 });
          await page.keyboard.press('Enter');
          await wb!.waitForNotification('Exported 1 saved request to saved-requests.health-requests.json.');
          const written = JSON.parse(fs.readFileSync(path.join(wb!.folder, 'saved-requests.health-requests.json'), 'utf8')) as { requests: Array<{ savedAs: string; responseBody?: string }> };
          assert.deepEqual(written.requests.map((r) => [r.savedAs, r.responseBody]), [['Mint for the sandbox', undefined]]);
          // Run Saved Requests, the Saved group's button: the mint sent again and judged.
          const group = sidebar.locator('.monaco-list-row', { hasText: /^Saved/ }).first();
          await group.hover();
          await group.locator('.action-label[aria-label="Run Saved Requests"]').click();
          await wb!.waitForNotification(/The saved request passed against /);
          // Set Expected Status…, from the row's menu: a typed number that is no status says so and
          // Enter keeps the list open; a typed status is offered on a line of its own and set.
          await wb!.runContextMenuEntry(saved, 'Set Expected Status…');
          const box = page.locator('.quick-input-widget .quick-input-box input');
          await box.waitFor({ state: 'visible', timeout: 10_000 });
          const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
          assert.match((await rows.first().textContent()) ?? '', /Any success \(2xx\)\s*expected now/);
          await box.fill('600');
          await rows.first().filter({ hasText: 'A status is a whole number from 100 to 599.' }).waitFor({ state: 'visible', timeout: 10_000 });
          await page.keyboard.press('Enter');
          assert.ok(await box.isVisible(), 'Enter on the problem keeps the list open');
          await box.fill('418');
          await rows.first().filter({ hasText: /^418 / }).waitFor({ state: 'visible', timeout: 10_000 });
          await page.locator('.quick-input-widget').screenshot({ path: path.join(shotsDir(), `expected-status-typed-${theme.slug}.png`) });
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => Array.from(document.querySelectorAll('.part.sidebar .monaco-list-row')).some((r) => /Mint for the sandbox.*expects 418/.test(r.textContent ?? '')), undefined, { timeout: 10_000 });
          // Run Saved Request, from the row's menu: the mint gets a 200, not the 418 it now expects.
          await wb!.runContextMenuEntry(saved, 'Run Saved Request');
          await wb!.waitForNotification(/The saved request failed against /);
          // The Testing view lists it (the only test controller, so without its root); its Run
          // button runs it, and the failed icon and the run's output show.
          await wb!.runCommand('Testing: Focus on Test Explorer View');
          const test = sidebar.locator('.monaco-list-row', { hasText: 'Mint for the sandbox' }).first();
          await test.waitFor({ state: 'visible', timeout: 10_000 });
          assert.match((await test.textContent()) ?? '', /POST \/v1\/admin\/token · expects 418/);
          await test.hover();
          await test.locator('.action-label[aria-label^="Run Test"]').click();
          await test.locator('.codicon-testing-failed-icon').waitFor({ state: 'visible', timeout: 20_000 });
          await page.locator('.part.panel .xterm-rows', { hasText: 'FAIL  Mint for the sandbox  POST /v1/admin/token' }).first().waitFor({ state: 'visible', timeout: 20_000 });
          // The failure's message in Test Results: its context menu's Show Exchange opens the run's exchange.
          const failure = page.locator('.part.panel .monaco-list-row[role="treeitem"]', { hasText: 'Expected 418' }).first();
          await failure.waitFor({ state: 'visible', timeout: 20_000 });
          const mintTabs = page.locator('.tabs-container .tab', { hasText: 'POST admin/token · 200' });
          const before = await mintTabs.count();
          await wb!.runContextMenuEntry(failure, 'Show Exchange');
          await page.locator('.tabs-container .tab.active', { hasText: 'POST admin/token · 200' }).waitFor({ state: 'visible', timeout: 20_000 });
          assert.equal(await mintTabs.count(), before + 1, 'the run\'s exchange opens in a tab of its own');
          await page.mouse.move(VIEWPORT.width - 4, VIEWPORT.height / 2);
          await sidebar.screenshot({ path: path.join(shotsDir(), `testing-saved-${theme.slug}.png`) });
          // Its context menu there has the History's commands for it: any 2xx expected again.
          await wb!.runContextMenuEntry(test, 'Set Expected Status…');
          await rows.first().filter({ hasText: 'Any success (2xx)' }).waitFor({ state: 'visible', timeout: 10_000 });
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => Array.from(document.querySelectorAll('.part.sidebar .monaco-list-row')).some((r) => /Mint for the sandbox\s*POST \/v1\/admin\/token/.test(r.textContent ?? '') && !/expects/.test(r.textContent ?? '')), undefined, { timeout: 10_000 });
          // Set Time Limit…, from the same menu: the box says how long the last reply's first byte
          // took; a limit that is none says what one is; 60 s (more than any reply here can take, so
          // the pass does not depend on the machine's speed) is set, shown, and the run passes it.
          await wb!.runContextMenuEntry(test, 'Set Time Limit…');
          await box.waitFor({ state: 'visible', timeout: 10_000 });
          const message = page.locator('.quick-input-widget .quick-input-message');
          await message.filter({ hasText: /Its last reply's first byte came after [\d.]+ ms\./ }).waitFor({ state: 'visible', timeout: 10_000 });
          await box.fill('0');
          await message.filter({ hasText: 'A limit is a time from 1 ms to 10 minutes: 500, 500 ms or 2 s.' }).waitFor({ state: 'visible', timeout: 10_000 });
          await box.fill('60 s');
          await message.filter({ hasText: /^How long a run of "Mint for the sandbox" may wait/ }).waitFor({ state: 'visible', timeout: 10_000 });
          await page.locator('.quick-input-widget').screenshot({ path: path.join(shotsDir(), `time-limit-${theme.slug}.png`) });
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => Array.from(document.querySelectorAll('.part.sidebar .monaco-list-row')).some((r) => /Mint for the sandbox\s*POST \/v1\/admin\/token · first byte ≤ 60000 ms/.test(r.textContent ?? '')), undefined, { timeout: 10_000 });
          await test.hover();
          await test.locator('.action-label[aria-label^="Run Test"]').click();
          await test.locator('.codicon-testing-passed-icon').waitFor({ state: 'visible', timeout: 20_000 });
          await page.locator('.part.panel .xterm-rows', { hasText: /first byte after [\d.]+ ms \(limit 60000 ms\)/ }).first().waitFor({ state: 'visible', timeout: 20_000 });
          // Set Findings That Fail…, from the same menu: a pick of several, each kind with what it
          // catches, none checked; two checked and accepted are said on the test's row.
          await wb!.runContextMenuEntry(test, 'Set Findings That Fail…');
          await rows.first().filter({ hasText: /^warning/ }).waitFor({ state: 'visible', timeout: 10_000 });
          const labels = await rows.evaluateAll((els) => els.map((e) => e.querySelector('.label-name')?.textContent ?? ''));
          assert.deepEqual(labels, ['warning', 'zero', 'unusual', 'deprecated', 'unknown']);
          assert.equal(await page.locator('.quick-input-widget .quick-input-list .monaco-checkbox.checked').count(), 0);
          for (const kind of ['unusual', 'deprecated']) await rows.filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${kind}$`) }) }).locator('.monaco-checkbox').click();
          await page.locator('.quick-input-widget .quick-input-list .monaco-checkbox.checked').nth(1).waitFor({ state: 'visible', timeout: 10_000 });
          await page.locator('.quick-input-widget').screenshot({ path: path.join(shotsDir(), `fail-on-${theme.slug}.png`) });
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => Array.from(document.querySelectorAll('.part.sidebar .monaco-list-row')).some((r) => /Mint for the sandbox\s*POST \/v1\/admin\/token · first byte ≤ 60000 ms, fails on unusual, deprecated/.test(r.textContent ?? '')), undefined, { timeout: 10_000 });
          await wb!.activityBarItem('Health Data').click();
          await saved.waitFor({ state: 'visible', timeout: 10_000 });
        }
        await wb!.runContextMenuEntry(saved, 'Remove from Saved', 'Mint for the sandbox');
        await sidebar.locator('.monaco-list-row', { hasText: /^Saved/ }).first().waitFor({ state: 'detached', timeout: 10_000 });
        await sidebar.locator('.monaco-list-row', { hasText: 'POST /v1/admin/token' }).first().waitFor({ state: 'visible', timeout: 10_000 });
      });

      if (theme.slug === 'dark-modern') {
        /**
         * Quick Open of a file of the workspace: the palette's box without its '>' looks for files;
         * the file's own row, then its tab. A file written a moment ago may not be in the search's
         * list yet: the box is closed and opened again (a new search) until it is.
         */
        const quickOpen = async (name: string): Promise<void> => {
          const page = wb!.page;
          const input = page.locator('.quick-input-widget .quick-input-box input');
          for (let attempt = 1; ; attempt++) {
            await page.keyboard.press('F1');
            await input.waitFor({ state: 'visible', timeout: 20_000 });
            await input.fill(name);
            const found = await page
              .locator('.quick-input-list .monaco-list-row.focused', { hasText: name })
              .first()
              .waitFor({ timeout: 3_000 })
              .then(() => true, () => false);
            if (found) break;
            if (attempt === 8) throw new Error(`Quick Open did not find ${name}`);
            await page.keyboard.press('Escape');
            await page.waitForTimeout(1_000);
          }
          await page.keyboard.press('Enter');
          await page.locator(`.tabs-container .tab.active[aria-label^="${name}"]`).waitFor({ timeout: 20_000 });
        };

        it('Import Saved Requests… of an .http file: the file dialog, a pick of the requests the service serves (all checked), each sent once and saved; the one it does not serve named', async () => {
          const page = wb!.page;
          const sidebar = page.locator('.part.sidebar');
          const file = path.join(wb!.folder, 'health.http');
          fs.writeFileSync(
            file,
            ['@base = https://api.example.com', '', '### Heart rate, a page of 2', 'GET {{base}}/v1/human/heart_rate/summaries?limit=2', 'Authorization: Bearer {{token}}', '', '### Upload', 'PUT {{base}}/v2/uploads', ''].join('\n'),
          );
          await wb!.runViewMenuEntry('History', 'Import Saved Requests…', ['Export Saved Requests…']);
          // VS Code's own file dialog in the browser: the path typed, then Enter.
          const input = page.locator('.quick-input-widget .quick-input-box input');
          await input.waitFor({ state: 'visible', timeout: 10_000 });
          await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'health.http' }).first().click({ timeout: 10_000 });
          // The click fills the box with the file's path, or (a click the dialog takes as a second
          // one) opens the file at once: then the import's pick is up already, and Enter would
          // accept it before it is read.
          const chosen = await page.waitForFunction(
            () => {
              const box = document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input')?.value ?? '';
              const title = document.querySelector('.quick-input-widget .quick-input-title')?.textContent ?? '';
              return /^Import from health\.http/.test(title) ? 'import' : /health\.http$/.test(box) ? 'path' : false;
            },
            undefined,
            { timeout: 10_000 },
          );
          if ((await chosen.jsonValue()) === 'path') await page.keyboard.press('Enter');
          await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Import from health.http (1 not requests of the service, left out)' }).waitFor({ state: 'visible', timeout: 20_000 });
          const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Heart rate, a page of 2' }).first();
          await row.waitFor({ state: 'visible', timeout: 10_000 });
          assert.match((await row.textContent()) ?? '', /Heart rate, a page of 2\s*GET \/v1\/human\/heart_rate\/summaries\?limit=2\s*The request's token is left out: the extension adds its own\./);
          // Every request the service serves is picked to begin with.
          await page.locator('.quick-input-widget .quick-input-count', { hasText: '1 Selected' }).waitFor({ state: 'visible', timeout: 10_000 });
          await page.locator('.quick-input-widget').screenshot({ path: path.join(shotsDir(), `import-http-${theme.slug}.png`) });
          // The box takes Enter as OK; after a click in the file dialog the focus may be on its list.
          await input.focus();
          await page.keyboard.press('Enter');
          await wb!.waitForNotification(/Imported 1 request from health\.http under Saved, sent once through .+\. Left out: "Upload": PUT \/v2\/uploads is not one of the service's endpoints\./);
          const imported = sidebar.locator('.monaco-list-row', { hasText: 'Heart rate, a page of 2' }).first();
          await imported.waitFor({ state: 'visible', timeout: 10_000 });
          assert.match((await imported.textContent()) ?? '', /Heart rate, a page of 2\s*200 · GET \/v1\/human\/heart_rate\/summaries\?limit=2/);
          await wb!.runContextMenuEntry(imported, 'Remove from Saved', 'Heart rate, a page of 2');
          await sidebar.locator('.monaco-list-row', { hasText: /^Saved/ }).first().waitFor({ state: 'detached', timeout: 10_000 });
        });

        it('the same .http file in the editor: Send with Health Data above the request of the service (none above the other), a click sends it and shows its exchange', async () => {
          const page = wb!.page;
          await quickOpen('health.http');
          const lenses = page.locator('.monaco-editor .codelens-decoration');
          const send = lenses.locator('a', { hasText: 'Send with Health Data' });
          await send.first().waitFor({ state: 'visible', timeout: 20_000 });
          // One request of the service (its Send and Edit…), the upload to another path none.
          assert.equal(await send.count(), 1);
          // (The import above sent it once already: then its reply is beside them.)
          const before = (await lenses.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
          assert.equal(before.length, 1, before.join(' / '));
          assert.match(before[0], /^Send with Health Data \| Edit…(?: \| 200 OK · \d+ ms)?$/);
          await send.first().click();
          const { frame } = await wb!.webviewFrame(
            () => /\/v1\/human\/heart_rate\/summaries\?limit=2$/.test(document.querySelector('.title .url')?.textContent ?? '') && document.querySelectorAll('.body-records > li').length === 2,
            undefined,
            'the exchange view of the request sent from the .http file',
            30_000,
          );
          const dom = await readExchange(frame);
          assert.equal(dom.records, 2);
          assert.match(dom.url, /^http:\/\/127\.0\.0\.1:\d+\/v1\/human\/heart_rate\/summaries\?limit=2$/, 'sent to the sandbox, not to the file\'s host');
          assert.ok(dom.facts.some((f) => /200 OK/.test(f)), dom.facts.join(' | '));
          // Back in the file: its last reply beside the lenses (the README shows this one).
          await page.locator('.tabs-container .tab[aria-label^="health.http"]').click();
          await lenses.locator('a', { hasText: /^\s*200 OK · \d+ ms$/ }).first().waitFor({ state: 'visible', timeout: 20_000 });
          const line = (await lenses.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
          assert.equal(line.length, 1, line.join(' / '));
          assert.match(line[0], /^Send with Health Data \| Edit… \| 200 OK · \d+ ms$/);
          await page.mouse.move(VIEWPORT.width - 4, VIEWPORT.height / 2);
          await page.locator('.part.editor').screenshot({ path: path.join(shotsDir(), `http-lens-${theme.slug}.png`) });
        });

        it('Send All of an .http file from its first line: each request of the service in turn, the message, each reply beside its request', async () => {
          const page = wb!.page;
          fs.writeFileSync(
            path.join(wb!.folder, 'checks.http'),
            ['### Activity, a page of 3', 'GET https://api.example.com/v1/human/activities/summaries?limit=3', '', '### Latest body fat reading', 'GET https://api.example.com/v1/human/body_fat', '', '### No such summary', 'GET https://api.example.com/v1/human/heart_rate/summaries/no-such-id', ''].join('\n'),
          );
          await quickOpen('checks.http');
          const lenses = page.locator('.monaco-editor .codelens-decoration');
          const all = lenses.locator('a', { hasText: 'Send All 3 with Health Data' });
          await all.first().waitFor({ state: 'visible', timeout: 20_000 });
          await all.first().click();
          await wb!.waitForNotification(/^Sent 3 requests of checks\.http through .+: 1 not a success \(404 Not Found\)\. Each reply is beside its request\./, 30_000);
          const replies = lenses.locator('a', { hasText: /^\s*(?:200 OK|404 Not Found) · \d+ ms$/ });
          await page.waitForFunction(() => Array.from(document.querySelectorAll('.monaco-editor .codelens-decoration a')).filter((a) => / · \d+ ms$/.test(a.textContent ?? '')).length === 3, undefined, { timeout: 20_000 });
          assert.deepEqual((await replies.allTextContents()).map((t) => t.replace(/ · \d+ ms$/, '').trim()), ['200 OK', '200 OK', '404 Not Found']);
          await page.mouse.move(VIEWPORT.width - 4, VIEWPORT.height / 2);
          await page.locator('.part.editor').screenshot({ path: path.join(shotsDir(), `http-send-all-${theme.slug}.png`) });
        });

        it('an .http file in the Testing view: its requests under it, a run from there, each verdict in the list and beside its request, a failure at its line', async () => {
          const page = wb!.page;
          const sidebar = page.locator('.part.sidebar');
          fs.writeFileSync(
            path.join(wb!.folder, 'tests.http'),
            [
              '### Activity, a page of 3',
              'GET https://api.example.com/v1/human/activities/summaries?limit=3',
              '',
              '### No such summary, as expected',
              'GET https://api.example.com/v1/human/heart_rate/summaries/no-such-id',
              '?? status == 404',
              '',
              '### No such summary',
              'GET https://api.example.com/v1/human/heart_rate/summaries/no-such-id',
              '',
            ].join('\n'),
          );
          await quickOpen('tests.http');
          await wb!.runCommand('Testing: Focus on Test Explorer View');
          const file = sidebar.locator('.monaco-list-row', { hasText: 'tests.http' }).first();
          await file.waitFor({ state: 'visible', timeout: 30_000 });
          assert.match((await file.textContent()) ?? '', /tests\.http\s*3 requests/);
          if ((await file.getAttribute('aria-expanded')) === 'false') await file.locator('.monaco-tl-twistie').click();
          const request = (name: string) => sidebar.locator('.monaco-list-row', { hasText: new RegExp(`^${name}\\s*GET `) }).first();
          await request('No such summary, as expected').waitFor({ state: 'visible', timeout: 10_000 });
          assert.match((await request('No such summary, as expected').textContent()) ?? '', /GET \/v1\/human\/heart_rate\/summaries\/no-such-id · expects 404/);
          // The file's Run runs its three requests.
          await file.hover();
          await file.locator('.action-label[aria-label^="Run Test"]').click();
          await request('No such summary').locator('.codicon-testing-failed-icon').waitFor({ state: 'visible', timeout: 30_000 });
          await request('No such summary, as expected').locator('.codicon-testing-passed-icon').waitFor({ state: 'visible', timeout: 10_000 });
          await request('Activity, a page of 3').locator('.codicon-testing-passed-icon').waitFor({ state: 'visible', timeout: 10_000 });
          // In the editor: a verdict beside each request, the failure's message at its line.
          await page.waitForFunction(() => document.querySelectorAll('.part.editor .monaco-editor .margin .codicon-testing-passed-icon').length === 2 && document.querySelectorAll('.part.editor .monaco-editor .margin .codicon-testing-failed-icon').length === 1, undefined, { timeout: 20_000 });
          // The failure's message at the end of its line (the editor's widget for it): the statuses of the diff.
          await page.locator('.part.editor .monaco-editor span.content', { hasText: '404 Not Found != a 2xx' }).first().waitFor({ state: 'visible', timeout: 20_000 });
          await page.locator('.part.panel .xterm-rows', { hasText: 'FAIL  No such summary  GET /v1/human/heart_rate/summaries/no-such-id' }).first().waitFor({ state: 'visible', timeout: 20_000 });
          // The replies' lenses: the one that expects 404 got it.
          await page.locator('.monaco-editor .codelens-decoration a', { hasText: /404 Not Found · \d+ ms · as expected/ }).first().waitFor({ state: 'visible', timeout: 20_000 });
          await wb!.runCommand('Notifications: Clear All Notifications');
          await page.mouse.move(VIEWPORT.width - 4, VIEWPORT.height / 2);
          await page.screenshot({ path: path.join(shotsDir(), `http-tests-${theme.slug}.png`) });
        });
      }
    });
  }
});
