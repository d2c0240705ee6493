// The requests of the service in the workspace's `.http`/`.rest` files as tests in VS Code's
// Testing view (controller "Health Data: .http Files"): a file is an item, each request of the
// service in it a child at its method line, so the editor shows a run button and the last verdict
// beside each request. A run judges them as `health-data run checks.http` does (a 2xx whose
// records break no rule, or the status an httpYac `?? status == 404` expects) and places a
// failure at its request (httpFileTestRun.ts). Made at activation: the controller and its run
// profiles; the list (httpFileList.ts, in dist/workbench.js, which the code lenses load with the
// first `.http` file too) is loaded when the Testing view first asks or such a file is open.
// Setting `healthData.httpFiles.testing` switches it off.

import * as vscode from 'vscode';
import type { HttpFileList } from './httpFileList';
import { isHttpDocument } from './httpFiles';
import { type EnvironmentList, type SavedTestRunHandler, environmentProfiles } from './savedTests';

export const HTTP_FILE_TESTS_ID = 'healthData.httpFiles';

export class HttpFileTests implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController(HTTP_FILE_TESTS_ID, vscode.l10n.t('Health Data: .http Files'));
  /** The default run profile's handler (the tests call it with a request of their own). */
  readonly run: (request: vscode.TestRunRequest, token: vscode.CancellationToken) => Promise<void>;
  private readonly profiles: ReturnType<typeof environmentProfiles>;
  private list: HttpFileList | undefined;
  private readonly opening: vscode.Disposable;

  constructor(environments: EnvironmentList, handler: SavedTestRunHandler, private readonly load: (controller: vscode.TestController) => HttpFileList) {
    this.run = (request, token) => handler(this.controller, request, token);
    this.profiles = environmentProfiles(this.controller, environments, handler, this.run);
    // The Testing view asks with undefined for the whole workspace (when it is first shown).
    this.controller.resolveHandler = async (item) => {
      if (item === undefined) await this.discover();
    };
    this.controller.refreshHandler = () => this.files().refresh();
    this.opening = vscode.workspace.onDidOpenTextDocument((d) => {
      if (!this.list && isHttpDocument(d)) this.files();
    });
    if (vscode.workspace.textDocuments.some(isHttpDocument)) this.files();
  }

  private files(): HttpFileList {
    this.list ??= this.load(this.controller);
    return this.list;
  }

  /** Every `.http`/`.rest` file of the workspace listed (once; then followed by a watcher). */
  discover(): Promise<void> {
    return this.files().discover();
  }

  /** The file's item from its text (what an open document's edit does). */
  update(uri: vscode.Uri, text: string): void {
    this.files().update(uri, text);
  }

  dispose(): void {
    this.opening.dispose();
    this.list?.dispose();
    this.profiles.dispose();
    this.controller.dispose();
  }
}
