// Runs validations on worker threads for a caller that must not stall (the extension host): one
// thread per run in progress, one idle thread kept warm for the next. Cancelling a run terminates
// its thread, so no result of it can arrive afterwards.

import { Worker } from 'node:worker_threads';
import type { PayloadTextOptions } from '../validation';
import { BATCH_RECORDS } from './batches';
import { FromWorker, ToWorker, ValidationTotals, WORKER_ROLE, WorkerThread } from './protocol';

export type ValidationBatch = Extract<FromWorker, { type: 'batch' }>;

export interface ValidationOutcome {
  readonly totals: ValidationTotals;
  readonly thread: WorkerThread;
  /** Time the worker spent, parse to last batch. */
  readonly ms: number;
}

export interface RunOptions {
  readonly batchRecords?: number;
  readonly keepPerKind?: number;
  /** Each batch as it is placed, in order. Never called after the run is cancelled. */
  readonly onBatch?: (batch: ValidationBatch) => void;
}

export interface ValidationRun {
  /** The outcome; undefined when the run was cancelled. Rejects when the worker fails. */
  readonly result: Promise<ValidationOutcome | undefined>;
  cancel(): void;
}

export class ValidationWorkers {
  private idle: Worker | undefined;
  private readonly running = new Set<Worker>();
  private readonly cancels = new Set<() => void>();
  private nextId = 1;
  private disposed = false;

  /** `script`: the worker's file (dist/validationWorker.js in the extension). */
  constructor(private readonly script: string) {}

  private spawn(): Worker {
    const worker = new Worker(this.script, { workerData: { role: WORKER_ROLE } });
    worker.unref();
    return worker;
  }

  /** Starts the idle thread and has it load and run the validators, if it is not there yet. */
  warm(): void {
    if (this.idle !== undefined || this.disposed) return;
    const worker = this.spawn();
    this.setIdle(worker);
    worker.postMessage({ type: 'warm' } satisfies ToWorker);
  }

  /**
   * Validates `text` on a worker thread, batch by batch. A text given as slices (an async
   * iterable) is sent a slice at a time as they come, so a caller that must not stall never copies
   * or sends a large text at once.
   */
  run(text: string | AsyncIterable<string>, options: PayloadTextOptions, runOptions: RunOptions = {}): ValidationRun {
    if (this.disposed) throw new Error('the validation workers are disposed');
    const worker = this.idle ?? this.spawn();
    this.idle = undefined;
    worker.removeAllListeners();
    this.running.add(worker);
    const id = this.nextId++;
    let settled = false;
    let settle: (outcome: ValidationOutcome | undefined, error?: Error) => void = () => undefined;
    const result = new Promise<ValidationOutcome | undefined>((resolve, reject) => {
      settle = (outcome, error) => {
        if (settled) return;
        settled = true;
        worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
        if (error) reject(error);
        else resolve(outcome);
      };
    });
    worker.on('message', (message: FromWorker) => {
      if (settled || message.type === 'warm' || message.id !== id) return;
      if (message.type === 'batch') runOptions.onBatch?.(message);
      else if (message.type === 'failed') {
        settle(undefined, new Error(message.message));
        this.release(worker);
      } else {
        settle({ totals: message.totals, thread: message.thread, ms: message.ms });
        this.release(worker);
      }
    });
    const lost = (error: Error) => {
      this.running.delete(worker);
      settle(undefined, error);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the validation worker stopped (exit code ${code})`)));
    const request: ToWorker = {
      type: 'validate',
      id,
      text: typeof text === 'string' ? text : null,
      options,
      batchRecords: runOptions.batchRecords ?? BATCH_RECORDS,
      keepPerKind: runOptions.keepPerKind ?? Number.MAX_SAFE_INTEGER,
    };
    if (typeof text === 'string') worker.postMessage(request);
    else {
      void (async () => {
        for await (const slice of text) {
          if (settled) return;
          worker.postMessage({ type: 'slice', id, text: slice } satisfies ToWorker);
        }
        if (!settled) worker.postMessage(request);
      })().catch((err: unknown) => {
        if (settled) return;
        settle(undefined, err instanceof Error ? err : new Error(String(err)));
        this.release(worker);
      });
    }
    const cancel = () => {
      if (settled) return;
      settle(undefined);
      this.running.delete(worker);
      void worker.terminate();
    };
    this.cancels.add(cancel);
    void result.finally(() => this.cancels.delete(cancel)).catch(() => undefined);
    return { result, cancel };
  }

  /** A thread whose run ended becomes the idle one (or stops, when there is one already). */
  private release(worker: Worker): void {
    this.running.delete(worker);
    if (this.idle === undefined && !this.disposed) this.setIdle(worker);
    else void worker.terminate();
  }

  /** An idle thread that fails or stops is dropped; the next run starts a fresh one. */
  private setIdle(worker: Worker): void {
    this.idle = worker;
    const drop = () => {
      if (this.idle === worker) this.idle = undefined;
    };
    worker.on('error', drop).on('exit', drop);
  }

  /** Stops every thread, running or idle (a run in progress resolves as cancelled). */
  dispose(): void {
    this.disposed = true;
    for (const cancel of this.cancels) cancel();
    void this.idle?.terminate();
    this.idle = undefined;
  }
}
