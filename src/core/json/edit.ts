// Edits of a JSON text that keep it valid and keep its layout: rename a property's key, or remove
// the property with the comma that joined it. Found with one streaming pass, like jsonLocate.ts.

import { visit } from 'jsonc-parser';
import { JsonTextOptions, Span, parseOptions } from './locate';

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
