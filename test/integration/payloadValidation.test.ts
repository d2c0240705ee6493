// Validating payloads in the editor, in a real extension host: the command's diagnostics (ranges,
// severities, tags, codes), syntax errors, kinds given or picked, live validation of
// *.health.json files, the quick fix of userId, and VS Code's own JSON support (hover) from the
// payload schema.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PayloadValidationSummary } from '../../src/extension/payloadValidation/command';
import { MAX_DIAGNOSTICS, VSCODE_DIAGNOSTICS_PER_FILE } from '../../src/extension/payloadValidation/diagnostics';
import { captureMessages, extensionApi, waitFor } from './support/extension';
import { ACTIVITY } from '../fixtures/payloads';
import { generateDataset } from '../../src/sandbox/data';

const SOURCE = 'Health Data';
const COMMAND = 'healthData.validatePayload';

// A wrist tracker's heart rate summary without `value`, as the real service sends some.
const HEART_RATE_WITHOUT_VALUE = `{
  "id": "hr-1",
  "humanId": "h-1",
  "source": "fitbit",
  "date": "2026-11-18",
  "restingHR": 58,
  "zones": [],
  "sourceData": {},
  "createdAt": "2026-11-18T05:02:19.655Z",
  "updatedAt": "2026-11-19T05:02:01.112Z"
}
`;

const BODY_FAT = (extra: string) => `{
  "id": "bf-1",
${extra}  "source": "withings",
  "timestamp": "2026-11-18T06:41:12.000Z",
  "unit": "percent",
  "value": 18.695,
  "sourceData": {},
  "createdAt": "2026-11-18T06:45:30.418Z",
  "updatedAt": "2026-11-18T06:45:30.418Z"
}
`;

const ours = (uri: vscode.Uri): vscode.Diagnostic[] => vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);

function only(diagnostics: vscode.Diagnostic[], line: number, code: string): vscode.Diagnostic {
  const found = diagnostics.filter((d) => d.range.start.line === line && d.code === code);
  assert.equal(found.length, 1, `line ${line} ${code}: ${JSON.stringify(diagnostics.map((d) => [d.range.start.line, d.code, d.message]))}`);
  return found[0];
}

function assertRange(d: vscode.Diagnostic, startLine: number, startChar: number, endLine: number, endChar: number): void {
  assert.deepEqual([d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character], [startLine, startChar, endLine, endChar], d.message);
}

let dir: string;
let files = 0;

/** What every hover of Health Data's has: the field's name as code between two dots. */
const OUR_HOVER_MARK = '` · ';

/** The text of every hover at a place, from every provider. */
async function hoverTexts(uri: vscode.Uri, at: vscode.Position): Promise<string[]> {
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, at)) ?? [];
  return hovers.map((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n'));
}

/** Health Data's hover at a place: there must be exactly one. */
async function ourHover(uri: vscode.Uri, at: vscode.Position): Promise<string> {
  const texts = await hoverTexts(uri, at);
  const mine = texts.filter((t) => t.includes(OUR_HOVER_MARK) || t.includes('is not in the'));
  assert.equal(mine.length, 1, texts.join('\n---\n'));
  return mine[0];
}

/** A new file (never a reused name, `.json` unless told) shown in the active editor. */
async function openFile(content: string, extension = '.json'): Promise<vscode.TextDocument> {
  const uri = vscode.Uri.file(path.join(dir, `payload-${++files}${extension}`));
  fs.writeFileSync(uri.fsPath, content);
  // vscode.open, not openTextDocument: no reference held by this extension host keeps the
  // document open after its editor closes.
  await vscode.commands.executeCommand('vscode.open', uri);
  const editor = await waitFor('the editor', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString()));
  return editor.document;
}

async function validate(args?: object): Promise<PayloadValidationSummary | undefined> {
  return vscode.commands.executeCommand<PayloadValidationSummary | undefined>(COMMAND, args);
}

/** The command on this document: named, not left to the active editor, which lags a closed one. */
async function validateDoc(doc: vscode.TextDocument, args: object = {}): Promise<PayloadValidationSummary | undefined> {
  return validate({ uri: doc.uri, ...args });
}

async function closeAllEditors(): Promise<void> {
  // Untitled documents are dirty: revert each, so no "Save?" dialog waits.
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (tab.input instanceof vscode.TabInputText) {
        await vscode.window.showTextDocument(tab.input.uri);
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  // The Output panel, shown by other suites, may stay: only our documents must be gone.
  const ourEditor = (e: vscode.TextEditor) => e.document.uri.scheme === 'untitled' || e.document.uri.fsPath.startsWith(dir);
  await waitFor('no editor of ours left', () => !vscode.window.visibleTextEditors.some(ourEditor));
}

/**
 * Validates `doc` in place, then on a worker thread (workerThresholdMB 0), checks each result with
 * `check`, and asserts that both put the same diagnostics in the Problems panel; the setting is
 * restored after.
 */
async function sameInPlaceAndOnWorker(doc: vscode.TextDocument, check: (summary: PayloadValidationSummary | undefined, diagnostics: vscode.Diagnostic[]) => void): Promise<void> {
  const config = vscode.workspace.getConfiguration('healthData.validation');
  const seen: string[][] = [];
  try {
    for (const mb of [undefined, 0]) {
      await config.update('workerThresholdMB', mb, vscode.ConfigurationTarget.Global);
      const summary = await validateDoc(doc);
      assert.equal(summary?.thread.isMainThread, mb === undefined, `validated ${mb === undefined ? 'in place' : 'on a worker thread'}`);
      const diagnostics = ours(doc.uri);
      check(summary, diagnostics);
      seen.push(diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.severity} ${String(d.code)} ${d.message}`).sort());
    }
    assert.deepEqual(seen[1], seen[0], 'the worker says what the extension host says');
  } finally {
    await config.update('workerThresholdMB', undefined, vscode.ConfigurationTarget.Global);
  }
}

async function codeActions(uri: vscode.Uri, range: vscode.Range): Promise<vscode.CodeAction[]> {
  return (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range)) ?? [];
}

describe('payload validation', function () {
  this.timeout(40_000);
  let messages: ReturnType<typeof captureMessages>;

  before(async () => {
    await extensionApi();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hde-payload-'));
  });

  beforeEach(() => {
    messages = captureMessages();
  });

  afterEach(async () => {
    messages.restore();
    await closeAllEditors();
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('healthData.validation');
    await config.update('glob', undefined, vscode.ConfigurationTarget.Global);
    await config.update('live', undefined, vscode.ConfigurationTarget.Global);
    await config.update('unknownFieldSeverity', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('puts each finding on its field: severity by kind, deprecated struck through, unknown as information', async () => {
    const doc = await openFile(ACTIVITY);
    await vscode.window.showTextDocument(doc);
    await waitFor('the active editor', () => vscode.window.activeTextEditor?.document === doc);
    const summary = await validate();
    assert.ok(summary);
    assert.equal(summary.uri, doc.uri.toString(), 'the active editor is validated');
    assert.equal(summary.records, 1);
    assert.deepEqual(summary.counts, { error: 1, warning: 0, zero: 5, deprecated: 1, unknown: 1 });
    const diagnostics = ours(doc.uri);
    assert.equal(diagnostics.length, 8, JSON.stringify(diagnostics.map((d) => d.message)));

    const distance = only(diagnostics, 7, 'error');
    assertRange(distance, 7, 2, 7, 16);
    assert.equal(distance.severity, vscode.DiagnosticSeverity.Error);
    assert.match(distance.message, /^distance must be ≥ 0, got -5$/);

    const userId = only(diagnostics, 2, 'deprecated');
    assertRange(userId, 2, 2, 2, 10);
    assert.deepEqual(userId.tags, [vscode.DiagnosticTag.Deprecated]);
    assert.equal(userId.severity, vscode.DiagnosticSeverity.Information);
    assert.equal(userId.message, 'userId is deprecated: use humanId');

    const steps = only(diagnostics, 8, 'zero');
    assertRange(steps, 8, 2, 8, 12);
    assert.equal(steps.severity, vscode.DiagnosticSeverity.Information);
    assert.equal(steps.message, '0 — this source may not provide steps');
    for (const line of [9, 10, 11, 12]) assert.equal(only(diagnostics, line, 'zero').severity, vscode.DiagnosticSeverity.Information);

    const cadence = only(diagnostics, 14, 'unknown');
    assertRange(cadence, 14, 2, 14, 11);
    assert.equal(cadence.severity, vscode.DiagnosticSeverity.Information, 'listed in the Problems panel, which leaves hints out');
    assert.match(cadence.message, /cadence is not defined by the activity summary schema/);

    assert.ok(messages.shown.some((m) => m.level === 'warning' && /1 record validated.*errors: 1/.test(m.text)), JSON.stringify(messages.shown));
  });

  it('shows a missing required field on the object that lacks it', async () => {
    const doc = await openFile(HEART_RATE_WITHOUT_VALUE);
    await validateDoc(doc);
    const missing = ours(doc.uri).filter((d) => d.code === 'error');
    assert.equal(missing.length, 1, JSON.stringify(missing.map((d) => d.message)));
    assertRange(missing[0], 0, 0, 0, 1);
    assert.equal(missing[0].severity, vscode.DiagnosticSeverity.Error);
    assert.match(missing[0].message, /^value is required \(the measurement of the day, in bpm\) but missing$/);
  });

  it('validates each record of a list in its place, naming the record', async () => {
    const text = `[\n${BODY_FAT('  "userId": "u-1",\n  "humanId": "h-1",\n').trimEnd()},\n${HEART_RATE_WITHOUT_VALUE.trimEnd()}\n]\n`;
    const doc = await openFile(text);
    const summary = await validateDoc(doc);
    assert.equal(summary?.records, 2);
    const diagnostics = ours(doc.uri);
    const userId = only(diagnostics, 3, 'deprecated');
    assert.equal(userId.message, 'userId is deprecated: use humanId (record #0)');
    const secondStart = text.split('\n').findIndex((line, i) => i > 1 && line === '{');
    const missing = only(diagnostics, secondStart, 'error');
    assertRange(missing, secondStart, 0, secondStart, 1);
    assert.match(missing.message, /value is required .* \(record #1\)$/);
  });

  it("says each 0 of a list from the document's other records of its source, the same in place and on a worker thread; a 0 that stands out is a warning", async () => {
    const data = generateDataset({ today: '2026-11-20', days: 30, humans: 2, seed: 'problems-zeros' });
    const activity = data.activity as Array<Record<string, unknown>>;
    const fitbit = activity.filter((r) => r.source === 'fitbit');
    const googlefit = activity.filter((r) => r.source === 'googlefit');
    assert.ok(fitbit.length >= 25 && googlefit.length >= 4, `fitbit ${fitbit.length}, googlefit ${googlefit.length}`);
    // A day the tracker was not worn, among the activity and heart rate summaries of a month.
    const records = [...activity, ...data.heartRate, { ...fitbit[0], id: 'not-worn', steps: 0 }];
    const doc = await openFile(JSON.stringify(records, null, 2));
    await sameInPlaceAndOnWorker(doc, (summary, diagnostics) => {
      const notWorn = diagnostics.filter((d) => d.code === 'zero' && d.message.startsWith('0 — unusual for fitbit: steps'));
      assert.equal(notWorn.length, 1, JSON.stringify(notWorn.map((d) => d.message)));
      assert.equal(notWorn[0].message, `0 — unusual for fitbit: steps is not 0 on all its ${fitbit.length} other records in this document (record #${records.length - 1})`);
      assert.equal(notWorn[0].severity, vscode.DiagnosticSeverity.Warning, 'a 0 that stands out is worth a look');
      assert.equal(doc.getText(notWorn[0].range), '"steps": 0');
      const noSteps = diagnostics.filter((d) => d.message.startsWith(`0 — googlefit does not provide steps: 0 on all its ${googlefit.length - 1} other records in this document (record #`));
      assert.equal(noSteps.length, googlefit.length);
      assert.ok(noSteps.every((d) => d.severity === vscode.DiagnosticSeverity.Information));
      assert.ok(!diagnostics.some((d) => d.message.includes('this source may not provide')), 'every 0 of a source with other records is said from them');
      // Every 0 that stands out, and only those, is a warning.
      const unusual = diagnostics.filter((d) => d.code === 'zero' && d.message.startsWith('0 — unusual for '));
      assert.deepEqual(diagnostics.filter((d) => d.code === 'zero' && d.severity === vscode.DiagnosticSeverity.Warning), unusual);
      // The command's message counts them among the zeros.
      assert.equal(summary?.standingOut, unusual.length);
      const standing = unusual.length === 1 ? '1 stands out' : `${unusual.length} stand out`;
      assert.ok(messages.shown.some((m) => m.text.includes(`zeros: ${summary?.counts.zero} (${standing})`)), JSON.stringify(messages.shown));
    });
  });

  it('keeps a 0 that stands out among the 999 findings shown of a document that has thousands, in place and on a worker thread', async () => {
    const data = generateDataset({ today: '2026-11-20', days: 30, humans: 2, seed: 'problems-zeros' });
    const activity = data.activity as Array<Record<string, unknown>>;
    const fitbit = activity.filter((r) => r.source === 'fitbit');
    const googlefit = activity.find((r) => r.source === 'googlefit')!;
    // A thousand phone days first (five zeros and userId each), the not-worn day last.
    const phone = Array.from({ length: 1000 }, (_, i) => ({ ...googlefit, id: `phone-${i}` }));
    const records = [...phone, ...fitbit, { ...fitbit[0], id: 'not-worn', steps: 0 }];
    const doc = await openFile(JSON.stringify(records, null, 1));
    const config = vscode.workspace.getConfiguration('healthData.validation');
    try {
      for (const mb of [undefined, 0]) {
        await config.update('workerThresholdMB', mb, vscode.ConfigurationTarget.Global);
        const summary = await validateDoc(doc);
        assert.equal(summary?.thread.isMainThread, mb === undefined);
        const diagnostics = ours(doc.uri);
        assert.ok(diagnostics.some((d) => /^Showing 999 of \d+ findings/.test(d.message)), 'more findings than are shown');
        const worn = diagnostics.filter((d) => d.message.startsWith('0 — unusual for fitbit: steps'));
        assert.equal(worn.length, 1, `${mb === undefined ? 'in place' : 'on a worker thread'}: the not-worn day is among those shown`);
        assert.equal(worn[0].severity, vscode.DiagnosticSeverity.Warning);
      }
    } finally {
      await config.update('workerThresholdMB', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("shows syntax errors where they are, once: by VS Code's JSON support, or ours where it does not validate; the command still resolves", async () => {
    const doc = await openFile('{\n  "id": "x"\n  "source": 1\n}\n');
    const summary = await validateDoc(doc);
    assert.equal(summary?.syntaxErrors, 1);
    assert.equal(summary?.records, 0);
    // A JSON document: VS Code's JSON support lists the error; a second one of ours would be a copy.
    const theirs = await waitFor('VS Code\'s syntax error', () => {
      const found = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'json');
      return found.length > 0 && found;
    });
    assert.equal(theirs[0].range.start.line, 2);
    assert.deepEqual(ours(doc.uri), []);
    assert.ok(messages.shown.some((m) => /^The document is not valid JSON \(1 syntax error\): fix it to validate its records\.$/.test(m.text)), JSON.stringify(messages.shown));
    // With VS Code's JSON validation off, ours shows it.
    await vscode.workspace.getConfiguration('json').update('validate.enable', false, vscode.ConfigurationTarget.Global);
    try {
      await validateDoc(doc);
      const [error, ...rest] = ours(doc.uri);
      assert.deepEqual(rest, []);
      assert.equal(error.severity, vscode.DiagnosticSeverity.Error);
      assert.equal(error.code, 'syntax');
      assertRange(error, 2, 2, 2, 10);
      assert.equal(error.message, 'Not valid JSON: a comma is expected');
    } finally {
      await vscode.workspace.getConfiguration('json').update('validate.enable', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('an empty document, or one of white space only, is said to be empty, with no Problems to show', async () => {
    for (const text of ['', '  \n\t\n']) {
      const doc = await openFile(text);
      const before = messages.shown.length;
      const summary = await validateDoc(doc);
      assert.equal(summary?.empty, true, JSON.stringify(text));
      assert.equal(summary?.records, 0);
      assert.deepEqual(messages.shown.slice(before), [{ level: 'info', text: 'The document is empty: nothing to validate.' }]);
      assert.deepEqual(ours(doc.uri), []);
    }
    // A broken document is not empty: its message offers the Problems panel.
    const broken = await openFile('  {\n');
    const before = messages.shown.length;
    const summary = await validateDoc(broken);
    assert.equal(summary?.empty, false);
    assert.deepEqual(messages.shown.slice(before), [{ level: 'warning', text: 'The document is not valid JSON (1 syntax error): fix it to validate its records.', actions: ['Show Problems'] }]);
  });

  it('a list with a syntax error in one record: the syntax error, and the other records\' findings where they are', async () => {
    const first = BODY_FAT('  "userId": "u-1",\n  "humanId": "h-1",\n').trimEnd();
    // The second record lacks a comma after its first field.
    const second = BODY_FAT('  "userId": "u-2",\n  "humanId": "h-2",\n').trimEnd().replace(/,\n/, '\n');
    const third = BODY_FAT('  "userId": "u-3",\n  "humanId": "h-3",\n').trimEnd();
    const text = `[\n${first},\n${second},\n${third}\n]\n`;
    const doc = await openFile(text);
    const summary = await validateDoc(doc);
    assert.equal(summary?.syntaxErrors, 1);
    assert.equal(summary?.records, 2);
    const diagnostics = ours(doc.uri);
    // The syntax error is VS Code's JSON support's to show (see above): ours are the records' findings.
    assert.deepEqual(diagnostics.filter((d) => d.code === 'syntax'), []);
    // userId of records #0 and #2, on their own lines; none of #1, the broken one.
    const lines = text.split('\n');
    const deprecated = diagnostics.filter((d) => d.code === 'deprecated');
    assert.deepEqual(deprecated.map((d) => d.message), ['userId is deprecated: use humanId (record #0)', 'userId is deprecated: use humanId (record #2)']);
    assert.deepEqual(deprecated.map((d) => lines[d.range.start.line].trim()), ['"userId": "u-1",', '"userId": "u-3",']);
    assert.ok(
      messages.shown.some((m) => m.text === 'The document is not valid JSON (1 syntax error): the 2 records it holds whole were validated; fix it to validate the rest.'),
      JSON.stringify(messages.shown),
    );
  });

  it('validates a record that does not tell its kind as the kind given', async () => {
    const doc = await openFile('{\n  "id": "x",\n  "humanId": "h"\n}\n');
    const summary = await validateDoc(doc, { kind: 'body-fat' });
    assert.equal(summary?.undetected, 0);
    const messagesOf = ours(doc.uri).map((d) => d.message);
    assert.ok(messagesOf.some((m) => /^timestamp is required/.test(m)), messagesOf.join('\n'));
    assert.ok(!messagesOf.some((m) => /could not detect/.test(m)));
  });

  it('asks for the kind of a record that does not tell it', async () => {
    const doc = await openFile('{\n  "id": "x",\n  "humanId": "h"\n}\n');
    const running = Promise.resolve(validateDoc(doc));
    let summary: PayloadValidationSummary | undefined;
    let done = false;
    void running.then((s) => {
      summary = s;
      done = true;
    });
    // Accept the first kind of the table (heart rate summary) once the quick pick is up.
    await waitFor('the kind quick pick', async () => {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((r) => setTimeout(r, 200));
      return done;
    });
    assert.equal(summary?.undetected, 1);
    const messagesOf = ours(doc.uri).map((d) => d.message);
    assert.ok(messagesOf.some((m) => /^zones is required/.test(m)), messagesOf.join('\n'));
  });

  it('refuses a kind that is none', async () => {
    const doc = await openFile(ACTIVITY);
    assert.equal(await validateDoc(doc, { kind: 'steps' }), undefined);
    assert.ok(messages.shown.some((m) => m.level === 'error' && m.text.includes('"steps" is not a kind of record')), JSON.stringify(messages.shown));
  });

  it('validates *.health.json files live: on open, after each change, cleared on close', async () => {
    const file = path.join(dir, 'googlefit-day.health.json');
    fs.writeFileSync(file, ACTIVITY);
    const uri = vscode.Uri.file(file);
    // vscode.open, not openTextDocument: no reference held by this extension host keeps the
    // document open after its editor closes.
    await vscode.commands.executeCommand('vscode.open', uri);
    await waitFor('live diagnostics on open', () => ours(uri).some((d) => d.code === 'error'));
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    assert.ok(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(7, 14, 7, 16), '1506.7');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor('live diagnostics after the change', () => !ours(uri).some((d) => d.code === 'error') && ours(uri).length > 0);
    assert.equal(ours(uri).length, 7);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor('diagnostics cleared on close', () => ours(uri).length === 0, 15_000);
  });

  it('follows the glob setting', async () => {
    const config = vscode.workspace.getConfiguration('healthData.validation');
    await config.update('glob', '**/*.fixture.json', vscode.ConfigurationTarget.Global);
    try {
      const ignored = vscode.Uri.file(path.join(dir, 'ignored.health.json'));
      const matched = vscode.Uri.file(path.join(dir, 'day.fixture.json'));
      fs.writeFileSync(ignored.fsPath, ACTIVITY);
      fs.writeFileSync(matched.fsPath, ACTIVITY);
      await vscode.commands.executeCommand('vscode.open', ignored);
      await vscode.commands.executeCommand('vscode.open', matched);
      await waitFor('live diagnostics of the matching file', () => ours(matched).length === 8);
      assert.deepEqual(ours(ignored), []);
    } finally {
      await config.update('glob', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('validates the open payloads again after a settings change, one per turn of the event loop', async () => {
    // Every open payload is due at once after a change of settings: validated back to back in the
    // extension host, they would hold its event loop for all of them together.
    const config = vscode.workspace.getConfiguration('healthData.validation');
    const uris = Array.from({ length: 4 }, (_, i) => vscode.Uri.file(path.join(dir, `turns-${i}.health.json`)));
    for (const uri of uris) fs.writeFileSync(uri.fsPath, ACTIVITY);
    // Opened without an editor: open until the extension host lets go of them, whatever the tabs do.
    await Promise.all(uris.map((uri) => vscode.workspace.openTextDocument(uri)));
    await waitFor('live diagnostics of every payload', () => uris.every((uri) => ours(uri).length === 8));
    await config.update('live', false, vscode.ConfigurationTarget.Global);
    await waitFor('diagnostics cleared with live validation off', () => uris.every((uri) => ours(uri).length === 0));
    // Between two turns of the event loop (this probe runs once a turn), at most one more
    // payload has its diagnostics.
    const seen: number[] = [];
    let probing = true;
    const probe = () => {
      seen.push(uris.filter((uri) => ours(uri).length > 0).length);
      if (probing) setImmediate(probe);
    };
    try {
      setImmediate(probe);
      await config.update('live', undefined, vscode.ConfigurationTarget.Global);
      await waitFor('live diagnostics of every payload again', () => uris.every((uri) => ours(uri).length === 8));
    } finally {
      probing = false;
    }
    const jumps = seen.slice(1).map((n, i) => n - seen[i]);
    // Run-length: "0 ×1200, 1 ×30, …".
    const runs = seen.reduce<Array<[number, number]>>((out, n) => (out.length > 0 && out[out.length - 1][0] === n ? (out[out.length - 1][1]++, out) : [...out, [n, 1]]), []);
    assert.deepEqual([...new Set(jumps)].sort(), [0, 1], `payloads with diagnostics, turn by turn: ${runs.map(([n, times]) => `${n} ×${times}`).join(', ')}`);
  });

  it('quick fix: renames userId to humanId when the record lacks humanId', async () => {
    const doc = await openFile(BODY_FAT('  "userId": "u-1",\n'));
    await validateDoc(doc);
    const userId = only(ours(doc.uri), 2, 'deprecated');
    const actions = await codeActions(doc.uri, userId.range);
    const rename = actions.find((a) => a.title === 'Rename userId to humanId');
    assert.ok(rename, JSON.stringify(actions.map((a) => a.title)));
    assert.equal(rename.isPreferred, true);
    assert.equal(rename.kind?.value, vscode.CodeActionKind.QuickFix.value);
    assert.ok(rename.edit && (await vscode.workspace.applyEdit(rename.edit)));
    assert.equal(doc.getText(), BODY_FAT('  "humanId": "u-1",\n'));
    // The command's document stays validated as it changes: the deprecation goes away.
    await waitFor('revalidation after the fix', () => !ours(doc.uri).some((d) => d.code === 'deprecated'));
  });

  it('quick fix: removes userId when the record has humanId already', async () => {
    const doc = await openFile(BODY_FAT('  "userId": "u-1",\n  "humanId": "h-1",\n'));
    await validateDoc(doc);
    const userId = only(ours(doc.uri), 2, 'deprecated');
    const actions = await codeActions(doc.uri, userId.range);
    const remove = actions.find((a) => a.title === 'Remove deprecated userId (humanId is already there)');
    assert.ok(remove?.edit, JSON.stringify(actions.map((a) => a.title)));
    assert.equal(remove.isPreferred, true);
    assert.ok(await vscode.workspace.applyEdit(remove.edit));
    assert.equal(doc.getText(), BODY_FAT('  "humanId": "h-1",\n'));
  });

  it('quick fix: fixes every record of a list at once', async () => {
    const record = (id: string) => `{"id": "${id}", "userId": "u", "humanId": "h", "timestamp": "2026-11-18T06:41:12Z", "unit": "%", "value": 20}`;
    const doc = await openFile(`[\n  ${record('a')},\n  ${record('b')}\n]\n`);
    await validateDoc(doc);
    const first = only(ours(doc.uri), 1, 'deprecated');
    const all = (await codeActions(doc.uri, first.range)).find((a) => a.title === 'Fix all 2 deprecated fields in this document');
    assert.ok(all?.edit);
    assert.ok(await vscode.workspace.applyEdit(all.edit));
    const expected = (id: string) => record(id).replace('"userId": "u", ', '');
    assert.equal(doc.getText(), `[\n  ${expected('a')},\n  ${expected('b')}\n]\n`);
  });

  it("VS Code's JSON support reads the payload schema for *.health.json: hover documents a field", async () => {
    const file = path.join(dir, 'hover.health.json');
    fs.writeFileSync(file, ACTIVITY);
    const uri = vscode.Uri.file(file);
    await vscode.commands.executeCommand('vscode.open', uri);
    const text = await waitFor(
      'a hover from the JSON language server',
      async () => {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(8, 5));
        const all = (hovers ?? []).flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
        return all.includes('Steps taken') ? all : undefined;
      },
      20_000,
    );
    assert.match(text, /0 when the source does not provide them/);
    // Health Data adds no second hover with the same words there.
    const hovers = await hoverTexts(uri, new vscode.Position(8, 5));
    assert.equal(hovers.filter((h) => h.includes('Steps taken')).length, 1, hovers.join('\n---\n'));
    assert.ok(!hovers.some((h) => h.includes(OUR_HOVER_MARK)), hovers.join('\n---\n'));
  });

  describe('hover where the JSON language service has no payload schema', () => {
    const records = () => {
      const data = generateDataset({ today: '2026-11-20', days: 3, seed: 'hover' });
      return [data.activity[0], data.heartRate[0], data.bodyFat[0]] as Array<Record<string, unknown>>;
    };
    /** The position of the first `"name"` key after `after` in the document (its second character). */
    const keyAt = (doc: vscode.TextDocument, name: string, after = 0) => doc.positionAt(doc.getText().indexOf(`"${name}"`, after) + 1);

    it('an untitled list the command validated: each field named as the schema says, a zone field too, an unknown field said to be one; none before', async () => {
      const list = records();
      list[0] = { ...list[0], activeMinutes: 12 };
      const doc = await vscode.workspace.openTextDocument({ language: 'json', content: `${JSON.stringify(list, null, 2)}\n` });
      await vscode.window.showTextDocument(doc);
      // Not validated, not named by the glob setting: not a payload of ours.
      assert.deepEqual((await hoverTexts(doc.uri, keyAt(doc, 'steps'))).filter((h) => h.includes(OUR_HOVER_MARK)), []);
      await validateDoc(doc);
      const steps = await ourHover(doc.uri, keyAt(doc, 'steps'));
      assert.equal(steps, '**Steps** · `steps` · activity summary\n\nSteps taken during the activity\\. 0 when the source does not provide them\\.\n\nnumber ≥ 0 · required');
      // On the value as on the name, and the range is what is hovered.
      const valueAt = doc.positionAt(doc.getText().indexOf('"steps": ') + '"steps": '.length);
      const onValue = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, valueAt);
      const mine = onValue.find((h) => h.contents.some((c) => typeof c !== 'string' && c.value.includes(OUR_HOVER_MARK)))!;
      assert.ok(mine, 'a hover on the value');
      assert.equal(doc.getText(mine.range), String(list[0].steps));
      assert.match(await ourHover(doc.uri, keyAt(doc, 'userId')), /^\*\*User id \\\(deprecated\\\)\*\* · `userId` · activity summary\n\nDeprecated: use humanId\\\. .*\n\nstring · optional · deprecated$/s);
      const hrAt = doc.getText().indexOf('"zones"');
      assert.match(await ourHover(doc.uri, keyAt(doc, 'min', hrAt)), /^\*\*.+\*\* · `min` · heart rate zone\n\n/);
      assert.match(await ourHover(doc.uri, keyAt(doc, 'restingHR')), /· `restingHR` · heart rate summary\n\nResting heart rate/);
      assert.match(await ourHover(doc.uri, keyAt(doc, 'unit')), /· `unit` · body fat reading\n\n/);
      assert.equal(await ourHover(doc.uri, keyAt(doc, 'activeMinutes')), '**`activeMinutes`** is not in the activity summary schema: a field the source added (Health Data lists it as unknown).');
      // Between records: nothing.
      assert.deepEqual((await hoverTexts(doc.uri, doc.positionAt(doc.getText().indexOf('},') + 1))).filter((h) => h.includes(OUR_HOVER_MARK)), []);
    });

    it('an NDJSON file the command validated: the field of the line hovered; a file the glob setting names, without the command', async () => {
      const lines = records();
      const doc = await openFile(`${lines.map((r) => JSON.stringify(r)).join('\n')}\n`, '.ndjson');
      await validateDoc(doc);
      const second = doc.getText().indexOf('\n') + 1;
      assert.match(await ourHover(doc.uri, keyAt(doc, 'source', second)), /^\*\*Source\*\* · `source` · heart rate summary\n\n/);
      assert.match(await ourHover(doc.uri, keyAt(doc, 'value', doc.getText().lastIndexOf('\n', doc.getText().length - 2))), /· `value` · body fat reading\n\n/);
      // A file the glob setting names is one of ours without the command.
      const config = vscode.workspace.getConfiguration('healthData.validation');
      try {
        await config.update('glob', '**/payload-*.json', vscode.ConfigurationTarget.Global);
        const named = await openFile(JSON.stringify(lines, null, 2));
        assert.match(await waitFor('a hover on a file the glob names', async () => ((await hoverTexts(named.uri, keyAt(named, 'calories'))).find((h) => h.includes(OUR_HOVER_MARK))), 10_000), /^\*\*Calories\*\* · `calories` · activity summary/);
      } finally {
        await config.update('glob', undefined, vscode.ConfigurationTarget.Global);
      }
    });
  });

  it('healthData.validation.unknownFieldSeverity chooses how unknown fields are shown', async () => {
    const config = vscode.workspace.getConfiguration('healthData.validation');
    const doc = await openFile(ACTIVITY);
    try {
      for (const [value, severity] of [['hint', vscode.DiagnosticSeverity.Hint], ['warning', vscode.DiagnosticSeverity.Warning], ['error', vscode.DiagnosticSeverity.Error]] as const) {
        await config.update('unknownFieldSeverity', value, vscode.ConfigurationTarget.Global);
        await validateDoc(doc);
        assert.equal(only(ours(doc.uri), 14, 'unknown').severity, severity, value);
        // The other kinds keep theirs.
        assert.equal(only(ours(doc.uri), 8, 'zero').severity, vscode.DiagnosticSeverity.Information);
      }
    } finally {
      await config.update('unknownFieldSeverity', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("in *.health.json files each finding is listed once, by Health Data: VS Code's JSON support adds no copy", async () => {
    // A record of each problem the JSON language service would report from the full schema:
    // a missing required field, a deprecated one, a number below its minimum, a wrong type, a bad format.
    const record = HEART_RATE_WITHOUT_VALUE.replace('"id": "hr-1",', '"id": "hr-1",\n  "userId": "u-1",\n  "maxHR": "high",')
      .replace('"restingHR": 58', '"restingHR": -3').replace('"createdAt": "2026-11-18T05:02:19.655Z"', '"createdAt": "yesterday"');
    const healthFile = path.join(dir, 'once.health.json');
    fs.writeFileSync(healthFile, record);
    const health = vscode.Uri.file(healthFile);
    await vscode.commands.executeCommand('vscode.open', health);
    // Calibration: the same record in a plain JSON file that names the full schema gets the
    // language service's own problems, so it is running and this test would see them.
    const fullSchema = vscode.Uri.joinPath(vscode.extensions.getExtension('health-data-tools.health-data-explorer')!.extensionUri, 'src/core/validation/schemas/payload.schema.json');
    const calibrationFile = path.join(dir, 'calibration.json');
    fs.writeFileSync(calibrationFile, record.replace('{', `{\n  "$schema": ${JSON.stringify(fullSchema.toString())},`));
    const calibration = vscode.Uri.file(calibrationFile);
    await vscode.commands.executeCommand('vscode.open', calibration);
    const theirs = await waitFor('the JSON language service\'s problems in the calibration file', () => {
      const found = vscode.languages.getDiagnostics(calibration).filter((d) => d.source !== SOURCE);
      return found.some((d) => /value/.test(d.message)) ? found : undefined;
    }, 30_000);
    assert.ok(theirs.length >= 2, JSON.stringify(theirs.map((d) => d.message)));
    // Hover still comes from the schema in the *.health.json file (so the service has read it).
    await vscode.commands.executeCommand('vscode.open', health);
    await waitFor('a hover in the *.health.json file', async () => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', health, new vscode.Position(7, 5));
      return (hovers ?? []).some((h) => h.contents.some((c) => (typeof c === 'string' ? c : c.value).includes('Resting heart rate')));
    }, 20_000);
    const mine = await waitFor('our findings', () => (ours(health).length >= 5 ? ours(health) : undefined));
    const all = vscode.languages.getDiagnostics(health);
    assert.deepEqual(all.filter((d) => d.source !== SOURCE).map((d) => `${d.source}: ${d.message}`), [], 'only Health Data reports problems');
    // Each problem once, at the severity of its kind.
    const byCode = (code: string) => mine.filter((d) => d.code === code);
    assert.equal(byCode('deprecated').length, 1);
    assert.equal(byCode('deprecated')[0].severity, vscode.DiagnosticSeverity.Information);
    assert.ok(byCode('error').some((d) => /value is required/.test(d.message)), JSON.stringify(mine.map((d) => d.message)));
    assert.ok(byCode('error').every((d) => d.severity === vscode.DiagnosticSeverity.Error));
    const keys = all.map((d) => `${d.range.start.line}:${d.message}`);
    assert.equal(new Set(keys).size, keys.length, 'no finding twice');
  });

  it('validates files above 5 MB live, on a worker thread, showing the most severe findings and a note, all that VS Code passes on', async function () {
    this.timeout(120_000);
    const record = ACTIVITY.trimEnd();
    const count = Math.ceil((5 * 1024 * 1024) / record.length) + 10;
    const uri = vscode.Uri.file(path.join(dir, 'big.health.json'));
    fs.writeFileSync(uri.fsPath, `[\n${new Array<string>(count).fill(record).join(',\n')}\n]\n`);
    await vscode.commands.executeCommand('vscode.open', uri);
    const note = `Showing ${MAX_DIAGNOSTICS} of ${count * 8} findings, the most severe first.`;
    await waitFor('live findings of the whole document', () => ours(uri).some((d) => d.message === note), 100_000);
    assert.deepEqual(messages.shown, [], 'no notice: nothing is switched off');
    const summary = await validate({ uri });
    assert.equal(summary?.records, count);
    assert.equal(summary?.counts.error, count);
    assert.equal(summary?.thread.isMainThread, false);
    const diagnostics = ours(uri);
    assert.equal(diagnostics.length, MAX_DIAGNOSTICS + 1);
    // More and VS Code would drop the rest, our note with them, for its own.
    assert.ok(diagnostics.length <= VSCODE_DIAGNOSTICS_PER_FILE, `${diagnostics.length} diagnostics: VS Code passes ${VSCODE_DIAGNOSTICS_PER_FILE} of a file on`);
    assert.equal(diagnostics.filter((d) => d.code === 'error').length, MAX_DIAGNOSTICS, 'errors first');
    assert.ok(diagnostics.some((d) => d.message === note));
  });

  it('validates an untitled document (Open as JSON Document) and clears its diagnostics when it closes', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content: ACTIVITY });
    await vscode.window.showTextDocument(doc);
    await waitFor('the active editor', () => vscode.window.activeTextEditor?.document === doc);
    const summary = await validate();
    assert.equal(summary?.uri, doc.uri.toString());
    assert.equal(ours(doc.uri).length, 8);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor('diagnostics cleared on close', () => ours(doc.uri).length === 0, 15_000);
  });
  describe('NDJSON documents', () => {
    const ndjson = (records: readonly unknown[], eol = '\n') => `${records.map((r) => JSON.stringify(r)).join(eol)}${eol}`;
    const lineOf = (doc: vscode.TextDocument, id: string) => doc.getText().split(/\r?\n/).findIndex((l) => l.includes(`"id":"${id}"`));

    it('validates each line as a record, each finding on its line, the same in place and on a worker thread; each 0 said from the other lines', async () => {
      const data = generateDataset({ today: '2026-11-20', days: 30, humans: 2, seed: 'problems-zeros' });
      const activity = data.activity as Array<Record<string, unknown>>;
      const fitbit = activity.filter((r) => r.source === 'fitbit');
      const records = [...activity, ...data.heartRate, { ...fitbit[0], id: 'not-worn', steps: 0 }];
      const doc = await openFile(ndjson(records, '\r\n'), '.ndjson');
      await sameInPlaceAndOnWorker(doc, (summary, diagnostics) => {
        assert.equal(summary?.syntaxErrors, 0);
        assert.equal(summary?.records, records.length);
        assert.deepEqual(summary?.lines, { records: records.length, broken: 0 });
        const notWorn = diagnostics.filter((d) => d.code === 'zero' && d.message.startsWith('0 — unusual for fitbit: steps'));
        assert.equal(notWorn.length, 1, JSON.stringify(notWorn.map((d) => d.message)));
        assert.equal(notWorn[0].message, `0 — unusual for fitbit: steps is not 0 on all its ${fitbit.length} other records in this document (record #${records.length - 1})`);
        assert.equal(notWorn[0].range.start.line, lineOf(doc, 'not-worn'));
        assert.equal(doc.getText(notWorn[0].range), '"steps":0');
        // Every finding sits on the line of the record it names.
        for (const d of diagnostics) {
          const index = Number(/\(record #(\d+)\)$/.exec(d.message)?.[1]);
          assert.equal(d.range.start.line, index, d.message);
          assert.equal(d.range.end.line, index, d.message);
        }
        assert.ok(messages.shown.some((m) => m.text.startsWith(`${records.length} records validated.`)), JSON.stringify(messages.shown));
      });
    });

    it('a line that is no JSON is a syntax error on it; the other lines are validated and the message says so, in place and on a worker thread', async () => {
      const lines = ACTIVITY.trim().replace(/\n\s*/g, ' ');
      const text = `${lines}\n{"id": "cut", "steps": 12\n${lines.replace('"a-1"', '"a-2"')}\n`;
      const config = vscode.workspace.getConfiguration('healthData.validation');
      try {
        for (const [extension, mb] of [['.ndjson', undefined], ['.json', undefined], ['.jsonl', 0]] as const) {
          await config.update('workerThresholdMB', mb, vscode.ConfigurationTarget.Global);
          const doc = await openFile(text, extension);
          messages.shown.length = 0;
          const summary = await validateDoc(doc);
          assert.equal(summary?.records, 2, extension);
          assert.deepEqual(summary?.lines, { records: 3, broken: 1 });
          const diagnostics = ours(doc.uri);
          const syntax = diagnostics.filter((d) => d.severity === vscode.DiagnosticSeverity.Error && d.range.start.line === 1);
          assert.ok(syntax.length >= 1, JSON.stringify(diagnostics.map((d) => [d.range.start.line, d.message])));
          assert.ok(diagnostics.some((d) => d.range.start.line === 2 && d.message.endsWith('(record #2)')), 'the line after the broken one is validated');
          assert.ok(diagnostics.some((d) => d.range.start.line === 0 && d.message.endsWith('(record #0)')));
          const said = messages.shown.find((m) => m.text.startsWith('1 line of the document is not valid JSON'));
          assert.equal(said?.text, '1 line of the document is not valid JSON: the 2 records of its other lines were validated; fix it to validate its record.');
          assert.equal(said?.level, 'warning');
          await closeAllEditors();
        }
      } finally {
        await config.update('workerThresholdMB', undefined, vscode.ConfigurationTarget.Global);
      }
    });

    it('a .ndjson file whose first line is broken is still read line by line; the same text in a .json file is a syntax error', async () => {
      const record = ACTIVITY.trim().replace(/\n\s*/g, ' ');
      const text = `{"id": oops}\n${record}\n`;
      const asNdjson = await validateDoc(await openFile(text, '.ndjson'));
      assert.equal(asNdjson?.records, 1);
      assert.deepEqual(asNdjson?.lines, { records: 2, broken: 1 });
      const asJson = await validateDoc(await openFile(text));
      assert.equal(asJson?.records, 0);
      assert.equal(asJson?.lines, undefined);
    });

    it('quick fix: fixes userId on any line, one or all at once', async () => {
      const record = (id: string, human = true) => `{"id": "${id}", "userId": "u"${human ? ', "humanId": "h"' : ''}, "timestamp": "2026-11-18T06:41:12Z", "unit": "%", "value": 20}`;
      const doc = await openFile(`${record('a')}\n${record('b', false)}\n${record('c')}\n`, '.ndjson');
      await validateDoc(doc);
      const second = only(ours(doc.uri), 1, 'deprecated');
      const actions = await codeActions(doc.uri, second.range);
      const rename = actions.find((a) => a.title === 'Rename userId to humanId');
      assert.ok(rename?.edit, JSON.stringify(actions.map((a) => a.title)));
      const all = actions.find((a) => a.title === 'Fix all 3 deprecated fields in this document');
      assert.ok(all?.edit, JSON.stringify(actions.map((a) => a.title)));
      assert.ok(await vscode.workspace.applyEdit(all.edit));
      const expected = (id: string, human = true) => record(id, human).replace(human ? '"userId": "u", ' : '"userId"', human ? '' : '"humanId"');
      assert.equal(doc.getText(), `${expected('a')}\n${expected('b', false)}\n${expected('c')}\n`);
      await waitFor('revalidation after the fix', () => !ours(doc.uri).some((d) => d.code === 'deprecated'));
    });

    it('validates NDJSON files live when the glob names them, a line broken while typing included', async () => {
      const config = vscode.workspace.getConfiguration('healthData.validation');
      const record = ACTIVITY.trim().replace(/\n\s*/g, ' ');
      await config.update('glob', '**/live-*.ndjson', vscode.ConfigurationTarget.Global);
      try {
        const uri = vscode.Uri.file(path.join(dir, 'live-1.ndjson'));
        fs.writeFileSync(uri.fsPath, `${record}\n${record.replace('"a-1"', '"a-2"')}\n`);
        await vscode.commands.executeCommand('vscode.open', uri);
        await waitFor('live diagnostics on both lines', () => ours(uri).filter((d) => d.range.start.line === 1).length === 8 && ours(uri).filter((d) => d.range.start.line === 0).length === 8);
        // A third line half typed: a syntax error on it, the first two keep their findings.
        const doc = await waitFor('the document', () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()));
        const edit = new vscode.WorkspaceEdit();
        edit.insert(uri, new vscode.Position(2, 0), '{"id": "a-3", "steps":');
        assert.ok(await vscode.workspace.applyEdit(edit));
        await waitFor('the half-typed line marked', () => ours(uri).some((d) => d.range.start.line === 2 && d.code === 'syntax'));
        assert.equal(ours(uri).filter((d) => d.range.start.line < 2).length, 16);
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      } finally {
        await config.update('glob', undefined, vscode.ConfigurationTarget.Global);
      }
    });

    it('an untitled plain-text document holding NDJSON is validated too', async () => {
      const record = ACTIVITY.trim().replace(/\n\s*/g, ' ');
      const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content: `${record}\n${record.replace('"a-1"', '"a-2"')}\n` });
      await vscode.window.showTextDocument(doc);
      await waitFor('the active editor', () => vscode.window.activeTextEditor?.document === doc);
      const summary = await validate();
      assert.equal(summary?.records, 2);
      assert.deepEqual(summary?.lines, { records: 2, broken: 0 });
      assert.equal(ours(doc.uri).filter((d) => d.range.start.line === 1).length, ours(doc.uri).filter((d) => d.range.start.line === 0).length);
    });
  });
});
