// A small library for end-to-end tests that drive the real VS Code web workbench: starts
// code-server with its own extensions folder and environment, opens the workbench in Debian's
// Chromium through playwright-core, and offers the few UI moves the tests need (palette
// commands, notifications, the activity bar, screenshots). The process handling lives in
// scripts/code-server.mjs, shared with the integration-test launcher and `npm start`.
//
//   const wb = await Workbench.open({ vsix: 'health-data-explorer.vsix', env: { ... } });
//   try { await wb.runCommand('Health Data: Show Request Log'); await wb.screenshot('log'); }
//   finally { await wb.close(); }
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Frame, Locator, Page } from 'playwright-core';

/** What scripts/code-server.mjs exports (it is plain JavaScript, so typed here). */
interface CodeServer {
  url: string;
  port: number;
  pid: number;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
  outputTail(): string;
  stop(): Promise<void>;
}
interface CodeServerModule {
  repoRoot: string;
  resultsDir: string;
  ensureCodeServer(): void;
  startCodeServer(o: {
    folder?: string;
    userDataDir?: string;
    extensionsDir?: string;
    env?: Record<string, string>;
    args?: string[];
  }): Promise<CodeServer>;
  installExtension(vsixOrId: string, extensionsDir: string): string;
  launchChromium(o?: { headless?: boolean }): Promise<Browser>;
  workbenchUrl(server: CodeServer, o: { folder?: string; extensionDevelopmentPath?: string }): string;
  openWorkbenchPage(browser: Browser, url: string, o?: { viewport?: { width: number; height: number } }): Promise<Page>;
  waitForWorkbench(page: Page, timeoutMs?: number): Promise<void>;
  runPaletteCommand(page: Page, title: string, timeoutMs?: number): Promise<void>;
  screenshot(page: Page, name: string): Promise<string>;
  makeOwnedTempDir(prefix: string): string;
}

// tsc compiles this file to CommonJS and would turn `import()` into `require()`, which cannot
// load an ES module on every Node 20 release; this keeps a real dynamic import.
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

/** How long a click on a closed tree row is given to open it before the rows are read again. */
const EXPAND_WAIT_MS = 4_000;

/**
 * The packaged production extension the end-to-end tests install: $HDE_E2E_VSIX when set (the
 * e2e runner packages it once for every test file), else packaged now by scripts/e2e.mjs.
 */
export function packagedVsix(): string {
  const given = process.env.HDE_E2E_VSIX;
  if (given) {
    if (!fs.existsSync(given)) throw new Error(`HDE_E2E_VSIX=${given} does not exist`);
    return path.resolve(given);
  }
  const root = findRepoRoot();
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'e2e.mjs'), '--package-only'], { cwd: root, encoding: 'utf8' });
  const file = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !fs.existsSync(file)) throw new Error(`packaging the extension failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
  return file;
}

/** The repository root: the nearest folder upwards with our package.json (works from out/). */
export function findRepoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'health-data-explorer') return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no health-data-explorer package.json above ${__dirname}`);
    dir = up;
  }
}

let cs: Promise<CodeServerModule> | undefined;
/** scripts/code-server.mjs, loaded once. */
export function codeServerModule(): Promise<CodeServerModule> {
  cs ??= importEsm(pathToFileURL(path.join(findRepoRoot(), 'scripts', 'code-server.mjs')).href) as Promise<CodeServerModule>;
  return cs;
}

export interface WorkbenchOptions {
  /** Install this packaged extension (what users get; catches .vscodeignore mistakes). */
  vsix?: string;
  /** Or load the extension from a source folder, e.g. the repository root (needs dist/ built). */
  extensionDevelopmentPath?: string;
  /** Extensions folder to use; default: a fresh one per workbench. */
  extensionsDir?: string;
  /** Folder the workbench opens; default: a fresh empty one. */
  folder?: string;
  /** User settings (User/settings.json of a fresh profile), e.g. the colour theme. */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server and so the extension host (e.g. a sandbox address). */
  env?: Record<string, string>;
  /** Default true; HDE_HEADLESS=0 shows the window (needs a display). */
  headless?: boolean;
  viewport?: { width: number; height: number };
  /** Time to wait for the workbench to come up, default 60 s. */
  startTimeoutMs?: number;
}

/** A console message of the page or any of its frames (webviews included). */
export interface ConsoleEntry {
  readonly type: string;
  readonly text: string;
  readonly url: string;
}

/** A row of a tree or list view as the workbench renders it. */
export interface TreeRow {
  readonly index: number;
  readonly level: number;
  readonly expanded: boolean | undefined;
  readonly text: string;
  readonly label: string;
}

export class Workbench {
  private closed = false;
  /** Messages of JavaScript dialogs (alert, confirm, prompt) any frame opened; each is dismissed. */
  readonly dialogs: string[] = [];
  /** Console messages since the workbench was up. */
  readonly console: ConsoleEntry[] = [];

  private constructor(
    readonly page: Page,
    readonly browser: Browser,
    readonly server: CodeServer,
    private readonly scratch: string,
    private readonly cs: CodeServerModule,
    /** The workspace folder the workbench has open. */
    readonly folder: string,
  ) {
    page.on('dialog', (dialog) => {
      this.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      dialog.dismiss().catch(() => undefined);
    });
    page.on('console', (m) => this.console.push({ type: m.type(), text: m.text(), url: m.location().url ?? '' }));
  }

  /** Starts code-server and Chromium and waits until the workbench shows its activity bar. */
  static async open(o: WorkbenchOptions = {}): Promise<Workbench> {
    const cs = await codeServerModule();
    cs.ensureCodeServer();
    const scratch = cs.makeOwnedTempDir('hde-e2e-');
    const extensionsDir = o.extensionsDir ?? path.join(scratch, 'extensions');
    const folder = o.folder ?? path.join(scratch, 'workspace');
    const userDataDir = path.join(scratch, 'user-data');
    fs.mkdirSync(extensionsDir, { recursive: true });
    fs.mkdirSync(folder, { recursive: true });
    fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
    if (o.settings) fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), `${JSON.stringify(o.settings, null, 2)}\n`);
    if (o.vsix) cs.installExtension(path.resolve(o.vsix), extensionsDir);

    let server: CodeServer | undefined;
    let browser: Browser | undefined;
    try {
      server = await cs.startCodeServer({ folder, userDataDir, extensionsDir, env: o.env });
      browser = await cs.launchChromium({ headless: o.headless });
      const url = cs.workbenchUrl(server, { folder, extensionDevelopmentPath: o.extensionDevelopmentPath });
      const page = await cs.openWorkbenchPage(browser, url, { viewport: o.viewport });
      await cs.waitForWorkbench(page, o.startTimeoutMs ?? 60_000);
      return new Workbench(page, browser, server, scratch, cs, folder);
    } catch (err) {
      await browser?.close().catch(() => undefined);
      await server?.stop().catch(() => undefined);
      fs.rmSync(scratch, { recursive: true, force: true });
      throw err;
    }
  }

  /** Runs a command from the palette by its full title, e.g. "Health Data: Show Request Log". */
  async runCommand(title: string, timeoutMs = 20_000): Promise<void> {
    await this.cs.runPaletteCommand(this.page, title, timeoutMs);
  }

  /** The activity-bar entry whose title starts with `title` (our view container). */
  activityBarItem(title: string): Locator {
    return this.page.locator(`.part.activitybar .action-item a[aria-label^="${title.replace(/"/g, '\\"')}"]`).first();
  }

  /** Waits for an extension's activity-bar entry to appear (extensions load after the UI). */
  async waitForActivityBarItem(title: string, timeoutMs = 30_000): Promise<Locator> {
    const item = this.activityBarItem(title);
    await item.waitFor({ state: 'visible', timeout: timeoutMs });
    return item;
  }

  /**
   * Opens the Health Data side bar with the History view collapsed: the Records view then has the
   * whole height, so the rows a test clicks are rendered (a tree renders only the rows in sight).
   */
  async openHealthData(timeoutMs = 60_000): Promise<void> {
    const item = await this.waitForActivityBarItem('Health Data', timeoutMs);
    await item.click();
    const history = this.page.locator('.part.sidebar .pane-header[aria-label^="History"][aria-expanded="true"]');
    await history.waitFor({ state: 'visible', timeout: 30_000 }).then(() => history.click(), () => undefined);
  }

  /** The Records view's pane: its header, message and tree (the History view has rows too). */
  recordsPane(): Locator {
    return this.page.locator('.part.sidebar .pane:has(> .pane-header[aria-label^="Records"])');
  }

  /** Waits for a notification toast containing `text` and returns it. */
  async waitForNotification(text: string | RegExp, timeoutMs = 20_000): Promise<Locator> {
    const toast = this.page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
    await toast.waitFor({ state: 'visible', timeout: timeoutMs });
    return toast;
  }

  /** Rows of the tree or list views currently shown. */
  rows(text?: string | RegExp): Locator {
    return this.page.locator('.monaco-list-row', text === undefined ? undefined : { hasText: text });
  }

  /** The content frame of the (first) visible webview. */
  webview() {
    return this.page.frameLocator('iframe.webview').first().frameLocator('iframe#active-frame');
  }

  /**
   * The side bar's view whose tree sideBarRows, revealTreeRow and clickTreeRow read: the Records
   * view (the History view below it is a tree of its own, with its own row indexes).
   */
  treeView = 'Records';

  private get treePane(): string {
    return `.part.sidebar .pane:has(> .pane-header[aria-label^="${this.treeView.replace(/"/g, '\\"')}"])`;
  }

  /** The rows of the side bar's tree as rendered now, in display order. */
  async sideBarRows(): Promise<TreeRow[]> {
    const rows = await this.page.$$eval(`${this.treePane} .monaco-list-row`, (els) =>
      els.map((e) => ({
        index: Number(e.getAttribute('data-index')),
        level: Number(e.getAttribute('aria-level') ?? 1),
        expanded: e.hasAttribute('aria-expanded') ? e.getAttribute('aria-expanded') === 'true' : undefined,
        text: e.textContent ?? '',
        label: e.getAttribute('aria-label') ?? '',
      })),
    );
    return rows.sort((a, b) => a.index - b.index);
  }

  /**
   * Finds a row of the side bar's tree by the path of row tests from a root down (each test
   * sees the row), expanding every row on the way, and returns its index. Waits for rows to
   * appear (children load asynchronously).
   */
  async revealTreeRow(pathTests: ReadonlyArray<(row: TreeRow) => boolean>, what: string, timeoutMs = 20_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = await this.sideBarRows();
      let from = 0;
      let to = rows.length;
      let found: TreeRow | undefined;
      for (let depth = 0; depth < pathTests.length; depth++) {
        // Only the rows under the previous match: up to the next row at its level or above.
        found = rows.slice(from, to).find((r) => r.level === depth + 1 && pathTests[depth](r));
        if (!found) break;
        const at = rows.indexOf(found);
        if (depth < pathTests.length - 1) {
          if (found.expanded === false) {
            const row = `${this.treePane} .monaco-list-row[data-index="${found.index}"]`;
            await this.page.locator(row).click();
            // Before looking again: a second click on a row still shown closed would close it. A
            // click that lands while the tree re-renders (a load ending on a loaded machine) is
            // lost, though: after a few seconds the rows are read again and a row still closed is
            // clicked again.
            const wait = Math.min(EXPAND_WAIT_MS, deadline - Date.now());
            try {
              await this.page.locator(`${row}[aria-expanded="true"]`).waitFor({ timeout: Math.max(1000, wait) });
            } catch (err) {
              if (Date.now() > deadline) throw err;
            }
            found = undefined;
            break; // rows changed: look again
          }
          const end = rows.findIndex((r, i) => i > at && r.level <= found!.level);
          from = at + 1;
          to = end < 0 ? rows.length : end;
        }
      }
      if (found) return found.index;
      if (Date.now() > deadline) {
        throw new Error(`no tree row for ${what}; rows:\n${rows.map((r) => `${'  '.repeat(r.level - 1)}${r.label || r.text}`).join('\n')}`);
      }
      await this.page.waitForTimeout(150);
    }
  }

  /** Clicks the side bar's tree row at a data-index. */
  /**
   * Runs `label` from the context menu of `target`. A row that is still settling may close its
   * menu again, so the menu is opened until the entry shows (4 tries); a click that lands while
   * the menu re-renders is lost (the entry stays highlighted and the menu open), and Enter on the
   * highlighted entry runs it then. Now and then VS Code runs the entry without its row (seen in
   * CI: the command's own pick opened); with `orPick`, the row of that pick holding `orPick` is
   * chosen then, so the test goes on to check what the command did.
   */
  async runContextMenuEntry(target: Locator, label: string, orPick?: string): Promise<void> {
    const entry = this.page.locator('.monaco-menu .action-item', { hasText: label }).first();
    for (let attempt = 0; ; attempt++) {
      await target.click({ button: 'right' });
      if (await entry.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false)) break;
      if (attempt === 3) throw new Error(`the context menu shows no "${label}"`);
      await this.page.keyboard.press('Escape');
    }
    await entry.click();
    if (!(await entry.waitFor({ state: 'hidden', timeout: 5_000 }).then(() => true, () => false))) {
      await entry.hover();
      await this.page.keyboard.press('Enter');
    }
    if (orPick === undefined) return;
    const asked = this.page.locator('.quick-input-widget .quick-input-title', { hasText: label });
    if (await asked.waitFor({ state: 'visible', timeout: 2_000 }).then(() => true, () => false)) {
      await this.page.locator('.quick-input-widget .monaco-list-row', { hasText: orPick }).first().click();
    }
  }

  /**
   * Runs `label` from the `…` menu of the side bar view titled `view`, with the same care as
   * runContextMenuEntry for a click lost while the menu renders.
   */
  async runViewMenuEntry(view: string, label: string, alsoOffered: readonly string[] = []): Promise<void> {
    const header = this.page.locator(`.part.sidebar .pane-header[aria-label^="${view.replace(/"/g, '\\"')}"]`);
    await header.hover();
    await header.locator('.action-label.codicon-toolbar-more').click();
    const entry = this.page.locator('.monaco-menu .action-item', { hasText: label }).first();
    await entry.waitFor({ state: 'visible', timeout: 10_000 });
    for (const other of alsoOffered) {
      if ((await this.page.locator('.monaco-menu .action-item', { hasText: other }).count()) !== 1) throw new Error(`the ${view} view's menu offers no "${other}"`);
    }
    await entry.click();
    if (!(await entry.waitFor({ state: 'hidden', timeout: 5_000 }).then(() => true, () => false))) {
      await entry.hover();
      await this.page.keyboard.press('Enter');
    }
  }

  async clickTreeRow(index: number): Promise<void> {
    await this.page.locator(`${this.treePane} .monaco-list-row[data-index="${index}"]`).click();
  }

  /**
   * The content frame of a webview (the document the extension's HTML is loaded into) whose
   * document passes `test(arg)`, evaluated in the frame; waits for one. `test` runs in the
   * frame, so it must not use anything from outside its own body.
   */
  async webviewFrame<T, A>(test: (arg: A) => T | undefined | false | null, arg: A, what: string, timeoutMs = 20_000): Promise<{ frame: Frame; value: T }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const frame of this.page.frames()) {
        const parent = frame.parentFrame();
        // code-server: iframe.webview loads pre/index.html, which holds the content frame.
        if (!parent || !/\/webview\/browser\/pre\/index\.html/.test(parent.url())) continue;
        const value = await frame.evaluate(test as (arg: unknown) => unknown, arg as unknown).catch(() => undefined);
        if (value) return { frame, value: value as T };
      }
      if (Date.now() > deadline) throw new Error(`no webview showing ${what} within ${timeoutMs} ms`);
      await this.page.waitForTimeout(150);
    }
  }

  /** Saves a screenshot to test-results/e2e/<name>.png and returns the path. */
  async screenshot(name: string): Promise<string> {
    return this.cs.screenshot(this.page, `e2e/${name}`);
  }

  /** Saves a screenshot to test-results/<relative>.png (e.g. `screenshots/tree`) and returns the path. */
  async screenshotAs(relative: string): Promise<string> {
    return this.cs.screenshot(this.page, relative);
  }

  /** The last lines code-server printed, for failure messages. */
  serverOutput(): string {
    return this.server.outputTail();
  }

  /** Closes the browser, stops code-server and removes the scratch folders. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.browser.close().catch(() => undefined);
    await this.server.stop();
    fs.rmSync(this.scratch, { recursive: true, force: true });
  }
}

/** The three themes every webview is checked and photographed in, with the class VS Code gives the webview's body. */
export const THEMES = [
  { slug: 'dark-modern', name: 'Default Dark Modern', bodyClass: 'vscode-dark' },
  { slug: 'light-modern', name: 'Default Light Modern', bodyClass: 'vscode-light' },
  { slug: 'high-contrast', name: 'Default High Contrast', bodyClass: 'vscode-high-contrast' },
] as const;
export type Theme = (typeof THEMES)[number];

/** Where the e2e tests put the screenshots a person looks at (the README's come from there). */
export const screenshotsDir = (): string => path.join(findRepoRoot(), 'test-results', 'screenshots');

/** What a suite's set-up made (see installedForSuite); filled in once the suite's hooks have run. */
export interface SuiteSetup {
  /** The extensions folder with the packaged .vsix installed, the suite's own. */
  extensionsDir: string;
  /** A folder of the suite's own for anything else (a workspace), removed after the suite. */
  scratch: string;
}

/**
 * The set-up every suite that opens workbenches shares, as before/after hooks of the suite it is
 * called in (so before the suite's own hooks): code-server there (installed when missing), the
 * packaged .vsix installed into an extensions folder under a scratch folder named `prefix…`, the
 * screenshots folder made; the scratch folder removed after the suite.
 */
export function installedForSuite(prefix: string): SuiteSetup {
  const setup: SuiteSetup = { extensionsDir: '', scratch: '' };
  before(async () => {
    const cs = await codeServerModule();
    cs.ensureCodeServer();
    setup.scratch = cs.makeOwnedTempDir(prefix);
    setup.extensionsDir = path.join(setup.scratch, 'extensions');
    cs.installExtension(packagedVsix(), setup.extensionsDir);
    fs.mkdirSync(screenshotsDir(), { recursive: true });
  });
  after(() => {
    if (setup.scratch) fs.rmSync(setup.scratch, { recursive: true, force: true });
  });
  return setup;
}

/** Settings for steady screenshots: no welcome page, no tips, no animation caught half way. */
export const STEADY_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
  'workbench.reduceMotion': 'on',
};

/**
 * A workbench with the extension of `extensionsDir`, its local-sandbox environment pointed at
 * `sandboxUrl`, in `theme`, with STEADY_SETTINGS and any `settings` more.
 */
export function openOnSandbox(o: { extensionsDir: string; sandboxUrl: string; theme: Theme; viewport: { width: number; height: number }; settings?: Record<string, unknown> }): Promise<Workbench> {
  return Workbench.open({
    extensionsDir: o.extensionsDir,
    viewport: o.viewport,
    settings: {
      'healthData.sandbox.url': o.sandboxUrl,
      'healthData.activeEnvironment': 'Local sandbox',
      'workbench.colorTheme': o.theme.name,
      ...STEADY_SETTINGS,
      ...o.settings,
    },
  });
}

/** For an afterEach hook: a screenshot of the workbench when the test failed, its path logged. */
export async function screenshotIfFailed(wb: Workbench | undefined, test: Mocha.Test | undefined, prefix: string): Promise<void> {
  if (test?.state !== 'failed' || !wb) return;
  const file = await wb.screenshot(`${prefix}-${test.title.slice(0, 40)}`).catch(() => undefined);
  if (file) console.log(`    screenshot: ${file}`);
}

/**
 * Saves a screenshot of the workbench after each failed test of the suite it is called in,
 * named `<prefix>-<the test's title>`, and says where.
 */
export function screenshotOnFailure(prefix: string, workbench: () => Workbench | undefined): void {
  afterEach(async function () {
    const wb = workbench();
    if (this.currentTest?.state !== 'failed' || !wb) return;
    const file = await wb.screenshot(`${prefix}-${this.currentTest.title.slice(0, 40)}`).catch(() => undefined);
    if (file) console.log(`    screenshot: ${file}`);
  });
}
