// A whole list exported as it is read: each page encoded and written before the next is asked
// for, in list order, so memory holds a page and the ids seen so far, whatever the list's length.

import { HealthDataError } from '../errors';
import { ResourceKind } from '../resources';
import type { HealthDataClient, ListQuery } from '../service';
import { ExportFormat, recordEncoder } from './encoders';

export interface ExportSummary {
  records: number;
  pages: number;
  total?: number;
  duplicatesDropped: number;
  complete: boolean;
  stopReason?: string;
}

export interface ExportOptions {
  /** Writes a piece of the export; synchronous, so a page is out before the next is fetched. */
  write: (text: string) => void;
  signal?: AbortSignal;
  /**
   * Before each next page: a promise while what was written is not taken yet (stdout on a pipe
   * to a slow reader); the next page is asked for once it settles or the export is cancelled.
   */
  ready?: () => Promise<void> | undefined;
  /** After each page: the records written so far, and the page's own. */
  onProgress?: (written: number, page: readonly unknown[]) => void;
}

/**
 * Reads every page of the list (only the first with `all: false`) and writes it as `format`;
 * throws what the list throws.
 */
export async function exportList(
  client: HealthDataClient,
  kind: ResourceKind,
  query: ListQuery,
  format: ExportFormat,
  options: ExportOptions,
): Promise<ExportSummary> {
  const encoder = recordEncoder(format, kind);
  let written = 0;
  options.write(encoder.begin());
  const result = await client.list(kind, { ...query, all: query.all ?? true }, {
    signal: options.signal,
    keepRecords: false,
    // One page at a time: pages reach the file in list order, and never more than one waits.
    inOrder: true,
    ready: options.ready && (() => untilReady(options.ready!(), options.signal)),
    onPage(records) {
      if (options.signal?.aborted) throw new HealthDataError('cancelled', 'The export was cancelled.');
      if (records.length === 0) return;
      options.write(encoder.page(records));
      written += records.length;
      options.onProgress?.(written, records);
    },
  });
  options.write(encoder.end());
  return {
    records: written,
    pages: result.pages,
    ...(result.total !== undefined ? { total: result.total } : {}),
    duplicatesDropped: result.duplicatesDropped,
    complete: result.complete,
    ...(result.stopReason ? { stopReason: result.stopReason } : {}),
  };
}

/** `wait`, or sooner the cancellation of the export (a stalled reader must not hold Ctrl-C up). */
function untilReady(wait: Promise<void> | undefined, signal: AbortSignal | undefined): Promise<void> | undefined {
  if (!wait || !signal) return wait;
  if (signal.aborted) return undefined;
  return new Promise((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void wait.then(done, done);
  });
}
