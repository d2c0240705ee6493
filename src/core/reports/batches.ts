// A report's records written apart from its writer, on a validation worker: the writer says what
// its records need of the current file (`batchContext`, plain data that crosses threads), the
// worker writes a batch of records from it (`writeBatch`), and the writer takes the batches in
// file order (`takeBatch`), keeping what spans them (SARIF's result count, JUnit's suites). The
// writers' own `record` goes the same way, so a record is written the same on any thread.

import { type GithubFileContext, type GithubLines, GithubWriter, githubLines } from './github';
import { type JunitCases, type JunitFileContext, JunitWriter, junitCases } from './junit';
import type { ReportRecord, ReportWriter } from './model';
import { type SarifFileContext, type SarifResults, SarifWriter, sarifResults } from './sarif';

export type BatchContext = SarifFileContext | JunitFileContext | GithubFileContext;
export type WrittenBatch = SarifResults | JunitCases | GithubLines;

/** A writer whose records can be written elsewhere. */
export type BatchWriter = SarifWriter | JunitWriter | GithubWriter;

/** The buffers of a written batch, which a worker transfers instead of copying. */
export function batchBuffers(batch: WrittenBatch): ArrayBuffer[] {
  const views: Uint8Array[] | Array<Uint8Array | Int32Array> = batch.format === 'junit' ? [batch.bytes, batch.ends, batch.failed, batch.indices] : [batch.bytes];
  return [...new Set(views.map((v) => v.buffer as ArrayBuffer))];
}

export function isBatchWriter(writer: ReportWriter): writer is BatchWriter {
  return writer instanceof SarifWriter || writer instanceof JunitWriter || writer instanceof GithubWriter;
}

/** Records of the file `context` describes, written for the writer that gave it. */
export function writeBatch(context: BatchContext, records: readonly ReportRecord[]): WrittenBatch {
  switch (context.format) {
    case 'sarif':
      return sarifResults(context, records);
    case 'junit':
      return junitCases(context, records);
    case 'github':
      return githubLines(context, records);
  }
}

/** A written batch taken by its writer, in order: the text to append, or its UTF-8 bytes. */
export function takeBatch(writer: BatchWriter, batch: WrittenBatch): string | Uint8Array {
  if (writer instanceof SarifWriter && batch.format === 'sarif') return writer.takeBatch(batch);
  if (writer instanceof JunitWriter && batch.format === 'junit') return writer.takeBatch(batch);
  if (writer instanceof GithubWriter && batch.format === 'github') return writer.takeBatch(batch);
  throw new Error(`a ${batch.format} batch for another writer`);
}
