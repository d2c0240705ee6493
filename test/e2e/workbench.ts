// A small library for end-to-end tests that drive the real VS Code web workbench: starts
// code-server with its own extensions folder and environment, opens the workbench in Debian's
// Chromium through playwright-core, and offers the few UI moves the tests need (palette
// commands, notifications, the activity bar, screenshots). The process handling lives in
// scripts/code-server.mjs, shared with the integration-test launcher and `npm start`.
//
//   const wb = await Workbench.open({ vsix: 'health-data-explorer.vsix', env: { ... } });
//   try { await wb.runCommand('Health Data: Show Request Log'); await wb.screenshot('log'); }
//   finally { await wb.close(); }
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';

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
  /** Extra environment for code-server and so the extension host (e.g. a sandbox address). */
  env?: Record<string, string>;
  /** Default true; HDE_HEADLESS=0 shows the window (needs a display). */
  headless?: boolean;
  viewport?: { width: number; height: number };
  /** Time to wait for the workbench to come up, default 60 s. */
  startTimeoutMs?: number;
}

export class Workbench {
  private closed = false;

  private constructor(
    readonly page: Page,
    readonly browser: Browser,
    readonly server: CodeServer,
    private readonly scratch: string,
    private readonly cs: CodeServerModule,
  ) {}

  /** Starts code-server and Chromium and waits until the workbench shows its activity bar. */
  static async open(o: WorkbenchOptions = {}): Promise<Workbench> {
    const cs = await codeServerModule();
    cs.ensureCodeServer();
    const scratch = cs.makeOwnedTempDir('hde-e2e-');
    const extensionsDir = o.extensionsDir ?? path.join(scratch, 'extensions');
    const folder = o.folder ?? path.join(scratch, 'workspace');
    fs.mkdirSync(extensionsDir, { recursive: true });
    fs.mkdirSync(folder, { recursive: true });
    if (o.vsix) cs.installExtension(path.resolve(o.vsix), extensionsDir);

    let server: CodeServer | undefined;
    let browser: Browser | undefined;
    try {
      server = await cs.startCodeServer({ folder, extensionsDir, env: o.env });
      browser = await cs.launchChromium({ headless: o.headless });
      const url = cs.workbenchUrl(server, { folder, extensionDevelopmentPath: o.extensionDevelopmentPath });
      const page = await cs.openWorkbenchPage(browser, url, { viewport: o.viewport });
      await cs.waitForWorkbench(page, o.startTimeoutMs ?? 60_000);
      return new Workbench(page, browser, server, scratch, cs);
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

  /** Saves a screenshot to test-results/e2e/<name>.png and returns the path. */
  async screenshot(name: string): Promise<string> {
    return this.cs.screenshot(this.page, `e2e/${name}`);
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
