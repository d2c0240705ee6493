// A list of records or a large record in the webview: a virtual list of fixed-height rows. Only
// the rows on screen and a few around them are in the DOM; the host keeps the value and sends
// windows of rows as the list scrolls, opens and closes containers, and finds a finding's row.

import type { JsonRow, RecordViewStrings, RowWindow, FindingEntry, HostMessage } from '../core/views/recordViewProtocol';
import { appendMarks, countText, el, format } from './dom';

/** Must match `.vrow`'s height in recordView.css. */
export const ROW_HEIGHT = 22;
/** Rows drawn above and below the visible ones, so a short scroll shows no gap. */
const OVERSCAN = 10;
/** Rows asked for beyond the ones needed, so the next scroll finds them in the cache. */
const PREFETCH = 40;
/** Rows kept from earlier windows. */
const CACHE_LIMIT = 2000;
const FLASH_MS = 1600;

type RowsReply = Extract<HostMessage, { type: 'rows' }>;

export interface RowsQuery {
  readonly start: number;
  readonly count: number;
  readonly toggle?: { readonly pointer: string; readonly open: boolean };
  readonly reveal?: string;
  readonly finding?: number;
}

export interface VirtualJsonViewHost {
  readonly strings: RecordViewStrings;
  /** Asks the host for rows; rejects when the host says the record changed. */
  requestRows(query: RowsQuery): Promise<RowsReply>;
  /** F8 / Shift+F8 in the list: the next or previous finding. */
  stepFinding(direction: 1 | -1): void;
}

export class VirtualJsonView {
  private total: number;
  private readonly cache = new Map<number, JsonRow>();
  private readonly box = el('div', 'vlist json');
  private readonly spacer = el('div', 'vlist-spacer');
  private readonly layer = el('div', 'vlist-rows');
  /** The row the keyboard is on (aria-activedescendant). */
  private active = 0;
  private flashing: number | undefined;
  private frame = 0;
  private inFlight = false;
  private detached = false;

  constructor(
    private readonly host: VirtualJsonViewHost,
    first: RowWindow,
  ) {
    this.total = first.total;
    this.store(first);
    this.box.tabIndex = 0;
    this.box.setAttribute('role', 'tree');
    this.box.append(this.spacer);
    this.spacer.append(this.layer);
    this.box.addEventListener('scroll', () => this.schedule());
    this.box.addEventListener('keydown', (e) => this.onKey(e));
    this.box.addEventListener('click', (e) => this.onClick(e));
  }

  /** The list, ready to insert; it draws itself once it is in the page. */
  render(): HTMLElement {
    this.resize();
    requestAnimationFrame(() => this.update());
    return this.box;
  }

  detach(): void {
    this.detached = true;
  }

  /** Opens what holds `pointer`, scrolls its row into the middle and flashes it. */
  async reveal(pointer: string): Promise<void> {
    await this.jump({ reveal: pointer });
  }

  /** Shows the finding at `index` of all of them; resolves with it (undefined when not found). */
  async showFinding(index: number): Promise<{ index: number; total: number; entry: FindingEntry } | undefined> {
    const reply = await this.jump({ finding: index });
    return reply?.finding;
  }

  private async jump(what: Pick<RowsQuery, 'reveal' | 'finding'>): Promise<RowsReply | undefined> {
    const reply = await this.host.requestRows({ start: 0, count: this.wanted() + 2 * PREFETCH, ...what }).catch(() => undefined);
    if (!reply || this.detached) return undefined;
    this.cache.clear();
    this.apply(reply.window);
    if (reply.revealed !== undefined) {
      this.active = reply.revealed;
      this.flashing = reply.revealed;
      setTimeout(() => {
        if (this.flashing === reply.revealed) this.flashing = undefined;
        this.draw();
      }, FLASH_MS);
      this.box.scrollTop = Math.max(0, reply.revealed * ROW_HEIGHT - this.box.clientHeight / 2 + ROW_HEIGHT / 2);
      this.box.focus({ preventScroll: true });
    }
    this.update();
    // The list may be below the fold of the page: bring the row itself into sight.
    if (reply.revealed !== undefined) this.layer.querySelector(`#vrow-${reply.revealed}`)?.scrollIntoView({ block: 'nearest' });
    return reply;
  }

  private store(window: RowWindow): void {
    for (const row of window.rows) this.cache.set(row.index, row);
  }

  private apply(window: RowWindow): void {
    this.total = window.total;
    this.store(window);
    this.resize();
  }

  private resize(): void {
    this.spacer.style.height = `${this.total * ROW_HEIGHT}px`;
    this.box.setAttribute('aria-label', format(this.host.strings.jsonRows, this.total.toLocaleString('en-US')));
  }

  /** Rows that fit the list's height. */
  private wanted(): number {
    return Math.ceil((this.box.clientHeight || 600) / ROW_HEIGHT) + 2 * OVERSCAN;
  }

  private range(): { from: number; to: number } {
    const first = Math.floor(this.box.scrollTop / ROW_HEIGHT);
    const from = Math.max(0, first - OVERSCAN);
    return { from, to: Math.min(this.total, from + this.wanted()) };
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.update();
    });
  }

  /** Draws what is cached and asks for the rows that are not. */
  private update(): void {
    if (this.detached) return;
    this.draw();
    const { from, to } = this.range();
    let missing = false;
    for (let i = from; i < to && !missing; i++) missing = !this.cache.has(i);
    if (!missing || this.inFlight) return;
    this.inFlight = true;
    const start = Math.max(0, from - PREFETCH);
    void this.host
      .requestRows({ start, count: to - start + PREFETCH })
      .then(
        (reply) => {
          if (this.detached) return;
          if (this.cache.size > CACHE_LIMIT) this.cache.clear();
          this.apply(reply.window);
        },
        () => undefined,
      )
      .finally(() => {
        this.inFlight = false;
        // The list may have scrolled on while the window was on its way.
        const next = this.range();
        if (!this.detached && (next.from !== from || next.to !== to)) this.schedule();
        else this.draw();
      });
  }

  private draw(): void {
    const { from, to } = this.range();
    const rows: HTMLElement[] = [];
    for (let i = from; i < to; i++) {
      const row = this.cache.get(i);
      if (row) rows.push(this.rowElement(row));
    }
    this.layer.replaceChildren(...rows);
    if (this.active >= this.total) this.active = Math.max(0, this.total - 1);
    this.box.setAttribute('aria-activedescendant', `vrow-${this.active}`);
  }

  private rowElement(row: JsonRow): HTMLElement {
    const line = el('div', 'vrow row');
    line.id = `vrow-${row.index}`;
    line.dataset.index = String(row.index);
    line.dataset.pointer = row.pointer;
    line.setAttribute('role', 'treeitem');
    line.setAttribute('aria-level', String(row.depth + 1));
    line.style.transform = `translateY(${row.index * ROW_HEIGHT}px)`;
    line.style.paddingLeft = `${row.depth * 18 + 2}px`;
    if (row.index === this.active) line.classList.add('active');
    if (row.index === this.flashing) line.classList.add('flash');
    for (const m of row.marks ?? []) line.classList.add(`mark-${m.kind}`);
    const s = this.host.strings;
    const expandable = row.open !== undefined && !row.close;
    if (expandable) {
      line.setAttribute('aria-expanded', String(row.open));
      const toggle = el('span', 'toggle vtoggle', row.open ? '▾' : '▸');
      toggle.setAttribute('aria-hidden', 'true');
      line.append(toggle);
    } else line.append(el('span', 'toggle-space'));
    if (row.key !== undefined && !row.close) {
      line.append(el('span', typeof row.key === 'number' ? 'index' : 'key', typeof row.key === 'number' ? String(row.key) : JSON.stringify(row.key)), el('span', 'punct', ': '));
    }
    const comma = row.last ? '' : ',';
    const [openBracket, closeBracket] = row.type === 'array' ? ['[', ']'] : ['{', '}'];
    if (row.close) {
      line.append(el('span', 'punct', closeBracket + comma));
      return line;
    }
    if (row.open === true) {
      line.append(el('span', 'punct', openBracket));
      this.appendMarks(line, row);
      return line;
    }
    if (row.open === false) {
      line.append(el('span', 'punct', `${openBracket}…${closeBracket}${comma}`));
      if (row.label) line.append(el('span', 'vlabel', row.label));
      line.append(el('span', 'count', countText(row.type === 'array' ? s.items : s.keys, row.count ?? 0)));
      if (row.nested) line.append(el('span', 'nested', countText(s.findingsInside, row.nested)));
      this.appendMarks(line, row);
      return line;
    }
    if (row.type === 'missing') line.append(el('span', 'value v-missing', s.missing));
    else if (row.type === 'object' || row.type === 'array') line.append(el('span', 'value punct', row.type === 'object' ? '{}' : '[]'));
    else line.append(el('span', `value v-${row.type}`, row.text ?? ''));
    if (row.cut) line.append(el('span', 'cut', countText(s.charactersCut, row.cut)));
    if (comma && row.type !== 'missing') line.append(el('span', 'punct', comma));
    this.appendMarks(line, row);
    return line;
  }

  private appendMarks(line: HTMLElement, row: JsonRow): void {
    appendMarks(line, row.marks);
  }

  /** Opens or closes the container on row `index`. */
  private async toggle(index: number): Promise<void> {
    const row = this.cache.get(index);
    if (!row || row.open === undefined || row.close) return;
    const { from, to } = this.range();
    const reply = await this.host.requestRows({ start: from, count: to - from + PREFETCH, toggle: { pointer: row.pointer, open: !row.open } }).catch(() => undefined);
    if (!reply || this.detached) return;
    // Rows below the container moved: what was cached is stale.
    this.cache.clear();
    this.apply(reply.window);
    this.active = index;
    this.update();
  }

  private onClick(e: MouseEvent): void {
    const line = (e.target as HTMLElement).closest<HTMLElement>('.vrow');
    if (!line) return;
    const index = Number(line.dataset.index);
    this.active = index;
    if ((e.target as HTMLElement).closest('.vtoggle') || (e.target as HTMLElement).closest('.punct')) void this.toggle(index);
    else this.draw();
  }

  private moveTo(index: number): void {
    this.active = Math.max(0, Math.min(this.total - 1, index));
    const top = this.active * ROW_HEIGHT;
    if (top < this.box.scrollTop) this.box.scrollTop = top;
    else if (top + ROW_HEIGHT > this.box.scrollTop + this.box.clientHeight) this.box.scrollTop = top + ROW_HEIGHT - this.box.clientHeight;
    this.update();
  }

  private onKey(e: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.box.clientHeight / ROW_HEIGHT) - 1);
    const row = this.cache.get(this.active);
    switch (e.key) {
      case 'ArrowDown':
        this.moveTo(this.active + 1);
        break;
      case 'ArrowUp':
        this.moveTo(this.active - 1);
        break;
      case 'PageDown':
        this.moveTo(this.active + page);
        break;
      case 'PageUp':
        this.moveTo(this.active - page);
        break;
      case 'Home':
        this.moveTo(0);
        break;
      case 'End':
        this.moveTo(this.total - 1);
        break;
      case 'ArrowRight':
        if (row?.open === false) void this.toggle(this.active);
        else if (row?.open === true) this.moveTo(this.active + 1);
        break;
      case 'ArrowLeft':
        if (row?.open === true && !row.close) void this.toggle(this.active);
        break;
      case 'Enter':
      case ' ':
        void this.toggle(this.active);
        break;
      case 'F8':
        this.host.stepFinding(e.shiftKey ? -1 : 1);
        break;
      default:
        return;
    }
    e.preventDefault();
  }
}
