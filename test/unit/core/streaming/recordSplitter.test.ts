// The splitter cuts a payload read in chunks into records with their positions, whatever the
// chunk boundaries, and refuses what is no JSON with a line and column.
import * as assert from 'node:assert/strict';
import { RecordSplitter, RecordUnit, SplitError, UTF16_MESSAGE, checkUnit, recordPlaces, startsAsUtf16 } from '../../../../src/core/streaming';
import { validatePayloadText } from '../../../../src/core/validation';
import { generateDataset } from '../../../../src/sandbox/data';
import { hostileRecords } from '../../support/hostileRecords';

/** Splits `text` fed in pieces of `size` bytes. */
function split(text: string | Buffer, size = 1 << 20): RecordUnit[] {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const s = new RecordSplitter();
  const out: RecordUnit[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(...s.push(bytes.subarray(i, i + size)));
  out.push(...s.end());
  return out;
}

const NOW = Date.parse('2026-11-20T12:00:00Z');

/** The records of NDJSON units, line blocks read line by line: index, line, column and text. */
function ndjsonRecords(units: RecordUnit[]): Array<[number, number, number, string]> {
  const out: Array<[number, number, number, string]> = [];
  for (const u of units) {
    if (u.shape !== 'lines') {
      out.push([u.index!, u.line, u.column, u.bytes.toString().replace(/\r$/, '')]);
      continue;
    }
    let index = u.index!;
    u.bytes.toString().split('\n').forEach((l, k) => {
      if (l.trim() !== '') out.push([index++, u.line + k, 1, l.replace(/\r$/, '')]);
    });
  }
  return out;
}

const summary = (units: RecordUnit[]) => units.map((u) => [u.shape, u.index, u.pointer, u.line, u.column, u.bytes.toString().trim()]);

const record = (id: string, extra = '') => `{"id": "${id}", "note": "a, \\"quoted\\" ] } [ {"${extra}}`;

describe('RecordSplitter', () => {
  const array = `[\n  ${record('a')},\n  ${record('b', ', "data": [1]')}\n]\n`;
  const expectedArray = [
    ['element', 0, '/0', 2, 3, record('a')],
    ['element', 1, '/1', 3, 3, record('b', ', "data": [1]')],
  ];

  it('splits a top-level array into its elements, with the line and column each starts at', () => {
    assert.deepEqual(summary(split(array)), expectedArray);
  });

  it('gives the same records whatever the chunk size, down to one byte', () => {
    for (const size of [1, 2, 3, 7, 64]) assert.deepEqual(summary(split(array, size)), expectedArray, `chunks of ${size}`);
  });

  it('streams the list of a wrapper, with pointers into it, and skips its other members', () => {
    const text = `{"meta": {"page": [1, 2]}, "data": [${record('a')}, ${record('b')}], "links": {"next": null}}`;
    for (const size of [1, 5, 1 << 20]) {
      const units = split(text, size);
      assert.deepEqual(units.map((u) => [u.pointer, u.index, u.shape]), [['/data/0', 0, 'element'], ['/data/1', 1, 'element']], `chunks of ${size}`);
    }
  });

  it('keeps a record whose identifying fields come before its data array whole', () => {
    const text = '{"steps": 3, "data": [1, 2]}';
    assert.deepEqual(summary(split(text)), [['whole', undefined, '', 1, 1, text]]);
  });

  it('reads NDJSON line by line (blank lines skipped, a byte-order mark dropped)', () => {
    const text = `\ufeff${record('a')}\n${record('b')}\n\n${record('c')}`;
    for (const size of [1, 4, 1 << 20]) {
      assert.deepEqual(
        ndjsonRecords(split(text, size)).map(([index, line, column]) => [index, line, column]),
        [[0, 1, 1], [1, 2, 1], [2, 4, 1]],
        `chunks of ${size}`,
      );
    }
  });

  it('cuts NDJSON into blocks of whole lines: every record once, numbered and placed as line by line, whatever the chunks', () => {
    // Blank lines of every whitespace, CRLF endings, a line that is no JSON, a list, multi-byte
    // characters (cut by every chunk size below), and a last line with no newline, cut short.
    const dataset = generateDataset({ seed: 'blocks', today: '2026-11-20', days: 12, humans: 1 });
    const lines: string[] = [];
    [...dataset.heartRate, ...dataset.activity, ...dataset.bodyFat].forEach((r, i) => {
      const rec = i % 5 === 0 ? { ...(r as object), id: `é😀ü-${i}`, steps: -1 } : r;
      lines.push(JSON.stringify(rec) + (i % 7 === 0 ? '\r' : ''));
      if (i % 6 === 0) lines.push(i % 12 === 0 ? '' : ' \t\r');
      if (i % 9 === 0) lines.push('not json, "é"');
      if (i % 10 === 0) lines.push('[1, 2]');
    });
    const text = `${lines.join('\n')}\n${JSON.stringify(dataset.activity[0]).slice(0, 40)}`;
    const expected = lines.flatMap((l, k) => (l.trim() === '' ? [] : [[k + 1, l.replace(/\r$/, '')]]));
    expected.push([lines.length + 1, JSON.stringify(dataset.activity[0]).slice(0, 40)]);
    for (const size of [1, 3, 7, 100, 4096, 1 << 20]) {
      const units = split(text, size);
      if (size >= 100) assert.ok(units.some((u) => u.shape === 'lines'), `blocks in chunks of ${size}`);
      const got = ndjsonRecords(units);
      assert.deepEqual(got.map(([index]) => index), expected.map((_, i) => i), `indexes, chunks of ${size}`);
      assert.deepEqual(got.map(([, line, column, t]) => [line, column, t]), expected.map(([line, t]) => [line, 1, t]), `lines, chunks of ${size}`);
    }
    // Each line validated as its own unit gives the same records and findings as its block.
    const alone = expected.map(([line], index) => checkUnit({ bytes: Buffer.from(lines[(line as number) - 1] ?? expected[expected.length - 1][1]), shape: 'element', index, pointer: '', line: line as number, column: 1 }, undefined, NOW));
    for (const size of [7, 4096]) {
      const blocks = split(text, size).map((u) => checkUnit(u, undefined, NOW));
      assert.deepEqual(blocks.flatMap((r) => ('records' in r ? r.records : [])), alone.flatMap((r) => ('records' in r ? r.records : [])), `chunks of ${size}`);
    }
  });

  it('a single record or scalar is one whole payload; an empty list and blank input give nothing', () => {
    assert.deepEqual(summary(split(`  ${record('a')}  `)), [['whole', undefined, '', 1, 3, record('a')]]);
    assert.deepEqual(summary(split('"x"')), [['whole', undefined, '', 1, 1, '"x"']]);
    const empty = new RecordSplitter();
    assert.deepEqual([...empty.push(Buffer.from(' [ ] ')), ...empty.end()], []);
    assert.equal(empty.emptyList, true);
    const blank = new RecordSplitter();
    assert.deepEqual([...blank.push(Buffer.from(' \n ')), ...blank.end()], []);
    assert.equal(blank.emptyList, false);
  });

  /** The units of `text` and what the splitter said of its syntax, fed in pieces of `size` bytes. */
  const splitBroken = (text: string, size = 1 << 20) => {
    const bytes = Buffer.from(text);
    const s = new RecordSplitter();
    const units: RecordUnit[] = [];
    for (let i = 0; i < bytes.length; i += size) units.push(...s.push(bytes.subarray(i, i + size)));
    units.push(...s.end());
    return { units: units.map((u) => [u.index, u.bytes.toString().trim()]), error: s.syntaxErrorText, at: s.syntaxError && [s.syntaxError.line, s.syntaxError.column], stopped: s.stopped };
  };

  it('stops at what is no JSON, with its line and column, and keeps the records before it, in any chunks', () => {
    const cases: Array<[string, RegExp, Array<[number, string]>]> = [
      ['{"id": "x"} {"id": "y"}', /^more JSON after the end of the value at line 1, column 13$/, []],
      ['[{"id": 1}, {"id": 2}] 3', /^more JSON after the end of the list at line 1, column 24$/, [[0, '{"id": 1}'], [1, '{"id": 2}']]],
      ['[{"id": 1}, }, {"id": 2}]', /^unexpected "}" at line 1, column 13$/, [[0, '{"id": 1}']]],
      ['[{"id": 1}, {"id"', /^the JSON ends inside a value/, [[0, '{"id": 1}']]],
      ['[{"id": 1}, {"id": "6b0', /^the JSON ends inside a string at line 1, column 24$/, [[0, '{"id": 1}']]],
      ['<!doctype html>', /^unexpected character "<" at line 1, column 1$/, []],
    ];
    for (const [text, message, units] of cases) {
      for (const size of [1, 4, 1 << 20]) {
        const got = splitBroken(text, size);
        assert.match(got.error ?? '', message, `${text} in chunks of ${size}`);
        assert.deepEqual(got.units, units, `${text} in chunks of ${size}`);
        assert.equal(got.stopped, true);
      }
    }
  });

  it('reads a list on past a comma it lacks or has too many, as the editor does, naming the first place and counting the rest', () => {
    const cases: Array<[string, string, number[]]> = [
      ['[{"id": 1}\n {"id": 2}]', 'a comma is expected at line 2, column 2', [1, 2]],
      ['[{"id": 1}, ]', 'a value is expected at line 1, column 13', [1]],
      ['[, {"id": 1}]', 'a value is expected at line 1, column 2', [1]],
      ['[{"id": 1},, {"id": 2}, {"id": 3} {"id": 4}]', 'a value is expected at line 1, column 12, and 1 more', [1, 2, 3, 4]],
      ['{"data": [{"id": 1} {"id": 2}], "total": 2}', 'a comma is expected at line 1, column 21', [1, 2]],
    ];
    for (const [text, error, ids] of cases) {
      for (const size of [1, 3, 1 << 20]) {
        const got = splitBroken(text, size);
        assert.equal(got.error, error, `${text} in chunks of ${size}`);
        assert.equal(got.stopped, false);
        assert.deepEqual(got.units, ids.map((id, index) => [index, `{"id": ${id}}`]), `${text} in chunks of ${size}`);
      }
    }
    // Scalars are elements too: one lacking its comma ends at the space after it.
    const scalars = splitBroken('[1 "a b" true\n{"id": 2} null]');
    assert.deepEqual(scalars.units, [[0, '1'], [1, '"a b"'], [2, 'true'], [3, '{"id": 2}'], [4, 'null']]);
    assert.equal(scalars.error, 'a comma is expected at line 1, column 4, and 3 more');
    assert.deepEqual(splitBroken('[1 , 2 ,\n 3 ]').units, [[0, '1'], [1, '2'], [2, '3']]);
    // With nothing between them: a string ends at its quote, a number or literal where a value starts.
    const tightText = '["a""b\\"{"{"id": 1}1{"id": 2}true[3]["x"]"y"]';
    const tightEditor = validatePayloadText(tightText);
    assert.deepEqual(tightEditor.syntaxErrors.map((e) => e.offset + 1), [5, 11, 20, 21, 30, 34, 37, 42], 'the editor reads a comma missing at each of those places');
    assert.equal(tightEditor.records.length, 9);
    for (const size of [1, 1 << 20]) {
      const tight = splitBroken(tightText, size);
      assert.deepEqual(tight.units, [[0, '"a"'], [1, '"b\\"{"'], [2, '{"id": 1}'], [3, '1'], [4, '{"id": 2}'], [5, 'true'], [6, '[3]'], [7, '["x"]'], [8, '"y"']]);
      assert.equal(tight.error, 'a comma is expected at line 1, column 5, and 7 more');
      assert.equal(tight.stopped, false);
    }
    // A list of real records, commas taken out and doubled: the records, their places and the
    // first error are those the editor's tolerant reading gives (ASCII, so a byte is a character).
    const dataset = generateDataset({ seed: 'commas', today: '2026-11-20', days: 60, humans: 1 });
    let text = JSON.stringify(dataset.activity, null, 2);
    const between = [...text.matchAll(/\},\n {2}\{/g)].map((m) => m.index!);
    assert.ok(between.length > 40);
    for (const at of [between[40], between[12], between[3]]) text = text.slice(0, at + 1) + text.slice(at + 2); // missing commas
    text = text.replace(/\},\n {2}\{/, '},,\n  {'); // one too many
    const editor = validatePayloadText(text);
    assert.equal(editor.syntaxErrors.length, 4);
    const firstAt = text.slice(0, editor.syntaxErrors[0].offset).split('\n');
    for (const size of [7, 4096, 1 << 20]) {
      const got = splitBroken(text, size);
      assert.equal(got.stopped, false);
      assert.deepEqual(got.at, [firstAt.length, firstAt[firstAt.length - 1].length + 1]);
      assert.match(got.error ?? '', /, and 3 more$/);
      assert.deepEqual(got.units.map(([index, bytes]) => [index, JSON.parse(bytes as string)]), dataset.activity.map((r, index) => [index, r]), `chunks of ${size}`);
      assert.deepEqual(got.units.map(([index]) => `/${index}`), editor.records.map((r) => r.pointer));
    }
  });

  it('names a UTF-16 payload (either byte order) instead of calling its first byte unexpected, even read a byte at a time', () => {
    const text = '[{"id": "a"}]';
    for (const bytes of [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()])]) {
      assert.ok(startsAsUtf16(bytes));
      for (const size of [1, 1 << 20]) assert.throws(() => split(bytes, size), (e: unknown) => e instanceof Error && !(e instanceof SplitError) && e.message === UTF16_MESSAGE);
    }
    // UTF-8's byte-order mark is still read past.
    assert.equal(split(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])).length, 1);
    assert.equal(startsAsUtf16(Buffer.from(text)), false);
  });
});

describe('checkUnit', () => {
  it('places findings at their line and column in the whole payload', () => {
    const text = `[\n  {"id": "x",\n   "steps": -1}\n]`;
    const [unit] = split(text);
    const result = checkUnit(unit, 'activity');
    assert.ok('records' in result);
    const [r] = result.records;
    assert.equal(r.index, 0);
    assert.equal(r.valid, false);
    const steps = r.findings.find((f) => f.path === '/0/steps');
    assert.ok(steps, JSON.stringify(r.findings));
    assert.deepEqual([steps.line, steps.column], [3, 4]);
    // A missing field is shown on the record's first brace.
    const missing = r.findings.find((f) => f.path === '/0/humanId');
    assert.deepEqual([missing?.line, missing?.column], [2, 3]);
  });

  it('a record of a list that is no JSON is an invalid record; a whole payload that is none is a syntax error', () => {
    const [unit] = split('[{"id": 1 2}]');
    const result = checkUnit(unit, undefined);
    assert.ok('records' in result);
    assert.match(result.records[0].findings[0].message, /the record is not valid JSON \(a comma is expected at line 1, column 11\)/);
    const whole = checkUnit(split('{"id": 1 2}')[0], undefined);
    assert.deepEqual(whole, { syntaxError: 'not valid JSON (a comma is expected at line 1, column 10)' });
  });

  it('without places (a report that shows none) gives the same records and findings, unplaced, shared by records that have the same', () => {
    const dataset = generateDataset({ seed: 'unplaced', today: '2026-11-20', days: 20, humans: 1 });
    const mixed: unknown[] = [...dataset.heartRate, ...dataset.activity, ...dataset.bodyFat].map((r, i) => (i % 4 === 0 ? { ...(r as object), steps: -1, zones: [{ min: 'a' }] } : r));
    const hostile = hostileRecords(40).filter((h) => !h.tooDeep).map((h) => h.record);
    const text = [...mixed, ...hostile].map((r) => JSON.stringify(r)).join('\n') + '\n{"id": 1 2}\n';
    const units = split(text, 4096);
    assert.ok(ndjsonRecords(units).length > 100);
    let findings = 0;
    for (const unit of units) {
      const placed = checkUnit(unit, undefined);
      const unplaced = checkUnit(unit, undefined, undefined, false);
      assert.ok('records' in placed && 'records' in unplaced);
      const strip = (r: (typeof placed.records)[number]) => ({ ...r, findings: r.findings.map(({ kind, path, message }) => ({ kind, path, message })) });
      assert.deepEqual(unplaced.records.map(strip), placed.records.map(strip));
      for (const r of unplaced.records) {
        for (const f of r.findings) {
          // Unplaced (at the record's start), or a line that is no JSON, at its start too.
          assert.deepEqual([f.line ?? r.line, f.column ?? r.column], [r.line, r.column]);
          findings++;
        }
      }
    }
    assert.ok(findings > ndjsonRecords(units).length, `${findings} findings`);
    // Records with the same findings (the same zeros, the same deprecated field) share one list.
    const lists = units.map((u) => checkUnit(u, undefined, undefined, false)).flatMap((r) => ('records' in r ? r.records.map((x) => x.findings) : []));
    assert.ok(new Set(lists).size < lists.length * 0.75, `${new Set(lists).size} lists for ${lists.length} records`);
  });
});

describe('recordPlaces', () => {
  it('starts every finding where the editor places it, on sandbox records and on hostile ones, pretty-printed or not', function () {
    this.timeout(60_000); // hostile records of 5,000 zones, placed twice over
    const dataset = generateDataset({ seed: 'places', today: '2026-11-20', days: 30, humans: 2 });
    const sandboxRecords: unknown[] = [...dataset.heartRate, ...dataset.activity, ...dataset.bodyFat].map((r, i) =>
      i % 3 === 0 ? { ...(r as object), steps: -1, zones: [{ name: 'x', min: 'a' }] } : r,
    );
    const hostile = hostileRecords(60).filter((h) => !h.tooDeep).map((h) => h.record);
    let compared = 0;
    const texts = [...sandboxRecords.flatMap((r) => [JSON.stringify(r), JSON.stringify(r, null, 2)]), ...hostile.map((r) => JSON.stringify(r))];
    {
      for (const text of texts) {
        let editor;
        try {
          editor = validatePayloadText(text);
        } catch {
          continue; // Too deep for the editor's locator: nothing to compare with.
        }
        if (editor.syntaxErrors.length > 0 || editor.records.length !== 1) continue;
        const places = recordPlaces(text, editor.findings.map((f) => f.pointer));
        for (const f of editor.findings) {
          assert.equal(places.get(f.pointer), f.offset, `${f.pointer} in ${text.slice(0, 200)}`);
          compared++;
        }
      }
    }
    assert.ok(compared > 1000, `${compared} findings compared`);
  });
});
