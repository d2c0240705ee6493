// The insights commands: "Show Data Coverage" (from the palette, or on a resource in the Records
// view) and "Show Trends". Both read the Records view's range and source filter.

import * as vscode from 'vscode';
import { RESOURCES, ResourceKind, isResourceKind } from '../../core/resources';
import type { Session } from '../account/session';
import type { RecordViews } from '../recordView/recordViews';
import { registerCommands } from '../shared/commands';
import { showError } from '../shared/showError';
import { describeRange, lastDays } from '../tree/filters';
import type { RecordsTreeProvider } from '../tree/recordsTreeProvider';
import { CoverageView, FilterSource } from './coverageView';
import { TrendsView } from './trendsView';

export interface InsightsViews {
  readonly coverage: CoverageView;
  readonly trends: TrendsView;
}

/** The Records view's filter as the insights views take it; "last N days" moves with the calendar. */
export function treeFilters(tree: RecordsTreeProvider): FilterSource {
  return {
    insightsFilter: () => {
      const current = tree.dateRange;
      const range = current.days !== undefined ? lastDays(current.days) : current;
      return { start: range.start, end: range.end, source: tree.sourceFilter, human: tree.humanFilter, description: describeRange(range) };
    },
  };
}

/** A resource node of the Records view, `{kind}`, or a kind's name; else undefined. */
function kindOf(arg: unknown): ResourceKind | undefined {
  if (isResourceKind(arg)) return arg;
  if (arg && typeof arg === 'object' && isResourceKind((arg as { kind?: unknown }).kind)) return (arg as { kind: ResourceKind }).kind;
  return undefined;
}

/** `{cancellation}` in a command's argument (another extension or a test cancels as the notification's Cancel does). */
function cancellationOf(arg: unknown): vscode.CancellationToken | undefined {
  const token = arg && typeof arg === 'object' ? (arg as { cancellation?: unknown }).cancellation : undefined;
  return token && typeof token === 'object' && typeof (token as vscode.CancellationToken).onCancellationRequested === 'function' ? (token as vscode.CancellationToken) : undefined;
}

async function pickKind(): Promise<ResourceKind | undefined> {
  const picked = await vscode.window.showQuickPick(
    RESOURCES.map((r) => ({ label: r.label, resourceKind: r.kind })),
    { title: vscode.l10n.t('Show Data Coverage'), placeHolder: vscode.l10n.t('Which resource?') },
  );
  return picked?.resourceKind;
}

export function registerInsightsCommands(
  extensionUri: vscode.Uri,
  session: Session,
  tree: RecordsTreeProvider,
  recordViews: RecordViews,
): { views: InsightsViews; disposables: vscode.Disposable[] } {
  const deps = { extensionUri, session, filters: treeFilters(tree), recordViews };
  const views = { coverage: new CoverageView(deps), trends: new TrendsView(deps) };
  const pickKindAndShow = async () => {
    const kind = await pickKind();
    return kind ? views.coverage.show(kind) : undefined;
  };
  const disposables = registerCommands(
    {
      'healthData.showCoverage': async (arg?: unknown) => {
        const kind = kindOf(arg);
        if (!kind && arg !== undefined) session.log.debug(`Show Data Coverage: no resource in the argument (${typeof arg}: ${arg && typeof arg === 'object' ? Object.keys(arg).join(',') : String(arg)})`);
        if (!kind) return pickKindAndShow();
        return views.coverage.show(kind, cancellationOf(arg));
      },
      'healthData.showTrends': async (arg?: unknown) => {
        const a = arg && typeof arg === 'object' ? (arg as { start?: unknown; end?: unknown }) : {};
        const range = typeof a.start === 'string' && typeof a.end === 'string' ? { start: a.start, end: a.end } : undefined;
        return views.trends.show(range, cancellationOf(arg));
      },
    },
    (err) => showError(session, err),
  );
  return { views, disposables: [...disposables, views.coverage, views.trends] };
}
