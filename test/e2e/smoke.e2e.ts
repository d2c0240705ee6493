/// <reference lib="dom" />
// End-to-end smoke test: the real workbench in Chromium with our extension loaded, driven
// like a user would. Run by scripts/e2e.mjs (the last phase of `npm test`), which sets
// HDE_E2E_VSIX to the packaged extension; without it the source folder is loaded:
//   npx mocha out/test/e2e/smoke.e2e.js
// Screenshots go to test-results/e2e/.
import * as assert from 'node:assert/strict';
import { Workbench, findRepoRoot, screenshotOnFailure } from './support/workbench';

describe('e2e smoke: the workbench with Health Data Explorer', function () {
  this.timeout(180_000);
  let wb: Workbench;

  before(async () => {
    const vsix = process.env.HDE_E2E_VSIX;
    // No welcome page: it opens after the workbench is up and takes the focus from the palette.
    const settings = { 'workbench.startupEditor': 'none' };
    wb = await Workbench.open(vsix ? { vsix, settings } : { extensionDevelopmentPath: findRepoRoot(), settings });
  });

  screenshotOnFailure('smoke-failed', () => wb);

  after(async () => {
    await wb?.close();
  });

  it('shows the Health Data entry in the activity bar', async () => {
    const item = await wb.waitForActivityBarItem('Health Data');
    assert.ok(await item.isVisible());
    await wb.screenshot('smoke-activity-bar');
  });

  it('runs a command from the command palette', async () => {
    await wb.runCommand('Health Data: Show Request Log');
    // The command reveals our output channel in the panel.
    const panel = wb.page.locator('.part.panel');
    await panel.waitFor({ state: 'visible', timeout: 20_000 });
    await wb.page.waitForFunction(
      () => Array.from(document.querySelectorAll('.part.panel select')).some((s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent?.includes('Health Data')),
      undefined,
      { timeout: 20_000 },
    );
    await wb.screenshot('smoke-request-log');
  });
});
