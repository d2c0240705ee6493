// The History view: the requests saved by name first (Saved), then the workspace's last
// exchanges, newest first, under one node per local day, each with an icon for how it ended. A
// click opens the exchange; the context menu resends it, saves it, renames or removes a saved one.

import * as vscode from 'vscode';
import { ExchangeOutcome, HistoryEntry, groupByDay, outcomeOf, requestLine } from '../../core/workbench';
import { localToday } from '../requests/prompts';
import { addDays } from '../../core/dates';
import type { ExchangeHistory } from './history';
import { statusLine } from '../../core/service';
import { failRuleWords } from './failRules';

/**
 * A row of the History view. An exchange's row carries `exchangeId`, so that any command given
 * it from a context menu reads it as every exchange command's `{ exchangeId }` argument.
 */
export type HistoryNode =
  | { readonly type: 'saved'; readonly entries: readonly HistoryEntry[] }
  | { readonly type: 'day'; readonly day: string; readonly entries: readonly HistoryEntry[] }
  | { readonly type: 'exchange'; readonly entry: HistoryEntry; readonly exchangeId: string };

/**
 * `expects 404, first byte ≤ 500 ms, fails on unusual`, or undefined when the request expects any
 * 2xx in any time and fails on errors alone (Set Expected Status…, Set Time Limit…, Set Findings
 * That Fail…): the History row's and the Testing view's words.
 */
export function expectationWords(entry: HistoryEntry): string | undefined {
  const words = [
    entry.expectStatus === undefined ? '' : vscode.l10n.t('expects {0}', entry.expectStatus),
    entry.timeLimitMs === undefined ? '' : vscode.l10n.t('first byte ≤ {0} ms', entry.timeLimitMs),
    entry.failOn?.length ? vscode.l10n.t('fails on {0}', entry.failOn.join(', ')) : '',
  ].filter(Boolean);
  return words.length ? words.join(', ') : undefined;
}

/** How a row's exchange ended: the service's outcome, or a saved request's expected refusal met. */
type RowOutcome = ExchangeOutcome | 'expected';

/** How an exchange ended as its row says it: a saved request's refusal it expects is no failure. */
export function rowOutcome(e: HistoryEntry): RowOutcome {
  return e.savedAs !== undefined && e.expectStatus !== undefined && e.status === e.expectStatus ? 'expected' : outcomeOf(e);
}

/** Each outcome's codicon and its colour: the History view's rows, an .http file's last reply. */
export const OUTCOME_ICONS: Record<RowOutcome, [string, string]> = {
  ok: ['pass', 'testing.iconPassed'],
  expected: ['pass', 'testing.iconPassed'],
  retried: ['history', 'editorWarning.foreground'],
  clientError: ['warning', 'editorWarning.foreground'],
  failed: ['error', 'errorForeground'],
};

/** The outcome as a screen reader says it. */
export function outcomeWords(outcome: RowOutcome): string {
  switch (outcome) {
    case 'ok':
      return vscode.l10n.t('succeeded');
    case 'expected':
      return vscode.l10n.t('refused as expected');
    case 'retried':
      return vscode.l10n.t('succeeded after retries');
    case 'clientError':
      return vscode.l10n.t('refused');
    case 'failed':
      return vscode.l10n.t('failed');
  }
}

export class HistoryTreeProvider implements vscode.TreeDataProvider<HistoryNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<HistoryNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly subscription: vscode.Disposable;
  /** The History view this provider fills (the tests read its description). */
  view: vscode.TreeView<HistoryNode> | undefined;

  constructor(private readonly history: ExchangeHistory) {
    this.subscription = history.onDidChange(() => this.changeEmitter.fire(undefined));
  }

  /**
   * The view's description: the requests of the history, then the saved ones apart
   * (`12 requests · 2 saved`), as the view lists them; none when the view is empty.
   */
  viewDescription(): string | undefined {
    const all = this.history.all();
    const saved = this.history.saved().length;
    const recent = all.length - saved;
    const words: string[] = [];
    if (recent > 0) words.push(recent === 1 ? vscode.l10n.t('1 request') : vscode.l10n.t('{0} requests', recent));
    if (saved > 0) words.push(vscode.l10n.t('{0} saved', saved));
    return words.length ? words.join(' · ') : undefined;
  }

  getChildren(node?: HistoryNode): HistoryNode[] {
    if (!node) {
      // Saved by name, as people look for them; the rest by time.
      const saved = this.history.savedByName();
      const days = groupByDay(
        this.history.all().filter((e) => e.savedAs === undefined),
        (ms) => -new Date(ms).getTimezoneOffset(),
      ).map(({ day, entries }): HistoryNode => ({ type: 'day', day, entries }));
      return saved.length ? [{ type: 'saved', entries: saved }, ...days] : days;
    }
    return node.type === 'exchange' ? [] : node.entries.map((entry) => ({ type: 'exchange', entry, exchangeId: entry.id }));
  }

  getTreeItem(node: HistoryNode): vscode.TreeItem {
    if (node.type === 'saved') {
      const item = new vscode.TreeItem(vscode.l10n.t('Saved'), vscode.TreeItemCollapsibleState.Expanded);
      item.id = 'saved';
      item.description = node.entries.length === 1 ? vscode.l10n.t('1 request') : vscode.l10n.t('{0} requests', node.entries.length);
      item.contextValue = 'historySaved';
      return item;
    }
    if (node.type === 'day') {
      const today = localToday();
      const label = node.day === today ? vscode.l10n.t('Today') : node.day === addDays(today, -1) ? vscode.l10n.t('Yesterday') : node.day || vscode.l10n.t('Undated');
      const item = new vscode.TreeItem(label, node.day === today ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `day:${node.day}`;
      item.description = node.entries.length === 1 ? vscode.l10n.t('1 request') : vscode.l10n.t('{0} requests', node.entries.length);
      item.contextValue = 'historyDay';
      return item;
    }
    const e = node.entry;
    // A saved request's refusal that a run expects is a pass, not a warning.
    const outcome = rowOutcome(e);
    const [icon, color] = OUTCOME_ICONS[outcome];
    const request = requestLine(e);
    // A saved request by its name, the request beside it; the others by their request.
    const item = new vscode.TreeItem(e.savedAs ?? request, vscode.TreeItemCollapsibleState.None);
    item.id = `exchange:${e.id}`;
    const status = e.status !== undefined ? String(e.status) : vscode.l10n.t('failed');
    const time = new Date(e.startedAt).toLocaleTimeString(vscode.env.language, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    const retries = e.attempts.length > 1 ? ` · ${vscode.l10n.t('{0} attempts', e.attempts.length)}` : '';
    const expects = expectationWords(e);
    // The status first, as on the other rows: a narrow sidebar cuts the request, not the verdict.
    item.description = e.savedAs !== undefined ? `${status}${expects ? ` (${expects})` : ''} · ${request}` : `${status} · ${e.durationMs} ms${retries} · ${time}`;
    item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
    item.contextValue = e.savedAs !== undefined ? 'savedExchange' : 'exchange';
    item.command = { command: 'healthData.showExchange', title: vscode.l10n.t('Show Exchange'), arguments: [{ exchangeId: e.id }] };
    const firstByte = e.attempts[e.attempts.length - 1]?.timings?.firstByteMs;
    // Plain text: a URL's `_` and `-` stay as they are, and nothing in it becomes a link.
    item.tooltip = [
      e.savedAs !== undefined ? `${vscode.l10n.t('Saved as')}: ${e.savedAs}` : '',
      e.savedAs !== undefined ? `${vscode.l10n.t('A run expects')}: ${e.expectStatus !== undefined ? statusLine(e.expectStatus) : vscode.l10n.t('a 2xx whose records break no rule')}${e.timeLimitMs !== undefined ? `, ${vscode.l10n.t('the first byte within {0} ms', e.timeLimitMs)}` : ''}` : '',
      e.savedAs !== undefined && e.failOn?.length ? `${vscode.l10n.t('A run also fails on')}: ${e.failOn.map(failRuleWords).join(', ')}` : '',
      `${e.method} ${e.url}`,
      `${status} ${e.statusText ?? ''} · ${e.durationMs} ms · ${e.startedAt}`,
      firstByte !== undefined ? vscode.l10n.t('First byte after {0} ms', firstByte) : '',
      e.requestId ? `${vscode.l10n.t('Request id')}: ${e.requestId}` : '',
      e.environment ? `${vscode.l10n.t('Environment')}: ${e.environment}` : '',
      e.error?.message ?? '',
    ]
      .filter(Boolean)
      .join('\n');
    item.accessibilityInformation = { label: `${e.savedAs !== undefined ? `${e.savedAs}, ` : ''}${request}, ${status}, ${expects ? `${expects}, ` : ''}${outcomeWords(outcome)}, ${e.durationMs} ms, ${time}` };
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }
}
