// Spreads the validation of a payload's records over worker threads (`validate --jobs N`), or
// validates them in place with one job. Results come back in the order the records were read:
// as records, or already reduced to what the report keeps, with the batch's tally (the JSON
// report's text of the batch; the grouped text's counts and groups; the SARIF, JUnit or GitHub
// text of its records), so the thread that writes the report does little more than write.
// The same file is the workers' script: in the bundle that is dist/cli.js itself.

import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { type BatchContext, type FailOn, batchBuffers, type OmitKinds, type ReportRecord, type RuleKind, ReportTally, type TallyCounts, type WrittenBatch, streamedJsonBytes, streamedRecord, withoutOmitted, writeBatch } from '../core/reports';
import type { ResourceKind } from '../core/resources';
import { type PositionedFinding, RecordReport, RecordUnit, UnitResult, checkUnit } from '../core/streaming';
import type { ZeroPlace } from '../core/views';
import { type SentCount, SentCounter, ZeroSayer } from './streamedZeros';
import { FindingGroups, type GroupedRecords } from './textReport';

const ROLE = 'health-data-validate';

interface WorkerSetup {
  role: typeof ROLE;
  kind: ResourceKind | undefined;
  places: boolean;
  /** Kinds of finding left out (`--omit`). */
  omit: RuleKind[];
  /** How batches come back reduced, and the kinds that fail the run; undefined: as records. */
  reduce: { as: Reduction; failOn: RuleKind[] } | undefined;
}

/**
 * `json`: the JSON report's text of a batch; `groups`: what the grouped text keeps of it;
 * `report`: its records written for a SARIF, JUnit or GitHub writer (writeBatch).
 */
export type Reduction = 'json' | 'groups' | 'report';

/** A batch as the JSON report's text of its records (streamedJsonBytes), with their tally. */
export interface RenderedBatch {
  readonly bytes: Uint8Array;
  readonly tally: TallyCounts;
  /** Why a payload kept whole is no JSON (it then has no records). */
  readonly syntaxError?: string;
}

/** A batch as the grouped text keeps it, with its tally. */
export interface GroupedBatch {
  readonly groups: GroupedRecords;
  readonly tally: TallyCounts;
  readonly syntaxError?: string;
}

/** A batch's records written for the report's writer (writeBatch), with their tally. */
export interface ReportBatch {
  readonly written: WrittenBatch;
  readonly tally: TallyCounts;
  readonly syntaxError?: string;
}

export type CheckedBatch = { readonly results: UnitResult[] } | { readonly rendered: RenderedBatch } | { readonly grouped: GroupedBatch } | { readonly report: ReportBatch } | { readonly counted: SentCount[] };

/**
 * The counts of a file's first pass, with which its records' zeros are said in the second (a
 * file's number, so that a worker builds its ZeroSayer once per file, and gets the counts once).
 */
export interface ZeroCounts {
  readonly file: number;
  readonly counts: readonly SentCount[];
  readonly where: ZeroPlace;
}

/** The records of a batch's results, each tallied and handed to `each`; the tally and the syntax error, if any. */
function tallied(results: readonly UnitResult[], failOn: FailOn, each: (r: RecordReport, fails: boolean) => void): Pick<RenderedBatch, 'tally' | 'syntaxError'> {
  const tally = new ReportTally(failOn);
  let syntaxError: string | undefined;
  for (const result of results) {
    if ('syntaxError' in result) syntaxError = result.syntaxError;
    else
      for (const r of result.records) each(r, tally.record(r));
  }
  const counts: TallyCounts = { records: tally.records, invalid: tally.invalid, failing: tally.failing, undetected: tally.undetected, counts: tally.counts, standingOut: tally.standingOut };
  return syntaxError === undefined ? { tally: counts } : { tally: counts, syntaxError };
}

function groupBatch(results: readonly UnitResult[], failOn: FailOn): GroupedBatch {
  const groups = new FindingGroups();
  const batch = tallied(results, failOn, (r, fails) => groups.addStreamed(r, fails));
  return { groups: groups.data(), ...batch };
}

function reportBatch(results: readonly UnitResult[], failOn: FailOn, context: BatchContext): ReportBatch {
  const records: ReportRecord[] = [];
  const batch = tallied(results, failOn, (r) => records.push(streamedRecord(r)));
  return { written: writeBatch(context, records), ...batch };
}

/** A batch's records counted by kind and source (the first of a payload's two passes, streamedZeros.ts). */
function countBatch(results: readonly UnitResult[]): SentCount[] {
  const counter = new SentCounter();
  for (const result of results) if (!('syntaxError' in result)) for (const r of result.records) counter.add(r);
  return counter.data();
}

/** A batch's results reduced as asked; `report` needs the writer's context of the file. */
function reduceBatch(results: readonly UnitResult[], reduce: Reduction, failOn: FailOn, context: BatchContext | undefined): CheckedBatch {
  if (reduce === 'json') return { rendered: renderBatch(results, failOn) };
  if (reduce === 'groups') return { grouped: groupBatch(results, failOn) };
  if (context === undefined) throw new Error('a batch to write for a report without its file');
  return { report: reportBatch(results, failOn, context) };
}

function renderBatch(results: readonly UnitResult[], failOn: FailOn): RenderedBatch {
  const records: RecordReport[] = [];
  const batch = tallied(results, failOn, (r) => records.push(r));
  // Encoded here, on the worker: the thread that writes the report then only hands bytes on.
  return { bytes: streamedJsonBytes(records), ...batch };
}

/** A batch as it crosses to a worker: every unit's bytes in one transferred buffer. */
interface BatchMessage {
  id: number;
  bytes: Uint8Array;
  /** The report writer's context of the file, when its records are written on the worker. */
  context?: BatchContext;
  /** The file's counts to say its zeros from (the second pass); `counts` only the first time a worker gets the file. */
  zeros?: { file: number; counts?: readonly SentCount[]; where: ZeroPlace };
  /** The first pass: the records only counted by kind and source (countBatch). */
  count?: true;
  units: Array<Omit<RecordUnit, 'bytes'> & { start: number; end: number }>;
}

function pack(id: number, units: readonly RecordUnit[], context: BatchContext | undefined): BatchMessage {
  let total = 0;
  for (const u of units) total += u.bytes.length;
  // Its own ArrayBuffer (not Node's shared pool), so it can be transferred instead of copied.
  const bytes = Buffer.allocUnsafeSlow(total);
  let at = 0;
  const meta = units.map((u) => {
    const start = at;
    at += u.bytes.copy(bytes, at);
    return { shape: u.shape, index: u.index, pointer: u.pointer, line: u.line, column: u.column, start, end: at };
  });
  return context === undefined ? { id, bytes, units: meta } : { id, bytes, units: meta, context };
}

function checkBatch(message: BatchMessage, kind: ResourceKind | undefined, places: boolean, omit: OmitKinds, sayer: ZeroSayer | undefined): UnitResult[] {
  const all = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
  const results = message.units.map((u) =>
    checkUnit({ shape: u.shape, index: u.index, pointer: u.pointer, line: u.line, column: u.column, bytes: all.subarray(u.start, u.end) }, kind, undefined, places),
  );
  // The zeros said from the whole file before --omit reads whether they stand out.
  return omitted(sayer ? sayer.sayAll(results) : results, omit);
}

/** A ZeroSayer per file: made again only when the file changes. */
class SayerOf {
  private file = -1;
  private sayer: ZeroSayer | undefined;

  of(zeros: { file: number; counts?: readonly SentCount[]; where: ZeroPlace } | undefined): ZeroSayer | undefined {
    if (zeros === undefined) return undefined;
    if (zeros.file !== this.file) {
      this.file = zeros.file;
      this.sayer = new ZeroSayer(zeros.counts ?? [], zeros.where);
    }
    return this.sayer;
  }
}

/** Lists of findings the validator shares between records, without the omitted kinds: made once each. */
const sharedWithout = new WeakMap<readonly PositionedFinding[], readonly PositionedFinding[]>();

/** The results without the findings of the omitted kinds (`--omit`). */
function omitted(results: UnitResult[], omit: OmitKinds): UnitResult[] {
  if (omit.size === 0) return results;
  const without = (findings: readonly PositionedFinding[]): readonly PositionedFinding[] => {
    if (!Object.isFrozen(findings)) return withoutOmitted(findings, omit);
    let kept = sharedWithout.get(findings);
    if (kept === undefined) sharedWithout.set(findings, (kept = Object.freeze(withoutOmitted(findings, omit))));
    return kept;
  };
  return results.map((result) =>
    'syntaxError' in result
      ? result
      : {
          records: result.records.map((r): RecordReport => {
            const findings = without(r.findings);
            return findings === r.findings ? r : { ...r, findings };
          }),
        },
  );
}

if (!isMainThread && (workerData as WorkerSetup | undefined)?.role === ROLE) {
  const { kind, places, reduce } = workerData as WorkerSetup;
  const failOn: FailOn | undefined = reduce && new Set(reduce.failOn);
  const omit: OmitKinds = new Set((workerData as WorkerSetup).omit);
  const sayers = new SayerOf();
  parentPort!.on('message', (message: BatchMessage) => {
    if (message.count) {
      parentPort!.postMessage({ id: message.id, counted: countBatch(checkBatch(message, kind, false, new Set(), undefined)) });
      return;
    }
    const results = checkBatch(message, kind, places, omit, sayers.of(message.zeros));
    if (reduce && failOn) {
      const batch = reduceBatch(results, reduce.as, failOn, message.context);
      // The JSON report's bytes are transferred (not copied) to the thread that writes them.
      if ('rendered' in batch) parentPort!.postMessage({ id: message.id, rendered: batch.rendered }, [batch.rendered.bytes.buffer as ArrayBuffer]);
      else if ('report' in batch) parentPort!.postMessage({ id: message.id, report: batch.report }, batchBuffers(batch.report.written));
      else parentPort!.postMessage({ id: message.id, ...batch });
      return;
    }
    // Records as one JSON text: a string crosses threads in one copy, and JSON.parse builds the
    // objects faster than the structured clone of thousands of small objects (a profile: 2 x less
    // time on the main thread, which is what bounds --jobs).
    parentPort!.postMessage({ id: message.id, results: JSON.stringify(results) });
  });
}

/** A worker, the batches it has in hand, and the file whose counts it has (ZeroCounts.file; -1 none). */
interface Slot {
  readonly worker: Worker;
  busy: number;
  file: number;
}

/** Checks batches of units, in place (one job) or on `jobs` worker threads started on first use. */
export class UnitPool {
  private workers: Slot[] = [];
  private pending = new Map<number, { resolve: (r: CheckedBatch) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private failure: Error | undefined;

  /**
   * `places` false: findings are not placed in their record's text (see checkUnit). `reduce`
   * given: batches come back reduced for the JSON report or the grouped text, tallied with these
   * kinds failing.
   */
  constructor(
    readonly jobs: number,
    private readonly kind: ResourceKind | undefined,
    private readonly places = true,
    private readonly reduce?: { as: Reduction; failOn: FailOn },
    /** Kinds of finding left out of the results (`--omit`). */
    private readonly omit: OmitKinds = new Set(),
  ) {}

  /** The counts the records' zeros are said from, while a file's second pass runs (streamedZeros.ts); undefined otherwise. */
  zeros: ZeroCounts | undefined;
  /** While a payload's first pass runs: batches come back counted (countBatch), on the same workers as the second pass. */
  counting = false;
  /** In place (one job): the sayer of the current file. */
  private readonly sayers = new SayerOf();

  /**
   * A pool like this one that checks in the calling thread and gives every record back, reduced
   * to nothing and with every finding: its zeros are said from the file's other records (which
   * tells a 0 that stands out, one `--omit zero` keeps) before the caller leaves any out.
   */
  inThread(): UnitPool {
    return new UnitPool(1, this.kind, this.places);
  }

  /** `context`: the report writer's context of the file, when batches are reduced to its text (`report`). */
  check(units: readonly RecordUnit[], context?: BatchContext): Promise<CheckedBatch> {
    if (this.jobs <= 1) {
      if (this.counting) return Promise.resolve({ counted: countBatch(units.map((u) => checkUnit(u, this.kind, undefined, false))) });
      const checked = units.map((u) => checkUnit(u, this.kind, undefined, this.places));
      const sayer = this.sayers.of(this.zeros);
      const results = omitted(sayer ? sayer.sayAll(checked) : checked, this.omit);
      return Promise.resolve(this.reduce ? reduceBatch(results, this.reduce.as, this.reduce.failOn, context) : { results });
    }
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const slot = this.slot();
    slot.busy++;
    return new Promise<CheckedBatch>((resolve, reject) => {
      this.pending.set(id, {
        resolve: (r) => {
          slot.busy--;
          resolve(r);
        },
        reject,
      });
      const message = pack(id, units, context);
      const zeros = this.zeros;
      if (this.counting) message.count = true;
      else if (zeros !== undefined) {
        // The counts cross to a worker once per file.
        message.zeros = slot.file === zeros.file ? { file: zeros.file, where: zeros.where } : { file: zeros.file, counts: zeros.counts, where: zeros.where };
        slot.file = zeros.file;
      }
      slot.worker.postMessage(message, [message.bytes.buffer as ArrayBuffer]);
    });
  }

  /** The least busy worker, starting one more while there are fewer than `jobs`. */
  private slot(): Slot {
    const idle = this.workers.find((w) => w.busy === 0);
    if (idle) return idle;
    if (this.workers.length < this.jobs) {
      const reduce = this.reduce && { as: this.reduce.as, failOn: [...this.reduce.failOn] };
      const setup: WorkerSetup = { role: ROLE, kind: this.kind, places: this.places, omit: [...this.omit], reduce };
      const worker = new Worker(__filename, { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: 16 } });
      worker.unref();
      worker.on('message', (m: { id: number; results?: string; rendered?: RenderedBatch; grouped?: GroupedBatch; report?: ReportBatch; counted?: SentCount[] }) => {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        p?.resolve(
          m.rendered ? { rendered: m.rendered } : m.grouped ? { grouped: m.grouped } : m.report ? { report: m.report } : m.counted ? { counted: m.counted } : { results: JSON.parse(m.results ?? '[]') as UnitResult[] },
        );
      });
      const fail = (err: Error) => {
        this.failure = new Error(`a validation worker failed: ${err.message}`);
        for (const p of this.pending.values()) p.reject(this.failure);
        this.pending.clear();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (code !== 0 && this.pending.size > 0) fail(new Error(`it exited with code ${code}`));
      });
      const slot: Slot = { worker, busy: 0, file: -1 };
      this.workers.push(slot);
      return slot;
    }
    return this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
    this.workers = [];
  }
}
