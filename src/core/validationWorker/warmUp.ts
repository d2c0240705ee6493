// Runs payload validation, positions included, on made-up records that look like the service's
// (every kind, every field of its schema, the usual mistakes) until V8 has optimised the hot
// functions, so the first real validation is not run by the interpreter. In small steps, so a
// caller that must stay responsive (the extension host) gives the event loop back between them.

import { RESOURCES, ResourceDefinition } from '../resources';
import { PropertySchema, SCHEMA_DOCUMENTS, SchemaDocument, prepareValidator, schemaFor, validatePayloadText } from '../validation';

/** Fields in the order the service sends them, before the kind's own; the rest come last. */
const LEADING_FIELDS = ['id', 'humanId', 'userId', 'source'];
const TRAILING_FIELDS = ['sourceData', 'createdAt', 'updatedAt'];
const DAY_MS = 86_400_000;
/** Far enough in the past that no record is "in the future" (one mistake below is, on purpose). */
const BASE_DAY = Date.UTC(2024, 0, 1);
const OFFSET = '+01:00';

/**
 * Times of day as services write them (without, with milliseconds, with an offset), each as
 * created and as updated two hours later.
 */
const TIMES: ReadonlyArray<{ created: string; updated: string }> = [
  { created: 'T07:30:00Z', updated: 'T09:30:00Z' },
  { created: 'T07:30:00.000Z', updated: 'T09:30:00.000Z' },
  { created: `T08:30:00${OFFSET}`, updated: `T10:30:00${OFFSET}` },
];

function valueFor(field: string, prop: PropertySchema, owner: SchemaDocument, i: number): unknown {
  // Days spread over the year (each a step of 53 days): the days of a month in the 20s and from 29
  // on take other branches of the date checks than the first days of January would.
  const day = new Date(BASE_DAY + ((i * 53) % 365) * DAY_MS).toISOString();
  if (prop.type === 'number' || prop.type === 'integer') return 40 + ((i * 37 + field.length * 11) % 120) + (i % 3 === 0 ? 0.5 : 0);
  if (prop.type === 'object') return { device: 'Tracker', version: i % 4 };
  if (prop.type === 'array') {
    const ref = prop.items?.$ref;
    const item = ref ? SCHEMA_DOCUMENTS.get(new URL(ref, owner.$id).href) : undefined;
    return item ? [0, 1, 2, 3].map((z) => recordOf(item, [], i + z)) : [];
  }
  if (prop.format === 'date') return day.slice(0, 10);
  if (prop.format === 'date-time') {
    // Updated two hours after created, as records mostly are: the check that compares them reads on.
    const time = TIMES[i % TIMES.length];
    return day.replace(/T.*/, field === 'updatedAt' ? time.updated : time.created);
  }
  if (prop.pattern !== undefined && new RegExp(prop.pattern).test(OFFSET)) return OFFSET;
  return `${field}-${(i * 7919).toString(16)}`;
}

/** A record of the schema, its fields in the service's order. */
function recordOf(schema: SchemaDocument, leading: readonly string[], i: number): Record<string, unknown> {
  const props = schema.properties ?? {};
  const names = Object.keys(props);
  const order = [
    ...leading.filter((f) => f in props),
    ...names.filter((f) => !leading.includes(f) && !TRAILING_FIELDS.includes(f)),
    ...TRAILING_FIELDS.filter((f) => f in props && !leading.includes(f)),
  ];
  const record: Record<string, unknown> = {};
  for (const field of order) record[field] = valueFor(field, props[field], schema, i);
  return record;
}

/** The i-th made-up record of a kind: a good one, or one with one of the usual mistakes. */
function warmUpRecord(def: ResourceDefinition, i: number): Record<string, unknown> {
  const schema = schemaFor(def.kind);
  const record = recordOf(schema, LEADING_FIELDS, i);
  const numeric = Object.keys(record).filter((f) => typeof record[f] === 'number');
  const pick = numeric[i % numeric.length];
  switch (i % 8) {
    case 1:
      delete record[(schema.required ?? [])[i % (schema.required?.length ?? 1)] ?? 'id'];
      break;
    case 2:
      if (pick !== undefined) record[pick] = `${String(record[pick])}`;
      break;
    case 3:
      record.unexpectedField = i;
      break;
    case 4:
      if (pick !== undefined) record[pick] = 0;
      break;
    case 5:
      if (pick !== undefined) record[pick] = -5000;
      break;
    case 6:
      record[def.datingField] = def.datingField === 'date' ? '2999-01-01' : 'yesterday';
      break;
    case 7:
      delete record.userId;
      break;
  }
  return record;
}

/** Each kind's records with each mistake, indented as an editor shows them and compact as a service sends them: made once. */
let templates: { indented: string[]; compact: string[] } | undefined;
const VARIANTS = 8;

/** A list of `count` made-up records of every kind and every mistake, indented or compact. */
export function warmUpText(count: number, compact = false): string {
  if (templates === undefined) {
    const records = RESOURCES.flatMap((def) => Array.from({ length: VARIANTS }, (_, i) => warmUpRecord(def, i)));
    templates = { indented: records.map((r) => JSON.stringify(r, null, 2).replace(/\n/g, '\n  ')), compact: records.map((r) => JSON.stringify(r)) };
  }
  const chosen = compact ? templates.compact : templates.indented;
  const records: string[] = [];
  // Kinds interleaved, as in a mixed payload: record i is of kind i % 3, with mistake (i / 3) % 8.
  for (let i = 0; i < count; i++) records.push(chosen[(i % RESOURCES.length) * VARIANTS + (Math.floor(i / RESOURCES.length) % VARIANTS)]);
  return compact ? `[${records.join(',')}]` : `[\n  ${records.join(',\n  ')}\n]\n`;
}

/**
 * Records validated per step: few while the code is cold (each step a few milliseconds), then
 * fourteen validations of 100: V8 optimises a function after enough calls, and the functions
 * called once per validation (the scan for positions, the placing of findings) need that many (ten
 * validations of 150 left the first real one at about twice a warm one). Then two of 600, as long
 * as a real list: the paths past the first 512 records (pointers no longer cached) and the
 * date-times of many records get their type feedback here instead of deoptimising the first real
 * validation (first ÷ warm, median of 11 processes: 1.39–2.06 with sixteen steps of 100,
 * 1.17–1.20 with this).
 */
export const WARM_UP_STEPS: readonly number[] = [12, 24, 48, 96, ...Array<number>(14).fill(100), 600, 600];

/** What a warm-up cost: its CPU time on the caller's thread, and its longest step. */
export interface WarmUpCost {
  readonly totalMs: number;
  readonly longestStepMs: number;
  readonly steps: number;
}

/** Runs one step of the warm-up (the validators loaded first). */
function warmUpStep(step: number): void {
  if (step === 0) prepareValidator();
  // Every other step compact: a document may be either, and the scan's branches see both.
  validatePayloadText(warmUpText(WARM_UP_STEPS[step], step % 2 === 1));
}

/** The whole warm-up at once, for a thread that has nothing else to do (a validation worker). */
export function warmUpValidation(): void {
  for (let step = 0; step < WARM_UP_STEPS.length; step++) warmUpStep(step);
}

/** Between two steps: the event loop's next turn (what waits, timers and I/O, runs first). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The warm-up a step at a time, awaiting `pause()` between steps (by default the event loop's next
 * turn, so the caller's events run between them), and stopping early when `stopped()` says so.
 */
export async function warmUpValidationInSteps(pause: () => Promise<void> = nextTurn, stopped: () => boolean = () => false): Promise<WarmUpCost> {
  let totalMs = 0;
  let longestStepMs = 0;
  let steps = 0;
  for (let step = 0; step < WARM_UP_STEPS.length && !stopped(); step++) {
    const started = performance.now();
    warmUpStep(step);
    const ms = performance.now() - started;
    totalMs += ms;
    longestStepMs = Math.max(longestStepMs, ms);
    steps++;
    await pause();
  }
  return { totalMs, longestStepMs, steps };
}
