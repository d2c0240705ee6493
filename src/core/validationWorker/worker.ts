// The script of a validation worker thread (dist/validationWorker.js): validates the texts it is
// sent, a batch of records at a time, and posts each batch's findings as soon as it is placed.
// A caller cancels a run by terminating the thread, so nothing here waits or checks for it.

import { getPriority, setPriority } from 'node:os';
import { isMainThread, parentPort, threadId, workerData } from 'node:worker_threads';
import { payloadTextBatches } from './batches';
import { lineCharacterAt, lineStarts } from '../json';
import { FromWorker, ToWorker, ValidationTotals, WORKER_NICE, WORKER_ROLE, WorkerThread, noFindings } from './protocol';
import { warmUpValidation } from './warmUp';
import { shownAsKind, standsOut } from '../views/zeroContext';

let thread: WorkerThread = { threadId, isMainThread };

/** Lowers this thread's priority to WORKER_NICE on Linux (setpriority of pid 0 is the calling thread there). */
function yieldToTheEditor(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(0, WORKER_NICE);
    thread = { threadId, isMainThread, nice: getPriority(0) };
  } catch {
    // Not allowed here (a sandboxed process): the worker runs at the host's priority.
  }
}

/** Slices of the texts on their way, by run. */
const slices = new Map<number, string[]>();

function validate(port: NonNullable<typeof parentPort>, request: Extract<ToWorker, { type: 'validate' }>): void {
  const started = performance.now();
  const text = request.text ?? (slices.get(request.id) ?? []).join('');
  slices.delete(request.id);
  const counts = noFindings();
  const sent = noFindings();
  let standingOut = 0;
  let syntaxErrors = 0;
  let records = 0;
  let undetected = 0;
  let found = 0;
  let starts: Uint32Array | undefined;
  let lines: ValidationTotals['lines'];
  for (const batch of payloadTextBatches(text, request.options, request.batchRecords, 'in this document')) {
    syntaxErrors += batch.syntaxErrors.length;
    records += batch.records;
    undetected += batch.undetected;
    lines ??= batch.lines;
    // Counted by kind; kept by the kind each is shown as (a 0 that stands out with the warnings), as the panel keeps them.
    const kept = batch.findings.filter((f) => {
      counts[f.kind]++;
      if (standsOut(f)) standingOut++;
      return ++sent[shownAsKind(f)] <= request.keepPerKind;
    });
    if (kept.length > 0) starts ??= lineStarts(text);
    const findings = kept.map((f) => ({ ...f, start: lineCharacterAt(starts!, f.offset), end: lineCharacterAt(starts!, f.offset + f.length) }));
    found += batch.findings.length;
    const message: FromWorker = { type: 'batch', id: request.id, syntaxErrors: batch.syntaxErrors, findings, found, done: batch.done, total: batch.total, ...(batch.lines && { lines: batch.lines }) };
    port.postMessage(message);
  }
  const done: FromWorker = { type: 'done', id: request.id, totals: { syntaxErrors, records, undetected, counts, standingOut, ...(lines && { lines }) }, thread, ms: performance.now() - started };
  port.postMessage(done);
}

if (!isMainThread && parentPort && (workerData as { role?: string } | undefined)?.role === WORKER_ROLE) {
  const port = parentPort;
  yieldToTheEditor();
  port.on('message', (message: ToWorker) => {
    if (message.type === 'slice') {
      const pieces = slices.get(message.id) ?? [];
      pieces.push(message.text);
      slices.set(message.id, pieces);
      return;
    }
    if (message.type === 'warm') {
      warmUpValidation();
      port.postMessage({ type: 'warm', thread } satisfies FromWorker);
      return;
    }
    try {
      validate(port, message);
    } catch (err) {
      port.postMessage({ type: 'failed', id: message.id, message: err instanceof Error ? err.message : String(err) } satisfies FromWorker);
    }
  });
}
