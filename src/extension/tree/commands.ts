// The Records view's commands. Each takes optional arguments (a node from a menu, or plain
// values from a script or a test) and asks only for what it was not given.

import * as vscode from 'vscode';
import { isResourceKind, ResourceKind } from '../../core/resources';
import { registerCommands } from '../shared/commands';
import { showError } from '../shared/showError';
import { customRangeProblem, daysProblem, DateRange, humanProblem, lastDays, promptDateRange, promptHuman, promptSource, sourceProblem } from './filters';
import { copyRecordId, copyRecordJson, openRecord } from '../recordView/recordActions';
import { openAsJsonDocument } from '../shared/documents';
import type { RecordViews } from '../recordView/recordViews';
import type { RecordsTreeProvider } from './recordsTreeProvider';

export interface DateRangeArgs {
  days?: number;
  start?: string;
  end?: string;
}

export interface SourceArgs {
  source?: string;
}

export interface HumanArgs {
  humanId?: string;
}

interface RecordRef {
  kind: ResourceKind;
  record: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object';

/** A node from a menu or click, `{kind, record}` from another module, or the tree's selection. */
function recordOf(tree: RecordsTreeProvider, arg: unknown): RecordRef | undefined {
  if (isObject(arg)) {
    if (arg.type === 'record' && isObject(arg.node)) {
      const node = arg.node as { kind: ResourceKind; record: unknown };
      return { kind: node.kind, record: node.record };
    }
    if (isResourceKind(arg.kind) && 'record' in arg) return { kind: arg.kind, record: arg.record };
  }
  const selected = tree.selection.find((n) => n.type === 'record');
  return selected?.type === 'record' ? { kind: selected.node.kind, record: selected.node.record } : undefined;
}

/** The resource a node (an error, a "load more", a root) belongs to, or `{kind}` given by a script. */
function kindOf(arg: unknown): ResourceKind | undefined {
  if (!isObject(arg)) return undefined;
  if (isResourceKind(arg.kind)) return arg.kind;
  if (typeof arg.type === 'string' && isObject(arg.node) && isResourceKind((arg.node as { kind?: unknown }).kind)) return (arg.node as { kind: ResourceKind }).kind;
  return undefined;
}

/** The range the arguments ask for, or a message saying why they cannot be used. */
function rangeFromArgs(args: DateRangeArgs): DateRange | string {
  if (args.days !== undefined) return daysProblem(args.days) ?? lastDays(args.days);
  const problem = customRangeProblem(args.start, args.end);
  return problem ?? { start: args.start!.trim(), end: args.end!.trim() };
}

export function registerTreeCommands(tree: RecordsTreeProvider, recordViews: RecordViews): vscode.Disposable[] {
  const noRecord = () => {
    void vscode.window.showInformationMessage(vscode.l10n.t('Select a record in the Health Data view first.'));
    return false;
  };

  const setDateRange = async (args?: DateRangeArgs): Promise<boolean> => {
    let range: DateRange | undefined;
    if (isObject(args) && ('days' in args || 'start' in args || 'end' in args)) {
      const r = rangeFromArgs(args);
      if (typeof r === 'string') {
        // Refused as given: the tree keeps its range.
        void vscode.window.showErrorMessage(vscode.l10n.t('Date range not changed: {0}', r));
        return false;
      }
      range = r;
    } else {
      range = await promptDateRange(tree.dateRange);
    }
    if (!range) return false;
    await tree.setDateRange(range);
    return true;
  };

  const setSourceFilter = async (args?: SourceArgs): Promise<boolean> => {
    let source: string | undefined;
    if (isObject(args) && !('type' in args)) {
      source = typeof args.source === 'string' ? args.source.trim() : undefined;
      const problem = source ? sourceProblem(source) : undefined;
      if (problem) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Source filter not changed: {0}', problem));
        return false;
      }
    } else {
      const choice = await promptSource(tree.sourcesSeen(), tree.sourceFilter, tree.offersBeforeFilter('source'));
      if (!choice) return false;
      source = choice.source;
    }
    await tree.setSource(source || undefined);
    return true;
  };

  /** `{humanId}` from a script, a record's menu (its human), or the pick list; one check for all. */
  const setHumanFilter = async (args?: HumanArgs | unknown): Promise<boolean> => {
    let human: string | undefined;
    const fromRecord = isObject(args) && args.type === 'record' ? recordOf(tree, args) : undefined;
    if (fromRecord) {
      const h = isObject(fromRecord.record) ? fromRecord.record.humanId : undefined;
      if (typeof h !== 'string') {
        void vscode.window.showErrorMessage(vscode.l10n.t('Human filter not changed: this record has no humanId.'));
        return false;
      }
      human = h;
    } else if (isObject(args) && !('type' in args)) {
      human = typeof args.humanId === 'string' ? args.humanId.trim() : undefined;
    } else {
      const choice = await promptHuman(tree.humansSeen(), tree.humanFilter, tree.offersBeforeFilter('human'));
      if (!choice) return false;
      human = choice.human;
    }
    // An empty id from a script clears the filter, as an empty source does; a record's empty humanId is refused.
    const problem = human || fromRecord ? humanProblem(human ?? '') : undefined;
    if (problem) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Human filter not changed: {0}', problem));
      return false;
    }
    await tree.setHuman(human?.trim() || undefined);
    return true;
  };

  return registerCommands(
    {
      'healthData.refresh': async () => {
        await tree.refresh();
        return true;
      },
      'healthData.loadMore': async (arg?: unknown) => {
        await tree.loadMore(kindOf(arg));
        return true;
      },
      'healthData.retry': async (arg?: unknown) => {
        await tree.retry(kindOf(arg));
        return true;
      },
      'healthData.setDateRange': setDateRange,
      'healthData.setSourceFilter': setSourceFilter,
      // The same command with the filled filter icon, shown in the toolbar while a source filter is on.
      'healthData.changeSourceFilter': setSourceFilter,
      'healthData.clearSourceFilter': async () => {
        await tree.setSource(undefined);
        return true;
      },
      'healthData.setHumanFilter': setHumanFilter,
      // The same command with the filled person icon, shown in the toolbar while a human filter is on.
      'healthData.changeHumanFilter': setHumanFilter,
      // On a record's menu: that record's human, no question asked.
      'healthData.filterByRecordHuman': setHumanFilter,
      'healthData.clearHumanFilter': async () => {
        await tree.setHuman(undefined);
        return true;
      },
      'healthData.groupByDate': async () => {
        await tree.setGroupBy('date');
        return true;
      },
      'healthData.groupByResource': async () => {
        await tree.setGroupBy('resource');
        return true;
      },
      'healthData.openRecord': async (arg?: unknown) => {
        const ref = recordOf(tree, arg);
        if (!ref) return noRecord();
        openRecord(recordViews, ref.kind, ref.record);
        return true;
      },
      'healthData.openAsJson': async (arg?: unknown) => {
        const ref = recordOf(tree, arg);
        if (!ref) return noRecord();
        await openAsJsonDocument(ref.record);
        return true;
      },
      'healthData.copyJson': async (arg?: unknown) => {
        const ref = recordOf(tree, arg);
        return ref ? copyRecordJson(ref.record) : noRecord();
      },
      'healthData.copyId': async (arg?: unknown) => {
        const ref = recordOf(tree, arg);
        return ref ? copyRecordId(ref.record) : noRecord();
      },
    },
    (err) => showError(tree.session, err),
  );
}
