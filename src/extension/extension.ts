// Activation only registers: commands, the tree, the status bar. No network, no schema
// compilation and no sandbox until a user asks for them.

import * as vscode from 'vscode';
import { registerAccountCommands } from './account/commands';
import { InsightsViews, registerInsightsCommands } from './insights/commands';
import { registerCompare } from './compare/commands';
import { registerCopyAsCode } from './copyAsCode/commands';
import { Credentials } from './account/credentials';
import { DocumentValidator, registerPayloadValidation } from './payloadValidation';
import { RecordViews } from './recordView/recordViews';
import { registerRequestCommands } from './requests/commands';
import { SandboxController } from './account/localSandbox';
import { Session } from './account/session';
import { TokenStatusBar } from './account/statusBar';
import { registerTreeCommands } from './tree/commands';
import { RecordsTreeProvider } from './tree/recordsTreeProvider';
import { registerValidationReport } from './validationReport';
import { ExchangeHistory, ExchangeViews, HistoryTreeProvider, createHistory, registerWorkbench } from './workbench';
import { registerExportCommands } from './export/commands';
import { RecordingController } from './recording/recordingController';
import { registerRecordingCommands } from './recording/commands';

export interface HealthDataExtensionApi {
  /** For the integration tests: the live session and the sandbox controller. */
  readonly session: Session;
  readonly sandbox: SandboxController;
  readonly tree: RecordsTreeProvider;
  /** The open record panels. */
  readonly recordViews: RecordViews;
  /** The request history, its view and the open exchange panels. */
  readonly history: ExchangeHistory;
  readonly historyView: HistoryTreeProvider;
  readonly exchangeViews: ExchangeViews;
  /** The data coverage and trends panels. */
  readonly insights: InsightsViews;
  readonly statusBar: TokenStatusBar;
  /** Start/Stop Recording's state. */
  readonly recording: RecordingController;
  /** The extension's mementos, which it never writes a secret to (the tests search them). */
  readonly globalState: vscode.Memento;
  readonly workspaceState: vscode.Memento;
  /** Where VS Code keeps this extension's logs (the request log's file is inside). */
  readonly logUri: vscode.Uri;
  /** Milliseconds spent in activate(), from entry to return. */
  readonly activationMs: number;
}

let sandboxController: SandboxController | undefined;

export function activate(context: vscode.ExtensionContext): HealthDataExtensionApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Health Data', { log: true });
  const credentials = new Credentials(context.secrets);
  const session = new Session(credentials, log);
  const sandbox = new SandboxController(session);
  sandboxController = sandbox;
  const tree = new RecordsTreeProvider(session, sandbox);
  const history = createHistory(context.workspaceState, session);
  const recordViews = new RecordViews(context.extensionUri, session, history);
  const workbench = registerWorkbench(context.extensionUri, session, history, recordViews);
  const statusBar = new TokenStatusBar(session);
  const payloadValidator = new DocumentValidator(log, context.asAbsolutePath('dist/validationWorker.js'));
  const recording = new RecordingController(session);
  const insights = registerInsightsCommands(context.extensionUri, session, tree, recordViews);
  context.subscriptions.push(
    log,
    credentials,
    session,
    sandbox,
    statusBar,
    tree,
    ...tree.register(),
    ...registerAccountCommands(session, sandbox),
    ...registerTreeCommands(tree, recordViews),
    ...registerRequestCommands(session, tree, recordViews),
    ...registerPayloadValidation(log, payloadValidator),
    ...registerValidationReport(payloadValidator),
    recording,
    ...registerExportCommands(session, tree),
    ...registerRecordingCommands(session, sandbox, recording),
    ...insights.disposables,
    ...registerCopyAsCode(session),
    ...registerCompare(session),
    recordViews,
    ...recordViews.register(),
    ...workbench.disposables,
  );
  const activationMs = performance.now() - started;
  log.debug(`activated in ${activationMs.toFixed(1)} ms`);
  return { session, sandbox, tree, recordViews, history, historyView: workbench.historyView, exchangeViews: workbench.exchangeViews, insights: insights.views, statusBar, recording, logUri: context.logUri, globalState: context.globalState, workspaceState: context.workspaceState, activationMs };
}

export async function deactivate(): Promise<void> {
  await sandboxController?.stop();
  sandboxController = undefined;
}
