// Goal 4: the record view's model of one record carrying 1 MB of sourceData (validated, findings
// marked, the JSON tree built) against JSON.parse of that record.

import { buildRecordViewModel } from '../src/core/views';
import { prepareValidator, validate } from '../src/core/validation';
import { SEED, TODAY } from './datasets';
import { generateDataset } from '../src/sandbox/data';
import { Result, pairDetail, round, sideBySide } from './harness';

const MB = 1_000_000;

/** A heart rate summary whose source sent its intraday samples along: 1 MB of JSON in sourceData. */
function recordWithSamples(): string {
  const record = generateDataset({ seed: SEED, today: TODAY, days: 1, humans: 1 }).heartRate[0] as unknown as Record<string, unknown>;
  const samples: Array<{ time: string; bpm: number; confidence: number }> = [];
  const base = JSON.stringify(record).length;
  let size = base;
  for (let i = 0; size < MB; i++) {
    const s = i % 86_400;
    const sample = {
      time: `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`,
      bpm: 55 + ((i * 7919) % 90),
      confidence: (i * 31) % 4,
    };
    samples.push(sample);
    size += JSON.stringify(sample).length + 1;
  }
  return JSON.stringify({ ...record, sourceData: { ...(record.sourceData as object), intraday: { interval: '1s', samples } } });
}

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

export async function renderVsParse(): Promise<Result> {
  prepareValidator();
  const text = recordWithSamples();
  const pair = await sideBySide(renderOf(text), () => JSON.parse(text), { turns: 5, runs: 9 });
  const blob = recordWithBlob();
  const blobPair = await sideBySide(renderOf(blob), () => JSON.parse(blob), { turns: 5, runs: 5 });
  const model = renderOf(text)();
  return {
    ratio: pair.ratio,
    goal: 3,
    detail: {
      recordBytes: Buffer.byteLength(text),
      ...pairDetail(pair, 'model', 'parse'),
      // What is posted to the webview: the first page of the tree, never the whole megabyte.
      modelJsonBytes: JSON.stringify(model).length,
      oneStringOf1MBRatio: round(blobPair.ratio),
    },
  };
}
