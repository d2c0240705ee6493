/// <reference lib="dom" />
// End to end: a JSON file of 100,000 records (the sandbox's generator, as the benchmarks use)
// opened from the Explorer's context menu with "Open in Record View", in the packaged .vsix on
// code-server in Chromium. The record view is a virtual list: the DOM holds a screen of rows,
// scrolling to the end shows the last record, Previous Finding jumps to the last finding far down
// and shows its row marked, a record opens with a click and its deprecated field is struck
// through. Once per theme, with screenshots in test-results/screenshots/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { records } from '../../bench/datasets';
import { Finding, validatePayload } from '../../src/core/validation';
import { STEADY_SETTINGS, THEMES, Workbench, installedForSuite, screenshotIfFailed } from './support/workbench';

const VIEWPORT = { width: 1400, height: 1000 };
const COUNT = 100_000;
/** A screen of rows and the overscan: far below the 100,000 records. */
const MAX_DOM_ROWS = 200;

interface RowInfo {
  readonly pointer: string;
  readonly text: string;
  readonly className: string;
  readonly visible: boolean;
  readonly keyDecoration?: string;
}

/** The virtual list's rows in the DOM, read in the webview. */
function readRows(): { rows: RowInfo[]; elements: number; position: string } {
  const list = document.querySelector('.vlist');
  const box = list?.getBoundingClientRect();
  const rows = Array.from(document.querySelectorAll<HTMLElement>('.vrow')).map((r) => {
    const rect = r.getBoundingClientRect();
    const key = r.querySelector('.key');
    return {
      pointer: r.dataset.pointer ?? '',
      text: r.textContent ?? '',
      className: r.className,
      visible: !!box && rect.top >= box.top - 1 && rect.bottom <= box.bottom + 1,
      keyDecoration: key ? getComputedStyle(key).textDecorationLine : undefined,
    };
  });
  return { rows, elements: document.querySelectorAll('*').length, position: document.querySelector('.finding-position')?.textContent ?? '' };
}

describe('e2e: a list of 100,000 records in the record view (virtual list)', function () {
  this.timeout(300_000);
  const setup = installedForSuite('hde-e2e-large-');
  let folder: string;
  let findings: Finding[];

  before(async () => {
    folder = path.join(setup.scratch, 'workspace');
    fs.mkdirSync(folder, { recursive: true });
    const corpus = records(COUNT);
    const text = `[${[corpus.texts.heartRate, corpus.texts.activity, corpus.texts.bodyFat].map((t) => t.slice(1, -1)).join(',')}]`;
    fs.writeFileSync(path.join(folder, 'records.json'), text);
    // What the panel should show: every record validated, findings at their pointers in the list,
    // in the order of the document (the validator reports a record's schema errors first).
    const found: Finding[] = [];
    for (const r of validatePayload(JSON.parse(text) as unknown)) for (const f of r.findings) found.push({ ...f, path: r.pointer + f.path });
    findings = inDocumentOrder(JSON.parse(text) as unknown, found);
  });

  /**
   * Findings in the order of the document's values (a depth-first walk), a missing field after
   * the fields of its object, the validator's order kept among the findings of one place.
   */
  function inDocumentOrder(value: unknown, list: Finding[]): Finding[] {
    const order = new Map<string, number>();
    let n = 0;
    const walk = (v: unknown, pointer: string): void => {
      order.set(pointer, n++);
      if (v === null || typeof v !== 'object') return;
      for (const [key, child] of Object.entries(v)) walk(child, `${pointer}/${key}`);
      order.set(`${pointer} end`, n++);
    };
    walk(value, '');
    const at = (p: string): number => order.get(p) ?? order.get(`${p.slice(0, p.lastIndexOf('/'))} end`) ?? -1;
    return list.map((f, i) => ({ f, i, at: at(f.path) })).sort((a, b) => a.at - b.at || a.i - b.i).map((x) => x.f);
  }

  for (const theme of THEMES) {
    describe(`in ${theme.name}`, () => {
      let wb: Workbench | undefined;
      let frame: Frame;

      before(async () => {
        wb = await Workbench.open({
          extensionsDir: setup.extensionsDir,
          folder,
          viewport: VIEWPORT,
          settings: { 'workbench.colorTheme': theme.name, ...STEADY_SETTINGS },
        });
      });

      afterEach(async function () {
        await screenshotIfFailed(wb, this.currentTest, `large-record-view-failed-${theme.slug}`);
      });

      after(async () => {
        await wb?.close();
      });

      it('opens from the Explorer with only a screen of rows in the DOM, and scrolls to the last record', async () => {
        const page = wb!.page;
        await wb!.runCommand('View: Show Explorer');
        const item = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'records.json' }).first();
        await item.waitFor({ state: 'visible', timeout: 30_000 });
        // The Explorer may still be settling when its row first shows (the helper opens the menu again).
        await wb!.runContextMenuEntry(item, 'Open in Record View');
        ({ frame } = await wb!.webviewFrame(() => document.querySelectorAll('.vrow').length > 10, undefined, 'the virtual list', 120_000));
        const bodyClass = await frame.evaluate(() => document.body.className);
        assert.match(bodyClass, new RegExp(theme.bodyClass));
        const first = await frame.evaluate(readRows);
        assert.ok(first.rows.length < MAX_DOM_ROWS, `${first.rows.length} rows in the DOM`);
        // The findings list holds its first 500 entries; 100,000 rows would be far more elements.
        assert.ok(first.elements < 10_000, `${first.elements} elements in the webview`);
        assert.equal(first.rows[0].pointer, '');
        assert.equal(first.rows[1].pointer, '/0');
        assert.match(first.rows[1].text, /\{…\}/, 'a record is one closed line');
        const heading = await frame.evaluate(() => document.querySelector('.json-section h2')?.textContent ?? '');
        assert.match(heading, /100,000 records/);
        await wb!.screenshotAs(path.join('screenshots', `record-view-list-${theme.slug}`));

        await frame.evaluate(() => {
          const list = document.querySelector('.vlist') as HTMLElement;
          list.scrollTop = list.scrollHeight;
        });
        await frame.waitForFunction(() => Array.from(document.querySelectorAll<HTMLElement>('.vrow')).some((r) => r.dataset.pointer === '/99999'), undefined, { timeout: 20_000 });
        const end = await frame.evaluate(readRows);
        assert.ok(end.rows.length < MAX_DOM_ROWS, `${end.rows.length} rows in the DOM at the end`);
        const last = end.rows.find((r) => r.pointer === '/99999');
        assert.ok(last?.visible, 'the last record is on screen');
        assert.match(last.text, /^▸99999: \{…\}Body fat /, 'closed, labelled, no comma after the last record');
        assert.ok(!end.rows.some((r) => r.pointer === '/0'), 'the first rows left the DOM');
      });

      it('jumps to the last finding, far down, and shows its row marked', async () => {
        const target = findings[findings.length - 1];
        await frame.locator('.finding-previous').click();
        await frame.waitForFunction((p) => Array.from(document.querySelectorAll<HTMLElement>('.vrow.active')).some((r) => r.dataset.pointer === p), target.path, { timeout: 20_000 });
        const shown = await frame.evaluate(readRows);
        const row = shown.rows.find((r) => r.pointer === target.path);
        assert.ok(row?.visible, `${target.path} is on screen`);
        assert.match(row.className, new RegExp(`\\bmark-${target.kind}\\b`));
        assert.ok(shown.rows.length < MAX_DOM_ROWS);
        assert.match(shown.position, new RegExp(`^Finding ${findings.length.toLocaleString('en-US')} of ${findings.length.toLocaleString('en-US')}: `));
        // The record holding it opened: its deprecated field is there, struck through.
        const record = target.path.split('/').slice(0, 2).join('/');
        const deprecated = findings.find((f) => f.kind === 'deprecated' && f.path.startsWith(`${record}/`));
        if (deprecated) {
          const dep = shown.rows.find((r) => r.pointer === deprecated.path);
          assert.ok(dep, `${deprecated.path} has a row`);
          assert.match(dep.className, /\bmark-deprecated\b/);
          assert.equal(dep.keyDecoration, 'line-through');
        }
        await wb!.screenshotAs(path.join('screenshots', `record-view-list-finding-${theme.slug}`));
        // The keyboard: F8 in the list goes on to the next finding, wrapping to the first.
        await frame.locator('.vlist').focus();
        await frame.locator('.vlist').press('F8');
        await frame.waitForFunction((p) => Array.from(document.querySelectorAll<HTMLElement>('.vrow.active')).some((r) => r.dataset.pointer === p), findings[0].path, { timeout: 20_000 });
        assert.match((await frame.evaluate(readRows)).position, /^Finding 1 of /);
      });

      it('closes and opens a record with a click on its row, its marks kept', async () => {
        // F8 above opened the first record (its first finding): a click closes it, another opens it.
        await frame.evaluate(() => {
          const list = document.querySelector('.vlist') as HTMLElement;
          list.scrollTop = 0;
        });
        await frame.waitForFunction(() => Array.from(document.querySelectorAll<HTMLElement>('.vrow')).some((r) => r.dataset.pointer === '/0' && r.getAttribute('aria-expanded') === 'true'), undefined, { timeout: 20_000 });
        await frame.locator('.vrow[data-pointer="/0"] .vtoggle').click();
        await frame.waitForFunction((p) => !Array.from(document.querySelectorAll<HTMLElement>('.vrow')).some((r) => (r.dataset.pointer ?? '').startsWith(p)), '/0/', { timeout: 20_000 });
        assert.equal(await frame.evaluate(() => document.querySelector('.vrow[data-pointer="/1"]')?.textContent?.startsWith('▸1: {…}')), true, 'the next record follows at once');
        await frame.locator('.vrow[data-pointer="/0"] .vtoggle').click();
        await frame.waitForFunction((p) => Array.from(document.querySelectorAll<HTMLElement>('.vrow')).filter((r) => (r.dataset.pointer ?? '').startsWith(p)).length > 3, '/0/', { timeout: 20_000 });
        const open = await frame.evaluate(readRows);
        const marked = findings.filter((x) => x.path.startsWith('/0/') && (x.kind === 'zero' || x.kind === 'deprecated'));
        assert.ok(marked.length > 0);
        for (const f of marked) {
          const r = open.rows.find((x) => x.pointer === f.path);
          if (r) assert.match(r.className, new RegExp(`\\bmark-${f.kind}\\b`), `${f.path} stays marked`);
        }
        assert.ok(open.rows.some((x) => marked.some((f) => f.path === x.pointer)), 'a marked field is on screen');
        await wb!.screenshotAs(path.join('screenshots', `record-view-list-open-${theme.slug}`));
      });
    });
  }
});
