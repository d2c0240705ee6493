// Where things are in a JSON text: syntax errors with their offsets, and the spans of the values
// at given JSON Pointers. One streaming pass over the text (a scan of its own for strict JSON,
// jsonc-parser's scanner for JSON with comments), never a whole syntax tree: no memory beyond what
// is asked for (edit.ts does the same for edits).

import { Node as JsonNode, ParseErrorCode, findNodeAtOffset, parse as parseJsonc, parseTree, printParseErrorCode, visit } from 'jsonc-parser';

export type { JsonNode };

/**
 * The syntax tree of a small text (the record a hover is over, validation/fieldHelp.ts): comments
 * and trailing commas allowed, errors passed over. Here, not there, so the hover's bundle takes
 * jsonc-parser from dist/extension.js instead of a copy of its own.
 */
export function jsonTree(text: string): JsonNode | undefined {
  return parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
}

/** The innermost node of `tree` at `offset` (its end included). */
export function jsonNodeAt(tree: JsonNode, offset: number): JsonNode | undefined {
  return findNodeAtOffset(tree, offset, true);
}
import { pointerToken } from './pointers';

export interface Span {
  readonly offset: number;
  readonly length: number;
}

export interface JsonSyntaxError extends Span {
  /** jsonc-parser's name of the error: `CommaExpected`, `ValueExpected`, `InvalidSymbol`… */
  readonly code: string;
}

export interface JsonTextOptions {
  /** Comments and trailing commas are allowed (a `jsonc` document); otherwise they are errors. */
  readonly jsonc?: boolean;
}

export interface ParsedJsonText {
  /** The value, when the text parsed without errors. */
  readonly value: unknown;
  readonly errors: readonly JsonSyntaxError[];
}

/** Enough for a person to fix a text; the rest are usually echoes of the first ones. */
export const MAX_SYNTAX_ERRORS = 100;

/** jsonc-parser's options for a text of this kind. */
export const parseOptions = (options: JsonTextOptions | undefined) => ({
  disallowComments: !options?.jsonc,
  allowTrailingComma: Boolean(options?.jsonc),
  allowEmptyContent: false,
});

/** Parses a JSON text; on failure the errors say where. Never throws. */
export function parseJsonText(text: string, options?: JsonTextOptions): ParsedJsonText {
  if (!options?.jsonc) {
    // The native parser is ten times faster and agrees with the service's own reading of a body.
    try {
      return { value: JSON.parse(text), errors: [] };
    } catch {
      // Fall through to find out where.
    }
  }
  const found: { error: ParseErrorCode; offset: number; length: number }[] = [];
  let value: unknown;
  try {
    value = parseJsonc(text, found, parseOptions(options));
  } catch {
    return { value: undefined, errors: [{ code: 'InvalidSymbol', offset: 0, length: 0 }] };
  }
  if (found.length === 0) {
    // jsonc-parser accepted what JSON.parse refused (it never should for strict JSON): say so at
    // the start rather than validate a value the service would not read.
    if (!options?.jsonc) return { value: undefined, errors: [{ code: 'InvalidSymbol', offset: 0, length: 0 }] };
    return { value, errors: [] };
  }
  // One error per place: `{"a": 1,}` is one mistake, not "property name expected" and "value expected".
  const errors: JsonSyntaxError[] = [];
  for (const e of found) {
    if (errors.length > 0 && errors[errors.length - 1].offset === e.offset) continue;
    errors.push({ code: printParseErrorCode(e.error), offset: e.offset, length: e.length });
    if (errors.length === MAX_SYNTAX_ERRORS) break;
  }
  return { value: undefined, errors };
}

/** Where one value is: its key when it is a property's value, and the value itself. */
export interface ValueSpan {
  /** The property's key, quotes included; undefined for the root and for array items. */
  readonly key?: Span;
  readonly value: Span;
  /** The value is an object or an array (its span covers the brackets). */
  readonly container: boolean;
}

/** The pointer of the parent: `/3/zones/1` → `/3/zones`; `/x` → ``. */
export function parentPointer(pointer: string): string {
  return pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));
}

/**
 * A value asked for, in a tree of the pointers' tokens: its span once the text shows it (the
 * fields of a ValueSpan, as numbers: a scan sets them on thousands of nodes, spanOf makes the
 * object), and its parent (a value that is not in the text is shown on its nearest ancestor).
 */
export interface PointerNode {
  readonly parent: PointerNode | undefined;
  /** Its children by token, those whose token is an array index (`0`, `12`) excepted… */
  children: Map<string, PointerNode> | undefined;
  /** …which are here, by index: neither an array's items nor the index of a list's records need a string or a hash. */
  items: PointerNode[] | undefined;
  /** The value's offset, -1 while the text has not shown it; its length. */
  offset: number;
  length: number;
  /** Its property's key (quotes included), keyOffset -1 for the root and array items. */
  keyOffset: number;
  keyLength: number;
  container: boolean;
}

/** A node with every field from the start: one hidden class for all nodes, whatever is set later. */
const newNode = (parent: PointerNode | undefined): PointerNode => ({ parent, children: undefined, items: undefined, offset: -1, length: 0, keyOffset: -1, keyLength: 0, container: false });

function setSpan(node: PointerNode, keyOffset: number, keyLength: number, offset: number, length: number, container: boolean): void {
  node.keyOffset = keyOffset;
  node.keyLength = keyLength;
  node.offset = offset;
  node.length = length;
  node.container = container;
}

/** A node's span, once the text has shown its value. */
export function spanOf(node: PointerNode): ValueSpan | undefined {
  if (node.offset < 0) return undefined;
  return { key: node.keyOffset < 0 ? undefined : { offset: node.keyOffset, length: node.keyLength }, value: { offset: node.offset, length: node.length }, container: node.container };
}

/** Spans looked up by JSON Pointer. */
export interface PointerSpans {
  get(pointer: string): ValueSpan | undefined;
}

interface Frame {
  /** Undefined when nothing wanted lies inside: its children cost one check each. */
  readonly node: PointerNode | undefined;
  readonly isArray: boolean;
  readonly open: number;
  readonly key: Span | undefined;
  index: number;
  /** The key just read, waiting for its value (kept as fields: no object per property). */
  pendingName: string | undefined;
  pendingOffset: number;
  pendingLength: number;
}

/** A token that names an array item: `0`, `7`, `123` (not `07` or `-`; at most 9 digits, more than a text of records can hold). */
function isIndexToken(token: string): boolean {
  const n = token.length;
  if (n === 0 || n > 9 || (n > 1 && token.charCodeAt(0) === 48)) return false;
  for (let i = 0; i < n; i++) {
    const c = token.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Distinct relative paths whose tokens `PointerQuery.below` keeps (findings repeat a few paths). */
const CACHED_PATHS = 4_096;

/**
 * The pointers whose spans one scan of a text is to find, as a tree of their tokens. `at` and
 * `below` return a pointer's node, on which the scan (locateQuery) sets the span; a caller that
 * keeps the nodes needs no lookup by pointer afterwards.
 */
export class PointerQuery {
  readonly root: PointerNode = newNode(undefined);
  /** Whether any pointer was asked for (the root included). */
  any = false;
  private readonly paths = new Map<string, readonly string[]>();

  /** A query of these pointers. */
  static of(pointers: Iterable<string>): PointerQuery {
    const query = new PointerQuery();
    for (const pointer of pointers) query.at(pointer);
    return query;
  }

  /** The node of `pointer` (`''` is the root); made, with its ancestors, when first asked. */
  at(pointer: string): PointerNode {
    this.any = true;
    if (pointer === '') return this.root;
    const tokens = pointer.split('/');
    let node = this.root;
    for (let i = 1; i < tokens.length; i++) node = childOf(node, tokens[i]);
    return node;
  }

  /**
   * The node of the pointer `path` below `base`'s: the node of base's pointer + path, the tokens
   * of a path split once. `path` is `''` (base itself) or starts with `/` (`/zones/2`).
   */
  below(base: PointerNode, path: string): PointerNode {
    this.any = true;
    if (path === '') return base;
    let tokens = this.paths.get(path);
    if (tokens === undefined) {
      tokens = path.split('/');
      if (this.paths.size < CACHED_PATHS) this.paths.set(path, tokens);
    }
    let node = base;
    for (let i = 1; i < tokens.length; i++) node = childOf(node, tokens[i]);
    return node;
  }
}

function childOf(node: PointerNode, token: string): PointerNode {
  if (isIndexToken(token)) {
    const items = (node.items ??= []);
    const index = Number(token);
    return (items[index] ??= newNode(node));
  }
  const children = (node.children ??= new Map());
  let child = children.get(token);
  if (child === undefined) {
    child = newNode(node);
    children.set(token, child);
  }
  return child;
}

/** The child of `node` at `token`, if it was asked for. */
function childAt(node: PointerNode, token: string): PointerNode | undefined {
  return isIndexToken(token) ? node.items?.[Number(token)] : node.children?.get(token);
}

/** Drops every span a scan set below `root` (a scan that gave up on a text leaves some). */
function clearSpans(root: PointerNode): void {
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    node.offset = -1;
    if (node.children !== undefined) for (const child of node.children.values()) stack.push(child);
    // for…in: the items present only, however far apart their indexes are.
    if (node.items !== undefined) for (const index in node.items) stack.push(node.items[index]);
  }
}

/**
 * The spans of the values at the given pointers and at all their ancestors (so a missing
 * field can be shown on the object that lacks it). A pointer that is not in the text has none.
 * With duplicate keys the last one wins, as in JSON.parse.
 */
export function locatePointers(text: string, pointers: Iterable<string>, options?: JsonTextOptions): PointerSpans {
  // A tree of tokens, not a set of pointer strings: building and hashing a pointer for every
  // value of a large payload cost five times the scan itself.
  const query = PointerQuery.of(pointers);
  locateQuery(text, query, options);
  return spansOf(query.root);
}

/** The spans a scan set on the tree below `root`, by pointer. */
function spansOf(root: PointerNode): PointerSpans {
  return {
    get(pointer: string): ValueSpan | undefined {
      let node: PointerNode | undefined = root;
      if (pointer !== '') {
        const tokens = pointer.split('/');
        for (let i = 1; i < tokens.length && node !== undefined; i++) node = childAt(node, tokens[i]);
      }
      return node === undefined ? undefined : spanOf(node);
    },
  };
}

/**
 * locatePointers by the quick scan alone, for a text that JSON.parse takes; undefined when the
 * scan gave up on the text (locatePointers would then read it with jsonc-parser). The tests
 * compare the two readings with it, so a fallback cannot hide a mistake of the scan.
 */
export function locateStrictJson(text: string, pointers: Iterable<string>): PointerSpans | undefined {
  const query = PointerQuery.of(pointers);
  if (!scanStrictJson(text, query.root)) return undefined;
  return spansOf(query.root);
}

/**
 * Sets the spans of `query`'s nodes inside `count` items of a list, reading a strict JSON text
 * (one that JSON.parse takes) from `from`, just after the list's `[` or after the item before
 * them: the query's `/0`, `/1`, … are those items. Returns the offset after the last of them,
 * where the reading of the next items goes on; -1 when the text is no strict JSON there.
 */
export function locateListItems(text: string, query: PointerQuery, from: number, count: number): number {
  return scanStrict(text, query.root, from, count);
}

/** The offset just after the `[` that opens a text's root list; -1 when the text is no list. */
export function rootListStart(text: string): number {
  const i = afterSpace(text, 0);
  return text.charCodeAt(i) === OPEN_BRACKET ? i + 1 : -1;
}

/**
 * The offset just after the `[` of the list that member `name` of a strict JSON text's root object
 * holds (a wrapped list, `{"data": [...]}`), read from the text's start. JSON.parse keeps the last
 * member of a name. When neither `"name"` nor a backslash (which a key written with escapes needs)
 * appears after the list opens, no other can follow and nothing more is read; else the list is
 * skipped to its end (brackets and strings only) and the members after it are read too. -1 when
 * the text is no object whose last member of that name is a list: the caller then reads the
 * whole text for where the records are.
 */
export function memberListStart(text: string, name: string): number {
  let i = afterSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) return -1;
  let start = -1;
  i++;
  for (;;) {
    i = afterSpace(text, i);
    if (text.charCodeAt(i) !== QUOTE) return -1;
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return -1;
    let key: string;
    try {
      key = keyName(text, i, keyEnd);
    } catch {
      return -1;
    }
    i = afterSpace(text, keyEnd + 1);
    if (text.charCodeAt(i) !== COLON) return -1;
    i = afterSpace(text, i + 1);
    const c = text.charCodeAt(i);
    if (key === name) {
      // The last member of the name is the one JSON.parse keeps.
      start = c === OPEN_BRACKET ? i + 1 : -1;
      if (start >= 0 && text.indexOf(`"${name}"`, start) < 0 && text.indexOf('\\', start) < 0) return start;
    }
    // The member's value skipped.
    let end: number;
    if (c === OPEN_BRACE || c === OPEN_BRACKET) end = containerEnd(text, i);
    else if (c === QUOTE) end = stringEnd(text, i);
    else end = literalEnd(text, i) - 1;
    if (end < 0) return -1;
    i = afterSpace(text, end + 1);
    const d = text.charCodeAt(i);
    if (d === CLOSE_BRACE) return start;
    if (d !== COMMA) return -1;
    i++;
  }
}

/** The offset of the first character from `i` on that is no JSON whitespace. */
function afterSpace(text: string, i: number): number {
  for (let c = text.charCodeAt(i); c === SPACE || c === LF || c === CR || c === TAB; c = text.charCodeAt(++i));
  return i;
}

/** Sets the span of every node of `query` whose value is in `text` (see locatePointers). */
export function locateQuery(text: string, query: PointerQuery, options?: JsonTextOptions): void {
  if (!query.any) return;
  // Strict JSON (the text has parsed) takes the quick scan; should it meet anything else, the
  // spans it set are dropped and jsonc-parser's scanner reads the text instead.
  if (!options?.jsonc && scanStrictJson(text, query.root)) return;
  if (!options?.jsonc) clearSpans(query.root);
  visitSpans(text, query.root, options);
}

/** The name of the key whose quotes are at `open` and `close`, its escapes read (JSON.parse throws on a bad one). */
function keyName(text: string, open: number, close: number): string {
  const raw = text.slice(open + 1, close);
  return raw.includes('\\') ? (JSON.parse(text.slice(open, close + 1)) as string) : raw;
}

/** The offset just after a number, true, false or null starting at `i`: the next delimiter's. */
function literalEnd(text: string, i: number): number {
  const n = text.length;
  let end = i + 1;
  for (; end < n; end++) {
    const d = text.charCodeAt(end);
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d === SPACE || d === LF || d === CR || d === TAB) break;
  }
  return end;
}

/** The offset of the quote that closes the string opening at `open`; -1 when it is not closed. */
function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  while (close > 0) {
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
  return -1;
}

// JSON's structural characters, by code (validation/fieldHelp.ts scans with them too).
export const SPACE = 32;
export const TAB = 9;
export const LF = 10;
export const CR = 13;
export const COMMA = 44;
export const COLON = 58;
export const QUOTE = 34;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;
export const OPEN_BRACKET = 91;
export const CLOSE_BRACKET = 93;

/**
 * The spans of the wanted nodes, in one pass of a text that is strict JSON (it parsed with
 * JSON.parse), in a single loop that V8 optimises within its first call (jsonc-parser's scanner
 * and callbacks need several calls to get there: the first validation of a document paid for it).
 * The same spans as jsonc-parser's visit. False, with some spans set, when the text is no JSON.
 */
function scanStrictJson(text: string, root: PointerNode): boolean {
  return scanStrict(text, root, 0, -1) >= 0;
}

/**
 * scanStrictJson of the whole text (`elements` -1), or of `elements` items of a list from
 * offset `from` (just after its `[`, or after the item before them), `root`'s items 0, 1, … being
 * those. Returns the offset after what it read (the text's length, or the end of the last of the
 * items), -1 when the text is no strict JSON there.
 */
function scanStrict(text: string, root: PointerNode, from: number, elements: number): number {
  const n = text.length;
  // The open containers, one entry per depth (parallel arrays: no object per container).
  const nodes: Array<PointerNode | undefined> = [];
  const arrays: boolean[] = [];
  const opens: number[] = [];
  // The key of each open container's property (keyOffsets -1: none), as numbers.
  const keyOffsets: number[] = [];
  const keyLengths: number[] = [];
  const indexes: number[] = [];
  let depth = 0;
  let rootSeen = false;
  let expectKey = false;
  // The node of the property whose key was just read, and that key.
  let propertyNode: PointerNode | undefined;
  let propertyKeyOffset = -1;
  let propertyKeyLength = 0;
  let i = from;
  const listed = elements >= 0;
  if (listed) {
    // Inside the list already: root stands for it, its items for the elements (the list
    // itself is never closed here, so it needs no opening offset or key).
    nodes[0] = root;
    arrays[0] = true;
    indexes[0] = 0;
    depth = 1;
    rootSeen = true;
  }
  while (i < n) {
    // The items asked for are read: stop after the last.
    if (listed && depth === 1 && indexes[0] === elements) return i;
    const c = text.charCodeAt(i);
    if (c === SPACE || c === LF || c === CR || c === TAB || c === COLON) {
      i++;
      continue;
    }
    if (c === COMMA) {
      if (depth === 0) return -1;
      expectKey = !arrays[depth - 1];
      i++;
      continue;
    }
    if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 0 || arrays[depth - 1] !== (c === CLOSE_BRACKET)) return -1;
      // The list ends before as many items as were asked for.
      if (listed && depth === 1) return i;
      depth--;
      const node = nodes[depth];
      if (node !== undefined) setSpan(node, keyOffsets[depth], keyLengths[depth], opens[depth], i + 1 - opens[depth], true);
      expectKey = false;
      i++;
      continue;
    }
    if (expectKey) {
      if (c !== QUOTE) return -1;
      const end = stringEnd(text, i);
      if (end < 0) return -1;
      const parent = nodes[depth - 1];
      propertyNode = undefined;
      if (parent !== undefined && (parent.children !== undefined || parent.items !== undefined)) {
        propertyNode = childAt(parent, pointerToken(keyName(text, i, end)));
        propertyKeyOffset = i;
        propertyKeyLength = end + 1 - i;
      }
      expectKey = false;
      i = end + 1;
      continue;
    }
    // A value starts here: its node (and key) from its place in its parent.
    let node: PointerNode | undefined;
    let keyOffset = -1;
    let keyLength = 0;
    if (depth === 0) {
      if (rootSeen) return -1;
      rootSeen = true;
      node = root;
    } else if (arrays[depth - 1]) {
      const index = indexes[depth - 1]++;
      node = nodes[depth - 1]?.items?.[index];
    } else {
      node = propertyNode;
      keyOffset = propertyKeyOffset;
      keyLength = propertyKeyLength;
      propertyNode = undefined;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (node === undefined || (node.children === undefined && node.items === undefined)) {
        // Nothing is wanted inside: only where it ends matters (a record whose span alone is
        // asked for, a value beside the wanted ones).
        const close = containerEnd(text, i);
        if (close < 0) return -1;
        if (node !== undefined) setSpan(node, keyOffset, keyLength, i, close + 1 - i, true);
        i = close + 1;
        continue;
      }
      nodes[depth] = node;
      arrays[depth] = c === OPEN_BRACKET;
      opens[depth] = i;
      keyOffsets[depth] = keyOffset;
      keyLengths[depth] = keyLength;
      indexes[depth] = 0;
      depth++;
      expectKey = c === OPEN_BRACE;
      i++;
      continue;
    }
    let end: number;
    if (c === QUOTE) {
      end = stringEnd(text, i) + 1;
      if (end === 0) return -1;
    } else end = literalEnd(text, i);
    if (node !== undefined) setSpan(node, keyOffset, keyLength, i, end - i, false);
    i = end;
  }
  if (listed) return depth === 1 && indexes[0] === elements ? i : -1;
  return depth === 0 && rootSeen ? i : -1;
}

/** The closing bracket expected at each depth of containerEnd. */
const closers: number[] = [];

/** The offset of the bracket that closes the container opening at `open`; -1 when none does (or the wrong one). */
function containerEnd(text: string, open: number): number {
  const n = text.length;
  let depth = 0;
  closers[0] = text.charCodeAt(open) === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
  for (let i = open + 1; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i < 0) return -1;
    } else if (c === OPEN_BRACE) closers[++depth] = CLOSE_BRACE;
    else if (c === OPEN_BRACKET) closers[++depth] = CLOSE_BRACKET;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (c !== closers[depth]) return -1;
      if (depth-- === 0) return i;
    }
  }
  return -1;
}

/** The spans of the wanted nodes as jsonc-parser's visit reads the text (comments, trailing commas). */
function visitSpans(text: string, root: PointerNode, options: JsonTextOptions | undefined): void {
  const stack: Frame[] = [];

  /** The node of a value starting now (and its key), or undefined when it is not wanted. */
  let enteredKey: Span | undefined;
  const enter = (): PointerNode | undefined => {
    enteredKey = undefined;
    const parent = stack[stack.length - 1];
    if (parent === undefined) return root;
    if (parent.isArray) {
      const index = parent.index++;
      return parent.node?.items?.[index];
    }
    const name = parent.pendingName;
    parent.pendingName = undefined;
    if (parent.node === undefined || name === undefined) return undefined;
    const node = childAt(parent.node, pointerToken(name));
    if (node !== undefined) enteredKey = { offset: parent.pendingOffset, length: parent.pendingLength };
    return node;
  };
  const openContainer = (offset: number, isArray: boolean): void => {
    const node = enter();
    stack.push({ node, isArray, open: offset, key: enteredKey, index: 0, pendingName: undefined, pendingOffset: 0, pendingLength: 0 });
  };
  const closeContainer = (offset: number, length: number): void => {
    const frame = stack.pop();
    if (frame?.node !== undefined) {
      setSpan(frame.node, frame.key ? frame.key.offset : -1, frame.key ? frame.key.length : 0, frame.open, offset + length - frame.open, true);
    }
  };

  visit(
    text,
    {
      onObjectBegin: (offset) => openContainer(offset, false),
      onObjectEnd: closeContainer,
      onArrayBegin: (offset) => openContainer(offset, true),
      onArrayEnd: closeContainer,
      onObjectProperty: (name, offset, length) => {
        const top = stack[stack.length - 1];
        if (top === undefined) return;
        top.pendingName = name;
        top.pendingOffset = offset;
        top.pendingLength = length;
      },
      onLiteralValue: (_value, offset, length) => {
        const node = enter();
        if (node !== undefined) setSpan(node, enteredKey ? enteredKey.offset : -1, enteredKey ? enteredKey.length : 0, offset, length, false);
      },
    },
    parseOptions(options),
  );
}
