// Goal 4: what the extension host does to open a record in the record view — validate it, index
// its findings, build the model and the first window of rows (a virtual list past 2 MB) —
// against JSON.parse of that record: for a heart rate summary carrying 50 MB of sourceData, and
// (in the detail) the old 1 MB figure, the same megabyte as one string, and a 100,000-record list.

import { RecordView, buildRecordViewModel, titleOf } from '../src/core/views';
import { Finding, prepareValidator, validate, validatePayload } from '../src/core/validation';
import { records, recordWithSamples } from './datasets';
import { generateDataset } from '../src/sandbox/data';
import { SEED, TODAY } from './datasets';
import { Result, pairDetail, round, sideBySide } from './harness';

const MB = 1_000_000;

/** The same megabyte as one long string (a base64 blob a source attached). */
function recordWithBlob(): string {
  const record = generateDataset({ seed: SEED, today: TODAY, days: 1, humans: 1 }).heartRate[0] as unknown as Record<string, unknown>;
  return JSON.stringify({ ...record, sourceData: { blob: 'QUJD'.repeat(MB / 4) } });
}

function renderOf(text: string) {
  const record = JSON.parse(text) as unknown;
  return () => {
    const { findings } = validate(record, 'heartRate');
    return buildRecordViewModel(record, 'heartRate', findings);
  };
}

/** What the record panel does with a list payload: every record validated, the list's rows. */
function renderListOf(text: string) {
  const list = JSON.parse(text) as unknown[];
  return () => {
    const results = validatePayload(list);
    const findings: Finding[] = [];
    for (const r of results) for (const f of r.findings) findings.push({ kind: f.kind, path: r.pointer + f.path, message: f.message });
    return new RecordView(list, undefined, findings, { list: { pointer: '', count: list.length, title: 'list', labelOf: (i, v) => titleOf(v, results[i]?.kind) } }).model;
  };
}

export async function renderVsParse(): Promise<Result> {
  prepareValidator();
  const big = recordWithSamples(50 * MB);
  const pair = await sideBySide(renderOf(big), () => JSON.parse(big), { turns: 1, runs: 5, warmup: 1 });
  const model = renderOf(big)();
  const text = recordWithSamples(MB);
  const oneMb = await sideBySide(renderOf(text), () => JSON.parse(text), { turns: 5, runs: 9 });
  const blob = recordWithBlob();
  const blobPair = await sideBySide(renderOf(blob), () => JSON.parse(blob), { turns: 5, runs: 5 });
  const list = records(100_000).texts;
  const listText = `[${[list.heartRate, list.activity, list.bodyFat].map((t) => t.slice(1, -1)).join(',')}]`;
  const listPair = await sideBySide(renderListOf(listText), () => JSON.parse(listText), { turns: 1, runs: 5, warmup: 1 });
  return {
    ratio: pair.ratio,
    goal: 3,
    detail: {
      recordBytes: Buffer.byteLength(big),
      ...pairDetail(pair, 'model', 'parse'),
      // What is posted to the webview: the first window of rows, never the 50 MB.
      modelJsonBytes: JSON.stringify(model).length,
      oneMBRecordRatio: round(oneMb.ratio),
      oneMBModelMs: round(oneMb.aMs),
      oneStringOf1MBRatio: round(blobPair.ratio),
      list100kBytes: Buffer.byteLength(listText),
      list100kRatio: round(listPair.ratio),
      list100kModelMs: round(listPair.aMs),
    },
  };
}
