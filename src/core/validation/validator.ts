// Validates records of the service against their JSON Schemas and reports findings of five
// kinds. Built to be cheap per record (it runs over 100,000-record payloads) and never to throw.

import type { ErrorObject, ValidateFunction } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types';
import { addDays, formatDate } from '../dates';
import { FieldPlace } from './fieldFindings';
import { Finding, describeValue, findingOfAjvError, truncate } from './findings';
import { Clock, PLAUSIBILITY } from './plausibility';
import { LIST_WRAPPERS, ListWrapperField, RESOURCES, ResourceDefinition, ResourceKind, isResourceKind, resource } from '../resources';
import { CLIENT_TOKEN_REPLY_SCHEMA_ID, compiledSchema, compiledValidator, shapeFor } from './schemas';

export type { Finding, FindingKind } from './findings';
export { schemaFor } from './schemas';

export interface ValidationResult {
  kind: ResourceKind | undefined;
  /** False iff there is at least one `error` finding. */
  valid: boolean;
  findings: Finding[];
}

export interface RecordValidation extends ValidationResult {
  /** Position in the list, undefined for a single record. */
  index: number | undefined;
  /** JSON Pointer of the record within the payload: '', '/3' or, in a wrapper, '/data/3'. */
  pointer: string;
  id: string | undefined;
}

export interface ValidateOptions {
  /** The present, in epoch ms, for "in the future" warnings. Default Date.now(). */
  now?: number;
}

const hasOwn = Object.prototype.hasOwnProperty;
const SIGNATURES = RESOURCES.map((r) => ({ kind: r.kind, fields: r.signatureFields }));
const CLI_NAMES = RESOURCES.map((r) => r.cliName);
/** The kinds by the CLI's names, as a message lists them: `heart-rate, activity or body-fat`. */
export const KIND_LIST = `${CLI_NAMES.slice(0, -1).join(', ')} or ${CLI_NAMES[CLI_NAMES.length - 1]}`;
/** How the message of a record whose kind could not be detected (no identifying field, or a tie) starts. */
const UNDETECTED_KIND = 'could not detect the kind of record';
const NO_KIND_MESSAGE =
  `${UNDETECTED_KIND} (${KIND_LIST}): it has none of the fields that identify one (` +
  RESOURCES.map((r) => `${r.signatureFields.join(', ')} for ${r.cliName}`).join('; ') +
  ')';

/** Everything a record of one kind is checked with, looked up once per kind. */
interface KindChecker {
  readonly def: ResourceDefinition;
  readonly validate: ValidateFunction;
  readonly root: FieldPlace;
  /** The kind's plausibility rules (PLAUSIBILITY[kind], looked up once). */
  readonly plausible: (typeof PLAUSIBILITY)[ResourceKind];
}

const checkers = new Map<ResourceKind, KindChecker>();

/**
 * The data context of ajv's validate(data, dataCxt) for a record at the root: given once, so a
 * call does not build the default context objects (two allocations per record). rootData and
 * the others stay undefined and default to the record, as without a context.
 */
const VALIDATION_CONTEXT = Object.freeze({ instancePath: '', dynamicAnchors: Object.freeze({}) }) as unknown as DataValidationCxt;

/**
 * The kind last looked up and its checker: a list's records are of one kind, so a record is
 * checked without a map lookup (and its given kind known valid) when it is the last one's.
 */
let lastKind: ResourceKind | undefined;
let lastChecker: KindChecker | undefined;

function checkerFor(kind: ResourceKind): KindChecker {
  if (kind === lastKind) return lastChecker!;
  let checker = checkers.get(kind);
  if (!checker) {
    checker = { def: resource(kind), validate: compiledValidator(kind), root: new FieldPlace(shapeFor(kind), ''), plausible: PLAUSIBILITY[kind] };
    checkers.set(kind, checker);
  }
  lastKind = kind;
  lastChecker = checker;
  return checker;
}

/**
 * Loads the generated validators and looks up every kind's checker now instead of on first use,
 * before a benchmark or in a worker that is about to validate. Validation never needs it.
 */
export function prepareValidator(): void {
  for (const r of RESOURCES) checkerFor(r.kind);
}

/**
 * The kind whose identifying fields (resources.ts `signatureFields`) the record has most of;
 * undefined when it has none, or when two kinds tie.
 */
export function detectKind(record: unknown): ResourceKind | undefined {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return undefined;
  let best: ResourceKind | undefined;
  let bestScore = 0;
  let tie = false;
  for (const { kind, fields } of SIGNATURES) {
    let score = 0;
    for (const field of fields) if (hasOwn.call(record, field)) score++;
    if (score > bestScore) {
      best = kind;
      bestScore = score;
      tie = false;
    } else if (score === bestScore && score > 0) {
      tie = true;
    }
  }
  return tie ? undefined : best;
}

function ambiguousKindMessage(record: object): string {
  const candidates = SIGNATURES.filter(({ fields }) => fields.some((f) => hasOwn.call(record, f))).map(
    ({ kind }) => resource(kind).cliName,
  );
  if (candidates.length < 2) return NO_KIND_MESSAGE;
  return `${UNDETECTED_KIND} (${KIND_LIST}): it has identifying fields of ${candidates.join(' and ')}`;
}

/**
 * Whether a finding is the error of a record whose kind could not be detected: validated without a
 * kind given, it has none of the fields that identify one, or those of two kinds alike. Naming the
 * kind (the CLI's --kind) has it checked.
 */
export function isUndetectedKind(finding: { readonly kind: string; readonly message: string }): boolean {
  return finding.kind === 'error' && finding.message.startsWith(UNDETECTED_KIND);
}

// The latest calendar date anywhere on Earth (UTC+14): a `date` after it is in the future for
// every user, so a user east of UTC is never warned about their own today. Cached per day.
const LATEST_OFFSET_MINUTES = 14 * 60;
let clockCache = { from: 0, to: -1, latestToday: '', safelyPast: '' };

export function clockFor(options: ValidateOptions | undefined): Clock {
  let given: unknown;
  try {
    given = options?.now;
  } catch {
    // An exotic options object: fall back to the real clock.
  }
  const now = typeof given === 'number' && Number.isFinite(given) ? given : Date.now();
  if (now < clockCache.from || now >= clockCache.to) {
    const shifted = now + LATEST_OFFSET_MINUTES * 60_000;
    const from = Math.floor(shifted / 86_400_000) * 86_400_000 - LATEST_OFFSET_MINUTES * 60_000;
    const latestToday = formatDate(now, LATEST_OFFSET_MINUTES);
    // UTC today is at most a day before latestToday, so this is at least two days before it.
    clockCache = { from, to: from + 86_400_000, latestToday, safelyPast: addDays(latestToday, -3) };
  }
  return { now, latestToday: clockCache.latestToday, safelyPast: clockCache.safelyPast };
}

/**
 * Checks one record and pushes its findings, errors first; returns the kind it was checked as.
 * May throw on exotic input (a throwing getter, a Proxy): callers catch.
 */
function checkRecord(
  record: unknown,
  kind: ResourceKind | undefined,
  clock: Clock,
  out: Finding[],
): ResourceKind | undefined {
  if (kind !== undefined && kind !== lastKind && !isResourceKind(kind)) {
    out.push({ kind: 'error', path: '', message: `${describeValue(kind)} is not a kind of record (${KIND_LIST})` });
    return undefined;
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    out.push({ kind: 'error', path: '', message: `a record must be a JSON object, got ${describeValue(record)}` });
    return kind;
  }
  const actual = kind ?? detectKind(record);
  if (actual === undefined) {
    out.push({ kind: 'error', path: '', message: ambiguousKindMessage(record) });
    return undefined;
  }
  const checker = checkerFor(actual);
  let errorPaths: Set<string> | undefined;
  if (!checker.validate(record, VALIDATION_CONTEXT)) {
    errorPaths = new Set();
    for (const error of checker.validate.errors as ErrorObject[]) {
      const finding = findingOfAjvError(error);
      out.push(finding);
      errorPaths.add(finding.path);
    }
  }
  const start = out.length;
  checker.root.walk(record, out);
  checker.plausible(record as Record<string, unknown>, checker.def, clock, out);
  if (errorPaths !== undefined) dropWarningsOnErrors(out, start, errorPaths);
  return actual;
}

/** A value the schema rejects gets its error only, not also a warning about the same value. */
function dropWarningsOnErrors(out: Finding[], start: number, errorPaths: ReadonlySet<string>): void {
  let kept = start;
  for (let i = start; i < out.length; i++) {
    const f = out[i];
    if (f.kind === 'warning' && errorPaths.has(f.path)) continue;
    out[kept++] = f;
  }
  out.length = kept;
}

function failureMessage(err: unknown): string {
  try {
    const text = err instanceof Error ? err.message : String(err);
    return `could not validate this record: ${truncate(text)}`;
  } catch {
    return 'could not validate this record';
  }
}

// Findings are gathered in one reused array and copied out at their exact length: far less
// garbage than growing a fresh array per record. `busy` guards against re-entry (a getter of an
// exotic input calling the validator).
let busy = false;

// The kind the last safeCheck checked a record as: returned beside the findings without
// allocating a pair per record.
let checkedKind: ResourceKind | undefined;

/**
 * Each record's findings go after the previous record's and are copied out from there, until
 * the array passes SCRATCH_LIMIT; it then goes back to SCRATCH_BASE entries, never to none.
 * V8 gives back an array's storage when its length drops to less than half of it, and growing it
 * again allocated a new store at every step: a third of the validation's garbage. The first
 * SCRATCH_BASE entries are placeholders that keep the length above half the store it grows to
 * (at most 1.5 × the limit), so the storage stays. Only a record with hundreds of findings makes
 * it grow further, and then the store is given back once.
 */
const SCRATCH_BASE = 1024;
const SCRATCH_LIMIT = SCRATCH_BASE + SCRATCH_BASE / 4;
/** What the first SCRATCH_BASE entries hold: never copied out, never seen. */
const PLACEHOLDER: Finding = Object.freeze({ kind: 'error', path: '', message: '' });
const scratch: Finding[] = [];
for (let i = 0; i < SCRATCH_BASE; i++) scratch.push(PLACEHOLDER);

/** Runs checkRecord, turning anything thrown into one error finding; sets checkedKind. */
function safeCheck(record: unknown, kind: ResourceKind | undefined, clock: Clock): Finding[] {
  const reuse = !busy;
  if (reuse && scratch.length > SCRATCH_LIMIT) scratch.length = SCRATCH_BASE;
  const out = reuse ? scratch : [];
  const begin = out.length;
  busy = true;
  let actual: ResourceKind | undefined;
  try {
    actual = checkRecord(record, kind, clock, out);
  } catch (err) {
    out.length = begin;
    out.push({ kind: 'error', path: '', message: failureMessage(err) });
    actual = isResourceKind(kind) ? kind : undefined;
  } finally {
    if (reuse) busy = false;
  }
  checkedKind = actual;
  if (!reuse) return out;
  return out.length === begin ? NO_FINDINGS : sharedOrCopy(out, begin);
}

// Most records of a list have the same shared findings as a recent one (`userId` deprecated,
// the same zeros): they get the same frozen array instead of a copy each, which was a sixth of
// the validation's time. Frozen, so a caller cannot change another record's findings.
const NO_FINDINGS: Finding[] = Object.freeze([]) as unknown as Finding[];
const RECENT_LISTS = 8;
const recentLists: Finding[][] = [];
let nextRecent = 0;

function sharedOrCopy(out: Finding[], begin: number): Finding[] {
  const n = out.length - begin;
  for (let r = 0; r < recentLists.length; r++) {
    const list = recentLists[r];
    if (list.length !== n) continue;
    let same = true;
    for (let i = 0; i < n && same; i++) same = list[i] === out[begin + i];
    if (same) return list;
  }
  const copy = out.slice(begin);
  // Only lists of shared (frozen) findings can repeat: a record's own findings are new objects.
  for (let i = 0; i < n; i++) if (!Object.isFrozen(copy[i])) return copy;
  Object.freeze(copy);
  recentLists[nextRecent] = copy;
  nextRecent = (nextRecent + 1) % RECENT_LISTS;
  return copy;
}

// Errors are always pushed first, so the first finding tells whether there is any.
const isValid = (findings: readonly Finding[]): boolean => findings.length === 0 || findings[0].kind !== 'error';

/** Validates one record as `kind`, or as the kind detected from its fields. Never throws. */
export function validate(record: unknown, kind?: ResourceKind, options?: ValidateOptions): ValidationResult {
  const findings = safeCheck(record, kind, clockFor(options));
  return { kind: checkedKind, valid: isValid(findings), findings };
}

function idOf(record: unknown): string | undefined {
  if (record === null || typeof record !== 'object') return undefined;
  try {
    const id = (record as { id?: unknown }).id;
    return typeof id === 'string' ? id : typeof id === 'number' ? String(id) : undefined;
  } catch {
    return undefined;
  }
}

/** The kinds a payload's records are validated as: all of one kind, or detected with a fallback. */
export interface KindOptions {
  /** Every record is of this kind: no detection. */
  readonly kind?: ResourceKind;
  /** The kind of the records whose kind cannot be detected from their fields. */
  readonly fallbackKind?: ResourceKind;
}

/**
 * A record validated without a kind given whose kind was not detected (`r.kind` undefined), and
 * its value: validated again as `fallbackKind` when one is given; else it stays, and an object is
 * `undetected` (a value that is no object is an error whatever its kind).
 */
export function withFallbackKind(r: RecordValidation, value: unknown, options: KindOptions & ValidateOptions): { record: RecordValidation; undetected: boolean } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { record: r, undetected: false };
  if (options.fallbackKind === undefined) return { record: r, undetected: true };
  return { record: { ...validate(value, options.fallbackKind, options), index: r.index, pointer: r.pointer, id: r.id }, undetected: false };
}

/** The field of a wrapper object (`{"data": [...]}`) that holds the records, if it is one. */
export function wrapperFieldOf(payload: object): ListWrapperField | undefined {
  for (const field of LIST_WRAPPERS) {
    if (hasOwn.call(payload, field) && Array.isArray((payload as Record<string, unknown>)[field])) {
      // A record that happens to carry a `data` array is still a record.
      return detectKind(payload) === undefined ? field : undefined;
    }
  }
  return undefined;
}

/** The records of a list payload (an array or a wrapper) with their pointer prefix; undefined for one record. */
function listOf(payload: unknown): { records: unknown[]; prefix: string } | undefined {
  if (Array.isArray(payload)) return { records: payload, prefix: '' };
  if (payload !== null && typeof payload === 'object') {
    const field = wrapperFieldOf(payload);
    if (field !== undefined) return { records: (payload as Record<string, unknown[]>)[field], prefix: `/${field}` };
  }
  return undefined;
}

/** The records of a payload as the service returns it: one record, an array, or a wrapper object. */
export function payloadRecords(payload: unknown): unknown[] {
  return listOf(payload)?.records ?? [payload];
}

/**
 * Validates a payload as the service returns it: one record, an array of records, or a wrapper
 * object `{data|items|results: [...]}`. One result per record, with its pointer in the payload.
 * Never throws.
 */
export function validatePayload(payload: unknown, kind?: ResourceKind, options?: ValidateOptions): RecordValidation[] {
  const clock = clockFor(options);
  try {
    const list = listOf(payload);
    if (list === undefined) return [single(payload, kind, clock, undefined, '')];
    const { records, prefix } = list;
    // push, not new Array(n): a large preallocated array starts out sparse and slow in V8.
    const results: RecordValidation[] = [];
    for (let i = 0; i < records.length; i++) results.push(single(records[i], kind, clock, i, prefix === '' ? indexPointer(i) : `${prefix}/${i}`));
    return results;
  } catch (err) {
    const findings: Finding[] = [{ kind: 'error', path: '', message: failureMessage(err) }];
    return [{ kind: undefined, valid: false, findings, index: undefined, pointer: '', id: undefined }];
  }
}

/** Validates one record found at `pointer` (position `index` of its list). Never throws. */
export function validateRecordAt(
  record: unknown,
  kind: ResourceKind | undefined,
  options: ValidateOptions | undefined,
  index: number | undefined,
  pointer: string,
): RecordValidation {
  return single(record, kind, clockFor(options), index, pointer);
}

/** `/0`, `/1`, …: made once for the indices of a page, not once per record of every page. */
const INDEX_POINTERS: string[] = [];
const CACHED_POINTERS = 512;

function indexPointer(i: number): string {
  if (i >= CACHED_POINTERS) return `/${i}`;
  for (let k = INDEX_POINTERS.length; k <= i; k++) INDEX_POINTERS.push(`/${k}`);
  return INDEX_POINTERS[i];
}

function single(
  record: unknown,
  kind: ResourceKind | undefined,
  clock: Clock,
  index: number | undefined,
  pointer: string,
): RecordValidation {
  const findings = safeCheck(record, kind, clock);
  return { kind: checkedKind, valid: isValid(findings), findings, index, pointer, id: idOf(record) };
}

/** Schema errors of a reply of POST /v1/admin/token (the client token reply). Never throws. */
export function checkClientTokenReply(reply: unknown): Finding[] {
  try {
    if (reply === null || typeof reply !== 'object' || Array.isArray(reply)) {
      const message = `the token reply must be a JSON object, got ${describeValue(reply)}`;
      return [{ kind: 'error', path: '', message }];
    }
    const fn = compiledSchema(CLIENT_TOKEN_REPLY_SCHEMA_ID);
    return fn(reply) ? [] : (fn.errors as ErrorObject[]).map(findingOfAjvError);
  } catch (err) {
    return [{ kind: 'error', path: '', message: failureMessage(err) }];
  }
}
