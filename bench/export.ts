// Goal: `list --all --format …` streams. 50,000 activity summaries exported as NDJSON to a file
// through the client, from a sandbox in a child process; the heap may grow by at most 64 MiB
// over the whole export (the ratio is the peak growth over 64 MiB). For scale, the same list
// held in memory (client.list, as the table output reads it) is measured too.

import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportList, openPartialFile } from '../src/core/export';
import { HealthDataClient } from '../src/core/service';
import { startSandbox } from '../src/sandbox/server';
import type { ActivitySummary } from '../src/core/types';
import { generateDataset } from '../src/sandbox/data';
import { SEED, TEN_YEARS, TODAY } from './datasets';
import { Result, canCollect, collect, round } from './harness';
import { Served, startChild } from './list';

export const EXPORT_SERVE_FLAG = '--serve-export-sandbox';
const RECORDS = 50_000;
const BUDGET_BYTES = 64 * 2 ** 20;
const PAGE_SIZE = 500;

/** The child's side: ten years of ten humans' activity, topped up to RECORDS with copies under new ids. */
export async function serveExportSandbox(): Promise<void> {
  const humans = 10;
  const generated = generateDataset({ seed: SEED, today: TODAY, days: TEN_YEARS, humans }).activity;
  const extra: ActivitySummary[] = [];
  for (let i = 0; generated.length + extra.length < RECORDS; i++) {
    const r = generated[i % generated.length];
    extra.push({ ...r, id: `${r.id}-copy${Math.floor(i / generated.length)}`, source: 'googlefit' });
  }
  const sandbox = await startSandbox({ seed: SEED, today: TODAY, days: TEN_YEARS, humans, extraRecords: { activity: extra } });
  const served: Served = { url: sandbox.url, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret };
  process.send?.(served);
  process.on('disconnect', () => void sandbox.close().then(() => process.exit(0)));
}

function heapUsed(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

function clientOf(served: Served): HealthDataClient {
  return new HealthDataClient({ authUrl: served.url, baseUrl: served.url, clientId: served.clientId, clientSecret: served.clientSecret, pageSize: PAGE_SIZE });
}

export async function exportHeap(): Promise<Result> {
  if (!canCollect()) return { ratio: null, goal: 1, detail: { note: 'not measured: run node with --expose-gc (npm run bench does)' } };
  const { child, served } = await startChild(EXPORT_SERVE_FLAG);
  const file = join(tmpdir(), `hde-bench-export-${process.pid}.ndjson`);
  try {
    // Streamed: the peak of heapUsed after each page, against the heap before the export.
    const client = clientOf(served);
    await client.getClientToken();
    const before = heapUsed();
    let peak = before;
    const out = openPartialFile(file);
    let summary;
    try {
      summary = await exportList(client, 'activity', {}, 'ndjson', {
        write: (text) => out.write(text),
        onProgress: () => void (peak = Math.max(peak, process.memoryUsage().heapUsed)),
      });
      out.commit();
    } finally {
      out.discard();
    }
    const after = heapUsed();
    client.dispose();
    if (summary.records !== RECORDS || !summary.complete) throw new Error(`exported ${summary.records} of ${RECORDS} records`);

    // Held: the whole list in memory, retained.
    const holding = clientOf(served);
    await holding.getClientToken();
    const beforeHeld = heapUsed();
    const list = await holding.list('activity', {});
    const held = heapUsed() - beforeHeld;
    if (list.records.length !== RECORDS) throw new Error(`listed ${list.records.length} of ${RECORDS} records`);
    holding.dispose();

    const growth = peak - before;
    return {
      ratio: growth / BUDGET_BYTES,
      goal: 1,
      detail: {
        records: RECORDS,
        pageSize: PAGE_SIZE,
        pages: summary.pages,
        peakGrowthMiB: round(growth / 2 ** 20, 2),
        retainedAfterMiB: round((after - before) / 2 ** 20, 2),
        budgetMiB: 64,
        wholeListHeldMiB: round(held / 2 ** 20, 2),
      },
    };
  } finally {
    child.disconnect();
    rmSync(file, { force: true });
  }
}
