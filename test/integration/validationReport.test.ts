// "Export Validation Report…" in a real extension host: SARIF for the files named, the open
// payload files or the workspace's, each result at the range the Problems panel shows for the
// same finding (vscode.languages.getDiagnostics on the same documents), unsaved edits included.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Sarif from 'sarif';
import * as vscode from 'vscode';
import type { ValidationReportSummary } from '../../src/extension/validationReport/exportReport';
import { ACTIVITY } from '../fixtures/payloads';
import { captureMessages, extensionApi, waitFor } from './support/extension';
import { repoRoot } from '../unit/support/repo';
import { generateDataset } from '../../src/sandbox/data';

const COMMAND = 'healthData.exportValidationReport';

/** `line:col-line:col kind` of a diagnostic, 1-based like SARIF. */
const diagnosticKey = (d: vscode.Diagnostic): string =>
  `${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1} ${String(d.code)}`;

const RULE_KIND: Record<string, string> = { 'schema-error': 'error', 'implausible-value': 'warning', 'zero-value': 'zero', 'deprecated-field': 'deprecated', 'unknown-field': 'unknown' };

/** A month of one human's activity and a day the fitbit was not worn (steps 0 where every other fitbit day has steps). */
function notWornMonth(): unknown[] {
  const activity = generateDataset({ today: '2026-11-20', days: 30, humans: 1, seed: 'report' }).activity;
  const fitbit = activity.find((r) => r.source === 'fitbit');
  assert.ok(fitbit, 'a fitbit day');
  return [...activity, { ...fitbit, id: 'not-worn', steps: 0 }];
}

function resultKey(r: Sarif.Result): string {
  const region = r.locations?.[0]?.physicalLocation?.region;
  return `${region?.startLine}:${region?.startColumn}-${region?.endLine}:${region?.endColumn} ${RULE_KIND[r.ruleId ?? '']}`;
}

/** The results of a report by the file URI they are on, resolved against SRCROOT. */
function resultsByFile(log: Sarif.Log): Map<string, Sarif.Result[]> {
  const run = log.runs[0];
  const base = run.originalUriBaseIds?.SRCROOT?.uri;
  const out = new Map<string, Sarif.Result[]>();
  for (const r of run.results ?? []) {
    const location = r.locations?.[0]?.physicalLocation?.artifactLocation;
    const uri = location?.uriBaseId ? new URL(location.uri ?? '', base).href : location?.uri ?? '';
    const key = vscode.Uri.parse(uri).toString();
    const list = out.get(key) ?? [];
    list.push(r);
    out.set(key, list);
  }
  return out;
}

describe('export validation report', function () {
  this.timeout(60_000);
  let folder: string;
  let reports: string;
  let messages: ReturnType<typeof captureMessages>;

  before(async () => {
    await extensionApi();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the tests run in a workspace');
    folder = fs.mkdtempSync(path.join(root, 'report-'));
    reports = fs.mkdtempSync(path.join(root, 'report-out-'));
  });

  beforeEach(() => {
    messages = captureMessages();
  });

  afterEach(async () => {
    messages.restore();
    // A test that failed half-way may leave an edited document: revert it, so no "Save?" waits.
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.fsPath.startsWith(folder))) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('healthData.validation').update('glob', undefined, vscode.ConfigurationTarget.Global);
  });

  after(() => {
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(reports, { recursive: true, force: true });
  });

  /** Payload files in the test folder: the examples, the hostile fixture, a CRLF activity. */
  function writePayloads(sub: string): vscode.Uri[] {
    const dir = path.join(folder, sub);
    fs.mkdirSync(dir, { recursive: true });
    const files: Array<[string, string]> = [
      ...fs.readdirSync(path.join(repoRoot, 'examples')).filter((n) => n.endsWith('.json')).map((n): [string, string] => [n, fs.readFileSync(path.join(repoRoot, 'examples', n), 'utf8')]),
      ['hostile.health.json', fs.readFileSync(path.join(repoRoot, 'test/fixtures/hostile-records.json'), 'utf8')],
      ['crlf.health.json', ACTIVITY.replace(/\n/g, '\r\n')],
      ['broken.health.json', '{"id": "x",\n  "steps": }'],
      // A list with a comma missing inside its second record: the other two are whole.
      ['broken-list.health.json', `[\n${ACTIVITY},\n${ACTIVITY.replace(',', '')},\n${ACTIVITY}\n]`],
      // A fortnight of activity: each 0 said from the file's other records of its source.
      ['fortnight.health.json', JSON.stringify(generateDataset({ today: '2026-11-20', days: 14, humans: 1, seed: 'report' }).activity, null, 2)],
      // A month with a day the fitbit was not worn: its 0 steps stand out, a warning in the Problems panel and the report.
      ['not-worn.health.json', JSON.stringify(notWornMonth(), null, 2)],
    ];
    return files.map(([name, text]) => {
      const p = path.join(dir, name);
      fs.writeFileSync(p, text);
      return vscode.Uri.file(p);
    });
  }

  async function exportTo(name: string, args: object = {}): Promise<{ summary: ValidationReportSummary; log: Sarif.Log }> {
    const target = vscode.Uri.file(path.join(reports, name));
    const summary = await vscode.commands.executeCommand<ValidationReportSummary | undefined>(COMMAND, { target, ...args });
    assert.ok(summary, 'the command reported');
    const log = JSON.parse(fs.readFileSync(target.fsPath, 'utf8')) as Sarif.Log;
    assert.equal(log.version, '2.1.0');
    return { summary, log };
  }

  it('places every result where the Problems panel shows the same finding, for open files (unsaved edits too)', async () => {
    const uris = writePayloads('open');
    // Only this test's files: documents other tests opened stay open in the extension host for
    // minutes after their editors close (the 46 MB one of the off-thread tests, for one).
    const sub = path.relative(vscode.workspace.workspaceFolders![0].uri.fsPath, path.join(folder, 'open')).split(path.sep).join('/');
    await vscode.workspace.getConfiguration('healthData.validation').update('glob', `${sub}/*.health.json`, vscode.ConfigurationTarget.Global);
    for (const uri of uris) await vscode.commands.executeCommand('vscode.open', uri, { preview: false });
    // An unsaved edit: the report is of the text the editor holds.
    const crlf = uris.find((u) => u.path.endsWith('crlf.health.json'))!;
    const editor = await vscode.window.showTextDocument(crlf, { preview: false });
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(1, 0), '  "extraField": 1,\r\n')));
    // The hostile fixture's entries do not tell their kind: the kind given is remembered for the
    // document, and the report validates with it too.
    for (const uri of uris) await vscode.commands.executeCommand('healthData.validatePayload', { uri, ...(uri.path.endsWith('hostile.health.json') ? { kind: 'activity' } : {}) });

    const { summary, log } = await exportTo('open.sarif');
    const byFile = resultsByFile(log);
    let compared = 0;
    for (const uri of uris) {
      assert.ok(summary.files >= uris.length);
      const results = byFile.get(uri.toString()) ?? [];
      if (/broken(-list)?\.health\.json$/.test(uri.path)) {
        // Last, the syntax error as the Problems panel lists it: VS Code's JSON support's, for a JSON document.
        const notValidated = results[results.length - 1];
        assert.equal(notValidated?.ruleId, 'file-not-validated');
        const d = await waitFor('the syntax error in the Problems panel', () => {
          const found = vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'json');
          return found.length > 0 && found;
        });
        assert.equal(d[0].range.start.line + 1, notValidated.locations?.[0].physicalLocation?.region?.startLine);
        // Before it, the findings of the records the list holds whole, where the Problems panel shows them.
        const whole = vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'Health Data');
        assert.deepEqual(results.slice(0, -1).map(resultKey).sort(), whole.map(diagnosticKey).sort(), uri.path);
        if (uri.path.endsWith('broken-list.health.json')) {
          assert.ok(whole.length > 0, 'the whole records have findings');
          assert.deepEqual([...new Set(results.slice(0, -1).map((r) => r.properties?.recordIndex))], [0, 2]);
        }
        compared += whole.length;
        continue;
      }
      const diagnostics = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Health Data');
      assert.ok(diagnostics.length > 0, `${uri.path} has diagnostics`);
      assert.deepEqual(results.map(resultKey).sort(), diagnostics.map(diagnosticKey).sort(), uri.path);
      // The zeros in the words of the Problems panel: from the file's other records of the source.
      // A 0 that stands out at a warning's level in both; any other at a note's (information).
      const zeros = (keys: string[]) => keys.filter((k) => / zero /.test(k)).sort();
      assert.deepEqual(
        zeros(results.map((r) => `${resultKey(r)} ${r.level} ${r.message.text ?? ''}`)),
        zeros(diagnostics.map((d) => `${diagnosticKey(d)} ${d.severity === vscode.DiagnosticSeverity.Warning ? 'warning' : 'note'} ${d.message}`)),
        uri.path,
      );
      if (uri.path.endsWith('not-worn.health.json')) {
        assert.ok(results.some((r) => r.ruleId === 'zero-value' && r.level === 'warning' && /^0 — unusual for fitbit: steps is not 0 on all its \d+ other records in this document \(record #\d+\)$/.test(r.message.text ?? '')), 'the not-worn day is a warning');
      }
      if (uri.path.endsWith('fortnight.health.json')) assert.ok(results.some((r) => / other records in this document \(record #\d+\)$/.test(r.message.text ?? '')), 'zeros said from the other records');
      compared += diagnostics.length;
    }
    assert.ok(compared > 50, `${compared} findings compared`);
    const crlfResults = byFile.get(crlf.toString()) ?? [];
    assert.ok(crlfResults.some((r) => r.ruleId === 'unknown-field' && r.locations?.[0].logicalLocations?.[0].fullyQualifiedName === '/extraField'), 'the unsaved field is reported');
    // Paths relative to the workspace folder, as code scanning wants them.
    for (const artifact of log.runs[0].artifacts ?? []) assert.match(artifact.location?.uri ?? '', /^report-[^/]+\/open\/[\w.-]+\.json$/);
    assert.ok(messages.shown.some((m) => m.level === 'info' && /Validation report of \d+ files written to .*open\.sarif/.test(m.text)), JSON.stringify(messages.shown));
    // Dirty: revert before the editors close, so no "Save?" waits.
    await vscode.window.showTextDocument(crlf);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('reports NDJSON as the Problems panel shows it: each line\'s findings, and the line that is no JSON', async () => {
    const dir = path.join(folder, 'lines');
    fs.mkdirSync(dir, { recursive: true });
    const records = notWornMonth().map((r) => JSON.stringify(r));
    records.splice(2, 0, '{"id": "cut", "steps": 1');
    const uri = vscode.Uri.file(path.join(dir, 'month.ndjson'));
    fs.writeFileSync(uri.fsPath, `${records.join('\n')}\n`);
    await vscode.commands.executeCommand('vscode.open', uri, { preview: false });
    await vscode.commands.executeCommand('healthData.validatePayload', { uri });
    const { log } = await exportTo('lines.sarif', { uris: [uri] });
    const results = resultsByFile(log).get(uri.toString()) ?? [];
    const notValidated = results[results.length - 1];
    assert.equal(notValidated?.ruleId, 'file-not-validated');
    assert.match(notValidated.message.text ?? '', /has a line that is not valid JSON \(.* at line 3, column 25\)/);
    assert.equal(notValidated.locations?.[0].physicalLocation?.region?.startLine, 3);
    const diagnostics = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Health Data' && d.code !== 'syntax');
    assert.ok(diagnostics.length > 30, `${diagnostics.length} diagnostics`);
    assert.deepEqual(results.slice(0, -1).map(resultKey).sort(), diagnostics.map(diagnosticKey).sort());
    assert.ok(results.some((r) => r.ruleId === 'zero-value' && r.level === 'warning' && /^0 — unusual for fitbit: steps is not 0 on all its \d+ other records in this document \(record #\d+\)$/.test(r.message.text ?? '')), 'the not-worn day is a warning');
  });

  it('reports on the workspace files the glob names when none is open', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const uris = writePayloads('closed');
    const sub = path.relative(vscode.workspace.workspaceFolders![0].uri.fsPath, path.join(folder, 'closed')).split(path.sep).join('/');
    await vscode.workspace.getConfiguration('healthData.validation').update('glob', `${sub}/*.health.json`, vscode.ConfigurationTarget.Global);
    const { summary, log } = await exportTo('workspace.sarif');
    const names = (log.runs[0].artifacts ?? []).map((a) => a.location?.uri?.split('/').pop()).sort();
    assert.deepEqual(names, uris.map((u) => path.basename(u.fsPath)).sort());
    assert.equal(summary.files, uris.length);
    assert.ok(summary.results > 50);
  });

  it('with nothing to report on, says so and writes nothing', async () => {
    await vscode.workspace.getConfiguration('healthData.validation').update('glob', 'no-such-folder/*.health.json', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const target = vscode.Uri.file(path.join(reports, 'none.sarif'));
    const openMatching = vscode.workspace.textDocuments.filter((d) => d.uri.fsPath.includes('no-such-folder'));
    assert.equal(openMatching.length, 0);
    const summary = await vscode.commands.executeCommand(COMMAND, { target });
    assert.equal(summary, undefined);
    assert.equal(fs.existsSync(target.fsPath), false);
    assert.ok(messages.shown.some((m) => /No payload files to report on/.test(m.text)), JSON.stringify(messages.shown));
  });
});
