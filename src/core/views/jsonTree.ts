// A record's JSON as the record view shows it: a tree of nodes, each with its JSON Pointer and the
// validator's marks. Large containers are left collapsed and unbuilt, and their children are
// built a page at a time when someone opens them, so building costs little whatever the size.

import type { Finding, FindingKind } from '../validation/findings';
import { pointerToken, tokenName } from '../json';

export type JsonNodeType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' | 'missing' | 'other';

export interface ViewMark {
  readonly kind: FindingKind;
  readonly message: string;
}

export interface JsonNode {
  /** JSON Pointer of the value within the record ('' for the record itself). */
  readonly pointer: string;
  /** The DOM id of the node: unique per pointer, safe in an id attribute. */
  readonly anchorId: string;
  /** Property name, or array index; absent for the record itself. */
  readonly key?: string | number;
  readonly type: JsonNodeType;
  /** Scalars: the value as JSON text (strings quoted), cut to MAX_TEXT characters. */
  readonly text?: string;
  /** Scalars: how many characters were cut from `text`. */
  readonly cut?: number;
  /** Containers: how many children there are. */
  readonly count?: number;
  /** Containers: the children built so far, in order; absent when they are built on demand. */
  children?: JsonNode[];
  /** Containers: shown closed at first (large, deep, or with many children). */
  readonly collapsed?: boolean;
  /** Findings on this very value; absent when none. */
  marks?: ViewMark[];
  /** How many findings lie below this node (told on a closed container). */
  readonly nested?: number;
}

/** One page of a container's children, as a reply to opening it. */
export interface ChildPage {
  readonly pointer: string;
  readonly offset: number;
  readonly nodes: JsonNode[];
  /** Children of the container, placeholders for missing fields included. */
  readonly total: number;
}

/** Containers with more children than this are closed and paged. */
export const PAGE_SIZE = 200;
/** Containers estimated larger than this (bytes of JSON) are closed and built on demand. */
export const LARGE_BYTES = 50_000;
/** Nodes deeper than this are closed and built on demand (no stack overflow on hostile nesting). */
export const MAX_DEPTH = 64;
/** Longest scalar text sent to the view; the rest is counted, and Copy JSON has it whole. */
export const MAX_TEXT = 2_000;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * A DOM id for a pointer, usable as is in a CSS selector: letters, digits and '-' stay, any
 * other character becomes `_hex_` (so '/zones/0' is `j_2f_zones_2f_0`, one id per pointer).
 */
export function anchorOf(pointer: string): string {
  return `j${pointer.replace(/[^A-Za-z0-9-]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)}`;
}

/** The property names of a JSON Pointer, decoded (RFC 6901). */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map(tokenName);
}

const isContainer = (v: unknown): v is object => v !== null && typeof v === 'object';

/** The value at a pointer, or `absent` when nothing is there. */
export function resolvePointer(root: unknown, pointer: string): { found: boolean; value?: unknown } {
  let value = root;
  for (const token of pointerTokens(pointer)) {
    if (Array.isArray(value)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= value.length) return { found: false };
      value = value[Number(token)];
    } else if (isContainer(value) && hasOwn.call(value, token)) {
      value = (value as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value };
}

/**
 * Estimated size of a value as JSON, counted until it passes `limit` (then some number above it).
 * Each step adds at least one, so the work is bounded by `limit`, not by the value's size.
 */
export function estimateSize(value: unknown, limit: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const v = stack.pop();
    if (typeof v === 'string') size += v.length + 2;
    else if (typeof v === 'number') size += 8;
    else if (typeof v === 'boolean') size += 5;
    else if (Array.isArray(v)) {
      size += 2;
      for (let i = 0; i < v.length && size <= limit; i++) {
        size += 1;
        stack.push(v[i]);
      }
    } else if (isContainer(v)) {
      size += 2;
      for (const k in v) {
        if (!hasOwn.call(v, k)) continue;
        size += k.length + 4;
        stack.push((v as Record<string, unknown>)[k]);
        if (size > limit) break;
      }
    } else size += 4;
  }
  return size;
}

function countChildren(v: object): number {
  if (Array.isArray(v)) return v.length;
  let n = 0;
  for (const k in v) if (hasOwn.call(v, k)) n++;
  return n;
}

/** The JSON type a value shows as in the record view (one rule for the tree and the row model). */
export function typeOf(v: unknown): JsonNodeType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'other';
  }
}

/** A field the validator says is missing: shown as a placeholder under its parent. */
interface Placeholder {
  readonly key: string;
  readonly pointer: string;
}

/** Whether a value is at `pointer`: the common case (no `~` escapes) without decoding tokens. */
function exists(root: unknown, pointer: string): boolean {
  if (pointer === '') return true;
  if (pointer.includes('~')) return resolvePointer(root, pointer).found;
  let value = root;
  let from = 1;
  for (;;) {
    const end = pointer.indexOf('/', from);
    const to = end < 0 ? pointer.length : end;
    if (Array.isArray(value)) {
      const i = indexAt(pointer, from, to);
      if (i < 0 || i >= value.length) return false;
      value = value[i];
    } else {
      const token = pointer.slice(from, to);
      if (!isContainer(value) || !hasOwn.call(value, token)) return false;
      value = (value as Record<string, unknown>)[token];
    }
    if (end < 0) return true;
    from = end + 1;
  }
}

/** The first index in a sorted array whose string is not below `key`. */
function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The findings of one record (or a list of them) arranged for building nodes: sorted by pointer,
 * so a pointer's marks and the count below it are binary searches, not maps built for every
 * ancestor of every finding (a list of 100,000 records has hundreds of thousands of findings).
 */
export class FindingIndex {
  private readonly pointers: string[];
  private readonly marks: ViewMark[];
  private readonly missing = new Map<string, Placeholder[]>();

  constructor(record: unknown, findings: readonly Finding[]) {
    const entries: Array<{ pointer: string; mark: ViewMark; order: number }> = [];
    for (let n = 0; n < findings.length; n++) {
      const f = findings[n];
      let pointer = f.path;
      if (!exists(record, pointer)) pointer = this.placeMissing(record, pointer);
      entries.push({ pointer, mark: { kind: f.kind, message: f.message }, order: n });
    }
    // By pointer, then in the validator's order (errors first) for the marks of one field.
    entries.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : a.order - b.order));
    this.pointers = entries.map((e) => e.pointer);
    this.marks = entries.map((e) => e.mark);
  }

  /** A missing field: a placeholder under the deepest ancestor that is a container. Returns where its marks go. */
  private placeMissing(record: unknown, pointer: string): string {
    const tokens = pointerTokens(pointer);
    let depth = tokens.length - 1;
    let parent: string | undefined;
    for (; depth >= 0; depth--) {
      const candidate = tokens.slice(0, depth).map((t) => `/${pointerToken(t)}`).join('');
      const at = resolvePointer(record, candidate);
      if (at.found) {
        parent = isContainer(at.value) ? candidate : undefined;
        break;
      }
    }
    if (parent === undefined) return '';
    const list = this.missing.get(parent) ?? [];
    if (!list.some((p) => p.pointer === pointer)) list.push({ key: tokens.slice(depth).join('/'), pointer });
    this.missing.set(parent, list);
    return pointer;
  }

  marksAt(pointer: string): ViewMark[] | undefined {
    const from = lowerBound(this.pointers, pointer);
    let to = from;
    while (to < this.pointers.length && this.pointers[to] === pointer) to++;
    return to > from ? this.marks.slice(from, to) : undefined;
  }

  /** How many findings lie below `pointer` (not on it): those whose pointer starts with `pointer/`. */
  countBelow(pointer: string): number {
    // '0' follows '/' in code units: [p/, p0) is exactly the pointers that start with `p/`.
    return lowerBound(this.pointers, `${pointer}0`) - lowerBound(this.pointers, `${pointer}/`);
  }

  missingUnder(pointer: string): readonly Placeholder[] {
    return this.missing.get(pointer) ?? [];
  }
}

/** Objects with more keys than this get their key positions from a map, not a search. */
const KEY_SEARCH_LIMIT = 32;

/**
 * The findings in the order their places appear in the record view (a container's children in
 * order, then the placeholders of its missing fields), the validator's order kept among the
 * findings of one place: the order of the findings list and of Previous/Next Finding, as F8
 * walks an editor's problems. The validator reports schema errors first, then the field walk.
 * Without `index` (no tree to show), missing fields follow their object's fields in the
 * validator's order.
 */
export function inDocumentOrder(record: unknown, findings: readonly Finding[], index?: FindingIndex): readonly Finding[] {
  const n = findings.length;
  if (n < 2) return findings;
  // Each finding's positions, one after another in one list: no array per finding.
  const positions = new DocumentPositions(record, index);
  const starts = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    positions.add(findings[i].path);
    starts[i + 1] = positions.at.length;
  }
  const at = positions.at;
  const top = (i: number): number => (starts[i + 1] > starts[i] ? at[starts[i]] : -1);
  const compare = (a: number, b: number): number => {
    const ea = starts[a + 1];
    const eb = starts[b + 1];
    for (let i = starts[a], j = starts[b]; i < ea && j < eb; i++, j++) if (at[i] !== at[j]) return at[i] - at[j];
    return ea - starts[a] - (eb - starts[b]) || a - b; // a container before what it holds, then the validator's order
  };
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // A list's findings come record by record: then each record's findings sort alone.
  let grouped = true;
  for (let i = 1; i < n && grouped; i++) grouped = top(i) >= top(i - 1);
  if (!grouped) order.sort(compare);
  else {
    let start = 0;
    for (let i = 1; i <= n; i++) {
      if (i < n && top(i) === top(start)) continue;
      sortRange(order, start, i, compare);
      start = i;
    }
  }
  let moved = false;
  for (let i = 0; i < n && !moved; i++) moved = order[i] !== i;
  return moved ? order.map((i) => findings[i]) : findings;
}

/** Sorts `list[from, to)` by `compare`: by insertion when short (a record's few findings). */
function sortRange(list: number[], from: number, to: number, compare: (a: number, b: number) => number): void {
  if (to - from > 16) {
    const part = list.slice(from, to).sort(compare);
    for (let i = 0; i < part.length; i++) list[from + i] = part[i];
    return;
  }
  for (let i = from + 1; i < to; i++) {
    const item = list[i];
    let j = i - 1;
    for (; j >= from && compare(list[j], item) > 0; j--) list[j + 1] = list[j];
    list[j + 1] = item;
  }
}

/** Where a pointer's value sits in the view: its child position at each depth. */
class DocumentPositions {
  /** The object last looked in, and its keys: a record's findings come together. */
  private lastObject: object | undefined;
  private lastKeys: string[] = [];
  private readonly large = new WeakMap<object, Map<string, number>>();

  constructor(
    private readonly record: unknown,
    private readonly index: FindingIndex | undefined,
  ) {}

  /** The positions of the pointers added, each pointer's after the one before. */
  readonly at: number[] = [];

  /** Adds where `pointer` sits: its child position at each depth, to `at`. */
  add(pointer: string): void {
    const at = this.at;
    let value = this.record;
    // Token by token, read in place: a list of 100,000 records has hundreds of thousands.
    for (let from = 1; from <= pointer.length; ) {
      if (!isContainer(value)) break; // under a scalar: the finding marks the deepest container
      let to = pointer.indexOf('/', from);
      if (to < 0) to = pointer.length;
      let position = -1;
      let count: number;
      let token: string | undefined;
      if (Array.isArray(value)) {
        count = value.length;
        position = indexAt(pointer, from, to);
        if (position >= count) position = -1;
      } else {
        token = tokenName(pointer.slice(from, to));
        const keys = this.keysOf(value);
        count = keys.length;
        position = keys.length > KEY_SEARCH_LIMIT ? (this.large.get(value)?.get(token) ?? -1) : keys.indexOf(token);
      }
      if (position < 0) {
        // Missing: its placeholder follows the container's children.
        const placeholder = this.index?.missingUnder(pointer.slice(0, from - 1)).findIndex((p) => p.pointer === pointer) ?? 0;
        at.push(count + Math.max(0, placeholder));
        break;
      }
      at.push(position);
      value = token === undefined ? (value as unknown[])[position] : (value as Record<string, unknown>)[token];
      from = to + 1;
    }
  }

  private keysOf(value: object): string[] {
    if (value !== this.lastObject) {
      this.lastObject = value;
      this.lastKeys = Object.keys(value);
      if (this.lastKeys.length > KEY_SEARCH_LIMIT && !this.large.has(value)) this.large.set(value, new Map(this.lastKeys.map((k, i) => [k, i])));
    }
    return this.lastKeys;
  }
}

/** The array index written in `pointer[from, to)` (0, or digits without a leading 0), or -1. */
function indexAt(pointer: string, from: number, to: number): number {
  if (to === from || to - from > 15 || (pointer.charCodeAt(from) === 48 && to - from > 1)) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = pointer.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Builds nodes of one record; `childPage` answers the view when it opens a closed container. */
export class JsonTreeBuilder {
  constructor(
    private readonly record: unknown,
    private readonly index: FindingIndex,
  ) {}

  /** The record itself: always open, with its first page of children built. */
  root(): JsonNode {
    const node = this.node(this.record, '', undefined, 0, false, true);
    return node;
  }

  /** A page of the children of the container at `pointer`; undefined when there is none there. */
  childPage(pointer: string, offset: number): ChildPage | undefined {
    const at = resolvePointer(this.record, pointer);
    if (!at.found || !isContainer(at.value)) return undefined;
    const depth = pointerTokens(pointer).length;
    return this.page(at.value, pointer, Math.max(0, Math.floor(offset)), depth + 1, false);
  }

  private page(container: object, pointer: string, offset: number, depth: number, small: boolean): ChildPage {
    const nodes: JsonNode[] = [];
    const end = offset + PAGE_SIZE;
    let i = 0;
    if (Array.isArray(container)) {
      for (i = offset; i < container.length && i < end; i++) {
        nodes.push(this.node(container[i], `${pointer}/${i}`, i, depth, small, false));
      }
      i = container.length;
    } else {
      for (const k in container) {
        if (!hasOwn.call(container, k)) continue;
        if (i >= offset && i < end) {
          nodes.push(this.node((container as Record<string, unknown>)[k], `${pointer}/${pointerToken(k)}`, k, depth, small, false));
        }
        i++;
        // Past the page: only the count is still needed.
        if (i >= end && !small) {
          i = countChildren(container);
          break;
        }
      }
    }
    const missing = this.index.missingUnder(pointer);
    for (let m = 0; m < missing.length; m++) {
      const position = i + m;
      if (position >= offset && position < end) {
        const p = missing[m];
        nodes.push({ pointer: p.pointer, anchorId: anchorOf(p.pointer), key: p.key, type: 'missing', marks: this.index.marksAt(p.pointer) });
      }
    }
    return { pointer, offset, nodes, total: i + missing.length };
  }

  private node(value: unknown, pointer: string, key: string | number | undefined, depth: number, small: boolean, isRoot: boolean): JsonNode {
    const type = typeOf(value);
    const marks = this.index.marksAt(pointer);
    const base = { pointer, anchorId: anchorOf(pointer), key, type };
    if (type === 'object' || type === 'array') {
      const container = value as object;
      const count = countChildren(container) + this.index.missingUnder(pointer).length;
      // Once a container is known to be small, so is everything in it: no measuring below it.
      const fits = small || (count <= PAGE_SIZE && estimateSize(container, LARGE_BYTES) <= LARGE_BYTES);
      const open = isRoot || (fits && count <= PAGE_SIZE && depth < MAX_DEPTH);
      const nested = this.index.countBelow(pointer);
      const node: JsonNode = { ...base, count, collapsed: !open || undefined, marks, nested: nested || undefined };
      if (open) node.children = this.page(container, pointer, 0, depth + 1, fits && !isRoot).nodes;
      return node;
    }
    if (type === 'string') {
      const s = value as string;
      const cut = s.length > MAX_TEXT ? s.length - MAX_TEXT : 0;
      return { ...base, text: JSON.stringify(cut ? s.slice(0, MAX_TEXT) : s), cut: cut || undefined, marks };
    }
    if (type === 'other') return { ...base, text: typeof value, marks };
    return { ...base, text: String(value), marks };
  }
}
