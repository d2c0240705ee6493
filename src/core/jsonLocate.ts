// Where things are in a JSON text: syntax errors with their offsets, the spans of the values at
// given JSON Pointers, and the edits that rename or remove one property. One streaming pass of
// jsonc-parser's scanner per question, never a whole syntax tree: a 5 MB payload costs about a
// tenth of a second, not a third, and no memory beyond what is asked for.

import { ParseErrorCode, parse as parseJsonc, printParseErrorCode, visit } from 'jsonc-parser';
import { pointerToken } from './findings';

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

const parseOptions = (options: JsonTextOptions | undefined) => ({
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

interface Frame {
  /** Undefined when nothing wanted lies inside: its children are skipped cheaply. */
  readonly pointer: string | undefined;
  readonly isArray: boolean;
  readonly open: number;
  readonly key: Span | undefined;
  index: number;
  pendingKey: { name: string; span: Span } | undefined;
}

/**
 * The spans of the values at the given pointers and at all their ancestors (so a missing
 * field can be shown on the object that lacks it). A pointer that is not in the text is simply
 * absent from the map. With duplicate keys the last one wins, as in JSON.parse.
 */
export function locatePointers(text: string, pointers: Iterable<string>, options?: JsonTextOptions): Map<string, ValueSpan> {
  const wanted = new Set<string>();
  for (const pointer of pointers) {
    let p = pointer;
    while (!wanted.has(p)) {
      wanted.add(p);
      if (p === '') break;
      p = parentPointer(p);
    }
  }
  const spans = new Map<string, ValueSpan>();
  if (wanted.size === 0) return spans;
  const stack: Frame[] = [];

  /** The pointer and key of a value starting now, or undefined when it is not wanted. */
  const enter = (): { pointer: string | undefined; key: Span | undefined } => {
    const parent = stack[stack.length - 1];
    if (parent === undefined) return { pointer: '', key: undefined };
    let pointer: string | undefined;
    let key: Span | undefined;
    if (parent.isArray) {
      const index = parent.index++;
      if (parent.pointer !== undefined) pointer = `${parent.pointer}/${index}`;
    } else {
      const pending = parent.pendingKey;
      parent.pendingKey = undefined;
      if (parent.pointer !== undefined && pending !== undefined) {
        pointer = `${parent.pointer}/${pointerToken(pending.name)}`;
        key = pending.span;
      }
    }
    return pointer !== undefined && wanted.has(pointer) ? { pointer, key } : { pointer: undefined, key: undefined };
  };
  const openContainer = (offset: number, isArray: boolean): void => {
    const { pointer, key } = enter();
    stack.push({ pointer, isArray, open: offset, key, index: 0, pendingKey: undefined });
  };
  const closeContainer = (offset: number, length: number): void => {
    const frame = stack.pop();
    if (frame?.pointer !== undefined) {
      spans.set(frame.pointer, { key: frame.key, value: { offset: frame.open, length: offset + length - frame.open }, container: true });
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
        if (top !== undefined) top.pendingKey = { name, span: { offset, length } };
      },
      onLiteralValue: (_value, offset, length) => {
        const { pointer, key } = enter();
        if (pointer !== undefined) spans.set(pointer, { key, value: { offset, length }, container: false });
      },
    },
    parseOptions(options),
  );
  return spans;
}

/** A property of an object and its neighbours, for edits that rename or remove it. */
export interface PropertyContext {
  readonly name: string;
  readonly key: Span;
  /** From the key's opening quote to the end of the value. */
  readonly property: Span;
  /** Names of all properties of the same object, this one included. */
  readonly siblings: readonly string[];
  /** End of the previous property's value, if there is one. */
  readonly previousEnd: number | undefined;
  /** Start of the next property's key, if there is one. */
  readonly nextStart: number | undefined;
  /** The object's braces: offset of `{` and of `}`. */
  readonly open: number;
  readonly close: number;
}

interface ObjectFrame {
  readonly open: number;
  readonly isArray: boolean;
  readonly props: { name: string; key: Span; end: number }[];
  /** Index in props of the properties whose key starts at a wanted offset. */
  readonly targets: number[];
}

/**
 * The property whose key starts at each given offset (the start of a diagnostic on a key), with
 * what an edit needs to know of its object. Offsets that are not at a key are absent.
 */
export function propertiesAt(text: string, keyOffsets: Iterable<number>, options?: JsonTextOptions): Map<number, PropertyContext> {
  const wanted = new Set(keyOffsets);
  const found = new Map<number, PropertyContext>();
  if (wanted.size === 0) return found;
  const stack: ObjectFrame[] = [];
  /** A value ended at `end`: when it is a property's value, that property ends there too. */
  const valueEnded = (end: number): void => {
    const top = stack[stack.length - 1];
    if (top !== undefined && !top.isArray && top.props.length > 0) {
      const last = top.props[top.props.length - 1];
      if (last.end < 0) last.end = end;
    }
  };
  const open = (offset: number, isArray: boolean): void => {
    stack.push({ open: offset, isArray, props: [], targets: [] });
  };
  const close = (offset: number, length: number): void => {
    const frame = stack.pop();
    if (frame === undefined) return;
    for (const i of frame.targets) {
      const prop = frame.props[i];
      if (prop.end < 0) continue;
      found.set(prop.key.offset, {
        name: prop.name,
        key: prop.key,
        property: { offset: prop.key.offset, length: prop.end - prop.key.offset },
        siblings: frame.props.map((p) => p.name),
        previousEnd: i > 0 ? frame.props[i - 1].end : undefined,
        nextStart: i + 1 < frame.props.length ? frame.props[i + 1].key.offset : undefined,
        open: frame.open,
        close: offset,
      });
    }
    valueEnded(offset + length);
  };
  visit(
    text,
    {
      onObjectBegin: (offset) => open(offset, false),
      onArrayBegin: (offset) => open(offset, true),
      onObjectEnd: close,
      onArrayEnd: close,
      onObjectProperty: (name, offset, length) => {
        const top = stack[stack.length - 1];
        if (top === undefined || top.isArray) return;
        if (wanted.has(offset)) top.targets.push(top.props.length);
        top.props.push({ name, key: { offset, length }, end: -1 });
      },
      onLiteralValue: (_value, offset, length) => valueEnded(offset + length),
    },
    parseOptions(options),
  );
  return found;
}

/** A replacement of `length` characters at `offset` by `content`. */
export interface TextEditSpec extends Span {
  readonly content: string;
}

/** Renames a property: only its key changes. */
export function renamePropertyEdit(property: PropertyContext, newName: string): TextEditSpec {
  return { ...property.key, content: JSON.stringify(newName) };
}

/**
 * Removes a property with the comma that joined it to a neighbour and the space before the next
 * key, so the text stays valid and keeps its layout: `{"a":1,"b":2}` → `{"b":2}` or `{"a":1}`, and
 * an indented property on its own line takes its line with it.
 */
export function removePropertyEdit(property: PropertyContext): TextEditSpec {
  const { offset, length } = property.property;
  if (property.nextStart !== undefined) return { offset, length: property.nextStart - offset, content: '' };
  if (property.previousEnd !== undefined) {
    return { offset: property.previousEnd, length: offset + length - property.previousEnd, content: '' };
  }
  // The only property: leave `{}`.
  return { offset: property.open + 1, length: property.close - property.open - 1, content: '' };
}

/** Applies non-overlapping edits to a text (for tests and for previews). */
export function applyTextEdits(text: string, edits: readonly TextEditSpec[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.offset - a.offset)) {
    out = out.slice(0, e.offset) + e.content + out.slice(e.offset + e.length);
  }
  return out;
}
