// Code lenses in `.http` and `.rest` files (REST Client's and httpYac's format): above each request
// that is one of the service's, "Send with Health Data" sends it through the environment in use
// (the extension adds its token) and opens its exchange, validated; "Edit…" opens it in the New
// Request form first. Once the request has been sent through that environment (from the lens or
// any other way), a third lens shows its last reply (`200 OK · 14 ms`) and opens its exchange. A
// request the form would refuse (a limit of 5000) says why instead, and opens the form to fix
// it. Requests to other services get no lens. A file with two or more has "Send All N" on its
// first line (httpFileSend.ts). The file is read by the workbench's bundle (dist/workbench.js),
// loaded with the first such file.

import * as vscode from 'vscode';
import { statusLine } from '../../core/service';
import { type HistoryEntry, requestLine } from '../../core/workbench';
import type { Session } from '../account/session';
import type { ExchangeHistory } from './history';
import { MAX_HTTP_FILE_CHARS } from './httpFiles';
import { OUTCOME_ICONS, outcomeWords, rowOutcome } from './historyView';

export class HttpFileLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly listeners: vscode.Disposable[];

  constructor(
    private readonly session: Session,
    private readonly history: ExchangeHistory,
  ) {
    this.listeners = [
      // A reply came (or the history was cleared): the last reply's lens.
      history.onDidChange(() => this.changed.fire()),
      // The token's header or parameter (what is left out) and the switch itself; the environment named in the tooltips.
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('healthData')) this.changed.fire();
      }),
      session.onDidChange(() => this.changed.fire()),
    ];
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (vscode.workspace.getConfiguration('healthData', document.uri).get<boolean>('httpFiles.codeLens') === false) return [];
    const text = document.getText();
    if (text.length > MAX_HTTP_FILE_CHARS) return [];
    const { httpFileLensRequests } = require('./commands') as typeof import('./commands');
    const environment = this.session.active?.name;
    const lenses: vscode.CodeLens[] = [];
    const requests = httpFileLensRequests(text);
    const sendable = requests.filter((r) => r.problem === undefined).length;
    if (sendable >= 2) {
      lenses.push(
        new vscode.CodeLens(document.lineAt(0).range, {
          title: `$(run-all) ${vscode.l10n.t('Send All {0} with Health Data', sendable)}`,
          command: 'healthData.sendHttpFile',
          arguments: [document.uri],
          tooltip: environment
            ? vscode.l10n.t('Sends the file\'s {0} requests of the service one after another through {1}; each reply shows beside its request', sendable, environment)
            : vscode.l10n.t('Sends the file\'s {0} requests of the service one after another; each reply shows beside its request', sendable),
        }),
      );
    }
    for (const request of requests) {
      if (request.line >= document.lineCount) continue;
      const range = document.lineAt(request.line).range;
      const notes = request.notes.join(' ');
      const edit: vscode.Command = {
        title: vscode.l10n.t('Edit…'),
        command: 'healthData.newRequest',
        arguments: [{ draft: request.draft, edit: true, notes: request.notes }],
        tooltip: vscode.l10n.t('Opens {0} in the New Request form before it is sent', request.target),
      };
      if (request.problem !== undefined) {
        lenses.push(new vscode.CodeLens(range, { ...edit, title: `$(error) ${vscode.l10n.t('Health Data: {0}', request.problem)}`, tooltip: vscode.l10n.t('Opens the request in the New Request form to fix it') }));
        continue;
      }
      const where = environment ? vscode.l10n.t('Sends {0} through {1}; the extension adds its token.', request.target, environment) : vscode.l10n.t('Sends {0}; the extension adds its token.', request.target);
      lenses.push(
        new vscode.CodeLens(range, {
          title: `$(play) ${vscode.l10n.t('Send with Health Data')}`,
          command: 'healthData.newRequest',
          arguments: [{ draft: request.draft }],
          tooltip: notes ? `${where} ${notes}` : where,
        }),
        new vscode.CodeLens(range, edit),
      );
      const last = environment === undefined ? undefined : this.lastReply(request.target, environment);
      if (last) lenses.push(new vscode.CodeLens(range, replyLens(last, environment!, request.expectStatus)));
    }
    return lenses;
  }

  /** The newest exchange of the history that sent this method, path and query through `environment`. */
  private lastReply(target: string, environment: string): HistoryEntry | undefined {
    return this.history.all().find((e) => e.environment === environment && e.endpoint !== undefined && requestLine(e) === target);
  }

  dispose(): void {
    for (const l of this.listeners) l.dispose();
    this.changed.dispose();
  }
}

/** `$(pass) 200 OK · 14 ms`, which opens the exchange; with `?? status == N`, whether it is N. */
function replyLens(entry: HistoryEntry, environment: string, expected: number | undefined): vscode.Command {
  const outcome = rowOutcome(entry);
  const status = entry.status === undefined ? vscode.l10n.t('no reply') : statusLine(entry.status, entry.statusText);
  const when = new Date(entry.startedAt).toLocaleTimeString(vscode.env.language);
  const tooltip = vscode.l10n.t('The last reply to this request through {0}, at {1} ({2}): opens its exchange', environment, when, outcomeWords(outcome));
  const command = { command: 'healthData.showExchange', arguments: [{ exchangeId: entry.id }], tooltip };
  if (expected === undefined) return { ...command, title: `$(${OUTCOME_ICONS[outcome][0]}) ${status} · ${entry.durationMs} ms` };
  const met = entry.status === expected;
  return {
    ...command,
    title: `$(${met ? 'pass' : 'error'}) ${status} · ${entry.durationMs} ms · ${met ? vscode.l10n.t('as expected') : vscode.l10n.t('expected {0}', expected)}`,
  };
}
