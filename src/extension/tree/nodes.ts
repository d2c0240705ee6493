// The tree's nodes: what each level holds (taken from the models the store built) and how each
// looks as a TreeItem. Node ids are stable keys, so expansion and selection survive a reload.

import * as vscode from 'vscode';
import { RESOURCES, ResourceKind, resource } from '../../core/resources';
import { DateNode, MonthNode, RecordNode, RecordTree, dateLabel, statusOf, tooltipMarkdown } from '../../core/views';
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
    if (!loading && model.count === 0 && RESOURCES.every(({ kind }) => this.store.state(kind).loaded)) out.push(this.empty(undefined));
    return out;
  }

  children(node: TreeItemNode): TreeItemNode[] {
    switch (node.type) {
      case 'resource':
        return this.resourceChildren(node.kind, node);
      case 'month':
        return node.month.dates.map((date) => ({ type: 'date', id: `d/${node.scope}/${date.date}`, parent: node, scope: node.scope, date }));
      case 'date':
        return node.date.groups.flatMap((g) => g.records.map((r) => this.recordNode(node.scope, r, node)));
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
    if (state.loaded && !state.loading && model.count === 0) out.push(this.empty(parent));
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

  private empty(parent: TreeItemNode | undefined): TreeItemNode {
    return { type: 'message', id: parent ? `empty/${parent.id}` : 'empty', parent, label: vscode.l10n.t('No records in this date range'), icon: 'info' };
  }
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

const STATUS_ICONS = {
  error: () => new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
  warning: () => new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
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
      item.description = String(countMonth(node.month));
      item.contextValue = 'month';
      return withId(item, node);
    }
    case 'date': {
      const item = new vscode.TreeItem(dateLabel(node.date.date), Collapsed);
      item.iconPath = new vscode.ThemeIcon('calendar');
      item.description = String(countDate(node.date));
      item.tooltip = node.date.date;
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
      const label = node.scope === 'all' ? `${resource(node.node.kind).shortLabel} · ${node.node.label}` : node.node.label;
      const item = new vscode.TreeItem(label, None);
      const status = statusOf(node.node);
      item.iconPath = STATUS_ICONS[status]();
      item.description = node.node.description || undefined;
      item.contextValue = 'record';
      item.accessibilityInformation = { label: `${label}, ${statusText(status)}` };
      item.command = { command: 'healthData.openRecord', title: vscode.l10n.t('Open Record'), arguments: [node] };
      return withId(item, node);
    }
    case 'loadMore': {
      const state = store.state(node.kind);
      const shown = state.records.length;
      const count = state.total !== undefined ? vscode.l10n.t('{0} of {1}', shown, state.total) : vscode.l10n.t('{0} loaded', shown);
      const label = node.parent ? vscode.l10n.t('Load more ({0})', count) : vscode.l10n.t('Load more {0} ({1})', resource(node.kind).label.toLowerCase(), count);
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

/** The record's tooltip: Markdown from the model, untrusted and without HTML. */
export function recordTooltip(node: RecordItemNode): vscode.MarkdownString {
  const md = new vscode.MarkdownString(tooltipMarkdown(node.node));
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

function statusText(status: 'error' | 'warning' | 'clean'): string {
  return status === 'error' ? vscode.l10n.t('breaks the schema') : status === 'warning' ? vscode.l10n.t('has warnings') : vscode.l10n.t('clean');
}

function withId(item: vscode.TreeItem, node: TreeItemNode): vscode.TreeItem {
  item.id = node.id;
  return item;
}
