// The request workbench: the history of every exchange, the History view, the exchange view and
// the request form. Made by extension.ts with the session and the record views it needs.

import * as vscode from 'vscode';
import type { Session } from '../account/session';
import type { RecordViews } from '../recordView/recordViews';
import { LazyFeature } from '../shared/lazyFeature';
import { ExchangeViews } from './exchangeViews';
import { ExchangeHistory } from './history';
import { HistoryTreeProvider } from './historyView';
import { HTTP_FILE_SELECTOR } from './httpFiles';
import { HttpFileTests } from './httpFileTests';
import { HttpFileLenses } from './httpLens';
import { type SavedTests, registerSavedTests } from './savedTests';

export { ExchangeHistory, HISTORY_KEY } from './history';
export { ExchangeViews } from './exchangeViews';
export { HistoryTreeProvider, type HistoryNode } from './historyView';

export interface Workbench {
  readonly history: ExchangeHistory;
  readonly historyView: HistoryTreeProvider;
  readonly exchangeViews: ExchangeViews;
  /** The saved requests in the Testing view. */
  readonly savedTests: SavedTests;
  /** The requests of the workspace's `.http` files in the Testing view. */
  readonly httpFileTests: HttpFileTests;
  /** The commands (and the request form), loaded on first use. */
  readonly commands: LazyFeature<vscode.Disposable[]>;
  readonly disposables: vscode.Disposable[];
}

/** The history starts listening at once (activation makes no request, so it costs nothing). */
export function createHistory(memento: vscode.Memento, session: Session): ExchangeHistory {
  const history = new ExchangeHistory(memento, session);
  // Copy as Code and Compare find earlier sessions' exchanges (after a reload) in the history.
  session.useArchive(() => history.all());
  return history;
}

export function registerWorkbench(extensionUri: vscode.Uri, session: Session, history: ExchangeHistory, recordViews: RecordViews): Workbench {
  const exchangeViews = new ExchangeViews(extensionUri, session, history, recordViews);
  const historyView = new HistoryTreeProvider(history);
  const treeView = vscode.window.createTreeView('healthData.history', { treeDataProvider: historyView, showCollapseAll: true });
  historyView.view = treeView;
  const describe = () => {
    treeView.description = historyView.viewDescription();
  };
  describe();
  const commands = new LazyFeature({
    name: 'workbench',
    commands: ['healthData.showExchange', 'healthData.clearHistory', 'healthData.newRequest', 'healthData.editAndResend', 'healthData.sendAgain', 'healthData.saveRequest', 'healthData.renameSavedRequest', 'healthData.removeSavedRequest', 'healthData.exportSavedRequests', 'healthData.importSavedRequests', 'healthData.runSavedRequests', 'healthData.runSavedRequest', 'healthData.setExpectedStatus', 'healthData.setTimeLimit', 'healthData.setFailOn', 'healthData.sendHttpFile'],
    load: () => (require('./commands') as typeof import('./commands')).registerWorkbenchCommands({ session, history, views: exchangeViews }),
    disposables: (d) => d,
  });
  // A run loads the workbench's bundle (its commands stay as they are, registered when first used).
  const savedTests = registerSavedTests(history, session, (controller, request, token, environment) =>
    (require('./commands') as typeof import('./commands')).runSavedTests(session, history, controller, request, token, environment),
  );
  const workbench = () => require('./commands') as typeof import('./commands');
  const httpFileTests = new HttpFileTests(session, (controller, request, token, environment) => workbench().runHttpFileTests(session, controller, request, token, environment), (controller) => new (workbench().HttpFileList)(controller));
  const lenses = new HttpFileLenses(session, history);
  const disposables: vscode.Disposable[] = [
    lenses,
    vscode.languages.registerCodeLensProvider(HTTP_FILE_SELECTOR, lenses),
    history,
    savedTests,
    httpFileTests,
    historyView,
    treeView,
    history.onDidChange(describe),
    exchangeViews,
    ...exchangeViews.register(),
    commands,
  ];
  return { history, historyView, exchangeViews, savedTests, httpFileTests, commands, disposables };
}
