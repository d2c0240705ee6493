// The tree's nodes: what each level holds (taken from the models the store built) and how each
// looks as a TreeItem. Node ids are stable keys, so expansion and selection survive a reload.

import * as vscode from 'vscode';
import { RESOURCES, ResourceKind, resource } from '../../core/resources';
import { monthOf } from '../../core/dates';
import { DateNode, MonthNode, RecordNode, RecordStatus, RecordTree, countByKind, cutText, dateLabel, findingsInWords, recordLabel, statusOf, tooltipMarkdown, validationOf } from '../../core/views';
import { errorAndWarningWords } from '../shared/findingCounts';
import { emptyActions, emptyText } from './emptyResult';
import { LoadedRecords, ResourceState } from './loadedRecords';

/** A resource (grouped by resource) or every resource at once (grouped by date first). */
export type Scope = ResourceKind | 'all';

interface Base {
  readonly id: string;
  readonly parent: TreeItemNode | undefined;
}
export type TreeItemNode = Base &
  (
    | { readonly type: 'resource'; readonly kind: ResourceKind }
    | { readonly type: 'month'; readonly scope: Scope; readonly month: MonthNode }
    | { readonly type: 'date'; readonly scope: Scope; readonly date: DateNode }
    | { readonly type: 'undated'; readonly scope: Scope; readonly records: readonly RecordNode[] }
    | { readonly type: 'record'; readonly scope: Scope; readonly node: RecordNode }
    | { readonly type: 'loadMore'; readonly kind: ResourceKind }
    /** A failed load (retry: load that again) or a list known to be incomplete. */
    | { readonly type: 'error'; readonly kind: ResourceKind | undefined; readonly message: string; readonly incomplete: boolean }
    | { readonly type: 'message'; readonly label: string; readonly icon: string; readonly tooltip?: string; readonly description?: string; readonly command?: vscode.Command; readonly contextValue?: string }
    /** A resource with no records for the filter: says which filter emptied it; its children are actions. */
    | { readonly type: 'empty'; readonly kind: ResourceKind; readonly named: boolean }
  );

export type RecordItemNode = Extract<TreeItemNode, { type: 'record' }>;

const countDate = (date: DateNode): number => date.groups.reduce((n, g) => n + g.records.length, 0);
const countMonth = (month: MonthNode): number => month.dates.reduce((n, d) => n + countDate(d), 0);

/** The children of every kind of node, read from the store's models. */
export class TreeItemNodes {
  constructor(private readonly store: LoadedRecords) {}

  resourceRoot(kind: ResourceKind): TreeItemNode {
    return { type: 'resource', id: `root/${kind}`, parent: undefined, kind };
  }

  /** Roots grouped by date first: what went wrong, then months of every resource, then "load more". */
  dateFirstRoots(): TreeItemNode[] {
    const model = this.store.dateFirst();
    const out: TreeItemNode[] = [];
    for (const { kind } of RESOURCES) out.push(...this.problems(kind, undefined, true));
    const loading = RESOURCES.some(({ kind }) => this.store.state(kind).loading && !this.store.state(kind).loaded);
    if (loading) out.push(this.loading(undefined));
    out.push(...this.modelNodes('all', model, undefined));
    for (const { kind } of RESOURCES) {
      if (this.store.state(kind).hasMore) out.push({ type: 'loadMore', id: `more/all/${kind}`, parent: undefined, kind });
    }
    for (const { kind } of RESOURCES) if (this.isEmpty(kind)) out.push({ type: 'empty', id: `empty/all/${kind}`, parent: undefined, kind, named: true });
    return out;
  }

  children(node: TreeItemNode): TreeItemNode[] {
    switch (node.type) {
      case 'resource':
        return this.resourceChildren(node.kind, node);
      case 'month':
        return node.month.dates.map((date) => ({ type: 'date', id: `d/${node.scope}/${date.date}`, parent: node, scope: node.scope, date }));
      case 'date': {
        const records: TreeItemNode[] = node.date.groups.flatMap((g) => g.records.map((r) => this.recordNode(node.scope, r, node)));
        // A day that may hold records not loaded yet offers to load them where it shows them.
        const more: TreeItemNode[] = incompleteKinds(this.store, node.scope, node.date.date).map((kind) => ({ type: 'loadMore', id: `more/${node.id}/${kind}`, parent: node, kind }));
        return [...records, ...more];
      }
      case 'empty':
        return emptyActions(this.store, node.kind).map((action, i) => ({ type: 'message', id: `${node.id}/action/${i}`, parent: node, ...action }));
      case 'undated':
        return node.records.map((r) => this.recordNode(node.scope, r, node));
      default:
        return [];
    }
  }

  recordNode(scope: Scope, node: RecordNode, parent: TreeItemNode): RecordItemNode {
    return { type: 'record', id: `r/${scope}/${node.key}`, parent, scope, node };
  }

  /** The month node of a date, under the given scope (for reveal). */
  monthNode(scope: Scope, month: MonthNode, parent: TreeItemNode | undefined): TreeItemNode {
    return { type: 'month', id: `m/${scope}/${month.month}`, parent, scope, month };
  }

  undatedNode(scope: Scope, records: readonly RecordNode[], parent: TreeItemNode | undefined): TreeItemNode {
    return { type: 'undated', id: `u/${scope}`, parent, scope, records };
  }

  private resourceChildren(kind: ResourceKind, parent: TreeItemNode): TreeItemNode[] {
    const state = this.store.state(kind);
    const out: TreeItemNode[] = [...this.problems(kind, parent, false)];
    if (state.loading && !state.loaded) out.push(this.loading(parent));
    const model = this.store.resourceModel(kind);
    out.push(...this.modelNodes(kind, model, parent));
    if (state.hasMore) out.push({ type: 'loadMore', id: `more/${kind}`, parent, kind });
    if (this.isEmpty(kind)) out.push({ type: 'empty', id: `empty/${kind}`, parent, kind, named: false });
    return out;
  }

  private modelNodes(scope: Scope, model: RecordTree, parent: TreeItemNode | undefined): TreeItemNode[] {
    const out = model.months.map((month) => this.monthNode(scope, month, parent));
    if (model.undated.length) out.push(this.undatedNode(scope, model.undated, parent));
    return out;
  }

  /** An error node for a failed load and one for a list known to be incomplete. */
  private problems(kind: ResourceKind, parent: TreeItemNode | undefined, named: boolean): TreeItemNode[] {
    const state = this.store.state(kind);
    const prefix = named ? `${resource(kind).label}: ` : '';
    const out: TreeItemNode[] = [];
    if (state.error) {
      const message =
        state.error.during === 'more'
          ? vscode.l10n.t('Loading more failed: {0}', state.error.message)
          : state.stale
            ? vscode.l10n.t('Refresh failed; showing older data: {0}', state.error.message)
            : state.error.message;
      out.push({ type: 'error', id: `error/${kind}`, parent, kind, message: prefix + message, incomplete: false });
    }
    if (state.incomplete) {
      out.push({ type: 'error', id: `incomplete/${kind}`, parent, kind, message: prefix + vscode.l10n.t('Incomplete: {0}', state.incomplete), incomplete: true });
    }
    return out;
  }

  private loading(parent: TreeItemNode | undefined): TreeItemNode {
    return { type: 'message', id: parent ? `loading/${parent.id}` : 'loading', parent, label: vscode.l10n.t('Loading…'), icon: 'loading~spin' };
  }

  /** Loaded, nothing came for the filter, and nothing was revealed there either. */
  private isEmpty(kind: ResourceKind): boolean {
    const state = this.store.state(kind);
    return state.loaded && !state.loading && !state.error && this.store.shown(kind).length === 0;
  }
}

/**
 * The resources whose records on `date` (of the scope) may not all be loaded: more pages remain
 * and the records loaded so far reach back only to that date or a later one.
 */
export function incompleteKinds(store: LoadedRecords, scope: Scope, date: string): ResourceKind[] {
  return RESOURCES.map((r) => r.kind).filter((kind) => {
    if (scope !== 'all' && scope !== kind) return false;
    const { hasMore, loadedFrom } = store.state(kind);
    return hasMore && loadedFrom !== undefined && date <= loadedFrom;
  });
}

/** Like incompleteKinds, for every date of a month. */
function incompleteKindsOfMonth(store: LoadedRecords, scope: Scope, month: string): ResourceKind[] {
  return RESOURCES.map((r) => r.kind).filter((kind) => {
    if (scope !== 'all' && scope !== kind) return false;
    const { hasMore, loadedFrom } = store.state(kind);
    return hasMore && loadedFrom !== undefined && month <= monthOf(loadedFrom);
  });
}

/** "incomplete: 50 of 90 activity summaries loaded", naming each resource not fully loaded. */
function incompleteText(store: LoadedRecords, kinds: readonly ResourceKind[]): string {
  const parts = kinds.map((kind) => {
    const state = store.state(kind);
    const label = resource(kind).label.toLowerCase();
    return state.total !== undefined
      ? vscode.l10n.t('{0} of {1} {2} loaded', state.records.length, state.total, label)
      : vscode.l10n.t('{0} {1} loaded, more to come', state.records.length, label);
  });
  return vscode.l10n.t('incomplete: {0}', parts.join('; '));
}

/** A date's or month's count, and what it may lack; its tooltip says why. */
function describeGroup(item: vscode.TreeItem, count: number, store: LoadedRecords, kinds: readonly ResourceKind[]): void {
  if (kinds.length === 0) {
    item.description = String(count);
    return;
  }
  item.description = `${count} · ${incompleteText(store, kinds)}`;
  const names = kinds.map((k) => resource(k).label.toLowerCase()).join(', ');
  item.tooltip = vscode.l10n.t('May hold {0} not loaded yet: the service has more pages. Load More brings them.', names);
}

/** "30", "30 of 90", "loading…", with "(stale: refresh failed)" when a refresh failed. */
export function describeState(state: Readonly<ResourceState>, shown: number): string {
  const parts: string[] = [];
  if (state.loaded || shown) parts.push(state.total !== undefined && state.total > shown ? vscode.l10n.t('{0} of {1}', shown, state.total) : String(shown));
  if (state.loading) parts.push(vscode.l10n.t('loading…'));
  if (state.stale) parts.push(vscode.l10n.t('(stale: refresh failed)'));
  else if (state.incomplete) parts.push(vscode.l10n.t('(incomplete)'));
  return parts.join(' ');
}

const STATUS_ICONS: Record<RecordStatus, () => vscode.ThemeIcon> = {
  error: () => new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
  warning: () => new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
  // Zeros, deprecated or unknown fields: worth a look, not wrong; never the green check.
  notes: () => new vscode.ThemeIcon('info', new vscode.ThemeColor('notificationsInfoIcon.foreground')),
  clean: () => new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
};

/** How a node looks. Records are validated here, so only when their date is expanded. */
export function treeItem(node: TreeItemNode, store: LoadedRecords): vscode.TreeItem {
  const None = vscode.TreeItemCollapsibleState.None;
  const Collapsed = vscode.TreeItemCollapsibleState.Collapsed;
  switch (node.type) {
    case 'resource': {
      const def = resource(node.kind);
      const state = store.state(node.kind);
      const item = new vscode.TreeItem(def.label, vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = new vscode.ThemeIcon(def.icon);
      item.description = describeState(state, store.shown(node.kind).length);
      item.contextValue = 'resource';
      return withId(item, node);
    }
    case 'month': {
      const item = new vscode.TreeItem(node.month.label, Collapsed);
      item.iconPath = new vscode.ThemeIcon('calendar');
      describeGroup(item, countMonth(node.month), store, incompleteKindsOfMonth(store, node.scope, node.month.month));
      item.contextValue = 'month';
      return withId(item, node);
    }
    case 'date': {
      const item = new vscode.TreeItem(dateLabel(node.date.date), Collapsed);
      item.iconPath = new vscode.ThemeIcon('calendar');
      item.tooltip = node.date.date;
      describeGroup(item, countDate(node.date), store, incompleteKinds(store, node.scope, node.date.date));
      item.contextValue = 'date';
      return withId(item, node);
    }
    case 'undated': {
      const item = new vscode.TreeItem(vscode.l10n.t('Without a usable date'), Collapsed);
      item.iconPath = new vscode.ThemeIcon('question');
      item.description = String(node.records.length);
      item.tooltip = vscode.l10n.t('Records whose date or timestamp is missing or not a real date.');
      item.contextValue = 'undated';
      return withId(item, node);
    }
    case 'record': {
      const { kind, record } = node.node;
      const tally = store.zeroTally(kind);
      // A source known from its other records loaded not to send the headline number is labelled by another ("747 kcal", not "0 steps").
      const own = recordLabel(node.node, (field) => tally.doesNotProvide(kind, record, field));
      const label = node.scope === 'all' ? `${resource(kind).shortLabel} · ${own}` : own;
      const item = new vscode.TreeItem(label, None);
      const status = statusOf(node.node);
      item.iconPath = STATUS_ICONS[status]();
      // A 0 the source's other records loaded do not have stands out: said first.
      const unusual = tally.unusual(kind, record, validationOf(node.node).findings);
      const unusualText = unusual.length ? vscode.l10n.t('unusual 0: {0}', unusual.map((f) => cutText(f, 30)).join(', ')) : '';
      const words = statusWords(node.node, status);
      item.description = [node.node.description, unusualText, words].filter(Boolean).join(' · ') || undefined;
      item.contextValue = 'record';
      item.accessibilityInformation = { label: [`${label}, ${statusText(node.node, status)}`, unusualText].filter(Boolean).join(', ') };
      item.command = { command: 'healthData.openRecord', title: vscode.l10n.t('Open Record'), arguments: [node] };
      return withId(item, node);
    }
    case 'loadMore': {
      const state = store.state(node.kind);
      const shown = state.records.length;
      const count = state.total !== undefined ? vscode.l10n.t('{0} of {1}', shown, state.total) : vscode.l10n.t('{0} loaded', shown);
      const label = node.parent?.type === 'resource' ? vscode.l10n.t('Load more ({0})', count) : vscode.l10n.t('Load more {0} ({1})', resource(node.kind).label.toLowerCase(), count);
      const item = new vscode.TreeItem(label, None);
      item.iconPath = new vscode.ThemeIcon('more');
      item.contextValue = 'loadMore';
      item.command = { command: 'healthData.loadMore', title: vscode.l10n.t('Load More'), arguments: [node] };
      return withId(item, node);
    }
    case 'error': {
      const firstLine = node.message.split(/\r?\n/)[0];
      const item = new vscode.TreeItem(firstLine.length > 120 ? `${firstLine.slice(0, 119)}…` : firstLine, None);
      item.iconPath = node.incomplete ? STATUS_ICONS.warning() : STATUS_ICONS.error();
      item.tooltip = node.message;
      // 'error' carries the inline Retry action (package.json menus).
      item.contextValue = 'error';
      return withId(item, node);
    }
    case 'empty': {
      const text = emptyText(store, node.kind);
      const item = new vscode.TreeItem(node.named ? `${resource(node.kind).label}: ${text.label}` : text.label, vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = new vscode.ThemeIcon('search-stop');
      item.description = text.description;
      item.tooltip = text.tooltip;
      item.contextValue = 'empty';
      return withId(item, node);
    }
    case 'message': {
      const item = new vscode.TreeItem(node.label, None);
      item.iconPath = new vscode.ThemeIcon(node.icon);
      item.tooltip = node.tooltip;
      item.description = node.description;
      item.command = node.command;
      item.contextValue = node.contextValue ?? 'message';
      return withId(item, node);
    }
  }
}

/** The record's tooltip: Markdown from the model (its zeros said from the source's other records loaded), untrusted and without HTML. */
export function recordTooltip(node: RecordItemNode, store: LoadedRecords): vscode.MarkdownString {
  const { kind, record } = node.node;
  const findings = store.zeroTally(kind).explain(kind, record, validationOf(node.node).findings);
  const md = new vscode.MarkdownString(tooltipMarkdown(node.node, findings));
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/** The words a record's icon stands for, read out by screen readers. */
function statusText(node: RecordNode, status: RecordStatus): string {
  if (status === 'clean') return vscode.l10n.t('clean: no findings');
  const findings = findingsInWords(validationOf(node).findings);
  return status === 'error' ? vscode.l10n.t('breaks the schema: {0}', findings) : status === 'warning' ? vscode.l10n.t('has warnings: {0}', findings) : vscode.l10n.t('notes: {0}', findings);
}

/** The findings in a few words beside the label: "5 zeros · deprecated"; nothing when clean. */
function statusWords(node: RecordNode, status: RecordStatus): string {
  if (status === 'clean') return '';
  const counts = countByKind(validationOf(node).findings);
  const parts = errorAndWarningWords(counts);
  if (counts.zero) parts.push(counts.zero === 1 ? vscode.l10n.t('1 zero') : vscode.l10n.t('{0} zeros', counts.zero));
  if (counts.deprecated) parts.push(vscode.l10n.t('deprecated'));
  if (counts.unknown) parts.push(counts.unknown === 1 ? vscode.l10n.t('1 unknown') : vscode.l10n.t('{0} unknown', counts.unknown));
  return parts.join(' · ');
}

function withId(item: vscode.TreeItem, node: TreeItemNode): vscode.TreeItem {
  item.id = node.id;
  return item;
}
