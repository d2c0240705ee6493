// What an empty resource says and offers: which filter emptied it (the human, the source, the
// dates, or nothing at all on the service), the range by name and dates, where the records are
// when that was learnt, and actions as rows: go to those dates, clear the human or the source
// filter, set another range.

import * as vscode from 'vscode';
import { addDays, isCalendarDate } from '../../core/dates';
import { ResourceKind, resource } from '../../core/resources';
import { DateRange, MAX_DAYS, describeRangeInFull, shortHumanId } from './filters';
import type { LoadedRecords } from './loadedRecords';

export interface EmptyText {
  readonly label: string;
  readonly description: string | undefined;
  readonly tooltip: string;
}

export interface EmptyAction {
  readonly label: string;
  readonly icon: string;
  readonly tooltip?: string;
  readonly command: vscode.Command;
}

/** Days in a range, both ends counted. */
function lengthOf(range: DateRange): number {
  return range.days ?? Math.round((Date.parse(`${range.end}T00:00:00Z`) - Date.parse(`${range.start}T00:00:00Z`)) / 86_400_000) + 1;
}

export function emptyText(store: LoadedRecords, kind: ResourceKind): EmptyText {
  const { range, source, human } = store.currentFilter;
  const { span } = store.state(kind);
  const plural = resource(kind).label.toLowerCase();
  const inRange = describeRangeInFull(range);
  const none = span !== undefined && span.newest === undefined && span.count === 0;
  let label: string;
  let tooltip: string;
  if (human !== undefined) {
    // The human filter named first: it is the narrowest, and the one a user forgets is on.
    const who = shortHumanId(human);
    if (none) label = source !== undefined ? vscode.l10n.t('No records of human {0} from source {1}, at any date', who, source) : vscode.l10n.t('No records of human {0}, at any date', who);
    else label = source !== undefined ? vscode.l10n.t('No records of human {0} from source {1} in {2}', who, source, inRange) : vscode.l10n.t('No records of human {0} in {1}', who, inRange);
    tooltip = none
      ? vscode.l10n.t('The human filter emptied this list: the service has no {0} of human {1} at all. Clear the human filter to see every human\'s.', plural, human)
      : vscode.l10n.t('The filters apply together: human {0}, {1} and the dates {2}.', human, source !== undefined ? vscode.l10n.t('source {0}', source) : vscode.l10n.t('any source'), inRange);
  } else if (source !== undefined && none) {
    label = vscode.l10n.t('No records from source {0}, at any date', source);
    tooltip = vscode.l10n.t('The source filter emptied this list: the service has no {0} from {1} at all. Clear the source filter to see the others.', plural, source);
  } else if (source !== undefined) {
    label = vscode.l10n.t('No records from source {0} in {1}', source, inRange);
    tooltip = vscode.l10n.t('Both filters apply: source {0} and the dates {1}.', source, inRange);
  } else if (none) {
    label = vscode.l10n.t('The service has no {0}, at any date', plural);
    tooltip = vscode.l10n.t('The service answered an empty list without any filter: no dates narrowed it.');
  } else {
    label = vscode.l10n.t('No records in {0}', inRange);
    tooltip = vscode.l10n.t('The date range emptied this list: the service has no {0} from {1} to {2}.', plural, range.start, range.end);
  }
  let description: string | undefined;
  if (span?.newest !== undefined) {
    description = span.oldest !== undefined && span.oldest !== span.newest
      ? vscode.l10n.t('records from {0} to {1}', span.oldest, span.newest)
      : vscode.l10n.t('newest record: {0}', span.newest);
    tooltip += '\n\n' + vscode.l10n.t('Without the date filter the service has {0}, dated {1} to {2}.', span.count !== undefined ? String(span.count) : vscode.l10n.t('some'), span.oldest ?? span.newest, span.newest);
  }
  return { label, description, tooltip };
}

export function emptyActions(store: LoadedRecords, kind: ResourceKind): EmptyAction[] {
  const { range, source, human } = store.currentFilter;
  const { span } = store.state(kind);
  const actions: EmptyAction[] = [];
  const newest = span?.newest;
  if (newest !== undefined && isCalendarDate(newest) && (newest < range.start || newest > range.end)) {
    const days = Math.min(lengthOf(range), MAX_DAYS);
    const start = addDays(newest, -(days - 1));
    actions.push({
      label: vscode.l10n.t('Jump to {0} – {1} (the newest {2} days with records)', start, newest, days),
      icon: 'arrow-right',
      command: { command: 'healthData.setDateRange', title: vscode.l10n.t('Set Date Range'), arguments: [{ start, end: newest }] },
    });
    const oldest = span?.oldest;
    if (oldest !== undefined && oldest < start && lengthOf({ start: oldest, end: newest }) <= MAX_DAYS) {
      actions.push({
        label: vscode.l10n.t('Show every date with records: {0} – {1}', oldest, newest),
        icon: 'calendar',
        command: { command: 'healthData.setDateRange', title: vscode.l10n.t('Set Date Range'), arguments: [{ start: oldest, end: newest }] },
      });
    }
  }
  if (human !== undefined) {
    actions.push({
      label: vscode.l10n.t('Clear the human filter ({0})', shortHumanId(human)),
      icon: 'clear-all',
      tooltip: human,
      command: { command: 'healthData.clearHumanFilter', title: vscode.l10n.t('Clear Human Filter') },
    });
  }
  if (source !== undefined) {
    actions.push({
      label: vscode.l10n.t('Clear the source filter ({0})', source),
      icon: 'clear-all',
      command: { command: 'healthData.clearSourceFilter', title: vscode.l10n.t('Clear Source Filter') },
    });
  }
  actions.push({
    label: vscode.l10n.t('Set Date Range…'),
    icon: 'calendar',
    tooltip: vscode.l10n.t('The last 7, 30 or 90 days, or any range up to ten years'),
    command: { command: 'healthData.setDateRange', title: vscode.l10n.t('Set Date Range') },
  });
  return actions;
}
