// Where things are in a JSON text: syntax errors with their offsets, and the spans of the values
// at given JSON Pointers. One streaming pass over the text (a scan of its own for strict JSON,
// jsonc-parser's scanner for JSON with comments), never a whole syntax tree: no memory beyond what
// is asked for (edit.ts does the same for edits).

import { ParseErrorCode, parse as parseJsonc, printParseErrorCode, visit } from 'jsonc-parser';
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

/** The wanted pointers as a tree of their tokens; a node gets its span once the text shows it. */
interface PointerNode {
  children?: Map<string, PointerNode>;
  span?: ValueSpan;
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

/**
 * The spans of the values at the given pointers and at all their ancestors (so a missing
 * field can be shown on the object that lacks it). A pointer that is not in the text has none.
 * With duplicate keys the last one wins, as in JSON.parse.
 */
export function locatePointers(text: string, pointers: Iterable<string>, options?: JsonTextOptions): PointerSpans {
  // A tree of tokens, not a set of pointer strings: building and hashing a pointer for every
  // value of a large payload cost five times the scan itself.
  const list = Array.isArray(pointers) ? (pointers as readonly string[]) : [...pointers];
  const wanted = pointerTree(list);
  let root = wanted.root;
  const lookup: PointerSpans = {
    get(pointer: string): ValueSpan | undefined {
      let node: PointerNode | undefined = root;
      if (pointer !== '') {
        const tokens = pointer.split('/');
        for (let i = 1; i < tokens.length && node !== undefined; i++) node = node.children?.get(tokens[i]);
      }
      return node?.span;
    },
  };
  if (!wanted.any) return lookup;
  // Strict JSON (the text has parsed) takes the quick scan; should it meet anything else, the
  // spans it set are dropped and jsonc-parser's scanner reads the text instead.
  if (!options?.jsonc && scanStrictJson(text, root)) return lookup;
  if (!options?.jsonc) root = pointerTree(list).root;
  visitSpans(text, root, options);
  return lookup;
}

function pointerTree(pointers: Iterable<string>): { root: PointerNode; any: boolean } {
  const root: PointerNode = {};
  let any = false;
  for (const pointer of pointers) {
    any = true;
    if (pointer === '') continue;
    let node = root;
    const tokens = pointer.split('/');
    for (let i = 1; i < tokens.length; i++) {
      node.children ??= new Map();
      let child = node.children.get(tokens[i]);
      if (child === undefined) {
        child = {};
        node.children.set(tokens[i], child);
      }
      node = child;
    }
  }
  return { root, any };
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

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const COMMA = 44;
const COLON = 58;
const QUOTE = 34;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/**
 * The spans of the wanted nodes, in one pass of a text that is strict JSON (it parsed with
 * JSON.parse), in a single loop that V8 optimises within its first call (jsonc-parser's scanner
 * and callbacks need several calls to get there: the first validation of a document paid for it).
 * The same spans as jsonc-parser's visit. False, with some spans set, when the text is no JSON.
 */
function scanStrictJson(text: string, root: PointerNode): boolean {
  const n = text.length;
  // The open containers, one entry per depth (parallel arrays: no object per container).
  const nodes: Array<PointerNode | undefined> = [];
  const arrays: boolean[] = [];
  const opens: number[] = [];
  const keys: Array<Span | undefined> = [];
  const indexes: number[] = [];
  let depth = 0;
  let rootSeen = false;
  let expectKey = false;
  // The node of the property whose key was just read, and that key.
  let propertyNode: PointerNode | undefined;
  let propertyKey: Span | undefined;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === LF || c === CR || c === TAB || c === COLON) {
      i++;
      continue;
    }
    if (c === COMMA) {
      if (depth === 0) return false;
      expectKey = !arrays[depth - 1];
      i++;
      continue;
    }
    if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 0 || arrays[depth - 1] !== (c === CLOSE_BRACKET)) return false;
      depth--;
      const node = nodes[depth];
      if (node !== undefined) node.span = { key: keys[depth], value: { offset: opens[depth], length: i + 1 - opens[depth] }, container: true };
      expectKey = false;
      i++;
      continue;
    }
    if (expectKey) {
      if (c !== QUOTE) return false;
      const end = stringEnd(text, i);
      if (end < 0) return false;
      const children = nodes[depth - 1]?.children;
      propertyNode = undefined;
      propertyKey = undefined;
      if (children !== undefined) {
        const raw = text.slice(i + 1, end);
        const name = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        propertyNode = children.get(pointerToken(name));
        if (propertyNode !== undefined) propertyKey = { offset: i, length: end + 1 - i };
      }
      expectKey = false;
      i = end + 1;
      continue;
    }
    // A value starts here: its node (and key) from its place in its parent.
    let node: PointerNode | undefined;
    let key: Span | undefined;
    if (depth === 0) {
      if (rootSeen) return false;
      rootSeen = true;
      node = root;
    } else if (arrays[depth - 1]) {
      const index = indexes[depth - 1]++;
      const children = nodes[depth - 1]?.children;
      node = children === undefined ? undefined : children.get(String(index));
    } else {
      node = propertyNode;
      key = propertyKey;
      propertyNode = undefined;
      propertyKey = undefined;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      nodes[depth] = node;
      arrays[depth] = c === OPEN_BRACKET;
      opens[depth] = i;
      keys[depth] = key;
      indexes[depth] = 0;
      depth++;
      expectKey = c === OPEN_BRACE;
      i++;
      continue;
    }
    let end: number;
    if (c === QUOTE) {
      end = stringEnd(text, i) + 1;
      if (end === 0) return false;
    } else {
      // A number, true, false or null: up to the next delimiter.
      end = i + 1;
      for (; end < n; end++) {
        const d = text.charCodeAt(end);
        if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d === SPACE || d === LF || d === CR || d === TAB) break;
      }
    }
    if (node !== undefined) node.span = { key, value: { offset: i, length: end - i }, container: false };
    i = end;
  }
  return depth === 0 && rootSeen;
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
      return parent.node?.children?.get(String(index));
    }
    const name = parent.pendingName;
    parent.pendingName = undefined;
    const children = parent.node?.children;
    if (children === undefined || name === undefined) return undefined;
    const node = children.get(pointerToken(name));
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
      frame.node.span = { key: frame.key, value: { offset: frame.open, length: offset + length - frame.open }, container: true };
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
        if (node !== undefined) node.span = { key: enteredKey, value: { offset, length }, container: false };
      },
    },
    parseOptions(options),
  );
}
