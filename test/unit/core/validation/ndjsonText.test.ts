// NDJSON in an editor's document (src/core/validation/ndjsonText.ts and its use in payloadText.ts
// and validationWorker/batches.ts): when a text is read as NDJSON, each line's record validated as
// that line alone would be, its findings moved to where the line stands; broken lines as syntax
// errors that stop nothing else; zeros said from the other lines; the worker's batches the same as
// the whole; the deprecated-field fix on any line.
import * as assert from 'node:assert/strict';
import { applyTextEdits, parseJsonText } from '../../../../src/core/json';
import { LinesMode, PayloadTextOptions, PlacedFinding, deprecatedFieldFixes, ndjsonRecordSpans, validatePayloadText } from '../../../../src/core/validation';
import { payloadTextBatches } from '../../../../src/core/validationWorker';
import { explainDocumentZeros, standsOut } from '../../../../src/core/views';
import { generateDataset } from '../../../../src/sandbox/data';
import { variedRecords } from '../../../fixtures/variedRecords';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const covered = (text: string, f: { offset: number; length: number }): string => text.slice(f.offset, f.offset + f.length);
const spansOf = (text: string, mode: LinesMode | undefined) => ndjsonRecordSpans(text, parseJsonText(text).errors, mode)?.map((s) => covered(text, s));
const ndjson = (records: readonly unknown[], eol = '\n'): string => records.map((r) => JSON.stringify(r)).join(eol) + eol;

/** What validating each line alone finds, moved to where the line stands (the oracle). */
function lineByLine(text: string, options: PayloadTextOptions): Array<Omit<PlacedFinding, 'pointer' | 'index' | 'missing'> & { line: number }> {
  const out: Array<Omit<PlacedFinding, 'pointer' | 'index' | 'missing'> & { line: number }> = [];
  let start = 0;
  let line = 0;
  for (const raw of text.split('\n')) {
    if (raw.trim() !== '') {
      const alone = validatePayloadText(raw, { ...options, lines: undefined });
      // A line holding a list is one record of NDJSON, not a list: none in these texts.
      for (const f of alone.findings) out.push({ kind: f.kind, path: f.path, message: f.message, offset: f.offset + start, length: f.length, recordId: f.recordId, line });
      line++;
    }
    start += raw.length + 1;
  }
  return out;
}

describe('NDJSON in the editor (validation/ndjsonText)', () => {
  describe('which texts are read as NDJSON', () => {
    it('an object, then values on lines of their own: each line a record, blank lines none', () => {
      assert.deepEqual(spansOf('{"a":1}\n{"b":2}\n\n  {"c":3}  \r\n', 'detect'), ['{"a":1}', '{"b":2}', '{"c":3}']);
      // A pretty-printed first object is one record; the lines after it one each.
      assert.deepEqual(spansOf('{\n  "a": 1\n}\n{"b":2}\n', 'detect'), ['{\n  "a": 1\n}', '{"b":2}']);
    });

    it('JSON stays JSON; a list, values on one line, a broken first object and a blank text are not NDJSON when detected', () => {
      assert.equal(spansOf('{"a":1}\n', 'detect'), undefined);
      assert.equal(spansOf('[{"a":1}]\n', 'always'), undefined, 'a text that parses is JSON, whatever its name');
      assert.equal(spansOf('[{"a":1}]\n{"b":2}\n', 'detect'), undefined);
      assert.equal(spansOf('{"a":1} {"b":2}\n', 'detect'), undefined);
      assert.equal(spansOf('{"a": oops}\n{"b":2}\n', 'detect'), undefined);
      assert.equal(spansOf('  \n\n', 'detect'), undefined);
      assert.equal(spansOf('  \n\n', 'always'), undefined, 'a blank document is empty, not NDJSON');
      assert.equal(spansOf('{"a":1}\n{"b":2}\n', undefined), undefined, 'not asked for');
    });

    it('a document named NDJSON is read line by line even when its first line is broken', () => {
      assert.deepEqual(spansOf('{"a": oops}\n{"b":2}\n', 'always'), ['{"a": oops}', '{"b":2}']);
      assert.deepEqual(spansOf('not json at all', 'always'), ['not json at all']);
    });
  });

  describe('validation', () => {
    const records = variedRecords(120);

    for (const eol of ['\n', '\r\n']) {
      it(`every line's findings are those of the line alone, in place (${JSON.stringify(eol)} line ends)`, () => {
        const text = ndjson(records, eol);
        const read = validatePayloadText(text, { now: NOW, lines: 'detect' });
        assert.deepEqual(read.syntaxErrors, []);
        assert.equal(read.records.length, records.length);
        assert.deepEqual(read.lines, { records: records.length, broken: 0 });
        const expected = lineByLine(text, { now: NOW });
        assert.ok(expected.length > 200, `the records draw many findings (${expected.length})`);
        assert.deepEqual(
          read.findings.map((f) => ({ kind: f.kind, path: f.path, message: f.message, offset: f.offset, length: f.length, recordId: f.recordId, line: f.index! })),
          expected,
        );
        // Each record is at /i of the lines' values; a finding's pointer below it.
        for (const f of read.findings) assert.ok(f.pointer === `/${f.index}${f.path}`, f.pointer);
        assert.deepEqual(read.records.map((r) => r.index), records.map((_, i) => i));
      });
    }

    it('a broken line is a syntax error on that line; the records of the others are validated, numbered as the CLI numbers them', () => {
      const lines = ndjson(records.slice(0, 4)).split('\n');
      lines.splice(2, 0, '{"id": "broken", oops}');
      const text = lines.join('\n');
      const read = validatePayloadText(text, { now: NOW, lines: 'detect' });
      assert.equal(read.records.length, 4);
      assert.deepEqual(read.lines, { records: 5, broken: 1 });
      assert.ok(read.syntaxErrors.length >= 1);
      const brokenStart = text.indexOf('{"id": "broken"');
      for (const e of read.syntaxErrors) assert.ok(e.offset >= brokenStart && e.offset <= brokenStart + lines[2].length, `${e.code} at ${e.offset}`);
      assert.deepEqual(read.records.map((r) => r.index), [0, 1, 3, 4]);
      // Without NDJSON the same text is one syntax error and nothing validated.
      assert.equal(validatePayloadText(text, { now: NOW }).records.length, 0);
    });

    it('a kind given applies to every line; a line of no detectable kind takes the fallback kind', () => {
      const text = '{"id":"a","value":21.5}\n{"id":"b","value":0}\n';
      assert.equal(validatePayloadText(text, { now: NOW, lines: 'detect' }).undetected, 2);
      const given = validatePayloadText(text, { now: NOW, lines: 'detect', kind: 'bodyFat' });
      assert.deepEqual(given.records.map((r) => r.kind), ['bodyFat', 'bodyFat']);
      const fallback = validatePayloadText(text, { now: NOW, lines: 'detect', fallbackKind: 'bodyFat' });
      assert.equal(fallback.undetected, 0);
      assert.deepEqual(fallback.records.map((r) => r.kind), ['bodyFat', 'bodyFat']);
    });

    it('a 0 is said from the other lines of its source, as in a list', () => {
      const dataset = generateDataset({ seed: 'ndjson-zeros', today: '2026-11-20', days: 30, humans: 1 });
      const list = dataset.activity;
      const asNdjson = explainDocumentZeros(validatePayloadText(ndjson(list), { now: NOW, lines: 'detect' }));
      const asList = explainDocumentZeros(validatePayloadText(JSON.stringify(list), { now: NOW }));
      const words = ({ findings }: { findings: readonly PlacedFinding[] }) => findings.filter((f) => f.kind === 'zero').map((f) => [f.index, f.path, f.message, standsOut(f)]);
      assert.ok(words(asList).some(([, , message]) => /other records in this document/.test(String(message))));
      assert.deepEqual(words(asNdjson), words(asList));
    });
  });

  describe('the worker\'s batches', () => {
    it('hold what the whole text holds, at every batch size, with broken lines and zeros said', () => {
      const dataset = generateDataset({ seed: 'ndjson-batches', today: '2026-11-20', days: 20, humans: 2 });
      const lines = ndjson([...dataset.activity, ...variedRecords(40)]).split('\n');
      lines.splice(5, 0, '{"broken": tru}');
      lines.splice(30, 0, '');
      lines.splice(31, 0, '[1, 2');
      const text = lines.join('\n');
      for (const zeros of [true, false]) {
        const options: PayloadTextOptions = { now: NOW, lines: 'detect' };
        const whole = zeros ? explainDocumentZeros(validatePayloadText(text, options)) : validatePayloadText(text, options);
        for (const size of [1, 7, 50, 10_000]) {
          const batches = [...payloadTextBatches(text, options, size, zeros ? 'in this document' : undefined)];
          assert.deepEqual(batches.flatMap((b) => b.findings), whole.findings, `size ${size}`);
          assert.deepEqual(batches[0].syntaxErrors, whole.syntaxErrors);
          assert.ok(batches.slice(1).every((b) => b.syntaxErrors.length === 0));
          assert.equal(batches.reduce((n, b) => n + b.records, 0), whole.records.length);
          assert.equal(batches.reduce((n, b) => n + b.undetected, 0), whole.undetected);
          assert.deepEqual(batches[0].lines, whole.lines);
          assert.deepEqual(whole.lines, { records: lines.filter((l) => l.trim() !== '').length, broken: 2 });
          const last = batches[batches.length - 1];
          assert.equal(last.done, last.total);
          assert.equal(last.total, whole.records.length);
        }
      }
    });

    it('a document of broken lines only: no record, its syntax errors in the first batch', () => {
      const batches = [...payloadTextBatches('{oops}\n{nope}\n', { lines: 'always' }, 10)];
      assert.equal(batches.length, 1);
      assert.equal(batches[0].records, 0);
      assert.deepEqual(batches[0].lines, { records: 2, broken: 2 });
      assert.ok(batches[0].syntaxErrors.length >= 2);
    });
  });

  describe('the deprecated-field fix on NDJSON lines', () => {
    it('renames or removes userId on every line, each edit within its line', () => {
      const text = '{"id":"a","userId":"u","humanId":"h"}\n{"id":"b","userId":"u2"}\r\n\n{"id":"c","humanId":"h","userId":"u3"}\n';
      const read = validatePayloadText(text, { now: NOW, lines: 'detect', kind: 'bodyFat' });
      const deprecated = read.findings.filter((f) => f.kind === 'deprecated');
      assert.deepEqual(deprecated.map((f) => covered(text, f)), ['"userId"', '"userId"', '"userId"']);
      const fixes = deprecatedFieldFixes(text, deprecated.map((f) => f.offset));
      assert.deepEqual([...fixes.values()].map((f) => f.action), ['remove', 'rename', 'remove']);
      const fixed = applyTextEdits(text, [...fixes.values()].map((f) => f.edit));
      assert.equal(fixed, '{"id":"a","humanId":"h"}\n{"id":"b","humanId":"u2"}\r\n\n{"id":"c","humanId":"h"}\n');
    });

    it('offers nothing on a broken line or at an offset at no key', () => {
      const text = '{"id":"a"}\n{"userId": oops}\n';
      assert.equal(deprecatedFieldFixes(text, [text.indexOf('"userId"'), 3, text.length + 5, -1]).size, 0);
    });
  });
});
