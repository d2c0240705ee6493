// The records of a list that is not valid JSON as a whole but whose records mostly are: while a
// person types in a payload, one missing comma would otherwise leave every other record without
// its findings. Each element of the list that holds no syntax error is parsed alone, validated at
// its place, and its findings placed on the text, as validatePayloadText does for a whole text.

import { visit } from 'jsonc-parser';
import { JsonSyntaxError, JsonTextOptions, PointerSpans, ValueSpan, locatePointers, parseJsonText, parseOptions } from '../json';
import { KindOptions, RecordValidation, ValidateOptions, validateRecordAt, withFallbackKind, wrapperFieldOf } from './validator';

/** Where an element of the list is in the text. */
interface ElementSpan {
  readonly index: number;
  readonly offset: number;
  readonly length: number;
}

/** The list of a text that did not parse: its elements' spans and its pointer (`''`, `/data`). */
interface BrokenList {
  readonly prefix: string;
  readonly elements: readonly ElementSpan[];
}

/**
 * The spans of the elements of the text's list (a top-level array, or the array of a wrapper's
 * field), found by one tolerant pass of jsonc-parser's scanner: no tree, a span per element.
 * Undefined when the text holds one record, or nothing that reads as a list.
 */
function brokenList(text: string, options: JsonTextOptions | undefined): BrokenList | undefined {
  let depth = 0;
  let rootIsArray: boolean | undefined;
  /** The root object's keys, and for each key whose value is an array, its elements. */
  const keys = new Map<string, ElementSpan[] | undefined>();
  let key: string | undefined;
  let elements: ElementSpan[] | undefined;
  let start = -1;
  const listDepth = (): number => (rootIsArray ? 1 : 2);
  const element = (offset: number, end: number): void => {
    if (elements) elements.push({ index: elements.length, offset, length: end - offset });
  };
  const begin = (offset: number, isArray: boolean): void => {
    if (depth === 0) {
      rootIsArray = isArray;
      if (isArray) elements = [];
    } else if (depth === 1 && !rootIsArray && key !== undefined) {
      if (isArray) keys.set(key, (elements = []));
    } else if (depth === listDepth() && elements) {
      start = offset;
    }
    depth++;
  };
  const end = (offset: number, length: number): void => {
    depth--;
    if (depth === listDepth() && elements && start >= 0) {
      element(start, offset + length);
      start = -1;
    } else if (depth === 1 && !rootIsArray) {
      elements = undefined;
    }
  };
  visit(
    text,
    {
      onObjectBegin: (offset) => begin(offset, false),
      onArrayBegin: (offset) => begin(offset, true),
      onObjectEnd: end,
      onArrayEnd: end,
      onObjectProperty: (property) => {
        if (depth === 1 && !rootIsArray) {
          key = property;
          if (!keys.has(property)) keys.set(property, undefined);
        }
      },
      onLiteralValue: (_value, offset, length) => {
        if (depth === listDepth() && elements) element(offset, offset + length);
      },
    },
    parseOptions(options),
  );
  if (rootIsArray) return elements && { prefix: '', elements };
  // A wrapper, told as the validator tells one from a record that carries an array.
  const shape = Object.fromEntries([...keys].map(([k, list]) => [k, list ? [] : null]));
  const field = wrapperFieldOf(shape);
  const list = field === undefined ? undefined : keys.get(field);
  return list && { prefix: `/${field}`, elements: list };
}

export interface IntactRecords {
  readonly records: RecordValidation[];
  /** Records that are objects whose kind could not be detected (and none was given). */
  readonly undetected: number;
  /** Per record, where it starts in the text: its findings' spans are found in its own text. */
  readonly spans: PointerSpans;
  /**
   * The payload as far as it is whole: the list (or the wrapper holding it) with each intact
   * record at its index and holes for the others, so a record's pointer finds its value
   * (recordAt), as reports need for the day they name a record by. Undefined when there is no list.
   */
  readonly payload?: unknown;
}

export interface IntactRecordsOptions extends JsonTextOptions, ValidateOptions, KindOptions {}

/**
 * The records of a list text with syntax errors that hold none of them, each validated at its
 * place in the list (index and pointer as if the text had parsed), and the spans of the pointers
 * of their findings. None when the text is one record, or not a list.
 */
export function intactRecords(text: string, errors: readonly JsonSyntaxError[], options: IntactRecordsOptions = {}): IntactRecords {
  const list = brokenList(text, options);
  const records: RecordValidation[] = [];
  const placed = new Map<string, { offset: number; spans: PointerSpans }>();
  if (!list) return { records, undetected: 0, spans: { get: () => undefined } };
  let e = 0;
  let undetected = 0;
  const values: unknown[] = [];
  for (const el of list.elements) {
    const end = el.offset + el.length;
    // Syntax errors come in text order: skip those before this element (one at its first character,
    // a comma missing before it, is not in it), then see if one is in it.
    while (e < errors.length && errors[e].offset <= el.offset) e++;
    if (e < errors.length && errors[e].offset < end) continue;
    const slice = text.slice(el.offset, end);
    const parsed = parseJsonText(slice, options);
    if (parsed.errors.length > 0) continue;
    const pointer = `${list.prefix}/${el.index}`;
    let record = validateRecordAt(parsed.value, options.kind, options, el.index, pointer);
    if (options.kind === undefined && record.kind === undefined) {
      const resolved = withFallbackKind(record, parsed.value, options);
      record = resolved.record;
      if (resolved.undetected) undetected++;
    }
    records.push(record);
    values[el.index] = parsed.value;
    const wanted = [''];
    for (const f of record.findings) wanted.push(f.path);
    placed.set(pointer, { offset: el.offset, spans: locatePointers(slice, wanted, options) });
  }
  const spans: PointerSpans = {
    get(pointer) {
      // `/data/3/steps` → the record `/data/3`, and `/steps` in its own text.
      const slash = pointer.indexOf('/', list.prefix.length + 1);
      const recordPointer = slash < 0 ? pointer : pointer.slice(0, slash);
      const at = placed.get(recordPointer);
      if (!at) return undefined;
      const span = at.spans.get(slash < 0 ? '' : pointer.slice(slash));
      if (!span) return undefined;
      const move = (s: { offset: number; length: number }) => ({ offset: s.offset + at.offset, length: s.length });
      return { key: span.key && move(span.key), value: move(span.value), container: span.container } satisfies ValueSpan;
    },
  };
  const payload = list.prefix === '' ? values : { [list.prefix.slice(1)]: values };
  return { records, undetected, spans, payload };
}
