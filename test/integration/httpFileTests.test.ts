// The requests of the workspace's .http files in the Testing view, in a real extension host
// against the sandbox: a file written to the workspace is found when the view asks, its requests
// of the service are children at their method lines (one the form refuses carries why), a run
// judges each as `health-data run` does (httpYac's `?? status == 404` the status expected) and
// places a failure at its request; a file's item runs its requests; an unsaved edit is what runs
// and moves the items; the setting empties the view; a deleted file leaves it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import type { ForeignImportResult } from '../../src/extension/workbench/foreignImport';
import type { HttpFileSendResult } from '../../src/extension/workbench/httpFileSend';
import { captureMessages, closeUntitledEditors, recordTestRuns, resetSettings, runningSandbox, setSetting, waitFor, withSandbox } from './support/extension';

describe('.http files in the Testing view', function () {
  this.timeout(60_000);
  let api: HealthDataExtensionApi;
  let dir: string;
  let file: string;

  before(async () => {
    await resetSettings();
    api = await withSandbox();
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, `http-tests-${process.pid}`);
    fs.mkdirSync(dir, { recursive: true });
    file = path.join(dir, 'checks.http');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('healthData').update('httpFiles.testing', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(dir, { recursive: true, force: true });
    await closeUntitledEditors();
  });

  const children = (item: vscode.TestItem | undefined) => {
    const out: vscode.TestItem[] = [];
    item?.children.forEach((c) => out.push(c));
    return out.sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? ''));
  };
  const fileItem = () => api.httpFileTests.controller.items.get(vscode.Uri.file(file).toString());

  it('lists the service\'s requests of a workspace file at their lines and runs them as `health-data run` judges them, a failure at its request', async () => {
    const day = (runningSandbox(api).dataset as unknown as { heartRate: Array<{ date: string }> }).heartRate[0].date;
    const text = [
      '@api = https://api.example.com/v1',
      '### Heart rate of a day',
      `GET {{api}}/human/heart_rate/summaries/${day}`,
      'Authorization: Bearer {{token}}',
      '?? duration < 300',
      '',
      '### Not there, as expected',
      'GET {{api}}/human/heart_rate/summaries/not-there',
      '?? status == 404',
      '',
      '### Not there',
      'GET {{api}}/human/heart_rate/summaries/not-there',
      '',
      '### Too many',
      'GET {{api}}/human/activities/summaries?limit=5000',
      '',
      '### Another service',
      'GET https://example.com/users',
      '',
    ].join('\n');
    fs.writeFileSync(file, text);
    fs.writeFileSync(path.join(dir, 'other.http'), 'GET https://example.com/users\n');
    await api.httpFileTests.discover();
    const item = await waitFor('the file in the Testing view', fileItem);
    assert.equal(item.label, path.relative(vscode.workspace.workspaceFolders![0].uri.fsPath, file).split(path.sep).join('/'));
    assert.equal(item.description, '4 requests');
    // A file with none of the service's requests is not listed.
    assert.equal(api.httpFileTests.controller.items.get(vscode.Uri.file(path.join(dir, 'other.http')).toString()), undefined);
    const listed = children(item);
    assert.deepEqual(
      listed.map((c) => [c.label, c.description, c.range?.start.line, c.error]),
      [
        ['Heart rate of a day', `GET /v1/human/heart_rate/summaries/${day}`, 2, undefined],
        ['Not there, as expected', 'GET /v1/human/heart_rate/summaries/not-there · expects 404', 7, undefined],
        ['Not there', 'GET /v1/human/heart_rate/summaries/not-there', 11, undefined],
        ['Too many', 'GET /v1/human/activities/summaries?limit=5000', 14, 'limit is a whole number from 1 to 500.'],
      ],
    );
    assert.ok(listed.every((c) => c.uri?.toString() === item.uri?.toString()));

    const recorded = recordTestRuns(api.httpFileTests.controller);
    try {
      const sandbox = runningSandbox(api);
      const before = sandbox.requests.length;
      await api.httpFileTests.run(new vscode.TestRunRequest(), new vscode.CancellationTokenSource().token);
      const label = (id: string) => listed.find((c) => c.id === id)?.label ?? id;
      const of = (what: string) => recorded.calls.filter((c) => c[0] === what).map((c) => label(c[1]));
      assert.deepEqual(of('createTestRun'), [`.http files against ${api.session.active?.name}`]);
      assert.deepEqual(of('started'), ['Heart rate of a day', 'Not there, as expected', 'Not there']);
      assert.deepEqual(of('passed'), ['Heart rate of a day', 'Not there, as expected']);
      assert.deepEqual(of('failed'), ['Not there']);
      assert.deepEqual(of('errored'), ['Too many']);
      // Sent through the sandbox with the extension's token, not to the file's host.
      assert.deepEqual(
        sandbox.requests.slice(before).filter((q) => q.method === 'GET').map((q) => q.path),
        [`/v1/human/heart_rate/summaries/${day}`, '/v1/human/heart_rate/summaries/not-there', '/v1/human/heart_rate/summaries/not-there'],
      );
      const failed = recorded.calls.find((c) => c[0] === 'failed')![2] as vscode.TestMessage;
      assert.deepEqual([failed.expectedOutput, failed.actualOutput], ['a 2xx', '404 Not Found']);
      // Placed at the request's line, so the editor shows it there.
      assert.equal(failed.location?.uri.toString(), item.uri?.toString());
      assert.equal(failed.location?.range.start.line, 11);
      assert.match(String(failed.contextValue), /^healthDataExchange:/);
      const refused = recorded.calls.find((c) => c[0] === 'errored')![2] as vscode.TestMessage;
      assert.deepEqual([refused.message, refused.location?.range.start.line], ['limit is a whole number from 1 to 500.', 14]);
      const output = recorded.calls.filter((c) => c[0] === 'appendOutput').map((c) => c[1]).join('');
      assert.match(output, /^Running 3 requests of \.http files against .+\r\n/);
      assert.match(output, /PASS {2}Not there, as expected {2}GET \/v1\/human\/heart_rate\/summaries\/not-there\r\n {6}404 Not Found, as expected · /);
      assert.match(output, /2 passed, 1 failed\.\r\n$/);

      // The file's item runs its requests; one request alone; one left out.
      recorded.calls.length = 0;
      await api.httpFileTests.run(new vscode.TestRunRequest([item], [listed[2]]), new vscode.CancellationTokenSource().token);
      assert.deepEqual([of('passed'), of('failed'), of('errored')], [['Heart rate of a day', 'Not there, as expected'], [], ['Too many']]);
      recorded.calls.length = 0;
      await api.httpFileTests.run(new vscode.TestRunRequest([listed[1]]), new vscode.CancellationTokenSource().token);
      assert.deepEqual(of('passed'), ['Not there, as expected']);
    } finally {
      recorded.restore();
    }

    // The lenses of the file: the assertion not checked is said; a reply is judged by the expectation.
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const lensesOf = async () => ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri)) ?? []).filter((l) => l.command?.command.startsWith('healthData.'));
    const lenses = await lensesOf();
    const send = lenses.filter((l) => l.command!.title === '$(play) Send with Health Data');
    assert.match(send[0].command!.tooltip ?? '', /Not checked: "\?\? duration < 300" \(the assertion read is "\?\? status == N"\)\.$/);
    const replies = lenses.filter((l) => l.command!.command === 'healthData.showExchange').map((l) => [l.range.start.line, l.command!.title.replace(/ · \d+ ms/, ' · N ms')]);
    assert.deepEqual(replies, [
      [2, '$(pass) 200 OK · N ms'],
      [7, '$(pass) 404 Not Found · N ms · as expected'],
      [11, '$(warning) 404 Not Found · N ms'],
    ]);
    // Send All counts a reply that is the status expected as a success.
    const messages = captureMessages();
    try {
      const batch = (await vscode.commands.executeCommand('healthData.sendHttpFile', document.uri)) as HttpFileSendResult;
      assert.deepEqual(batch.sent.map((r) => r.status), [200, 404, 404]);
      assert.deepEqual(messages.shown.map((m) => `${m.level}: ${m.text}`), [
        `warning: Sent 3 requests of checks.http through ${api.session.active?.name}: 1 not a success (404 Not Found). Left out: "Too many": limit is a whole number from 1 to 500. Each reply is beside its request.`,
      ]);
    } finally {
      messages.restore();
    }

    // Import keeps `?? status == 404` as the saved request's expected status.
    const result = (await vscode.commands.executeCommand('healthData.importSavedRequests', { uri: document.uri, pick: false })) as ForeignImportResult;
    try {
      assert.deepEqual(result.added, ['Heart rate of a day', 'Not there, as expected', 'Not there']);
      assert.deepEqual(
        api.history.savedByName().filter((e) => result.added.includes(e.savedAs!)).map((e) => [e.savedAs, e.expectStatus]),
        [['Heart rate of a day', undefined], ['Not there', undefined], ['Not there, as expected', 404]],
      );
    } finally {
      for (const e of api.history.savedByName()) if (result.added.includes(e.savedAs!)) api.history.removeSaved(e.id);
    }
  });

  it('follows the open file as it is edited (unsaved text is what runs), the setting, and a deleted file', async () => {
    const item = await waitFor('the file in the Testing view', fileItem);
    const ids = children(item).map((c) => c.id);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const editor = await vscode.window.showTextDocument(document);
    // Two lines above the first request, and the expectation of "Not there" changed, unsaved.
    await editor.edit((e) => {
      e.insert(new vscode.Position(1, 0), '# checks\n# of the service\n');
      e.insert(new vscode.Position(12, 0), '?? status == 404\n');
    });
    await waitFor('the items moved with the edit', () => children(fileItem()).find((c) => c.label === 'Heart rate of a day')?.range?.start.line === 4);
    const moved = children(fileItem());
    // The same items (their verdicts stay), at their new lines.
    assert.deepEqual(moved.map((c) => c.id), ids);
    assert.deepEqual(moved.map((c) => [c.label, c.range?.start.line, c.description]).slice(1, 3), [
      ['Not there, as expected', 9, 'GET /v1/human/heart_rate/summaries/not-there · expects 404'],
      ['Not there', 13, 'GET /v1/human/heart_rate/summaries/not-there · expects 404'],
    ]);
    const recorded = recordTestRuns(api.httpFileTests.controller);
    try {
      await api.httpFileTests.run(new vscode.TestRunRequest([moved[2]]), new vscode.CancellationTokenSource().token);
      assert.deepEqual(recorded.calls.filter((c) => c[0] === 'passed').map((c) => c[1]), [moved[2].id]);
    } finally {
      recorded.restore();
    }
    assert.ok(document.isDirty);

    // Switched off: the view is empty; on: listed again.
    await setSetting('httpFiles.testing', false);
    await waitFor('the view emptied', () => api.httpFileTests.controller.items.size === 0);
    await setSetting('httpFiles.testing', true);
    await waitFor('listed again', fileItem);

    // Reverted and closed, then deleted: gone from the view.
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.ok(!document.isDirty);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await waitFor('the file as saved again', () => children(fileItem()).find((c) => c.label === 'Heart rate of a day')?.range?.start.line === 2);
    fs.rmSync(file);
    await waitFor('the deleted file gone from the view', () => fileItem() === undefined);
  });
});
