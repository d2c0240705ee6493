// Validates one editor document into the `healthData` diagnostic collection, and remembers the
// kind a person chose for a document so that later validations of it (live, as it changes) use it.
// A document above `healthData.validation.workerThresholdMB` is validated on a worker thread: its
// findings reach the Problems panel batch by batch, and a newer validation of it cancels the older.

import * as vscode from 'vscode';
import { isMainThread, threadId } from 'node:worker_threads';
import type { JsonSyntaxError } from '../../core/json';
import { NDJSON_FILE_NAME, type NdjsonLines, PayloadTextOptions, validatePayloadText } from '../../core/validation';
import { FindingCounts, ValidationWorkers, WorkerThread, nextTurn, warmUpValidationInSteps } from '../../core/validationWorker';
import { ResourceKind } from '../../core/resources';
import { explainDocumentZeros, standsOut } from '../../core/views/zeroContext';
import { MAX_DIAGNOSTICS, StreamedDiagnostics, countFindings, diagnosticsOf, syntaxDiagnostics, unknownFieldSeverity } from './diagnostics';

/** How a document's records get their kind: given for all, or for those whose kind is not detected. */
export interface KindChoice {
  readonly kind?: ResourceKind;
  readonly fallbackKind?: ResourceKind;
}

/** What one validation of a document found (its diagnostics are in the collection). */
export interface DocumentValidation {
  readonly syntaxErrors: number;
  readonly records: number;
  /** Records whose fields did not tell their kind (validated as the fallback kind, if one was given). */
  readonly undetected: number;
  readonly counts: FindingCounts;
  /** Of the zeros, those that stand out among their source's other records in the document (shown as warnings). */
  readonly standingOut: number;
  /** The thread that validated: the extension host's own, or a worker's. */
  readonly thread: WorkerThread;
  /** The document was read as NDJSON: its records (lines), and the lines that are no JSON. */
  readonly lines?: NdjsonLines;
}

/** Progress and cancellation of a long validation, from the command or the window's status. */
export interface ValidationProgress {
  readonly progress?: vscode.Progress<{ message?: string; increment?: number }>;
  readonly token?: vscode.CancellationToken;
}

export const DEFAULT_WORKER_THRESHOLD_MB = 1;
/** How often a long run refreshes the Problems panel with the findings so far. */
const SHOW_EVERY_MS = 250;
/** The most diagnostics the first refresh of a run holds (see validateOnWorker). */
const FIRST_SHOWN = 250;

/** Language ids other extensions give NDJSON documents. */
const NDJSON_LANGUAGES = new Set(['jsonl', 'ndjson', 'jsonlines']);

/**
 * Whether a document is NDJSON by its name (`.ndjson`, `.jsonl`) or language: each of its lines is
 * then read as a record even when the first is broken. Any other document that is no JSON is read
 * as NDJSON when it looks like it (an object, then another value on a line of its own).
 */
export function isNdjsonDocument(document: Pick<vscode.TextDocument, 'uri' | 'languageId'>): boolean {
  return NDJSON_LANGUAGES.has(document.languageId) || NDJSON_FILE_NAME.test(document.uri.path);
}

/** `healthData.validation.workerThresholdMB` in characters (about bytes for JSON). */
export function workerThreshold(): number {
  const mb = vscode.workspace.getConfiguration('healthData.validation').get<number>('workerThresholdMB', DEFAULT_WORKER_THRESHOLD_MB);
  return (Number.isFinite(mb) && mb >= 0 ? mb : DEFAULT_WORKER_THRESHOLD_MB) * 1024 * 1024;
}

/**
 * Whether the document holds more than `limit` characters, counted line by line only until it
 * knows (offsetAt() would index every line of a large document on the extension host's thread).
 * Every line but the last ends in a line break, so a document of more lines than that is longer
 * at once (a pretty-printed payload of 50 MB has about 2 million). Line breaks count as the
 * document writes them: two characters in a CRLF document.
 */
export function longerThan(document: vscode.TextDocument, limit: number): boolean {
  const lines = document.lineCount;
  if (lines - 1 > limit) return true;
  const eol = document.eol === vscode.EndOfLine.CRLF ? 2 : 1;
  let length = -eol; // the last line has no break
  for (let line = 0; line < lines; line++) {
    length += document.lineAt(line).text.length + eol;
    if (length > limit) return true;
  }
  return false;
}

/**
 * Lines read from the document at once, and the most characters sent to the worker in one message.
 * Slices stay below V8's large-object size (128 KB) for usual lines: a larger string is allocated
 * in the old generation, and 50 MB of them brought full collections of the host's heap (which
 * holds the document's lines) in the middle of the run.
 */
const SLICE_LINES = 2_048;
const SLICE_CHARS = 64 * 1024;

/**
 * The document's text a slice at a time, the host's event loop free between slices: the whole
 * text at once (getText() of tens of MB, and its copy to the worker) would stall the host.
 * Stops with an error when the document changes meanwhile (its run is cancelled by then).
 */
export async function* textSlices(document: vscode.TextDocument): AsyncGenerator<string> {
  const version = document.version;
  for (let line = 0; line < document.lineCount; line += SLICE_LINES) {
    if (document.version !== version || document.isClosed) throw new Error('the document changed while it was read');
    // To the start of the line after the slice (clamped to the document's end), its line break included.
    const text = document.getText(new vscode.Range(line, 0, line + SLICE_LINES, 0));
    for (let at = 0; at < text.length; at += SLICE_CHARS) {
      yield text.length <= SLICE_CHARS ? text : text.slice(at, at + SLICE_CHARS);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

interface WorkerRunHandle {
  cancel(): void;
  readonly version: number;
  /** The options it validates with, as JSON. */
  readonly options: string;
  result?: Promise<DocumentValidation | undefined>;
}

export class DocumentValidator implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('healthData');
  private readonly choices = new Map<string, KindChoice>();
  /** The worker run in progress for each document. */
  private readonly runs = new Map<string, WorkerRunHandle>();
  private readonly workers: ValidationWorkers | undefined;
  /** Whether each document was large at a version, for a worker threshold (see isLarge). */
  private readonly sizes = new WeakMap<vscode.TextDocument, { version: number; limit: number; large: boolean }>();
  private warmed: Promise<void> | undefined;
  private disposed = false;

  /** `workerScript`: dist/validationWorker.js; without it every document is validated in place. */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    workerScript?: string,
  ) {
    this.workers = workerScript === undefined ? undefined : new ValidationWorkers(workerScript);
  }

  /** Whether the document is validated on a worker thread. */
  isLarge(document: vscode.TextDocument): boolean {
    if (this.workers === undefined) return false;
    // Asked when a change is scheduled and again when its validation starts: counted once per version.
    const limit = workerThreshold();
    const known = this.sizes.get(document);
    if (known !== undefined && known.version === document.version && known.limit === limit) return known.large;
    // A threshold of 0 sends every document there, an empty one too (the setting says so).
    const large = limit === 0 || longerThan(document, limit);
    this.sizes.set(document, { version: document.version, limit, large });
    return large;
  }

  /**
   * Loads and runs the validators at idle after activation, a small step at a time with the event
   * loop free between steps, until V8 has optimised them: the first validation a person waits for
   * is then not a cold one. Later calls return the same warm-up.
   */
  warmUp(): Promise<void> {
    this.warmed ??= warmUpValidationInSteps(nextTurn, () => this.disposed).then(
      (cost) => this.log.debug(`validators warmed up in ${cost.steps} steps: ${cost.totalMs.toFixed(1)} ms in all, the longest ${cost.longestStepMs.toFixed(1)} ms`),
      (err: unknown) => this.log.warn(`warming up the validators failed: ${err instanceof Error ? err.message : String(err)}`),
    );
    return this.warmed;
  }

  /** Starts the worker thread ahead of a large document's validation. */
  warmWorker(): void {
    this.workers?.warm();
  }

  /**
   * Validates the document as it is now and replaces its diagnostics: in place, or on a worker
   * thread when it is large. A choice given is remembered for the next validations of the
   * document; without one the last is used. Resolves undefined when the run was cancelled (by
   * the token, or by a newer validation or an edit of the document). Never throws.
   */
  async validate(document: vscode.TextDocument, choice?: KindChoice, report: ValidationProgress = {}): Promise<DocumentValidation | undefined> {
    if (choice !== undefined) this.choices.set(document.uri.toString(), choice);
    // The same text with the same options being validated already (the command run while a live
    // validation is under way, or the other way round): its result is this one's.
    const running = this.runs.get(document.uri.toString());
    if (running?.result && running.version === document.version && running.options === JSON.stringify(this.optionsFor(document))) return running.result.catch(() => undefined);
    this.cancel(document.uri);
    if (!this.isLarge(document)) return this.validateInPlace(document);
    const result = this.validateOnWorker(document, report);
    const handle = this.runs.get(document.uri.toString());
    if (handle) handle.result = result;
    try {
      return await result;
    } catch (err) {
      // A worker that cannot start or fails: the document is still validated, in place.
      this.log.warn(`the validation worker failed (${err instanceof Error ? err.message : String(err)}): validating ${document.uri.toString(true)} in the extension host`);
      return this.validateInPlace(document);
    }
  }

  private validateInPlace(document: vscode.TextDocument): DocumentValidation {
    const started = performance.now();
    // Each 0 said from the document's other records of its source, as the worker says it (payloadTextBatches).
    const validation = explainDocumentZeros(validatePayloadText(document.getText(), this.optionsFor(document)));
    this.collection.set(document.uri, diagnosticsOf(document, validation, unknownFieldSeverity()));
    this.log.debug(
      `validated ${document.uri.toString(true)} v${document.version} in ${(performance.now() - started).toFixed(1)} ms: ` +
        (validation.syntaxErrors.length > 0 ? `${validation.syntaxErrors.length} syntax errors` : `${validation.records.length} records, ${validation.findings.length} findings`),
    );
    return { syntaxErrors: validation.syntaxErrors.length, records: validation.records.length, undetected: validation.undetected, counts: countFindings(validation), standingOut: validation.findings.filter(standsOut).length, thread: { threadId, isMainThread }, ...(validation.lines && { lines: validation.lines }) };
  }

  private async validateOnWorker(document: vscode.TextDocument, report: ValidationProgress): Promise<DocumentValidation | undefined> {
    const key = document.uri.toString();
    const version = document.version;
    // The first MAX_DIAGNOSTICS findings of each kind: enough to choose the ones shown (see findingDiagnostics).
    const streamed = new StreamedDiagnostics(document, unknownFieldSeverity());
    let found = 0;
    let done = 0;
    let syntaxErrors: readonly JsonSyntaxError[] = [];
    /** The text is read as NDJSON (its first batch says so). */
    let lines = false;
    let shownAt = performance.now();
    const current = () => this.runs.get(key) === handle && !document.isClosed && document.version === version;
    // One refresh of the Problems panel at a time: its diagnostics are made in slices (see
    // StreamedDiagnostics), and the first refreshes hold fewer of them (FIRST_SHOWN, then twice as
    // many each time up to MAX_DIAGNOSTICS): handing the collection all of them at once,
    // with VS Code's code for them not yet optimised, stalled the host for 100 ms.
    let showing: Promise<void> | undefined;
    let limit = FIRST_SHOWN;
    let complete = false;
    const refresh = async () => {
      // A text that is no JSON: its syntax errors first, then the findings of the records it holds
      // whole, in the room the syntax errors leave under VS Code's limit.
      const syntax = syntaxDiagnostics(document, syntaxErrors, lines);
      const room = MAX_DIAGNOSTICS - syntax.length;
      const shown = Math.min(limit, room);
      limit = Math.min(MAX_DIAGNOSTICS, limit * 2);
      const findings = await streamed.diagnostics(nextTurn, shown);
      const diagnostics = [...syntax, ...findings];
      complete = shown >= room || streamed.found <= shown;
      if (current()) this.collection.set(document.uri, diagnostics);
    };
    const show = (): Promise<void> => {
      shownAt = performance.now();
      showing = (showing ?? Promise.resolve()).then(refresh).catch((err: unknown) => this.log.warn(`showing the findings of ${document.uri.toString(true)} failed: ${err instanceof Error ? err.message : String(err)}`));
      return showing;
    };
    const options = this.optionsFor(document);
    const run = this.workers!.run(textSlices(document), options, {
      keepPerKind: MAX_DIAGNOSTICS,
      onBatch: (batch) => {
        if (!current()) return;
        if (batch.syntaxErrors.length > 0) syntaxErrors = batch.syntaxErrors;
        if (batch.lines !== undefined) lines = true;
        streamed.add(batch.findings, batch.found);
        found = batch.found;
        report.progress?.report({ message: vscode.l10n.t('{0} of {1} records', batch.done, batch.total), increment: batch.total > 0 ? (100 * (batch.done - done)) / batch.total : undefined });
        done = batch.done;
        if (performance.now() - shownAt >= SHOW_EVERY_MS) void show();
      },
    });
    const handle: WorkerRunHandle = { cancel: run.cancel, version, options: JSON.stringify(options) };
    this.runs.set(key, handle);
    const cancelled = report.token?.onCancellationRequested(() => this.cancel(document.uri));
    try {
      const outcome = await run.result;
      if (!current() || outcome === undefined) return undefined;
      do await show();
      while (!complete && current());
      if (!current()) return undefined;
      this.log.debug(
        `validated ${document.uri.toString(true)} v${version} on worker thread ${outcome.thread.threadId} in ${outcome.ms.toFixed(1)} ms: ` +
          (syntaxErrors.length > 0 ? `${syntaxErrors.length} syntax errors` : `${outcome.totals.records} records, ${found} findings`),
      );
      return { ...outcome.totals, thread: outcome.thread };
    } finally {
      cancelled?.dispose();
      if (this.runs.get(key) === handle) this.runs.delete(key);
    }
  }

  /** Stops the document's validation in progress, if any: none of its results will land. */
  cancel(uri: vscode.Uri): void {
    const key = uri.toString();
    this.runs.get(key)?.cancel();
    this.runs.delete(key);
  }

  /**
   * How the document is validated now: its language, and the kind last chosen for it. A report
   * made with these options places its findings where the Problems panel does.
   */
  optionsFor(document: Pick<vscode.TextDocument, 'uri' | 'languageId'>): PayloadTextOptions {
    return { ...this.choices.get(document.uri.toString()), jsonc: document.languageId === 'jsonc', lines: isNdjsonDocument(document) ? 'always' : 'detect' };
  }

  /** Forgets the document: its diagnostics, its kind and its validation in progress. */
  forget(uri: vscode.Uri): void {
    this.cancel(uri);
    this.collection.delete(uri);
    this.choices.delete(uri.toString());
  }

  dispose(): void {
    this.disposed = true;
    for (const run of this.runs.values()) run.cancel();
    this.runs.clear();
    this.workers?.dispose();
    this.collection.dispose();
    this.choices.clear();
  }
}
