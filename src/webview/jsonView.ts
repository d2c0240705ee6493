// The record's JSON in the webview: pretty-printed rows, containers that open and close with a
// button, children of large containers asked from the host a page at a time, the validator's
// marks on their fields, and `reveal` to bring any field into view and flash it.

import type { ChildPage, JsonNode, RecordViewStrings } from '../core/views/recordViewProtocol';
import { appendMarks, countText, el, format } from './dom';

export interface JsonViewHost {
  readonly strings: RecordViewStrings;
  /** Asks the host for a page of a container's children. */
  fetchChildren(pointer: string, offset: number): Promise<ChildPage>;
  /** Whether the user opened (true) or closed (false) this container; undefined if untouched. */
  toggled(pointer: string): boolean | undefined;
  /** The user opened or closed a container: remember it. */
  remember(pointer: string, open: boolean): void;
}

interface ContainerView {
  readonly node: JsonNode;
  readonly element: HTMLElement;
  readonly toggle: HTMLButtonElement;
  readonly children: HTMLElement;
  readonly more: HTMLButtonElement;
  loaded: number;
  total: number;
  open: boolean;
  loading?: Promise<void>;
}

const FLASH_MS = 1600;

export class JsonView {
  private readonly containers = new Map<string, ContainerView>();
  private detached = false;

  constructor(private readonly host: JsonViewHost) {}

  /** The tree of the record, ready to insert. */
  render(root: JsonNode): HTMLElement {
    const tree = el('div', 'json');
    tree.append(this.nodeElement(root, true));
    return tree;
  }

  /** Stops applying replies that arrive after this view was replaced. */
  detach(): void {
    this.detached = true;
  }

  private nodeElement(node: JsonNode, last: boolean): HTMLElement {
    const element = el('div', 'node');
    element.id = node.anchorId;
    const row = el('div', 'row');
    row.tabIndex = -1;
    for (const m of node.marks ?? []) row.classList.add(`mark-${m.kind}`);
    element.append(row);
    // An empty object or array reads best as `{}` or `[]`, with nothing to open.
    const isContainer = (node.type === 'object' || node.type === 'array') && (node.count ?? 0) > 0;
    const toggle = isContainer ? el('button', 'toggle') : undefined;
    if (toggle) {
      toggle.type = 'button';
      row.append(toggle);
    } else {
      row.append(el('span', 'toggle-space'));
    }
    if (node.key !== undefined) {
      row.append(el('span', typeof node.key === 'number' ? 'index' : 'key', typeof node.key === 'number' ? String(node.key) : JSON.stringify(node.key)), el('span', 'punct', ': '));
    }
    const comma = last ? '' : ',';
    if (!toggle) {
      if (node.type === 'missing') row.append(el('span', 'value v-missing', this.host.strings.missing));
      else if (node.type === 'object' || node.type === 'array') row.append(el('span', 'value punct', node.type === 'object' ? '{}' : '[]'));
      else row.append(el('span', `value v-${node.type}`, node.text ?? ''));
      if (node.cut) row.append(el('span', 'cut', countText(this.host.strings.charactersCut, node.cut)));
      if (comma && node.type !== 'missing') row.append(el('span', 'punct', comma));
      this.appendMarks(row, node);
      return element;
    }
    const [open, close] = node.type === 'array' ? ['[', ']'] : ['{', '}'];
    row.append(el('span', 'punct', open));
    const summary = el('span', 'summary');
    const count = countText(node.type === 'array' ? this.host.strings.items : this.host.strings.keys, node.count ?? 0);
    summary.append(el('span', 'punct', '…'), el('span', 'punct', close + comma), el('span', 'count', count));
    if (node.nested) summary.append(el('span', 'nested', countText(this.host.strings.findingsInside, node.nested)));
    row.append(summary);
    this.appendMarks(row, node);
    const children = el('div', 'children');
    children.setAttribute('role', 'group');
    const more = el('button', 'more');
    more.type = 'button';
    more.hidden = true;
    const closing = el('div', 'row close');
    closing.append(el('span', 'toggle-space'), el('span', 'punct', close + comma));
    element.append(children, more, closing);
    const view: ContainerView = { node, element, toggle, children, more, loaded: 0, total: node.count ?? 0, open: false };
    this.containers.set(node.pointer, view);
    const name = node.key === undefined ? '/' : String(node.key);
    toggle.addEventListener('click', () => {
      const next = !view.open;
      this.host.remember(node.pointer, next);
      void this.setOpen(view, next);
    });
    more.addEventListener('click', () => void this.loadMore(view));
    toggle.dataset.name = name;
    if (node.children) this.append(view, node.children, view.total);
    const wanted = this.host.toggled(node.pointer) ?? !node.collapsed;
    void this.setOpen(view, wanted);
    return element;
  }

  private appendMarks(row: HTMLElement, node: JsonNode): void {
    appendMarks(row, node.marks);
  }

  private append(view: ContainerView, nodes: readonly JsonNode[], total: number): void {
    view.total = total;
    const hadFocus = document.activeElement === view.more;
    let first: HTMLElement | undefined;
    for (const child of nodes) {
      view.loaded++;
      const element = this.nodeElement(child, view.loaded >= total);
      first ??= element;
      view.children.append(element);
    }
    const left = view.total - view.loaded;
    view.more.hidden = left <= 0;
    view.more.textContent = format(this.host.strings.moreChildren, left);
    // The last page hides "Show more": keep the keyboard where the new rows begin.
    if (hadFocus && view.more.hidden) first?.querySelector<HTMLElement>(':scope > .row')?.focus();
  }

  private async loadMore(view: ContainerView): Promise<void> {
    if (view.loading) return view.loading;
    if (view.loaded >= view.total) return;
    view.more.textContent = this.host.strings.loading;
    view.more.hidden = false;
    view.loading = this.host
      .fetchChildren(view.node.pointer, view.loaded)
      .then((page) => {
        if (!this.detached) this.append(view, page.nodes, page.total);
      })
      .finally(() => {
        view.loading = undefined;
        // After a failure too: the button offers the rest again instead of "Loading…".
        const left = view.total - view.loaded;
        view.more.hidden = left <= 0;
        view.more.textContent = format(this.host.strings.moreChildren, left);
      });
    return view.loading;
  }

  private async setOpen(view: ContainerView, open: boolean): Promise<void> {
    view.open = open;
    view.element.classList.toggle('closed', !open);
    view.toggle.setAttribute('aria-expanded', String(open));
    view.toggle.textContent = open ? '▾' : '▸';
    view.toggle.setAttribute('aria-label', format(open ? this.host.strings.collapse : this.host.strings.expand, view.toggle.dataset.name ?? ''));
    if (open && view.loaded === 0 && view.total > 0 && view.node.children === undefined) {
      await this.loadMore(view).catch(() => undefined);
    }
  }

  /** Opens the containers down to `pointer`, loading pages as needed; the element, if found. */
  async reveal(pointer: string, anchorId: string): Promise<HTMLElement | undefined> {
    const tokens = pointer === '' ? [] : pointer.slice(1).split('/');
    const chain = tokens.map((_, i) => `/${tokens.slice(0, i + 1).join('/')}`);
    let parent = '';
    for (const next of [...chain, undefined]) {
      const view = this.containers.get(parent);
      if (view) {
        if (!view.open) {
          this.host.remember(parent, true);
          await this.setOpen(view, true);
        }
        const found = () => (next !== undefined && this.containers.has(next)) || document.getElementById(anchorId) !== null;
        while (!found() && view.loaded < view.total) {
          const before = view.loaded;
          await this.loadMore(view).catch(() => undefined);
          if (view.loaded === before) break;
        }
      }
      if (next === undefined) break;
      parent = next;
    }
    const target = document.getElementById(anchorId);
    if (!target) return undefined;
    const row = target.querySelector<HTMLElement>(':scope > .row');
    if (row) {
      row.scrollIntoView({ block: 'center' });
      row.focus({ preventScroll: true });
      row.classList.remove('flash');
      void row.offsetWidth; // restart the animation when the same field is flashed twice
      row.classList.add('flash');
      setTimeout(() => row.classList.remove('flash'), FLASH_MS);
    }
    return target;
  }
}
