// The unknown, deprecated and zero findings of a record, from the fields it has. These findings
// repeat on nearly every record (every reply carries userId; some sources send 0s daily), so
// each one is made once, frozen, and shared by all records that have it.

import { pointerToken } from '../json';
import { Finding, truncate } from './findings';
import type { FieldInfo, ObjectShape } from './schemas';

const hasOwn = Object.prototype.hasOwnProperty;
/** Array items whose places are cached (zones of a day are a handful). */
const CACHED_ITEMS = 64;
/** Unknown field names cached per place, and their longest length: hostile payloads cannot grow it. */
const CACHED_UNKNOWN = 256;
const CACHED_UNKNOWN_LENGTH = 64;
/** Key positions remembered from the last object (a record has about twenty fields). */
const CACHED_KEYS = 64;

interface PlacedField {
  readonly info: FieldInfo;
  /** `info.numeric`, on the field itself: the walk reads it for every key of every record. */
  readonly numeric: boolean;
  readonly zero: Finding;
  readonly deprecated: Finding | undefined;
  /** Places of the items of an array of objects, by index, made on demand. */
  readonly items: FieldPlace[] | undefined;
}

const frozen = (finding: Finding): Finding => Object.freeze(finding);

/** The frozen finding of a field `key` that the schema named `schemaName` does not define, in the object at `prefix`. */
export function unknownFieldFinding(prefix: string, key: string, schemaName: string): Finding {
  return frozen({ kind: 'unknown', path: `${prefix}/${pointerToken(key)}`, message: `${truncate(key)} is not defined by the ${schemaName} schema` });
}

/** An object schema at one position in a record (the record itself, or `/zones/2`). */
export class FieldPlace {
  private readonly fields = new Map<string, PlacedField>();
  private readonly unknown = new Map<string, Finding>();
  /**
   * The keys of the last object walked here, in order, and what each was: records of one reply
   * have their keys in the same order, so a key is nearly always the one at the same position
   * last time, and an identity check (keys are internalized strings) replaces a Map lookup.
   */
  private readonly lastKeys: string[] = [];
  private readonly lastFields: Array<PlacedField | undefined> = [];

  constructor(
    private readonly shape: ObjectShape,
    private readonly prefix: string,
  ) {
    for (const [name, info] of shape.fields) {
      const path = prefix + info.pointer;
      this.fields.set(name, {
        info,
        numeric: info.numeric,
        zero: frozen({ kind: 'zero', path, message: info.zeroMessage }),
        deprecated:
          info.deprecatedMessage === undefined
            ? undefined
            : frozen({ kind: 'deprecated', path, message: info.deprecatedMessage }),
        items: info.items === undefined ? undefined : [],
      });
    }
  }

  private unknownFinding(key: string): Finding {
    let finding = this.unknown.get(key);
    if (finding === undefined) {
      finding = unknownFieldFinding(this.prefix, key, this.shape.name);
      if (this.unknown.size < CACHED_UNKNOWN && key.length <= CACHED_UNKNOWN_LENGTH) this.unknown.set(key, finding);
    }
    return finding;
  }

  private itemPlace(field: PlacedField, i: number): FieldPlace {
    const cache = field.items!;
    const cached = cache[i];
    if (cached !== undefined) return cached;
    const place = new FieldPlace(field.info.items!, `${this.prefix}${field.info.pointer}/${i}`);
    if (i < CACHED_ITEMS) cache[i] = place;
    return place;
  }

  /**
   * Pushes the unknown, deprecated and zero findings of `obj`, descending into arrays of
   * objects that have a schema of their own (zones); never into free-form objects (sourceData).
   */
  walk(obj: object, out: Finding[]): void {
    const rec = obj as Record<string, unknown>;
    const lastKeys = this.lastKeys;
    let at = 0;
    for (const key in rec) {
      if (!hasOwn.call(rec, key)) continue;
      let field: PlacedField | undefined;
      if (at < lastKeys.length && lastKeys[at] === key) field = this.lastFields[at];
      else {
        field = this.fields.get(key);
        if (at <= lastKeys.length && at < CACHED_KEYS) {
          lastKeys[at] = key;
          this.lastFields[at] = field;
        }
      }
      at++;
      if (field === undefined) {
        out.push(this.unknownFinding(key));
        continue;
      }
      if (field.deprecated !== undefined) out.push(field.deprecated);
      if (field.numeric) {
        if (rec[key] === 0) out.push(field.zero);
      } else if (field.items !== undefined) {
        const items = rec[key];
        if (!Array.isArray(items)) continue;
        for (let i = 0; i < items.length; i++) {
          const item: unknown = items[i];
          if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
            this.itemPlace(field, i).walk(item, out);
          }
        }
      }
    }
  }
}
