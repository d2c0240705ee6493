// A seeded generator of hostile records for the fuzz tests (and the record view's e2e fixture):
// real sandbox records with their strings, keys and numbers replaced by markup, script URLs,
// terminal escapes, direction overrides, prototype keys, huge strings and deep nesting, plus pure
// junk. The same seed gives the same records, so a failure can be replayed.

import { ResourceKind } from '../../../src/core/resources';
import { generateDataset } from '../../../src/sandbox/data';

/**
 * xorshift32 with the seed's text folded in by FNV-1a: small, fast, and enough to pick inputs.
 * Not for anything that must be unpredictable.
 */
export class Prng {
  private state: number;

  constructor(seed: string | number) {
    let h = 0x811c9dc5;
    for (const ch of String(seed)) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
    this.state = h || 0x9e3779b9;
  }

  /** A float in [0, 1). */
  next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
}

/** What a script smuggled in by a payload would set if it ever ran: the e2e test looks for it. */
export const PWNED_MARKER = 'hdePwned';
const mark = (how: string): string => `document.documentElement.dataset.${PWNED_MARKER}='${how}'`;

/** Strings that are markup, script, links or terminal control somewhere. */
export const HOSTILE_STRINGS: readonly string[] = [
  `<script>${mark('script')}</script>`,
  `<img src=x onerror="${mark('img')}">`,
  `"><svg onload="${mark('svg')}">`,
  `'><iframe srcdoc="<script>parent.${mark('iframe')}</script>"></iframe>`,
  `<a href="javascript:${mark('href')}">open</a>`,
  `javascript:${mark('url')}`,
  ' JaVaScRiPt:alert(document.domain)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  `[click me](javascript:${mark('md-link')})`,
  '![pixel](https://attacker.invalid/pixel.png)',
  '<a href="command:workbench.action.terminal.new">run</a>',
  '[run](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22id%5Cn%22%7D)',
  '`code` **bold** _em_ ~~gone~~ # heading | a | b |',
  '<style>*{display:none!important}</style>',
  '{{constructor.constructor("alert(1)")()}}',
  '${alert(1)}',
  '&lt;script&gt;alert(1)&lt;/script&gt; &#x3C;img&#x3E;',
  'evil\u202Etxt.exe',
  'abc\u202E\u2066123\u2069\u202C',
  '\u202A\u202B\u202D\u2067\u2068\u200E\u200F\u061C',
  '\u001b[2J\u001b[31mred\u001b[0m',
  '\u001b]8;;https://attacker.invalid\u0007link\u001b]8;;\u0007',
  '\u009b31m\u0085\u009d',
  'line1\r\nline2\rline3\nline4\u2028line5\u2029',
  '\u0000\u0007\u0008\u007f',
  'lone \ud800 surrogate \udfff',
  '\u200b\ufeff\u00ad',
  '../../v1/admin/token',
  'a/b?c=1#d',
  '%2e%2e%2f%00',
  '"; DROP TABLE records; --',
  '\\u003cscript\\u003e',
  '💥🧨'.repeat(8),
];

/** Property names that mean something to JavaScript, to ajv or to a renderer. */
export const HOSTILE_KEYS: readonly string[] = [
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__',
  'then', '$ref', '$schema', 'data', 'items', '', ' ', 'a/b', '~1', 'a~0b', '<script>', '\u202Ekey',
  '\u001b[31mkey', 'x'.repeat(300),
];

/** What a `__proto__` or `constructor.prototype` key tries to plant on every object. */
export const POLLUTION_KEY = 'polluted';

const NUMBER_FIELDS: Record<ResourceKind, readonly string[]> = {
  heartRate: ['value', 'restingHR', 'averageHR', 'maxHR', 'minHR'],
  activity: ['duration', 'distance', 'steps', 'vigorous', 'moderate', 'light', 'sedentary', 'calories'],
  bodyFat: ['value'],
};
const STRING_FIELDS: Record<ResourceKind, readonly string[]> = {
  heartRate: ['id', 'humanId', 'userId', 'source', 'date', 'createdAt', 'updatedAt'],
  activity: ['id', 'humanId', 'userId', 'source', 'date', 'createdAt', 'updatedAt'],
  bodyFat: ['id', 'humanId', 'userId', 'source', 'timestamp', 'tzOffset', 'unit', 'createdAt', 'updatedAt'],
};
const KINDS: readonly ResourceKind[] = ['heartRate', 'activity', 'bodyFat'];
const ODD_NUMBERS = [1e308, -1e308, 5e-324, -0, 1e21, 9007199254740993, -1, 0.1 + 0.2, 123456789.987654321];

export interface HostileRecord {
  /** The kind of the real record it was made from; undefined for junk. */
  readonly kind: ResourceKind | undefined;
  readonly record: unknown;
  /** What was done to it, for failure messages: `activity#12 source:html, key:__proto__`. */
  readonly label: string;
  /** Nested deeper than JSON.stringify can follow: only for in-memory tests. */
  readonly tooDeep: boolean;
}

type Obj = Record<string, unknown>;

/** Sets an own, enumerable data property, as JSON.parse does: `__proto__` stays a plain key. */
export function put(target: Obj, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `{o: {o: …}}` or `[[…]]`, `depth` levels, iteratively (no recursion to overflow). */
export function nested(depth: number, leaf: unknown, arrays = false): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) {
    if (arrays) value = [value];
    else {
      const o: Obj = {};
      put(o, i % 7 === 0 ? '__proto__' : 'o', value);
      value = o;
    }
  }
  return value;
}

/** A deep copy of plain JSON data that keeps `__proto__` keys as own properties. */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (value && typeof value === 'object') {
    const out: Obj = {};
    for (const [k, v] of Object.entries(value)) put(out, k, copy(v));
    return out;
  }
  return value;
}

class Maker {
  readonly rng: Prng;
  /** The real records the hostile ones start from. */
  readonly bases: Record<ResourceKind, Obj[]>;

  constructor(seed: string | number) {
    this.rng = new Prng(seed);
    const data = generateDataset({ seed: `hostile:${seed}`, days: 12, humans: 3, today: '2026-01-15' });
    this.bases = { heartRate: data.heartRate as Obj[], activity: data.activity as Obj[], bodyFat: data.bodyFat as Obj[] };
  }

  /** One of HOSTILE_STRINGS, sometimes two joined, sometimes behind 100 kB or 1 MB of text. */
  hostileString(allowHuge = true): string {
    const { rng } = this;
    const s = rng.pick(HOSTILE_STRINGS);
    if (allowHuge && rng.chance(0.05)) return `${'A'.repeat(rng.chance(0.1) ? 1_000_000 : 100_000)}${s}`;
    if (rng.chance(0.25)) return `${rng.pick(HOSTILE_STRINGS)}${s}`;
    return s;
  }

  hostileValue(depth = 0): unknown {
    const { rng } = this;
    switch (rng.int(depth > 2 ? 4 : 7)) {
      case 0: return this.hostileString();
      case 1: return rng.pick(ODD_NUMBERS);
      case 2: return rng.pick([null, true, false, '', 0]);
      case 3: return this.hostileString();
      case 4: return Array.from({ length: rng.int(4) }, () => this.hostileValue(depth + 1));
      case 5: return this.hostileObject(depth + 1);
      default: return nested(rng.pick([64, 200, 1000]), this.hostileString(false), rng.chance(0.5));
    }
  }

  hostileObject(depth = 0): Obj {
    const o: Obj = {};
    for (let i = this.rng.int(4) + 1; i > 0; i--) put(o, this.key(), this.hostileValue(depth + 1));
    return o;
  }

  key(): string {
    return this.rng.chance(0.7) ? this.rng.pick(HOSTILE_KEYS) : this.hostileString().slice(0, 2_000);
  }

  /** A real record of `kind` with 1–5 hostile changes; returns it and what was done. */
  mutated(kind: ResourceKind): { record: Obj; notes: string[]; tooDeep: boolean } {
    const { rng } = this;
    const record = copy(rng.pick(this.bases[kind])) as Obj;
    const notes: string[] = [];
    let tooDeep = false;
    for (let n = rng.int(5) + 1; n > 0; n--) {
      const op = rng.int(10);
      if (op <= 2) {
        const field = rng.pick(STRING_FIELDS[kind]);
        put(record, field, this.hostileString());
        notes.push(`${field}:string`);
      } else if (op === 3) {
        const key = this.key();
        put(record, key, this.hostileValue());
        notes.push(`key:${key.slice(0, 12)}`);
      } else if (op === 4) {
        // Prototype pollution by the two routes a naive merge takes.
        const where = rng.chance(0.5) ? record : ((record.sourceData as Obj | undefined) ?? record);
        const payload: Obj = {};
        put(payload, POLLUTION_KEY, 'yes');
        put(where, '__proto__', payload);
        put(where, 'constructor', { prototype: { [POLLUTION_KEY]: 'yes' } });
        notes.push('proto');
      } else if (op === 5) {
        const field = rng.pick(NUMBER_FIELDS[kind]);
        put(record, field, rng.chance(0.5) ? rng.pick(ODD_NUMBERS) : this.hostileValue());
        notes.push(`${field}:number`);
      } else if (op === 6) {
        const depth = rng.chance(0.1) ? 50_000 : rng.pick([64, 500, 3_000]);
        if (depth > 3_000) tooDeep = true;
        put(record, rng.chance(0.5) ? 'sourceData' : rng.pick([...NUMBER_FIELDS[kind], 'id', 'source']), nested(depth, this.hostileString(false), rng.chance(0.5)));
        notes.push(`deep:${depth}`);
      } else if (op === 7) {
        put(record, 'sourceData', this.hostileObject());
        notes.push('sourceData');
      } else if (op === 8) {
        // Many zones are small ones; a few zones may be anything.
        const many = rng.chance(0.1);
        const zones = Array.from({ length: many ? 5_000 : rng.int(6) }, () =>
          many || rng.chance(0.5) ? { name: this.hostileString(!many), min: rng.pick(ODD_NUMBERS), max: 1, duration: 1, caloriesBurned: 1 } : this.hostileValue(),
        );
        put(record, 'zones', zones);
        notes.push(`zones:${zones.length}`);
      } else {
        // A record that also looks like a wrapper, or like another kind.
        put(record, rng.pick(['data', 'items', 'results', 'steps', 'timestamp', 'zones']), [this.hostileValue()]);
        notes.push('confusion');
      }
    }
    return { record, notes, tooDeep };
  }

  junk(): { record: unknown; tooDeep: boolean } {
    const { rng } = this;
    switch (rng.int(5)) {
      case 0: return { record: this.hostileString(), tooDeep: false };
      case 1: return { record: Array.from({ length: rng.int(5) }, () => this.hostileObject()), tooDeep: false };
      case 2: return { record: rng.pick([null, 0, true, [], {}, -1e308]), tooDeep: false };
      case 3: return { record: nested(20_000, this.hostileString(false), rng.chance(0.5)), tooDeep: true };
      default: return { record: this.hostileObject(), tooDeep: false };
    }
  }
}

/** `count` hostile records: about nine in ten are mutated real records, the rest junk. */
export function hostileRecords(count: number, seed: string | number = 'issue-6'): HostileRecord[] {
  const maker = new Maker(seed);
  const out: HostileRecord[] = [];
  for (let i = 0; i < count; i++) {
    if (maker.rng.chance(0.1)) {
      const { record, tooDeep } = maker.junk();
      out.push({ kind: undefined, record, label: `junk#${i}`, tooDeep });
    } else {
      const kind = KINDS[i % KINDS.length];
      const { record, notes, tooDeep } = maker.mutated(kind);
      out.push({ kind, record, label: `${kind}#${i} ${notes.join(', ')}`, tooDeep });
    }
  }
  return out;
}

/** The count and seed of the fuzz suites' hostile records, and the time they validate at. */
export const FUZZ_COUNT = 1_200;
export const FUZZ_SEED = 'issue-6';
export const FUZZ_NOW = Date.parse('2026-01-16T12:00:00Z');

let shared: readonly HostileRecord[] | undefined;

/**
 * hostileRecords(FUZZ_COUNT, FUZZ_SEED), built once for the fuzz suites of the run (each build
 * takes about a second and 150 MB). Only for suites that read the records and never change them.
 * The record view's suite keeps a copy of its own: once RecordView has walked them, the records
 * are the same but JSON.stringify needs more stack for the 3,000-deep ones (a V8 matter) and
 * overflows on some, as the validator suite's fingerprints would.
 */
export function sharedHostileRecords(): readonly HostileRecord[] {
  shared ??= hostileRecords(FUZZ_COUNT, FUZZ_SEED);
  return shared;
}

/**
 * The e2e fixture: records that carry every hostile string at once (in the source, an unknown
 * field, sourceData, zone names, keys), prototype keys, a 5,000-character string and nesting
 * deep enough to be collapsed, kept small enough to load in a browser.
 */
export function fixtureRecords(count = 50, seed: string | number = 'hostile-fixture'): Array<{ kind: ResourceKind | null; label: string; record: unknown }> {
  const maker = new Maker(seed);
  const { rng } = maker;
  const out: Array<{ kind: ResourceKind | null; label: string; record: unknown }> = [];
  for (let i = 0; i < count; i++) {
    if (i >= count - 3) {
      // Three that are not records at all.
      const record = [HOSTILE_STRINGS[0], [HOSTILE_STRINGS.slice(0, 6)], null][i - (count - 3)];
      out.push({ kind: null, label: `not a record #${i}`, record });
      continue;
    }
    const kind = KINDS[i % KINDS.length];
    const record = copy(rng.pick(maker.bases[kind])) as Obj;
    const s = (k: number) => HOSTILE_STRINGS[(i + k) % HOSTILE_STRINGS.length];
    put(record, 'source', s(0));
    put(record, s(1).slice(0, 200), s(2));
    put(record, HOSTILE_KEYS[i % HOSTILE_KEYS.length], s(3));
    const sourceData: Obj = { note: s(4), link: `javascript:${mark('sourceData')}`, huge: `${'A'.repeat(5_000)}${s(5)}`, deep: nested(100 + i, s(6), i % 2 === 0) };
    put(sourceData, '__proto__', { [POLLUTION_KEY]: 'yes' });
    put(record, 'sourceData', sourceData);
    put(record, 'constructor', { prototype: { [POLLUTION_KEY]: 'yes' } });
    if (kind === 'heartRate') (record.zones as Obj[]).forEach((z, k) => put(z, 'name', s(7 + k)));
    if (kind === 'bodyFat') put(record, 'unit', s(8));
    if (i % 5 === 0) put(record, 'id', s(9));
    out.push({ kind, label: `${kind} #${i}: every string field hostile`, record });
  }
  return out;
}

/** The own keys of the built-in prototypes and what each holds, to compare before and after. */
export function prototypeSnapshot(): Map<string, unknown> {
  const snap = new Map<string, unknown>();
  const protos: Array<[string, object]> = [['Object', Object.prototype], ['Array', Array.prototype], ['Function', Function.prototype], ['String', String.prototype]];
  for (const [name, proto] of protos) {
    for (const key of Reflect.ownKeys(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, key);
      snap.set(`${name}.${String(key)}`, d && ('value' in d ? d.value : d.get));
    }
  }
  return snap;
}

/** Fails when a prototype gained, lost or changed a property, or `polluted` shows anywhere. */
export function assertPrototypesUnchanged(before: Map<string, unknown>): void {
  const after = prototypeSnapshot();
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k) || before.has(k) !== after.has(k));
  if (changed.length) throw new Error(`prototypes changed: ${changed.join(', ')}`);
  const probes: unknown[] = [{}, [], () => undefined, '', Object.create(Object.prototype)];
  for (const probe of probes) {
    if ((probe as Record<string, unknown>)[POLLUTION_KEY] !== undefined) throw new Error(`${typeof probe} has a "${POLLUTION_KEY}" property`);
  }
}
