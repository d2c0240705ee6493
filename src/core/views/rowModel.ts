// A large record or a list of records as the rows of a virtual list: one line per scalar, per
// closed container and per bracket of an open one. Only the open containers are kept (with the
// row count of what they show), so finding row N, a window of rows, or the row of a pointer costs
// the depth of the JSON times a binary search, whatever the size of the value.

import { pointerToken } from '../json';
import { FindingIndex, JsonNodeType, LARGE_BYTES, MAX_DEPTH, MAX_TEXT, PAGE_SIZE, ViewMark, estimateSize, pointerTokens, typeOf } from './jsonTree';

/** One line of the virtual list, as the webview draws it (every value as text). */
export interface JsonRow {
  readonly index: number;
  /** Nesting level: 0 for the root's line. */
  readonly depth: number;
  readonly pointer: string;
  /** Property name (cut to MAX_TEXT) or array index; absent on the root and on closing lines. */
  readonly key?: string | number;
  readonly type: JsonNodeType;
  /** Scalars: the value as JSON text, cut to MAX_TEXT characters. */
  readonly text?: string;
  readonly cut?: number;
  /** Non-empty containers: how many children they have. */
  readonly count?: number;
  /** Non-empty containers: whether their children follow (open) or not. */
  readonly open?: boolean;
  /** The closing bracket line of an open container. */
  readonly close?: true;
  /** No comma after this value. */
  readonly last: boolean;
  readonly marks?: ViewMark[];
  /** Closed containers: how many findings lie inside. */
  readonly nested?: number;
  /** A list's records: their title (`Heart rate 2026-11-20 · fitbit`). */
  readonly label?: string;
}

export interface RowModelOptions {
  /** The pointer of a list of records in the value ('' or `/data`): its items start closed and carry a label. */
  readonly list?: string;
  /** The label of the list's record at `index`, when it is closed. */
  readonly labelOf?: (index: number, value: unknown) => string | undefined;
}

/** The most rows one window may hold: a screen and its overscan, never the whole value. */
export const MAX_WINDOW = 500;

const hasOwn = Object.prototype.hasOwnProperty;
const isContainer = (v: unknown): v is object => v !== null && typeof v === 'object';

/** An open container: its children and, of those, the open ones with the rows they take. */
class Frame {
  readonly keys: string[] | undefined;
  readonly length: number;
  readonly count: number;
  private keyIndex: Map<string, number> | undefined;
  /** Open children by position. */
  readonly open = new Map<number, Frame>();
  /** Positions of the open children, ascending, and the extra rows before each (lazily). */
  private sorted: number[] | undefined;
  private prefix: number[] | undefined;
  /** Rows this container takes: its two bracket lines and everything between. */
  size: number;

  constructor(
    readonly value: object,
    readonly pointer: string,
    readonly depth: number,
    readonly missing: ReadonlyArray<{ readonly key: string; readonly pointer: string }>,
    readonly parent: Frame | undefined,
    readonly position: number,
  ) {
    this.keys = Array.isArray(value) ? undefined : Object.keys(value);
    this.length = Array.isArray(value) ? value.length : (this.keys as string[]).length;
    this.count = this.length + missing.length;
    this.size = this.count + 2;
  }

  child(position: number): { value: unknown; pointer: string; key: string | number; missing: boolean } {
    if (position >= this.length) {
      const m = this.missing[position - this.length];
      return { value: undefined, pointer: m.pointer, key: m.key, missing: true };
    }
    if (this.keys === undefined) return { value: (this.value as unknown[])[position], pointer: `${this.pointer}/${position}`, key: position, missing: false };
    const key = this.keys[position];
    return { value: (this.value as Record<string, unknown>)[key], pointer: `${this.pointer}/${pointerToken(key)}`, key, missing: false };
  }

  /** The position of the child a pointer token names; -1 when there is none. */
  positionOf(token: string): number {
    if (this.keys === undefined) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return -1;
      const i = Number(token);
      return i < this.length ? i : -1;
    }
    if (this.keys.length <= 32) return this.keys.indexOf(token);
    if (!this.keyIndex) {
      this.keyIndex = new Map();
      this.keys.forEach((k, i) => this.keyIndex?.set(k, i));
    }
    return this.keyIndex.get(token) ?? -1;
  }

  private arranged(): { sorted: number[]; prefix: number[] } {
    if (!this.sorted || !this.prefix) {
      this.sorted = [...this.open.keys()].sort((a, b) => a - b);
      this.prefix = [0];
      for (const p of this.sorted) this.prefix.push(this.prefix[this.prefix.length - 1] + (this.open.get(p) as Frame).size - 1);
    }
    return { sorted: this.sorted, prefix: this.prefix };
  }

  /** The open children changed, or the size of one did. */
  invalidate(): void {
    this.sorted = undefined;
    this.prefix = undefined;
  }

  /** Row of the child at `position`, counted from this container's opening line. */
  offsetOf(position: number): number {
    const { sorted, prefix } = this.arranged();
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid] < position) lo = mid + 1;
      else hi = mid;
    }
    return 1 + position + prefix[lo];
  }

  /** What is at row `r` (0 < r < size - 1) of this container: a child, or a row inside one. */
  locate(r: number): { position: number; inside?: Frame; rest: number } {
    const { sorted, prefix } = this.arranged();
    const q = r - 1;
    // The last open child starting at or before q.
    let lo = 0;
    let hi = sorted.length - 1;
    let k = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid] + prefix[mid] <= q) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (k >= 0) {
      const start = sorted[k] + prefix[k];
      const frame = this.open.get(sorted[k]) as Frame;
      if (q < start + frame.size) return { position: sorted[k], inside: q === start ? undefined : frame, rest: q - start };
      return { position: q - prefix[k + 1], rest: 0 };
    }
    return { position: q, rest: 0 };
  }
}

/** The rows of one value (a record or a list of them) and which of its containers are open. */
export class RowModel {
  private readonly root: Frame | undefined;

  constructor(
    private readonly value: unknown,
    private readonly index: FindingIndex,
    private readonly options: RowModelOptions = {},
  ) {
    if (isContainer(value) && this.countOf(value, '') > 0) {
      this.root = this.frame(value, '', 0, undefined, 0);
      // A wrapped list (`{"data": [...]}`) is what the person came for: open it.
      if (options.list) this.reveal(`${options.list}/0`);
    }
  }

  /** How many rows there are now. */
  get total(): number {
    return this.root ? this.root.size : 1;
  }

  /** Rows `start` to `start + count` (at most MAX_WINDOW of them), as far as there are rows. */
  window(start: number, count: number): JsonRow[] {
    const from = Math.max(0, Math.min(Math.floor(start), this.total));
    const to = Math.min(this.total, from + Math.max(0, Math.min(Math.floor(count), MAX_WINDOW)));
    const rows: JsonRow[] = [];
    for (let i = from; i < to; i++) rows.push(this.rowAt(i));
    return rows;
  }

  /** The row at `index` (0 ≤ index < total). */
  rowAt(index: number): JsonRow {
    if (!this.root) return this.leafRow(index, this.value, '', undefined, 0, true);
    let frame = this.root;
    let r = index;
    for (;;) {
      if (r === 0) return this.openRow(index, frame);
      if (r === frame.size - 1) return this.closeRow(index, frame);
      const at = frame.locate(r);
      if (at.inside) {
        frame = at.inside;
        r = at.rest;
        continue;
      }
      const child = frame.child(at.position);
      const open = frame.open.get(at.position);
      if (open) return this.openRow(index, open);
      return this.leafRow(index, child.value, child.pointer, child.key, frame.depth + 1, at.position === frame.count - 1, child.missing, frame.pointer === this.options.list ? at.position : undefined);
    }
  }

  /** Opens or closes the container at `pointer` (its parent must be open); whether anything changed. */
  toggle(pointer: string, open: boolean): boolean {
    const found = this.find(pointer, false);
    if (!found || found.frame === undefined) return false;
    const { frame, position } = found;
    if (position === undefined) return false; // the root stays open
    const isOpen = frame.open.has(position);
    if (isOpen === open) return false;
    if (open) return this.openChild(frame, position) !== undefined;
    this.closeChild(frame, position);
    return true;
  }

  /** Opens every container above `pointer` and returns its row; undefined when nothing is there. */
  reveal(pointer: string): number | undefined {
    const found = this.find(pointer, true);
    if (!found) return undefined;
    if (found.frame === undefined || found.position === undefined) return 0;
    return this.startOf(found.frame) + found.frame.offsetOf(found.position);
  }

  /** The row of `pointer` if it is shown now (its ancestors all open); undefined otherwise. */
  rowOf(pointer: string): number | undefined {
    const found = this.find(pointer, false);
    if (!found) return undefined;
    if (found.frame === undefined || found.position === undefined) return 0;
    return this.startOf(found.frame) + found.frame.offsetOf(found.position);
  }

  /** Whether the container at `pointer` is open now. */
  isOpen(pointer: string): boolean {
    if (pointer === '') return this.root !== undefined;
    const found = this.find(pointer, false);
    return found?.frame !== undefined && found.position !== undefined && found.frame.open.has(found.position);
  }

  private startOf(frame: Frame): number {
    let row = 0;
    for (let f = frame; f.parent; f = f.parent) row += f.parent.offsetOf(f.position);
    return row;
  }

  /**
   * The parent frame and position of `pointer`; with `openPath`, opening the containers on the
   * way. `{}` (no frame) for the root; undefined when the pointer names nothing.
   */
  private find(pointer: string, openPath: boolean): { frame?: Frame; position?: number } | undefined {
    if (pointer === '') return {};
    let frame = this.root;
    if (!frame) return undefined;
    const tokens = pointerTokens(pointer);
    for (let t = 0; t < tokens.length; t++) {
      // A missing field's placeholder may stand for several tokens (`a/b` under its nearest parent).
      const m = frame.missing.findIndex((p) => p.pointer === pointer);
      if (m >= 0) return { frame, position: frame.length + m };
      const position = frame.positionOf(tokens[t]);
      if (position < 0) return undefined;
      if (t === tokens.length - 1) return { frame, position };
      let next = frame.open.get(position);
      if (!next) {
        if (!openPath) return undefined;
        next = this.openChild(frame, position);
        if (!next) return undefined;
      }
      frame = next;
    }
    return undefined;
  }

  private countOf(value: object, pointer: string): number {
    let n = 0;
    if (Array.isArray(value)) n = value.length;
    else for (const k in value) if (hasOwn.call(value, k)) n++;
    return n + this.index.missingUnder(pointer).length;
  }

  private frame(value: object, pointer: string, depth: number, parent: Frame | undefined, position: number): Frame {
    const frame = new Frame(value, pointer, depth, this.index.missingUnder(pointer), parent, position);
    // Small children open with their parent, as in the record view of a small record; a list's
    // records stay one line each, and large or deep ones wait to be opened.
    const listRoot = this.options.list === pointer;
    if (!listRoot && frame.count <= PAGE_SIZE && depth + 1 < MAX_DEPTH) {
      for (let p = 0; p < frame.length; p++) {
        const child = frame.child(p);
        if (!isContainer(child.value)) continue;
        const count = this.countOf(child.value, child.pointer);
        if (count === 0 || count > PAGE_SIZE || estimateSize(child.value, LARGE_BYTES) > LARGE_BYTES) continue;
        const sub = this.frame(child.value, child.pointer, depth + 1, frame, p);
        frame.open.set(p, sub);
        frame.size += sub.size - 1;
      }
      frame.invalidate();
    }
    return frame;
  }

  private openChild(frame: Frame, position: number): Frame | undefined {
    const existing = frame.open.get(position);
    if (existing) return existing;
    const child = frame.child(position);
    if (child.missing || !isContainer(child.value) || this.countOf(child.value, child.pointer) === 0) return undefined;
    const sub = this.frame(child.value, child.pointer, frame.depth + 1, frame, position);
    frame.open.set(position, sub);
    this.grow(frame, sub.size - 1);
    return sub;
  }

  private closeChild(frame: Frame, position: number): void {
    const sub = frame.open.get(position);
    if (!sub) return;
    frame.open.delete(position);
    this.grow(frame, -(sub.size - 1));
  }

  /** Adds `delta` rows to a frame and every frame above it. */
  private grow(frame: Frame, delta: number): void {
    for (let f: Frame | undefined = frame; f; f = f.parent) {
      f.size += delta;
      f.invalidate();
    }
  }

  private keyText(key: string | number | undefined): string | number | undefined {
    return typeof key === 'string' && key.length > MAX_TEXT ? `${key.slice(0, MAX_TEXT)}…` : key;
  }

  private openRow(index: number, frame: Frame): JsonRow {
    const parent = frame.parent;
    const key = parent ? parent.child(frame.position).key : undefined;
    return {
      index,
      depth: frame.depth,
      pointer: frame.pointer,
      key: this.keyText(key),
      type: Array.isArray(frame.value) ? 'array' : 'object',
      count: frame.count,
      open: true,
      last: parent ? frame.position === parent.count - 1 : true,
      marks: this.index.marksAt(frame.pointer),
    };
  }

  private closeRow(index: number, frame: Frame): JsonRow {
    const parent = frame.parent;
    return { index, depth: frame.depth, pointer: frame.pointer, type: Array.isArray(frame.value) ? 'array' : 'object', close: true, last: parent ? frame.position === parent.count - 1 : true };
  }

  private leafRow(index: number, value: unknown, pointer: string, key: string | number | undefined, depth: number, last: boolean, missing = false, listIndex?: number): JsonRow {
    const marks = this.index.marksAt(pointer);
    const base = { index, depth, pointer, key: this.keyText(key), last, marks };
    if (missing) return { ...base, type: 'missing' };
    const type = typeOf(value);
    if (type === 'object' || type === 'array') {
      const count = this.countOf(value as object, pointer);
      if (count === 0) return { ...base, type };
      const nested = this.index.countBelow(pointer);
      const label = listIndex !== undefined ? this.options.labelOf?.(listIndex, value) : undefined;
      return { ...base, type, count, open: false, nested: nested || undefined, label };
    }
    if (type === 'string') {
      const s = value as string;
      const cut = s.length > MAX_TEXT ? s.length - MAX_TEXT : 0;
      return { ...base, type, text: JSON.stringify(cut ? s.slice(0, MAX_TEXT) : s), cut: cut || undefined };
    }
    if (type === 'other') return { ...base, type, text: typeof value };
    return { ...base, type, text: String(value) };
  }
}
