// A streamed file's JSON report written by the jobs (streamedJsonBytes, in batches, with batch
// tallies) is byte for byte what the JSON writer gives record by record, and counts the same.
import * as assert from 'node:assert/strict';
import { JsonReportWriter, ReportTally, parseFailOn, streamedJsonBytes, streamedRecord } from '../../../../src/core/reports';
import { RecordReport, RecordSplitter, checkUnit } from '../../../../src/core/streaming';
import { generateDataset } from '../../../../src/sandbox/data';
import { HOSTILE_STRINGS, hostileRecords } from '../../support/hostileRecords';

const NOW = Date.parse('2026-11-20T12:00:00Z');

/** The records of an NDJSON text and of the same records as a list, validated as a streamed file (unplaced: the JSON report). */
function streamedRecords(text: string): RecordReport[] {
  const splitter = new RecordSplitter();
  const units = [...splitter.push(Buffer.from(text)), ...splitter.end()];
  return units.flatMap((u) => {
    const r = checkUnit(u, undefined, NOW, false);
    return 'records' in r ? r.records : [];
  });
}

describe('streamedJsonBytes', () => {
  const dataset = generateDataset({ seed: 'streamed-json', today: '2026-11-20', days: 30, humans: 2 });
  const sandbox: unknown[] = [...dataset.heartRate, ...dataset.activity, ...dataset.bodyFat].map((r, i) =>
    i % 5 === 0 ? { ...(r as object), id: HOSTILE_STRINGS[i % HOSTILE_STRINGS.length], steps: -1 } : r,
  );
  const hostile = hostileRecords(80).filter((h) => !h.tooDeep).map((h) => h.record);
  const lines = [...sandbox, ...hostile].map((r) => JSON.stringify(r));
  lines.splice(7, 0, '{"id": 1 2}', '', '"text"');
  const payloads = { ndjson: `${lines.join('\n')}\n`, list: JSON.stringify([...sandbox, ...hostile], null, 2) };

  for (const [name, text] of Object.entries(payloads)) {
    it(`writes a ${name} file's records as the JSON writer does, in batches of any size, and tallies them alike`, function () {
      this.timeout(60_000); // hostile records of thousands of zones, on a loaded machine: a limit, not a measure
      const records = streamedRecords(text);
      assert.ok(records.length > 200, `${records.length} records`);
      const failOn = parseFailOn(['zero']);
      const expected = new JsonReportWriter();
      const expectedTally = new ReportTally(failOn);
      let want = expected.start() + expected.file({ name: 'f' });
      for (const r of records) {
        const record = streamedRecord(r);
        expectedTally.record(record);
        want += expected.record(record);
      }
      want += expected.endFile() + expected.end();
      for (const size of [1, 7, 1000]) {
        const writer = new JsonReportWriter();
        const tally = new ReportTally(failOn);
        const parts: Array<string | Buffer> = [writer.start(), writer.file({ name: 'f' })];
        for (let i = 0; i < records.length; i += size) {
          const batch = records.slice(i, i + size);
          const batchTally = new ReportTally(failOn);
          for (const r of batch) batchTally.record(r);
          tally.addRecords(batchTally);
          parts.push(writer.recordsHead(), streamedJsonBytes(batch));
        }
        parts.push(writer.endFile(), writer.end());
        const got = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))).toString('utf8');
        assert.equal(got, want, `batches of ${size}`);
        assert.deepEqual({ ...tally }, { ...expectedTally }, `tally, batches of ${size}`);
      }
      assert.ok(expectedTally.failing > 0 && expectedTally.invalid > 0 && expectedTally.counts.zero > 0);
    });
  }

  it('writes each batch into an ArrayBuffer of its own, which a worker can transfer', () => {
    const bytes = streamedJsonBytes(streamedRecords(payloads.ndjson));
    assert.equal(bytes.byteOffset, 0);
    assert.notEqual(bytes.buffer, Buffer.from('x').buffer, "not Node's shared pool");
    assert.equal(streamedJsonBytes([]).length, 0);
  });
});
