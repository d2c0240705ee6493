/// <reference lib="dom" />
// End to end, as a user sees it: the packaged .vsix in the real VS Code web workbench in
// Chromium against a sandbox run here. Show Data Coverage from the Records view's resource row:
// the cell of the phone platform's steps says "never"; a count lists its records and one opens
// in the record view. Show Trends: the step counter's human, where the phone's defaulted zeros
// are marked gaps (drawn on the canvas and listed in the chart's table view), and a click on a
// point opens its record; after Developer: Reload Window the trends panel comes back with that
// human, loaded again. Under each webview's CSP nothing is blocked. Once per theme, with
// screenshots in test-results/screenshots/.
//   node esbuild.mjs && npx tsc -p . && node scripts/e2e.mjs
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { buildTrends } from '../../src/core/insights';
import { recordTitle } from '../../src/core/views';
import { Sandbox, startSandbox } from '../../src/sandbox/server';
import { THEMES, Workbench, installedForSuite, openOnSandbox, screenshotOnFailure } from './support/workbench';

const VIEWPORT = { width: 1400, height: 1100 };
const SEED = 'e2e-insights';
const DAYS = 20;

/** The insights webview whose document passes `ready`; fails with what was asked for. */
async function insightsFrame(wb: Workbench, selector: string, what: string): Promise<Frame> {
  const { frame } = await wb.webviewFrame(
    (sel: string) => {
      const app = document.getElementById('app');
      return app !== null && app.getAttribute('aria-busy') === 'false' && document.querySelector(sel) !== null && document.visibilityState === 'visible';
    },
    selector,
    what,
    40_000,
  );
  return frame;
}

/** A record view showing `title`. */
async function recordViewOf(wb: Workbench, title: string): Promise<void> {
  await wb.webviewFrame((t: string) => document.querySelector('.heading .title')?.textContent === t, title, `the record view of ${title}`, 20_000);
}

describe('e2e: data coverage and trends in Chromium, packaged .vsix on code-server', function () {
  this.timeout(300_000);
  const setup = installedForSuite('hde-e2e-insights-');
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({ seed: SEED, days: DAYS });
  });

  after(async () => {
    await sandbox?.close();
  });

  for (const theme of THEMES) {
    describe(`in ${theme.name}`, () => {
      let wb: Workbench | undefined;

      before(async () => {
        wb = await openOnSandbox({
          extensionsDir: setup.extensionsDir,
          sandboxUrl: sandbox.url,
          theme,
          viewport: VIEWPORT,
          // Another environment to switch to (never asked: nothing is set up for it).
          settings: { 'healthData.environments': [{ name: 'Staging', baseUrl: 'https://staging.example.invalid', clientId: 'e2e-client' }] },
        });
        await wb.openHealthData();
        await wb.revealTreeRow([(r) => r.text.startsWith('Activity summaries')], 'Activity summaries', 30_000);
      });

      screenshotOnFailure(`insights-failed-${theme.slug}`, () => wb);

      after(async () => {
        await wb?.close();
      });

      it('Show Data Coverage on the activity row: the phone platform’s steps cell says “never”', async () => {
        // The inline action on the resource row of the Records view.
        // The rows settle first: a row re-rendered under the pointer would hand the command a stale node.
        await wb!.revealTreeRow([(r) => r.text.startsWith('Activity summaries'), (r) => /Load more/.test(`${r.label} ${r.text}`)], 'the first pages loaded', 30_000);
        await wb!.page.waitForTimeout(1500);
        const index = await wb!.revealTreeRow([(r) => r.text.startsWith('Activity summaries')], 'Activity summaries');
        const row = wb!.recordsPane().locator(`.monaco-list-row[data-index="${index}"]`);
        await row.hover();
        await row.locator('.action-label[aria-label="Show Data Coverage"]').click();
        const frame = await insightsFrame(wb!, '.matrix', 'the coverage matrix');
        const cell = await frame.evaluate(() => {
          const td = document.querySelector('td[data-source="googlefit"][data-field="steps"]');
          const fitbit = document.querySelector('td[data-source="fitbit"][data-field="steps"]');
          return {
            word: td?.querySelector('.verdict-word')?.textContent,
            icon: td?.querySelector('.verdict-icon')?.textContent,
            counts: Array.from(td?.querySelectorAll('.count') ?? []).map((b) => b.textContent),
            fitbit: fitbit?.querySelector('.verdict-word')?.textContent,
            fitbitCounts: Array.from(fitbit?.querySelectorAll('.count') ?? []).map((b) => b.textContent),
            // A field that is not a number: its values are "sent", not "non-zero".
            fitbitIds: Array.from(document.querySelectorAll('td[data-source="fitbit"][data-field="id"] .count')).map((b) => b.textContent),
            legend: document.querySelector('.legend')?.textContent,
            bodyClass: document.body.className,
            tabs: Array.from(document.querySelectorAll('.tab[aria-pressed="true"]')).map((b) => b.textContent),
            // The deprecated field is named so in words, and only that one.
            deprecated: Array.from(document.querySelectorAll('th.field')).filter((th) => th.querySelector('.deprecated-tag')).map((th) => th.textContent),
            sources: Array.from(document.querySelectorAll('ul.sources li')).map((li) => li.textContent ?? ''),
          };
        });
        // Each source in words: its records and days counted (one as one), its first and last date.
        const bySource = new Map<string, { records: number; days: Set<string> }>();
        for (const r of sandbox.dataset.activity) {
          const s = bySource.get(r.source) ?? { records: 0, days: new Set<string>() };
          s.records++;
          s.days.add(r.date);
          bySource.set(r.source, s);
        }
        const counted = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);
        assert.deepEqual(
          cell.sources.map((line) => line.replace(/, \d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}$/, '')),
          [...bySource].sort(([a], [b]) => (a < b ? -1 : 1)).map(([source, s]) => `${source} — ${counted(s.records, 'record', 'records')}, ${counted(s.days.size, 'day', 'days')}`),
        );
        assert.deepEqual(cell.deprecated, ['userId ⊘ deprecated']);
        assert.equal(cell.word, 'never');
        assert.equal(cell.icon, '⊘');
        const phoneDays = sandbox.dataset.activity.filter((r) => r.source === 'googlefit').length;
        assert.deepEqual(cell.counts, [`0 ×${phoneDays}`]);
        assert.equal(cell.fitbit, 'provided');
        const fitbitDays = sandbox.dataset.activity.filter((r) => r.source === 'fitbit').length;
        assert.deepEqual(cell.fitbitCounts, [`non-zero ×${fitbitDays}`]);
        assert.deepEqual(cell.fitbitIds, [`sent ×${fitbitDays}`]);
        assert.equal(cell.legend, 'provided: on every record, and not 0 or null · sometimes: in between · never: 0, null or absent on every record');
        assert.deepEqual(cell.tabs, ['Activity summaries']);
        assert.ok(cell.bodyClass.split(/\s+/).includes(theme.bodyClass), cell.bodyClass);
        // The loading notification goes once every page is in.
        await wb!.page.locator('.notifications-toasts .notification-toast', { hasText: 'loading records for insights' }).waitFor({ state: 'hidden', timeout: 10_000 });
        await wb!.screenshotAs(path.join('screenshots', `coverage-${theme.slug}`));

        // A count lists its records; one opens in the record view.
        await frame.locator('td[data-source="googlefit"][data-field="steps"] .count').click();
        const first = frame.locator('.record-list button').first();
        await first.waitFor({ state: 'visible', timeout: 10_000 });
        assert.equal(await frame.locator('.record-list button').count(), phoneDays);
        const label = (await first.textContent()) ?? '';
        assert.match(label, /^Activity \d{4}-\d{2}-\d{2} · googlefit · /);
        await first.click();
        await recordViewOf(wb!, label.split(' · ').slice(0, 2).join(' · '));
      });

      it('Show Trends: the phone’s defaulted zeros are marked gaps, and a click on a point opens its record', async () => {
        await wb!.runCommand('Health Data: Show Trends');
        let frame = await insightsFrame(wb!, 'figure[data-chart="steps"][data-gap-markers]', 'the trends charts');
        const human = sandbox.dataset.humans[2];
        await frame.locator('select#human').selectOption(human);
        frame = await insightsFrame(wb!, `select#human option[value="${human}"]:checked`, 'the step counter’s human');
        await frame.locator('figure[data-chart="steps"][data-gap-markers]').waitFor({ timeout: 10_000 });

        const [steps] = buildTrends('activity', sandbox.dataset.activity, human);
        const phone = steps.series.find((s) => s.source === 'googlefit')!;
        const moves = steps.series.find((s) => s.source === 'moves')!;
        assert.ok(phone.never && phone.gaps.length > 0, 'the sandbox has phone days for this human');
        const allGaps = steps.series.reduce((n, s) => n + s.gaps.length, 0);

        // The markers are drawn on the canvas: around a gap's x, near the axis, pixels of
        // the phone's colour; half a day to the side (no marker, no line there), none.
        const hex = /^#([0-9a-f]{6})/i.exec(await frame.locator('figure[data-chart="steps"] .legend-toggle', { hasText: 'googlefit' }).getAttribute('data-colour') ?? '')?.[1];
        assert.ok(hex, 'the phone series has a theme colour');
        const rgbOf = (six: string) => [0, 2, 4].map((i) => parseInt(six.slice(i, i + 2), 16));
        const rgb = rgbOf(hex);
        // The legend says which line is which: each toggle's swatch is drawn in its series' colour,
        // one colour a source.
        const swatches = await frame.locator('figure[data-chart="steps"] .legend-toggle').evaluateAll((buttons) =>
          buttons.map((b) => ({ label: b.textContent, colour: (b as HTMLElement).dataset.colour ?? '', drawn: getComputedStyle(b.querySelector('.swatch')!).color })),
        );
        assert.equal(swatches.length, steps.series.length);
        for (const w of swatches) {
          assert.equal(w.drawn, `rgb(${rgbOf(/^#([0-9a-f]{6})/i.exec(w.colour)?.[1] ?? '').join(', ')})`, `the swatch of ${w.label}`);
        }
        assert.equal(new Set(swatches.map((w) => w.drawn)).size, swatches.length, swatches.map((w) => `${w.label} ${w.drawn}`).join(', '));
        const at = (x: number) =>
          frame.evaluate(
            ({ x, rgb }) => {
              const fig = document.querySelector('figure[data-chart="steps"]') as HTMLElement;
              const canvas = fig.querySelector('canvas') as HTMLCanvasElement;
              const over = fig.querySelector('.u-over') as HTMLElement;
              const d = fig.dataset;
              const ratio = canvas.width / canvas.getBoundingClientRect().width;
              const overBox = over.getBoundingClientRect();
              const canvasBox = canvas.getBoundingClientRect();
              const px = (overBox.left - canvasBox.left + ((x - Number(d.xMin)) / (Number(d.xMax) - Number(d.xMin))) * overBox.width) * ratio;
              const bottom = (overBox.top - canvasBox.top + overBox.height) * ratio;
              const w = Math.round(10 * ratio);
              const h = Math.round(40 * ratio);
              const data = canvas.getContext('2d')!.getImageData(Math.round(px - w / 2), Math.round(bottom - h), w, h).data;
              let hits = 0;
              for (let i = 0; i < data.length; i += 4) {
                if (data[i + 3] > 100 && Math.abs(data[i] - rgb[0]) < 40 && Math.abs(data[i + 1] - rgb[1]) < 40 && Math.abs(data[i + 2] - rgb[2]) < 40) hits++;
              }
              return { hits, markers: Number(d.gapMarkers), note: Array.from(fig.querySelectorAll('.never-note')).map((n) => n.textContent).join(' | ') };
            },
            { x, rgb },
          );
        // A day only the phone defaulted, where there is one (on about 1 day in 70 of the sandbox's
        // data there is none; another source's ring sits in a row of its own anyway).
        const only = phone.gaps.find((g) => steps.series.every((s) => s === phone || !s.gaps.includes(g))) ?? phone.gaps[0];
        const gapX = steps.xs[only];
        const seen = await at(gapX);
        const beside = await at(gapX + 43_200);
        assert.equal(seen.markers, allGaps, 'every defaulted zero in view is marked');
        assert.match(seen.note, /googlefit: never sends steps/);
        assert.ok(seen.hits > 0, `no pixel of the marker's colour #${hex} at the phone's gap`);
        assert.equal(beside.hits, 0, 'the marker is where the gap is, not everywhere');
        // Half a day of room beside the first and last days: their points (and gap markers) are
        // drawn whole, not cut in half by the plot's edge.
        const [xMin, xMax] = await frame.locator('figure[data-chart="steps"]').evaluate((f) => [Number((f as HTMLElement).dataset.xMin), Number((f as HTMLElement).dataset.xMax)]);
        assert.ok(xMin <= steps.xs[0] - 43_200 && xMax >= steps.xs[steps.xs.length - 1] + 43_200, `x from ${xMin} to ${xMax}, days from ${steps.xs[0]} to ${steps.xs[steps.xs.length - 1]}`);
        // The axis spans the whole range loaded, days without data too, and the charts line up.
        const [from, to] = await Promise.all(['#range-from', '#range-to'].map((s) => frame.locator(s).inputValue()));
        const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;
        assert.ok(xMin <= dayOf(from) - 43_200 && xMax >= dayOf(to) + 43_200, `x from ${xMin} to ${xMax}, the range ${from} to ${to}`);
        const extents = await frame.locator('section[data-kind="activity"] figure.chart').evaluateAll((figures) => figures.map((f) => `${(f as HTMLElement).dataset.xMin} ${(f as HTMLElement).dataset.xMax}`));
        assert.equal(extents.length, 3);
        assert.equal(new Set(extents).size, 1, `the activity charts line up: ${extents.join(', ')}`);

        // The chart's table view, reached from the keyboard, lists the gap as a gap.
        const summary = frame.locator('figure[data-chart="steps"] details.table-view summary');
        await summary.focus();
        await summary.press('Enter');
        const gapCells = frame.locator('figure[data-chart="steps"] details.table-view button.gap');
        await gapCells.first().waitFor({ timeout: 10_000 });
        assert.equal(await gapCells.count(), allGaps);
        assert.equal(await gapCells.first().textContent(), '⊘ 0 sent: not provided');
        // Its values are written as the axis writes them, grouped: the largest of the step counter's.
        const most = Math.max(...moves.values.filter((v): v is number => v !== null));
        assert.ok(most >= 1000, `the step counter's most steps: ${most}`);
        const mostCell = frame.locator('figure[data-chart="steps"] details.table-view td.value button', { hasText: new RegExp(`^${most.toLocaleString('en-US')} steps$`) });
        assert.equal(await mostCell.count(), moves.values.filter((v) => v === most).length);
        await summary.press('Enter');
        await wb!.screenshotAs(path.join('screenshots', `trends-${theme.slug}`));

        // A click on the step counter's point of a day opens that day's record.
        const point = moves.values.findIndex((v, i) => v !== null && i > 2);
        const record = sandbox.dataset.activity[moves.refs[point]];
        const box = await frame.evaluate(
          ({ x, y }) => {
            const fig = document.querySelector('figure[data-chart="steps"]') as HTMLElement;
            const over = fig.querySelector('.u-over') as HTMLElement;
            const d = fig.dataset;
            const rect = over.getBoundingClientRect();
            return {
              x: ((x - Number(d.xMin)) / (Number(d.xMax) - Number(d.xMin))) * rect.width,
              y: (1 - (y - Number(d.yMin)) / (Number(d.yMax) - Number(d.yMin))) * rect.height,
            };
          },
          { x: steps.xs[point], y: moves.values[point]! },
        );
        const over = frame.locator('figure[data-chart="steps"] .u-over');
        await over.hover({ position: box });
        const tooltip = (await frame.locator('figure[data-chart="steps"] .tooltip').textContent()) ?? '';
        assert.match(tooltip, new RegExp(`${record.date} · moves steps: ${(record.steps as number).toLocaleString('en-US')} steps`));
        await over.click({ position: box });
        await recordViewOf(wb!, recordTitle(record, 'activity'));
      });

      if (theme.slug === 'dark-modern') {
        it('after a window reload the trends panel comes back with its human, loaded again', async () => {
          const human = sandbox.dataset.humans[2];
          const before = sandbox.requests.length;
          // A mark on the page that the reload wipes: what is found below is the restored window.
          await wb!.page.evaluate(() => ((window as unknown as { beforeReload?: boolean }).beforeReload = true));
          await wb!.runCommand('Developer: Reload Window');
          await wb!.page.waitForFunction(() => (window as unknown as { beforeReload?: boolean }).beforeReload === undefined, undefined, { timeout: 60_000 });
          // The record view the click opened is in front: bring the restored Trends tab forward.
          const tab = wb!.page.locator('.tabs-container .tab', { hasText: /^Trends/ });
          await tab.waitFor({ timeout: 60_000 });
          await tab.click();
          // Restored by the serializer from what the webview kept (the human, the range and the
          // environment: no record), so charts drawn in it are of records loaded again.
          const frame = await insightsFrame(wb!, `select#human option[value="${human}"]:checked`, 'the restored trends panel');
          await frame.locator('figure[data-chart="steps"][data-gap-markers]').waitFor({ timeout: 20_000 });
          assert.ok(sandbox.requests.slice(before).some((r) => r.path.includes('/activities/')), 'the data was loaded again');
        });

        it('restored while another environment is in use, the panel loads nothing and offers Switch to; the click draws the charts again', async () => {
          // Staging (nothing set up) in use instead of the sandbox the charts came from. The last test
          // ended clicking the Trends tab: VS Code gives its webview the focus a moment later, which
          // would close a pick opened before it.
          await wb!.page.waitForFunction(() => document.activeElement?.tagName === 'IFRAME', undefined, { timeout: 5_000 }).catch(() => undefined);
          // Should the focus still move after the wait (a loaded machine), the pick closes under the
          // click: it is opened again, at most three times.
          const staging = wb!.page.locator('.quick-input-widget .monaco-list-row', { hasText: /^Staging/ }).first();
          for (let attempt = 1; ; attempt++) {
            await wb!.runCommand('Health Data: Switch Environment');
            const clicked = await staging.click({ timeout: 8_000 }).then(
              () => true,
              (err: unknown) => {
                if (attempt >= 3) throw err;
                return false;
              },
            );
            if (clicked) break;
          }
          await wb!.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
          await wb!.page.locator('.statusbar-item', { hasText: 'Staging' }).first().waitFor({ timeout: 20_000 });
          // A mark on the page that the reload wipes: the panel below is the restored one.
          await wb!.page.evaluate(() => ((window as unknown as { beforeReload?: boolean }).beforeReload = true));
          await wb!.runCommand('Developer: Reload Window');
          await wb!.page.waitForFunction(() => (window as unknown as { beforeReload?: boolean }).beforeReload === undefined, undefined, { timeout: 60_000 });
          const tab = wb!.page.locator('.tabs-container .tab', { hasText: /^Trends/ });
          await tab.waitFor({ timeout: 60_000 });
          await tab.click();
          const frame = await insightsFrame(wb!, 'button.status-action', 'the restored trends panel with Switch to');
          const before = sandbox.requests.length;
          const action = frame.locator('button.status-action');
          assert.equal(await action.textContent(), 'Switch to Local sandbox');
          assert.match((await frame.locator('.status-elsewhere').textContent()) ?? '', /^Not loaded: this panel showed data from Local sandbox, but Staging is in use\./);
          assert.equal(await frame.locator('figure[data-chart]').count(), 0, 'no chart from elsewhere');
          await wb!.screenshotAs(path.join('screenshots', `trends-switch-to-${theme.slug}`));
          await action.click();
          await frame.locator('figure[data-chart="steps"][data-gap-markers]').waitFor({ timeout: 30_000 });
          assert.ok(sandbox.requests.slice(before).some((r) => r.path.includes('/activities/')), 'loaded from the sandbox');
        });
      }

      it('under both webviews’ Content Security Policy nothing was blocked', () => {
        const blocked = wb!.console.filter((m) => /Content Security Policy|Refused to/i.test(m.text));
        assert.deepEqual(blocked.map((m) => m.text), []);
      });
    });
  }
});
