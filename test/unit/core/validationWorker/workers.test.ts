// Validation on worker threads (src/core/validationWorker/workers.ts) with the real worker
// script: the work happens on another thread, the batches add up to what the caller's own
// thread finds (each 0 said from the text's other records, as the editor says it), findings past
// the kept number are counted, and a cancelled run delivers nothing.
import * as assert from 'node:assert/strict';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { RangedFinding, ValidationBatch, ValidationWorkers, WORKER_NICE, noFindings } from '../../../../src/core/validationWorker';
import { PayloadTextOptions, validatePayloadText } from '../../../../src/core/validation';
import { explainDocumentZeros, shownAsKind, standsOut } from '../../../../src/core/views';
import { generateDataset } from '../../../../src/sandbox/data';
import { variedRecords } from '../../../fixtures/variedRecords';
import { repoRoot } from '../../support/repo';

// tsc compiles the worker's script beside the tests (out/src/…); the extension uses dist/validationWorker.js.
const SCRIPT = join(repoRoot, 'out', 'src', 'core', 'validationWorker', 'worker.js');
const NOW = Date.parse('2026-11-20T12:00:00Z');
const TEXT = JSON.stringify(variedRecords(300), null, 2);

/** What the editor finds in a document's text in place: validatePayloadText, each 0 said from the other records. */
const inPlace = (text: string, options: PayloadTextOptions = {}) => explainDocumentZeros(validatePayloadText(text, options));

/** The findings as placed in the text, after checking the line and character each carries. */
function placed(batches: readonly ValidationBatch[], text = TEXT) {
  return batches
    .flatMap((b) => b.findings)
    .map(({ start, end, ...finding }: RangedFinding) => {
      for (const [at, offset] of [[start, finding.offset], [end, finding.offset + finding.length]] as const) {
        const before = text.slice(0, offset).split('\n');
        assert.deepEqual(at, [before.length - 1, before[before.length - 1].length]);
      }
      return finding;
    });
}

describe('validationWorker/workers', function () {
  this.timeout(20_000);
  let workers: ValidationWorkers;
  beforeEach(() => (workers = new ValidationWorkers(SCRIPT)));
  afterEach(() => workers.dispose());

  it('validates on another thread, batch by batch, as the calling thread would', async () => {
    const batches: ValidationBatch[] = [];
    const outcome = await workers.run(TEXT, { now: NOW }, { batchRecords: 40, onBatch: (b) => batches.push(b) }).result;
    assert.ok(outcome);
    assert.equal(outcome.thread.isMainThread, false);
    assert.notEqual(outcome.thread.threadId, threadId);
    const whole = inPlace(TEXT, { now: NOW });
    assert.deepEqual(placed(batches), whole.findings);
    assert.ok(batches.length > 2);
    assert.deepEqual(
      batches.map((b) => b.done),
      [...batches.map((b) => b.done)].sort((a, b) => a - b),
    );
    const counts = noFindings();
    for (const f of whole.findings) counts[f.kind]++;
    assert.deepEqual(outcome.totals, { syntaxErrors: 0, records: whole.records.length, undetected: whole.undetected, counts, standingOut: whole.findings.filter(standsOut).length });
  });

  it('on Linux the worker thread yields the CPU to the calling thread (its own nice value), and the caller keeps its priority', async function () {
    if (process.platform !== 'linux') this.skip();
    const before = getPriority(0);
    const outcome = await workers.run(TEXT, { now: NOW }).result;
    assert.equal(outcome?.thread.nice, WORKER_NICE);
    // Per thread: the calling thread (the extension host's) runs at the priority it had.
    assert.equal(getPriority(0), before);
    assert.ok(WORKER_NICE > before);
  });

  it('sends the first findings of each kind and counts the rest', async () => {
    const batches: ValidationBatch[] = [];
    const outcome = await workers.run(TEXT, { now: NOW }, { keepPerKind: 3, onBatch: (b) => batches.push(b) }).result;
    const whole = inPlace(TEXT, { now: NOW });
    const kept = whole.findings.filter((f, i) => whole.findings.slice(0, i + 1).filter((g) => shownAsKind(g) === shownAsKind(f)).length <= 3);
    assert.deepEqual(placed(batches), kept);
    assert.equal(outcome!.totals.counts.error, whole.findings.filter((f) => f.kind === 'error').length);
  });

  it('keeps a 0 that stands out with the warnings it is shown as, however many zeros come before it', async () => {
    const data = generateDataset({ today: '2026-11-20', days: 40, humans: 2, seed: 'kept' });
    const fitbit = (data.activity as Array<Record<string, unknown>>).filter((r) => r.source === 'fitbit');
    const text = JSON.stringify([...data.activity, { ...fitbit[0], id: 'not-worn', steps: 0 }]);
    const batches: ValidationBatch[] = [];
    const outcome = await workers.run(text, { now: NOW }, { keepPerKind: 3, onBatch: (b) => batches.push(b) }).result;
    const sent = placed(batches, text);
    assert.ok(outcome!.totals.counts.zero > 3, `${outcome!.totals.counts.zero} zeros`);
    assert.equal(sent.filter((f) => f.kind === 'zero' && !standsOut(f)).length, 3);
    const worn = sent.find((f) => f.recordId === 'not-worn' && f.path === '/steps');
    assert.ok(worn && standsOut(worn), 'the not-worn day is sent');
    assert.equal(outcome!.totals.standingOut, inPlace(text, { now: NOW }).findings.filter(standsOut).length);
    assert.ok(outcome!.totals.standingOut >= 1);
    // Counted as what it is: a zero.
    assert.equal(outcome!.totals.counts.zero, inPlace(text, { now: NOW }).findings.filter((f) => f.kind === 'zero').length);
  });

  it('takes a text in slices, as the extension sends a large document', async () => {
    async function* slices() {
      for (let at = 0; at < TEXT.length; at += 1000) yield TEXT.slice(at, at + 1000);
    }
    const batches: ValidationBatch[] = [];
    await workers.run(slices(), { now: NOW }, { batchRecords: 70, onBatch: (b) => batches.push(b) }).result;
    assert.deepEqual(placed(batches), inPlace(TEXT, { now: NOW }).findings);
  });

  it('reports syntax errors of a text that is no JSON', async () => {
    const batches: ValidationBatch[] = [];
    const outcome = await workers.run('{"steps": }', {}, { onBatch: (b) => batches.push(b) }).result;
    assert.deepEqual(
      batches.flatMap((b) => b.syntaxErrors),
      validatePayloadText('{"steps": }').syntaxErrors,
    );
    assert.equal(outcome!.totals.records, 0);
  });

  it('a cancelled run resolves as cancelled and delivers no batch; the next run works', async () => {
    workers.warm();
    let delivered = 0;
    const big = JSON.stringify(Array.from({ length: 40 }, () => JSON.parse(TEXT)).flat());
    const first = workers.run(big, { now: NOW }, { batchRecords: 50, onBatch: () => delivered++ });
    first.cancel();
    assert.equal(await first.result, undefined);
    const second = await workers.run(TEXT, { now: NOW }).result;
    assert.equal(second!.totals.records, validatePayloadText(TEXT).records.length);
    assert.equal(delivered, 0);
  });

  it('a warmed thread serves the next run', async () => {
    workers.warm();
    const a = await workers.run(TEXT, { now: NOW }).result;
    const b = await workers.run(TEXT, { now: NOW }).result;
    assert.equal(a!.thread.threadId, b!.thread.threadId);
  });
});
