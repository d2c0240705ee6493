// The CLI's text report: per file its records with their findings (marks that read without
// colour), a file that could not be validated as one line, and a closing count. Fed record by
// record like the other formats (src/core/reports). By default repeated findings are grouped:
// 56 readings that all send `userId` give one line with the count, not 56.

import type { FileProblem, ReportFile, ReportRecord, ReportTally, ReportWriter } from '../core/reports';
import { lineColumn, recordName, streamedRecord, unusualZeros } from '../core/reports';
import type { PositionedFinding, RecordReport } from '../core/streaming';
import { type ResourceKind, isResourceKind } from '../core/resources';
import { numericFieldsOf } from '../core/validation/sentFields';
import { type ZeroPlace, topField, zeroWords } from '../core/views';
import { MAX_COUNTED, type SentCount, addCount, countRecord } from './streamedZeros';
import { FINDING_KINDS, type FindingKind } from '../core/validation';
import { type Output, andList, countFindings, mark, paint, printable, thousands } from './output';

type Paint = Pick<Output, 'color'>;

/** The same finding (kind, field inside the record, message) on many records of a file. */
export interface FindingGroup {
  readonly kind: FindingKind;
  readonly path: string;
  readonly message: string;
  readonly places: string[];
  records: number;
  /** Zeros that stand out among their source's other records (ReportFinding.standsOut): listed and marked as warnings are. */
  readonly standsOut?: true;
  /**
   * A streamed record's 0 of a top-level numeric field: the group holds that source's zeros of the
   * field, and its words are said from the file's count of the source (`SourceCount`) when the
   * file ends, as a file read whole says them.
   */
  readonly zeroOf?: { readonly kind: string; readonly source: string; readonly field: string };
}

/** A kind and source of a streamed file, counted (SentCount), with the masks of its records' zeros. */
export interface SourceCount extends SentCount {
  /**
   * Records that fail the run on nothing else, by the mask of their numeric fields sent as 0 (bit i
   * the field `sent[i]` counts): once the file is read, those with a 0 that stands out fail the run
   * under `--fail-on unusual`. At most 2^fields masks (a few hundred), whatever the file; plain
   * data (mask → records), as a worker's batch carries it.
   */
  readonly passingZeros: Record<number, number>;
}

/** A kind and source of streamed records: its count, its numeric fields, the groups of the findings lists its records share. */
interface StreamedSource {
  readonly count: SourceCount;
  readonly fields: readonly string[];
  readonly groupsOfShared: Map<readonly unknown[], SharedGroups>;
}

/** The groups of a findings list records share, and the mask of the numeric fields it has at 0 (SourceCount.passingZeros). */
interface SharedGroups {
  readonly targets: FindingGroup[];
  readonly zeroMask: number;
}

/** What the grouped text found of a file's zeros that stand out, once the file is read. */
export interface StandingZeros {
  /** The groups as `said` words them. */
  readonly groups: FindingGroup[];
  /** Zeros of streamed records that stand out among their source's records in the file (judged only now). */
  readonly zeros: number;
  /** Of the streamed records that fail nothing else, those with such a 0. */
  readonly records: number;
}

/** A group as it was before its records were told apart by source. */
function withoutSource(g: FindingGroup): FindingGroup {
  const { zeroOf: _, ...rest } = g;
  return rest;
}

/** What the grouped text keeps of records, as plain data: a worker thread's batch crosses as this. */
export interface GroupedRecords {
  readonly records: number;
  readonly invalid: number;
  /** The first record (its line when the file has one record). */
  readonly first: ReportRecord | undefined;
  /** The first MAX_INVALID_LINES invalid records, for their lines. */
  readonly invalidRecords: readonly ReportRecord[];
  /** In the order first met. */
  readonly groups: readonly FindingGroup[];
  /** The streamed records counted by kind and source, to say their zeros from (empty for records read whole). */
  readonly sources: readonly SourceCount[];
}

const MAX_PLACES = 5;
const MAX_INVALID_LINES = 20;
/**
 * A finding's message is printed whole: the validator writes none longer than this (values quoted
 * in it are cut to 60 characters), and the longest, that a record's kind could not be detected,
 * names the fields that identify each kind: cut at a line's width, it lost them.
 */
const MESSAGE_CHARS = 400;

const groupKey = (kind: FindingKind, path: string, message: string, zeroOf?: FindingGroup['zeroOf']): string =>
  zeroOf === undefined ? `${kind}\u0000${path}\u0000${message}` : `${kind}\u0000${path}\u0000${message}\u0000${zeroOf.kind}\u0000${zeroOf.source}`;

/**
 * The grouped form's memory of a file: counts, the first records, each distinct finding once
 * with its count and first places, never every record, so any file size fits. Batches gathered
 * on worker threads merge in file order to what gathering every record here gives.
 */
export class FindingGroups {
  records = 0;
  invalid = 0;
  first: ReportRecord | undefined;
  readonly invalidRecords: ReportRecord[] = [];
  private readonly groups = new Map<string, FindingGroup>();
  /**
   * The groups of a list of findings the validator shares between records (an NDJSON line's, whose
   * pointers are the record's own), by the records' kind and source: worked out once, not per record.
   */
  private readonly groupsOfShared = new Map<readonly unknown[], SharedGroups>();
  /** Streamed records by kind, then source, each with its count and shared groups. */
  private readonly byKind = new Map<string, Map<string, StreamedSource>>();
  /** Kinds and sources counted (at most MAX_COUNTED; the records of sources met after them keep their zeros' own words). */
  private counted = 0;
  /** The kind and source of the last streamed record, and theirs (undefined: a kind the service does not have). */
  private lastKind: string | undefined;
  private lastSource: string | undefined;
  private lastFrom: StreamedSource | undefined;
  /** Records came streamed (addStreamed, or merged from a worker's batch): their zeros are judged at the file's end. */
  streamed = false;

  /**
   * A streamed record as checkUnit gives it: as `add(streamedRecord(r))`, with less work per
   * record, and counted by kind and source, its zeros of top-level numeric fields grouped by
   * source, so that `said` can word them from the file's other records of the source. `fails`:
   * the record fails the run already (invalid, or a finding --fail-on names).
   */
  addStreamed(r: RecordReport, fails = false): void {
    this.streamed = true;
    this.count(r.valid, () => streamedRecord(r));
    let from: StreamedSource | undefined;
    if (r.kind !== null && r.source !== null) {
      from = r.source === this.lastSource && r.kind === this.lastKind ? this.lastFrom : this.streamedSource(r.kind, r.source);
      if (from !== undefined) countRecord(from.count, r.sent);
    }
    const findings = r.findings;
    if (findings.length === 0) return;
    const shared = r.pointer === '' && Object.isFrozen(findings);
    const cache = from === undefined ? this.groupsOfShared : from.groupsOfShared;
    let known = shared ? cache.get(findings) : undefined;
    if (known === undefined) {
      const index = r.index ?? undefined;
      const fields = from?.fields;
      const zeroOf = (f: PositionedFinding, path: string): FindingGroup['zeroOf'] => {
        const field = f.kind === 'zero' && fields !== undefined ? topField(path) : undefined;
        return field !== undefined && fields!.includes(field) ? { kind: r.kind!, source: r.source!, field } : undefined;
      };
      const targets = this.groupsOf(findings, (f) => pointerInRecord(f.path, index, r.pointer), zeroOf);
      let zeroMask = 0;
      if (fields !== undefined) for (const g of targets) if (g.zeroOf !== undefined) zeroMask |= 1 << fields.indexOf(g.zeroOf.field);
      known = { targets, zeroMask };
      if (shared) cache.set(findings, known);
    }
    if (from !== undefined && known.zeroMask !== 0 && !fails) {
      const passing = from.count.passingZeros;
      passing[known.zeroMask] = (passing[known.zeroMask] ?? 0) + 1;
    }
    this.place(known.targets, () => (r.index === null ? 'the record' : `#${r.index}`));
  }

  /** A kind's and source's count and shared groups, made when first met; undefined for a kind the service does not have, or past MAX_COUNTED. */
  private streamedSource(kind: string, source: string): StreamedSource | undefined {
    this.lastKind = kind;
    this.lastSource = source;
    this.lastFrom = undefined;
    let sources = this.byKind.get(kind);
    if (sources === undefined) {
      if (!isResourceKind(kind)) return undefined;
      this.byKind.set(kind, (sources = new Map()));
    }
    let from = sources.get(source);
    if (from === undefined) {
      if (this.counted >= MAX_COUNTED) return undefined;
      this.counted++;
      const fields = numericFieldsOf(kind as ResourceKind);
      sources.set(source, (from = { count: { kind, source, records: 0, sent: new Array<number>(fields.length).fill(0), passingZeros: {} }, fields, groupsOfShared: new Map() }));
    }
    return (this.lastFrom = from);
  }

  /**
   * The groups, the zeros of streamed records worded from their source's count in the file
   * (`where`: `in this file`, `in standard input`), as a file read whole words them, and marked
   * when they stand out; a source with no other record keeps the record's own words.
   */
  said(where: ZeroPlace): StandingZeros {
    const groups: FindingGroup[] = [];
    let zeros = 0;
    /** Per source with a 0 that stands out: the mask of those fields. */
    const standing = new Map<SourceCount, number>();
    for (const g of this.groups.values()) {
      const of = g.zeroOf;
      const from = of && this.byKind.get(of.kind)?.get(of.source);
      const count = from?.count;
      const bit = of && from ? from.fields.indexOf(of.field) : -1;
      if (of === undefined || count === undefined || count.records < 2 || bit < 0) {
        groups.push(g);
        continue;
      }
      const words = zeroWords(of.source, of.field, count.sent[bit], count.records - 1, where);
      if (!words.standsOut) {
        groups.push({ ...g, message: words.message });
        continue;
      }
      groups.push({ ...g, message: words.message, standsOut: true });
      zeros += g.records;
      standing.set(count, (standing.get(count) ?? 0) | (1 << bit));
    }
    let records = 0;
    for (const [count, mask] of standing) for (const [zeroMask, n] of Object.entries(count.passingZeros)) if ((Number(zeroMask) & mask) !== 0) records += n;
    return { groups, zeros, records };
  }

  add(record: ReportRecord): void {
    this.count(record.valid, () => record);
    this.place(
      this.groupsOf(record.findings, (f) => pointerInRecord(f.pointer, record.index, record.pointer)),
      () => (record.index === undefined ? 'the record' : `#${record.index}`),
    );
  }

  /** Counts a record; `report` makes it as the lines of the first and the invalid ones need it. */
  private count(valid: boolean, report: () => ReportRecord): void {
    let made: ReportRecord | undefined;
    this.records++;
    if (this.first === undefined) this.first = made = report();
    if (!valid) {
      this.invalid++;
      if (this.invalidRecords.length < MAX_INVALID_LINES) this.invalidRecords.push(made ?? report());
    }
  }

  /** A record's groups, each once: a record counts once in a group, however many of its findings fall in it. */
  private groupsOf<F extends { readonly kind: FindingKind; readonly message: string; readonly standsOut?: true }>(
    findings: readonly F[],
    pathOf: (f: F) => string,
    zeroOf?: (f: F, path: string) => FindingGroup['zeroOf'],
  ): FindingGroup[] {
    const groups: FindingGroup[] = [];
    for (const f of findings) {
      const path = pathOf(f);
      const group = this.groupOf(f.kind, path, f.message, f.standsOut, zeroOf?.(f, path));
      if (!groups.includes(group)) groups.push(group);
    }
    return groups;
  }

  /** One more record in each of the groups, at `place` while a group lists its first places. */
  private place(groups: readonly FindingGroup[], placeOf: () => string): void {
    let place: string | undefined;
    for (const group of groups) {
      group.records++;
      if (group.places.length <= MAX_PLACES) group.places.push((place ??= placeOf()));
    }
  }

  private groupOf(kind: FindingKind, path: string, message: string, standsOut: true | undefined, zeroOf: FindingGroup['zeroOf']): FindingGroup {
    // A 0 that stands out has words of its own ("unusual for …"), so a group is one or the other.
    const key = groupKey(kind, path, message, zeroOf);
    let group = this.groups.get(key);
    if (group === undefined) {
      group = { kind, path, message, places: [], records: 0 };
      if (standsOut) group = { ...group, standsOut };
      if (zeroOf) group = { ...group, zeroOf };
      this.groups.set(key, group);
    }
    return group;
  }

  /** Adds what was gathered from the records that follow these. */
  merge(other: GroupedRecords): void {
    if (other.records > 0) this.streamed = true;
    this.records += other.records;
    this.invalid += other.invalid;
    this.first ??= other.first;
    for (const r of other.invalidRecords) if (this.invalidRecords.length < MAX_INVALID_LINES) this.invalidRecords.push(r);
    for (const s of other.sources) {
      const count = this.streamedSource(s.kind, s.source)?.count;
      if (count === undefined) continue;
      addCount(count, s);
      for (const [mask, n] of Object.entries(s.passingZeros)) count.passingZeros[Number(mask)] = (count.passingZeros[Number(mask)] ?? 0) + n;
    }
    for (let g of other.groups) {
      // A source past the count's limit: its zeros join the group of their own words.
      if (g.zeroOf !== undefined && this.byKind.get(g.zeroOf.kind)?.get(g.zeroOf.source) === undefined) g = withoutSource(g);
      const key = groupKey(g.kind, g.path, g.message, g.zeroOf);
      const group = this.groups.get(key);
      if (group === undefined) {
        this.groups.set(key, { ...g, places: [...g.places] });
        continue;
      }
      group.records += g.records;
      for (const place of g.places) if (group.places.length <= MAX_PLACES) group.places.push(place);
    }
  }

  data(): GroupedRecords {
    const sources = [...this.byKind.values()].flatMap((bySource) => [...bySource.values()].map((from) => from.count));
    return { records: this.records, invalid: this.invalid, first: this.first, invalidRecords: this.invalidRecords, groups: [...this.groups.values()], sources };
  }

  get size(): number {
    return this.groups.size;
  }

  values(): IterableIterator<FindingGroup> {
    return this.groups.values();
  }
}

/**
 * A finding's pointer inside its record: `/data/3/zones/1/min` of the record at `/data/3` is
 * `/zones/1/min`. Without the record's pointer, the shortest run of whole segments that ends in
 * one equal to the record's index is taken off (no RegExp: this runs once per finding, and a
 * pattern per index cost more than the validation).
 */
export function pointerInRecord(pointer: string, index: number | undefined, recordPointer?: string): string {
  if (recordPointer !== undefined) {
    const n = recordPointer.length;
    return pointer.startsWith(recordPointer) && (pointer.length === n || pointer.charCodeAt(n) === SLASH) ? pointer.slice(n) : pointer;
  }
  if (index === undefined || pointer.charCodeAt(0) !== SLASH) return pointer;
  const segment = String(index);
  for (let at = 0; at >= 0; at = pointer.indexOf('/', at + 1)) {
    const end = at + 1 + segment.length;
    if (pointer.startsWith(segment, at + 1) && (end === pointer.length || pointer.charCodeAt(end) === SLASH)) return pointer.slice(end);
  }
  return pointer;
}

const SLASH = 0x2f;

export class TextReportWriter implements ReportWriter {
  private file_: ReportFile | undefined;
  private headed = false;
  /** In the grouped form: what is kept of the file's records so far. */
  private groups = new FindingGroups();
  /** In the grouped form: the problem that ended a file after its records, written after their summary. */
  private after = '';

  /** Findings are placed at a line and column only where they are listed one by one. */
  get placesFindings(): boolean {
    return this.allFindings;
  }

  constructor(
    private readonly o: Paint,
    private readonly tally: ReportTally,
    /** Every finding of every record, instead of each repeated finding once with its count. */
    private readonly allFindings = true,
  ) {}

  start(): string {
    return '';
  }

  file(file: ReportFile): string {
    this.file_ = file;
    this.headed = false;
    this.groups = new FindingGroups();
    return '';
  }

  problem(problem: FileProblem): string {
    const line = `${mark(this.o, 'error')} ${printable(`${this.file_?.name ?? 'file'} ${problem.message}`, 200)}\n`;
    if (this.allFindings || this.groups.records === 0) return line;
    // After records (a file that breaks off): below their summary, where it is read last.
    this.after = line;
    return '';
  }

  record(record: ReportRecord): string {
    if (!this.allFindings) {
      this.groups.add(record);
      return '';
    }
    const o = this.o;
    let out = '';
    if (!this.headed) {
      this.headed = true;
      out += `${paint(o, 'bold', printable(this.file_?.name ?? 'payload', 120))}\n`;
    }
    out += `${this.recordLine(record)}\n`;
    for (const f of record.findings) {
      const where = lineColumn(f.range);
      out += `    ${mark(o, f.kind, f.standsOut)} ${printable(f.pointer || '(record)', 50)}${where ? ` ${paint(o, 'dim', `(${where})`)}` : ''}  ${printable(f.message, MESSAGE_CHARS)}\n`;
    }
    return out;
  }

  private recordLine(record: ReportRecord): string {
    const o = this.o;
    const status = record.valid ? paint(o, 'green', 'valid') : paint(o, 'red', 'invalid');
    const counts = countFindings(record.findings);
    return `  ${printable(recordName(record), 80)}: ${status}${counts === 'clean' ? '' : ` (${counts})`}`;
  }

  /** Records gathered elsewhere (a worker thread), as `record` would have gathered them (grouped form). */
  gathered(batch: GroupedRecords): void {
    this.groups.merge(batch);
  }

  endFile(): string {
    let out = '';
    if (!this.allFindings && this.groups.records > 0) {
      // Standard input is the file without a path.
      const said = this.groups.said(this.file_ !== undefined && this.file_.path === undefined ? 'in standard input' : 'in this file');
      // Zeros of streamed records judged only now, from the whole file: counted, left out and
      // failing as those of a file read whole (whose findings came judged, and left out already).
      let shown = said.groups;
      if (this.groups.streamed) {
        const omitted = this.tally.omitted;
        let all = 0;
        for (const g of said.groups) if (g.kind === 'zero') all += g.records;
        this.tally.zerosJudgedLate(all, said.zeros, said.records);
        if (omitted.has('unusual')) shown = shown.filter((g) => !(g.standsOut === true && g.zeroOf !== undefined));
        else if (omitted.has('zero')) shown = shown.filter((g) => g.kind !== 'zero' || g.standsOut === true);
      }
      out = this.summary(shown);
    }
    out += this.after;
    this.file_ = undefined;
    this.after = '';
    return out;
  }

  /** Each file's invalid records by name, then each distinct finding once with its count. */
  private summary(groups: FindingGroup[]): string {
    const o = this.o;
    const { records: n, invalid, first, invalidRecords } = this.groups;
    const counts = invalid ? paint(o, 'red', `${invalid} invalid`) : paint(o, 'green', 'all valid');
    let standing = 0;
    for (const g of groups) if (g.standsOut) standing += g.records;
    const unusual = standing === 0 ? '' : `, ${paint(o, 'yellow', `${standing} zero${standing === 1 ? ' stands' : 's stand'} out`)}`;
    const lines = [`${paint(o, 'bold', printable(this.file_?.name ?? 'payload', 120))}: ${n} record${n === 1 ? '' : 's'}, ${counts}${unusual}`];
    lines.push(...(n === 1 && first ? [first] : invalidRecords).map((r) => this.recordLine(r)));
    if (n > 1 && invalid > MAX_INVALID_LINES) lines.push(`  … and ${invalid - MAX_INVALID_LINES} more invalid records`);
    // Zeros that stand out right after the warnings, as the Problems panel ranks them.
    const order = (g: FindingGroup): number => (g.standsOut ? FINDING_KINDS.indexOf('warning') + 0.5 : FINDING_KINDS.indexOf(g.kind));
    const sorted = groups.sort((a, b) => order(a) - order(b) || b.records - a.records);
    for (const g of sorted) {
      const k = g.records;
      const shown = g.places.slice(0, MAX_PLACES).join(', ');
      const where = k === n && n > 1 ? `all ${n} records` : k === 1 ? g.places[0] : `${k} records (${shown}${k > MAX_PLACES ? ', …' : ''})`;
      lines.push(`    ${mark(o, g.kind, g.standsOut)} ${printable(g.path || '(record)', 50)}  ${printable(g.message, MESSAGE_CHARS)} — ${where}`);
    }
    if (groups.length > 0) lines.push(paint(o, 'dim', '  Repeated findings are grouped; --all-findings lists every finding of every record.'));
    return `${lines.join('\n')}\n`;
  }

  end(): string {
    return `${summaryLine(this.o, this.tally)}\n`;
  }
}

/** The findings that fail the run besides errors, counted: `3 zero`, `1 unusual zero` (zeros that stand out; counted with the zeros when --fail-on names both). */
function failingCounts(tally: ReportTally): string[] {
  const counted = FINDING_KINDS.filter((k) => k !== 'error' && tally.failOn.has(k) && tally.counts[k] > 0).map((k) => `${tally.counts[k]} ${k}`);
  if (tally.failOn.has('unusual') && !tally.failOn.has('zero') && tally.standingOut > 0) counted.push(unusualZeros(tally.standingOut));
  return counted;
}

/** What --omit left out, in words: `zero and unknown findings left out (--omit; the 2 zeros that stand out kept)`; undefined for nothing. */
function omittedLine(tally: ReportTally): string | undefined {
  const { omitted } = tally;
  const kinds: string[] = FINDING_KINDS.filter((k) => omitted.has(k));
  // --omit zero,unusual leaves every zero out: "zero" says it.
  if (omitted.has('unusual') && !omitted.has('zero')) kinds.push('unusual zero');
  if (kinds.length === 0) return undefined;
  const kept = omitted.has('zero') && !omitted.has('unusual') && tally.standingOut > 0 ? `; ${tally.standingOut === 1 ? 'the zero that stands out' : `the ${thousands(tally.standingOut)} zeros that stand out`} kept` : '';
  return `${andList(kinds)} findings left out (--omit${kept})`;
}

/** `12 records in 3 files, 1 invalid, 1 file not validated, 1 file validated only in part`, with the findings that fail the run. */
export function summaryLine(p: Paint, tally: ReportTally): string {
  const o = p;
  const { records, files, invalid, problems } = tally;
  const tail = [`${records} record${records === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`];
  // "all valid" only of records there are: not of a run whose files could not be read.
  if (invalid) tail.push(paint(o, 'red', `${invalid} invalid`));
  else if (records > 0) tail.push(paint(o, 'green', 'all valid'));
  if (tally.standingOut > 0) tail.push(paint(o, 'yellow', `${thousands(tally.standingOut)} zero${tally.standingOut === 1 ? ' stands' : 's stand'} out`));
  const failingOn = failingCounts(tally);
  if (failingOn.length > 0) tail.push(paint(o, 'red', `${tally.failing} failing on ${failingOn.join(', ')}`));
  // A file whose records were validated before it broke off is not one "not validated".
  const unread = problems - tally.partial;
  if (unread) tail.push(paint(o, 'red', `${unread} file${unread === 1 ? '' : 's'} not validated`));
  if (tally.partial) tail.push(paint(o, 'red', `${tally.partial} file${tally.partial === 1 ? '' : 's'} validated only in part`));
  const omitted = omittedLine(tally);
  if (omitted !== undefined) tail.push(omitted);
  return tail.join(', ');
}
