// Every user-facing string the extension passes to vscode.l10n.t is in l10n/bundle.l10n.json
// (so translators see it), and every %key% the manifest uses is in package.nls.json.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './support/repo';

const root = repoRoot;

describe('localisation', () => {
  it('l10n/bundle.l10n.json holds every vscode.l10n.t string (run `npm run l10n` after adding one)', function () {
    this.timeout(60_000);
    const out = mkdtempSync(join(tmpdir(), 'hde-l10n-'));
    const r = spawnSync(process.execPath, [require.resolve('@vscode/l10n-dev/dist/cli.js'), 'export', '--outDir', out, join(root, 'src')], { encoding: 'utf8' });
    const bundle = r.status === 0 ? readFileSync(join(out, 'bundle.l10n.json'), 'utf8') : '{}';
    rmSync(out, { recursive: true, force: true });
    assert.equal(r.status, 0, r.stderr);
    const fresh = Object.keys(JSON.parse(bundle)).sort();
    const committed = Object.keys(JSON.parse(readFileSync(join(root, 'l10n', 'bundle.l10n.json'), 'utf8'))).sort();
    assert.deepEqual(fresh.filter((s) => !committed.includes(s)), [], 'strings missing from the bundle');
    assert.ok(fresh.length > 100);
  });

  it('package.nls.json has every %key% of package.json, and no key nothing uses', () => {
    const manifest = readFileSync(join(root, 'package.json'), 'utf8');
    const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const used = new Set([...manifest.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]));
    assert.deepEqual([...used].filter((k) => !(k in nls)), []);
    assert.deepEqual(Object.keys(nls).filter((k) => !used.has(k)), []);
  });
});
