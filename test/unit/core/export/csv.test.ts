// The CSV export: schema field order, nested values as JSON text, RFC 4180 quoting, formula
// injection defused, and NDJSON -> CSV -> NDJSON losing nothing, on the sandbox's records and on
// records made to break a CSV file.
import * as assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { EXTRA_COLUMN, csvColumns, recordEncoder } from '../../../../src/core/export';
import { RESOURCES, ResourceKind } from '../../../../src/core/resources';
import { schemaFor } from '../../../../src/core/validation';
import { generateDataset } from '../../../../src/sandbox/data';
import { readCsv } from '../../support/csv';

function toCsv(kind: ResourceKind, records: unknown[], pageSize = 7): string {
  const encoder = recordEncoder('csv', kind);
  let text = encoder.begin();
  for (let i = 0; i < records.length; i += pageSize) text += encoder.page(records.slice(i, i + pageSize));
  return text + encoder.end();
}

const ndjson = (records: unknown[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');
const fromNdjson = (text: string): unknown[] => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown);

describe('CSV export', () => {
  const dataset = generateDataset({ today: '2026-11-20', days: 30, humans: 2, seed: 'csv' });

  it('has one column per schema field, in the schema order, then the column of unknown fields', () => {
    for (const def of RESOURCES) {
      const columns = csvColumns(def.kind);
      assert.deepEqual(columns, [...Object.keys(schemaFor(def.kind).properties ?? {}), EXTRA_COLUMN]);
      const header = toCsv(def.kind, []).split('\r\n')[0];
      assert.equal(header, columns.join(','));
    }
    assert.deepEqual(csvColumns('bodyFat').slice(0, 3), ['id', 'userId', 'humanId']);
  });

  for (const def of RESOURCES) {
    it(`NDJSON -> CSV -> NDJSON gives back every ${def.label.toLowerCase()} record unchanged`, () => {
      const records = dataset[def.kind] as unknown[];
      assert.ok(records.length > 20);
      const first = fromNdjson(ndjson(records));
      const back = readCsv(def.kind, toCsv(def.kind, first)).records;
      assert.equal(ndjson(back.map((r) => reorder(r, first[back.indexOf(r)]))), ndjson(first));
    });
  }

  it('writes nested values (zones, sourceData) as JSON text in one cell', () => {
    const record = dataset.heartRate.find((r) => r.zones.length > 0)!;
    const rows = parse(toCsv('heartRate', [record])) as string[][];
    const columns = rows[0];
    const cells = rows[1];
    assert.deepEqual(JSON.parse(cells[columns.indexOf('zones')]), record.zones);
    assert.deepEqual(JSON.parse(cells[columns.indexOf('sourceData')]), record.sourceData);
  });

  it('defuses cells a spreadsheet would run as formulas, and reads them back as they were', () => {
    const hostile = ['=HYPERLINK("http://x.invalid","click")', '+1+1', '-2+3', '@SUM(A1)', '\tTAB', '\rCR', '＝1+1', 'a,b', 'say "hi"', 'line\nbreak', ''];
    const base = dataset.bodyFat[0];
    const records = hostile.map((source, i) => ({ ...base, id: `id-${i}`, source, value: -5 + i, note: source }));
    const text = toCsv('bodyFat', records);
    const rows = parse(text) as string[][];
    const columns = rows[0];
    for (const [i, source] of hostile.entries()) {
      const cell = rows[i + 1][columns.indexOf('source')];
      if (source === '' || /^[^=+\-@\t\r＝]/.test(source)) assert.equal(cell, source);
      else assert.equal(cell, `'${source}`, `${JSON.stringify(source)} is prefixed`);
      // A negative number is a number, not a formula: it stays as it is.
      assert.equal(rows[i + 1][columns.indexOf('value')], String(-5 + i));
    }
    // No cell of the file starts a formula.
    for (const row of rows.slice(1)) for (const cell of row) assert.doesNotMatch(cell, /^[=+@\t\r＝]|^-[^\d]/);
    assert.deepEqual(readCsv('bodyFat', text).records, records.map((r) => reorder(r, r)));
  });

  it('tells an empty string from a field the record lacks, and keeps fields the schema does not know', () => {
    const base = { ...dataset.activity[0] } as Record<string, unknown>;
    delete base.userId;
    const records = [{ ...base, source: '' }, { ...base, id: 'x', extra: { deep: [1, 'two'] }, flag: true, nothing: null }];
    const text = toCsv('activity', records);
    const back = readCsv('activity', text).records;
    assert.equal(back[0].source, '');
    assert.equal('userId' in back[0], false);
    assert.deepEqual(back[1], records[1]);
  });

  it('quotes as RFC 4180 says and ends every row with CRLF', () => {
    const record = { ...dataset.bodyFat[0], source: 'a "quoted", comma' };
    const text = toCsv('bodyFat', [record]);
    assert.ok(text.includes('"a ""quoted"", comma"'));
    assert.ok(text.endsWith('\r\n'));
    assert.equal(text.split('\r\n').length, 3);
  });
});

/** `record`'s fields in the order of `like` (CSV columns have the schema's order, JSON the record's). */
function reorder(record: Record<string, unknown>, like: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(like as object)) if (key in record) out[key] = record[key];
  for (const key of Object.keys(record)) if (!(key in out)) out[key] = record[key];
  return out;
}
