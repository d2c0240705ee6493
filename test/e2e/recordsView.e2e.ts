/// <reference lib="dom" />
// End to end, the Records view as a user sees it (issue 12): the packaged .vsix in code-server,
// in Chromium, against a sandbox with its default data (what `npm start` serves). The filters
// are named above the tree, the toolbar's filter icon fills while a source filter is on, an
// empty resource says why and offers actions that work when clicked, records with zeros or a
// deprecated field carry their own icon and words, and, grouped by date, days not fully loaded
// say so. Once per theme, with screenshots in test-results/screenshots/ (the README's tree
// screenshot, docs/images/tree.png, is the Dark Modern one).
//   node esbuild.mjs && npx tsc -p . && node scripts/e2e.mjs
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { addDays } from '../../src/core/dates';
import { RESOURCES, resource } from '../../src/core/resources';
import { Sandbox, startSandbox } from '../../src/sandbox/server';
import { THEMES, TreeRow, Workbench, installedForSuite, openOnSandbox, screenshotOnFailure, screenshotsDir } from './support/workbench';

const VIEWPORT = { width: 1280, height: 900 };

/** Drags the side bar's edge so that it is `width` pixels wide: labels and their notes read whole. */
async function widenSideBar(wb: Workbench, width: number): Promise<void> {
  const box = await wb.page.locator('.part.sidebar').boundingBox();
  assert.ok(box, 'no side bar');
  const edge = box.x + box.width;
  await wb.page.mouse.move(edge - 1, box.y + box.height / 2);
  await wb.page.mouse.down();
  await wb.page.mouse.move(box.x + width, box.y + box.height / 2, { steps: 8 });
  await wb.page.mouse.up();
  const after = await wb.page.locator('.part.sidebar').boundingBox();
  assert.ok(after && after.width > box.width, `the side bar stayed ${box.width} px wide`);
}

describe('e2e: the Records view tells the whole truth (default sandbox data)', function () {
  this.timeout(240_000);
  const setup = installedForSuite('hde-e2e-records-view-');
  let sandbox: Sandbox;

  before(async () => {
    // The sandbox exactly as `npm start` runs it: default seed, days and humans, nothing added.
    sandbox = await startSandbox({ port: 0 });
  });

  after(async () => {
    await sandbox?.close();
  });

  for (const theme of THEMES) {
    describe(`in ${theme.name}`, () => {
      let wb: Workbench | undefined;
      // The Records view's pane: the History view below it has rows with the same indexes.
      const sideBar = () => wb!.recordsPane();
      const shoot = (name: string) => sideBar().screenshot({ path: path.join(screenshotsDir(), `${name}.png`) });

      before(async () => {
        wb = await openOnSandbox({ extensionsDir: setup.extensionsDir, sandboxUrl: sandbox.url, theme, viewport: VIEWPORT });
        await wb.openHealthData();
        await widenSideBar(wb, 460);
        for (const def of RESOURCES) await wb.revealTreeRow([(r) => r.text.startsWith(def.label)], def.label, 30_000);
      });

      screenshotOnFailure(`records-view-failed-${theme.slug}`, () => wb);

      after(async () => {
        await wb?.close();
      });

      it('names the environment, the range and the source above the tree; records with findings are not "clean"', async () => {
        const message = sideBar().getByText(/^Showing Local sandbox · the last 30 days \(\d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}\) · all sources$/);
        await message.waitFor({ state: 'visible', timeout: 20_000 });
        // With the History view beside it, a view's toolbar shows on hover (one view alone shows it in the title).
        await sideBar().locator('.pane-header').hover();
        assert.ok(await sideBar().locator('.codicon-filter').first().isVisible(), 'the plain filter icon while no source filter is on');
        assert.equal(await sideBar().locator('.codicon-filter-filled').count(), 0);
        // An activity day: three sources, each record marked with its findings in words.
        const activity = resource('activity').label;
        const googlefit = await wb!.revealTreeRow(
          [(r) => r.text.startsWith(activity), (r) => /^[A-Z][a-z]+ \d{4}/.test(r.text), (r) => /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) /.test(r.text), (r) => r.text.startsWith('googlefit · ')],
          'a googlefit activity summary',
        );
        const row = sideBar().locator(`.monaco-list-row[data-index="${googlefit}"]`);
        assert.match((await row.textContent()) ?? '', /5 zeros · deprecated/);
        assert.ok(await row.locator('.codicon-info').isVisible(), 'the notes icon, not the green check');
        assert.equal(await row.locator('.codicon-pass').count(), 0);
        assert.match((await row.getAttribute('aria-label')) ?? '', /notes: 5 zero fields, 1 deprecated field/);
        // Heart rate: the label says which number it shows.
        const hr = resource('heartRate').label;
        const hrRow = await wb!.revealTreeRow(
          [(r) => r.text.startsWith(hr), (r) => /^[A-Z][a-z]+ \d{4}/.test(r.text), (r) => /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) /.test(r.text), (r) => r.text.startsWith('fitbit · ')],
          'a fitbit heart rate summary',
        );
        assert.match((await sideBar().locator(`.monaco-list-row[data-index="${hrRow}"]`).textContent()) ?? '', /fitbit · (resting|value|average) \d+ bpm/);
        await wb!.page.mouse.move(0, 0);
        await shoot(`tree-${theme.slug}`);
      });

      it('fills the filter icon while a source filter is on; an empty resource says why and its action clears the filter', async () => {
        await wb!.runCommand('Health Data: Filter by Source');
        const input = wb!.page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible' });
        await input.fill('withings');
        await wb!.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'withings' }).first().waitFor();
        await wb!.page.keyboard.press('Enter');
        await sideBar().getByText(/^Showing Local sandbox · the last 30 days .* · source: withings$/).waitFor({ timeout: 20_000 });
        // With the History view beside it, a view's toolbar shows on hover (one view alone shows it in the title).
        await sideBar().locator('.pane-header').hover();
        await sideBar().locator('.codicon-filter-filled').first().waitFor({ state: 'visible' });
        // Withings weighs; it sends no activity: the source filter is what emptied the list.
        const activity = resource('activity').label;
        const empty = await wb!.revealTreeRow([(r) => r.text.startsWith(activity), (r: TreeRow) => r.text.startsWith('No records from source withings, at any date')], 'the empty activity row');
        const clear = await wb!.revealTreeRow(
          [(r) => r.text.startsWith(activity), (r) => r.text.startsWith('No records from source withings'), (r) => r.text.startsWith('Clear the source filter (withings)')],
          'the clear-filter action',
        );
        assert.ok(clear > empty);
        await wb!.revealTreeRow([(r) => r.text.startsWith(activity), (r) => r.text.startsWith('No records from source withings'), (r) => r.text.startsWith('Set Date Range…')], 'the date range action');
        await wb!.page.mouse.move(0, 0);
        await shoot(`tree-empty-${theme.slug}`);
        await wb!.clickTreeRow(clear);
        await sideBar().getByText(/^Showing Local sandbox · the last 30 days .* · all sources$/).waitFor({ timeout: 20_000 });
        // With the History view beside it, a view's toolbar shows on hover (one view alone shows it in the title).
        await sideBar().locator('.pane-header').hover();
        await sideBar().locator('.codicon-filter').first().waitFor({ state: 'visible' });
        assert.equal(await sideBar().locator('.codicon-filter-filled').count(), 0);
      });

      if (theme.slug !== 'dark-modern') return;

      it('a record\'s menu shows only its human\'s records, named above the tree; Filter by Human… gives every human back', async () => {
        const page = wb!.page;
        const activity = resource('activity').label;
        const index = await wb!.revealTreeRow(
          [(r) => r.text.startsWith(activity), (r) => /^[A-Z][a-z]+ \d{4}/.test(r.text), (r) => /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) /.test(r.text), (r) => r.text.startsWith('fitbit · ')],
          'a fitbit activity summary',
        );
        await wb!.runContextMenuEntry(sideBar().locator(`.monaco-list-row[data-index="${index}"]`), 'Show Only This Human\'s Records');
        const humans = new Set(sandbox.dataset.activity.filter((r) => r.source === 'fitbit').map((r) => r.humanId));
        const message = sideBar().getByText(/^Showing Local sandbox · the last 30 days .* · all sources · human: [0-9a-f]+$/);
        await message.waitFor({ timeout: 20_000 });
        const text = (await message.textContent()) ?? '';
        const human = /human: ([0-9a-f]+)$/.exec(text)![1];
        assert.ok(humans.has(human), `${human} is a human of fitbit's records`);
        // The tree loads again with the filter: its count is that human's records in the range.
        const [, start, end] = /\((\d{4}-\d{2}-\d{2}) – (\d{4}-\d{2}-\d{2})\)/.exec(text)!;
        const own = sandbox.dataset.activity.filter((r) => r.humanId === human && r.date >= start && r.date <= end).length;
        assert.ok(own > 0 && own < sandbox.dataset.activity.filter((r) => r.date >= start && r.date <= end).length);
        await wb!.revealTreeRow([(r) => r.text.startsWith(activity) && r.text.slice(activity.length).trim() === String(own)], `${activity} ${own}`, 20_000);
        // While the filter is on, the toolbar shows it: the filled person, which changes it.
        await sideBar().locator('.pane-header').first().hover();
        const filledPerson = sideBar().locator('.codicon-person-filled');
        await filledPerson.first().waitFor({ state: 'visible' });
        assert.equal(await filledPerson.first().getAttribute('aria-label'), 'Filter by Human… (a human filter is on)');
        await page.mouse.move(0, 0);
        await shoot(`tree-human-${theme.slug}`);
        await wb!.runCommand('Health Data: Filter by Human…');
        const every = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Every human' }).first();
        await every.waitFor({ state: 'visible' });
        assert.ok(await page.locator('.quick-input-widget .monaco-list-row', { hasText: human }).first().isVisible(), 'the human filtered on is in the list');
        // The loaded records are all that human's: the list offers the humans loaded before the filter.
        await page.locator('.quick-input-widget', { hasText: 'Humans in the records loaded before the human filter' }).waitFor({ state: 'visible' });
        let offered = 0;
        for (const other of sandbox.dataset.humans.filter((h) => h !== human)) offered += await page.locator('.quick-input-widget .monaco-list-row', { hasText: other }).count();
        assert.ok(offered > 0, 'another human is offered too');
        await every.click();
        await sideBar().getByText(/^Showing Local sandbox · the last 30 days .* · all sources$/).waitFor({ timeout: 20_000 });
        await sideBar().locator('.pane-header').first().hover();
        await sideBar().locator('.codicon-filter').first().waitFor({ state: 'visible' });
        assert.equal(await sideBar().locator('.codicon-person-filled').count(), 0, 'no human filter: no filled person in the toolbar');
      });

      it('grouped by date, a day whose activities are not all loaded says so', async () => {
        await wb!.runCommand('Health Data: Group by Date First');
        const month = (r: TreeRow) => /^[A-Z][a-z]+ \d{4}/.test(r.text) && r.text.includes('incomplete');
        const index = await wb!.revealTreeRow([month, (r) => /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) /.test(r.text) && r.text.includes('incomplete')], 'an incomplete day', 30_000);
        const text = (await sideBar().locator(`.monaco-list-row[data-index="${index}"]`).textContent()) ?? '';
        assert.match(text, /incomplete: .*\d+ of \d+ activity summaries loaded/);
        assert.ok(index >= 0);
        await wb!.revealTreeRow([month, (r) => r.text.includes('incomplete') && /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) /.test(r.text), (r) => r.text.startsWith('Load more activity summaries')], 'Load more inside the day');
        await wb!.page.mouse.move(0, 0);
        await shoot('tree-by-date-incomplete');
        await wb!.runCommand('Health Data: Group by Resource');
      });

      it('Set Date Range takes a range typed into its list; one it cannot use says why, and Enter leaves the list open', async () => {
        const page = wb!.page;
        const end = sandbox.dataset.activity.map((r) => r.date).sort().at(-1)!;
        const start = addDays(end, -9);
        const input = page.locator('.quick-input-widget input');
        const row = (text: string | RegExp) => page.locator('.quick-input-widget .monaco-list-row', { hasText: text }).first();
        await wb!.runCommand('Health Data: Set Date Range');
        await input.waitFor({ state: 'visible' });
        await input.fill(`${end}..${start}`);
        await row(`The start date ${end} is after the end date ${start}.`).waitFor({ state: 'visible' });
        await page.keyboard.press('Enter');
        await page.waitForTimeout(300);
        assert.ok(await input.isVisible(), 'Enter on a range that cannot be used leaves the list open');
        // Words that name no range and match no item: what can be typed, not an empty list; words of an item just filter.
        await input.fill('yesterday');
        await row('Type a number of days (14), a date (2026-11-03) or two dates (2026-11-01..2026-11-20).').waitFor({ state: 'visible' });
        await page.keyboard.press('Enter');
        await page.waitForTimeout(300);
        assert.ok(await input.isVisible(), 'Enter on the hint leaves the list open');
        await input.fill('last');
        await row(/^Last \d+ days/).waitFor({ state: 'visible' });
        await row('Type a number of days').waitFor({ state: 'detached', timeout: 5_000 });
        await input.fill(`${start}..${end}`);
        await row(`${start} – ${end}`).waitFor({ state: 'visible' });
        await page.screenshot({ path: path.join(screenshotsDir(), 'date-range-typed.png') });
        await page.keyboard.press('Enter');
        await sideBar().getByText(`Showing Local sandbox · ${start} – ${end} · all sources`, { exact: true }).waitFor({ timeout: 20_000 });
        // A number is the last that many days: back to the default range.
        await wb!.runCommand('Health Data: Set Date Range');
        await input.waitFor({ state: 'visible' });
        await input.fill('30');
        await page.locator('.quick-input-widget .monaco-list-row', { hasText: /Last 30 days\s*\d{4}-\d{2}-\d{2} – / }).first().waitFor({ state: 'visible' });
        await page.keyboard.press('Enter');
        await sideBar().getByText(/^Showing Local sandbox · the last 30 days .* · all sources$/).waitFor({ timeout: 20_000 });
        // The palette's list and by-date requests take typed ranges and dates the same way.
        await wb!.runCommand('Health Data: List Activity Summaries');
        await input.waitFor({ state: 'visible' });
        await input.fill(`${start} to ${end}`);
        await row(`${start} – ${end}10 days`).waitFor({ state: 'visible' });
        await page.keyboard.press('Escape');
        await wb!.runCommand('Health Data: Get Activity Summary by Date');
        await input.waitFor({ state: 'visible' });
        // Half a date that an offered day starts with is not wrong yet: the days it matches show, no complaint.
        const dayBefore = addDays(end, -2);
        await input.fill(dayBefore.slice(0, 9));
        await row(dayBefore).waitFor({ state: 'visible' });
        await page.waitForTimeout(300);
        assert.equal(await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'is not a date written' }).count(), 0);
        await input.fill('2026-02-30');
        await row('2026-02-30 is not a real calendar date.').waitFor({ state: 'visible' });
        await input.fill('tomorrow');
        await row('Type a date written YYYY-MM-DD (2026-11-03), or pick a day.').waitFor({ state: 'visible' });
        await input.fill(end);
        await row(`${end}`).waitFor({ state: 'visible' });
        await page.keyboard.press('Escape');
        // Filter by Source takes a source typed in: one it does not offer gets a line of its own,
        // a few letters of one it offers just filter the list.
        await wb!.runCommand('Health Data: Filter by Source');
        await input.waitFor({ state: 'visible' });
        await input.fill('po lar');
        await row('A source id cannot contain spaces or control characters.').waitFor({ state: 'visible' });
        await input.fill('polar');
        await row('polara source not in the loaded records').waitFor({ state: 'visible' });
        await input.fill('withi');
        await row('withings').waitFor({ state: 'visible' });
        await page.waitForTimeout(300);
        assert.equal(await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'not in the loaded records' }).count(), 0);
        await page.keyboard.press('Escape');
      });
    });
  }
});
