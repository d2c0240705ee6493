// Activation only registers: commands, the tree, the status bar. No network, no schema
// compilation and no sandbox until a user asks for them. What the first screen does not need (the
// account and request commands, insights, export, recording, copy as code, compare, validation
// reports, the workbench's commands) is registered thin and loaded on first use, each feature
// from a bundle of its own (shared/lazyFeature.ts, scripts/lazyBundles.mjs).

import * as vscode from 'vscode';
import type { InsightsViews } from './insights/commands';
import { Credentials } from './account/credentials';
import { DocumentValidator, registerPayloadValidation } from './payloadValidation';
import { RecordViews } from './recordView/recordViews';
import { registerRecordViewCommands } from './recordView/commands';
import { requestCommandIds } from './requests/commandIds';
import { LazyFeature, LazyFeatureState } from './shared/lazyFeature';
import { SandboxController } from './account/localSandbox';
import { Session } from './account/session';
import { TokenStatusBar } from './account/statusBar';
import { registerTreeCommands } from './tree/commands';
import { RecordsTreeProvider } from './tree/recordsTreeProvider';
import { ExchangeHistory, ExchangeViews, HistoryTreeProvider, createHistory, registerWorkbench } from './workbench';
import type { HttpFileTests } from './workbench/httpFileTests';
import type { SavedTests } from './workbench/savedTests';
import type { RecordingController } from './recording/recordingController';
import { COVERAGE_VIEW_TYPE, TRENDS_VIEW_TYPE } from '../core/views';

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
  /** The saved requests in the Testing view: its controller and its run profile's handler. */
  readonly savedTests: SavedTests;
  readonly httpFileTests: HttpFileTests;
  /** The data coverage and trends panels (reading it loads the insights feature). */
  readonly insights: InsightsViews;
  readonly statusBar: TokenStatusBar;
  /** Start/Stop Recording's state (reading it loads the recording feature). */
  readonly recording: RecordingController;
  /** The features loaded on first use, and whether each is loaded yet. */
  readonly lazyFeatures: readonly LazyFeatureState[];
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
  const recordViews = new RecordViews(context.extensionUri, session, history, { of: (kind) => tree.loadedOf(kind), onDidChange: tree.onDidChangeRecords });
  const workbench = registerWorkbench(context.extensionUri, session, history, recordViews);
  const statusBar = new TokenStatusBar(session);
  const payloadValidator = new DocumentValidator(log, context.asAbsolutePath('dist/validationWorker.js'));
  const account = new LazyFeature({
    name: 'account',
    commands: ['healthData.setCredentials', 'healthData.clearCredentials', 'healthData.setUserAccessToken', 'healthData.selectEnvironment', 'healthData.mintToken', 'healthData.copyToken', 'healthData.showLog', 'healthData.startSandbox', 'healthData.stopSandbox'],
    load: () => (require('./account/commands') as typeof import('./account/commands')).registerAccountCommands(session, sandbox),
    disposables: (d) => d,
  });
  const requests = new LazyFeature({
    name: 'requests',
    commands: requestCommandIds(),
    load: () => (require('./requests/commands') as typeof import('./requests/commands')).registerRequestCommands(session, tree, recordViews),
    disposables: (d) => d,
  });
  const insights = new LazyFeature({
    name: 'insights',
    commands: ['healthData.showCoverage', 'healthData.showTrends'],
    load: () => (require('./insights/commands') as typeof import('./insights/commands')).registerInsightsCommands(context.extensionUri, session, tree, recordViews),
    disposables: (f) => f.disposables,
  });
  const exporting = new LazyFeature({
    name: 'export',
    commands: ['healthData.exportRecords'],
    load: () => (require('./export/commands') as typeof import('./export/commands')).registerExportCommands(session, tree),
    disposables: (d) => d,
  });
  const recording = new LazyFeature({
    name: 'recording',
    commands: ['healthData.startRecording', 'healthData.stopRecording', 'healthData.startSandboxFromRecording'],
    load: () => {
      const feature = require('./recording') as typeof import('./recording');
      const controller = new feature.RecordingController(session);
      return { controller, disposables: [controller, ...feature.registerRecordingCommands(session, sandbox, controller)] };
    },
    disposables: (f) => f.disposables,
  });
  const copyAsCode = new LazyFeature({
    name: 'copyAsCode',
    commands: ['healthData.copyAsCode'],
    load: () => (require('./copyAsCode/commands') as typeof import('./copyAsCode/commands')).registerCopyAsCode(session),
    disposables: (d) => d,
  });
  const compare = new LazyFeature({
    name: 'compare',
    commands: ['healthData.compareExchanges'],
    load: () => (require('./compare/commands') as typeof import('./compare/commands')).registerCompare(session),
    disposables: (d) => d,
  });
  const validationReport = new LazyFeature({
    name: 'validationReport',
    commands: ['healthData.exportValidationReport'],
    load: () => (require('./validationReport') as typeof import('./validationReport')).registerValidationReport(payloadValidator),
    disposables: (d) => d,
  });
  // Coverage and trends panels come back after a reload: only a stub here; the insights bundle
  // loads when VS Code actually restores one of them.
  const restoreInsights = (which: keyof InsightsViews) => ({
    deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => {
      try {
        void insights.get().views[which].revive(panel, state);
      } catch (err) {
        // The bundle could not be loaded: no panel that cannot work; the next command says why.
        log.error(`insights could not be loaded to restore a panel: ${err instanceof Error ? err.message : String(err)}`);
        panel.dispose();
      }
    },
  });
  const insightsSerializers = [
    vscode.window.registerWebviewPanelSerializer(COVERAGE_VIEW_TYPE, restoreInsights('coverage')),
    vscode.window.registerWebviewPanelSerializer(TRENDS_VIEW_TYPE, restoreInsights('trends')),
  ];
  const lazyFeatures = [account, requests, insights, exporting, recording, copyAsCode, compare, validationReport, workbench.commands];
  context.subscriptions.push(
    log,
    credentials,
    session,
    sandbox,
    statusBar,
    tree,
    ...tree.register(),
    ...registerTreeCommands(tree, recordViews),
    ...registerPayloadValidation(log, payloadValidator),
    ...lazyFeatures.filter((f) => f !== workbench.commands),
    recordViews,
    ...recordViews.register(),
    ...registerRecordViewCommands(session, recordViews),
    ...workbench.disposables,
    ...insightsSerializers,
  );
  const activationMs = performance.now() - started;
  log.debug(`activated in ${activationMs.toFixed(1)} ms`);
  return {
    session,
    sandbox,
    tree,
    recordViews,
    history,
    historyView: workbench.historyView,
    exchangeViews: workbench.exchangeViews,
    savedTests: workbench.savedTests,
    httpFileTests: workbench.httpFileTests,
    get insights() {
      return insights.get().views;
    },
    statusBar,
    get recording() {
      return recording.get().controller;
    },
    lazyFeatures,
    logUri: context.logUri,
    globalState: context.globalState,
    workspaceState: context.workspaceState,
    activationMs,
  };
}

export async function deactivate(): Promise<void> {
  await sandboxController?.stop();
  sandboxController = undefined;
}
