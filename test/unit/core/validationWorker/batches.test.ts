// Validation a batch of records at a time (src/core/validationWorker/batches.ts): the batches
// together find exactly what validatePayloadText finds, at the same places, in the same order,
// for lists, wrapped lists, JSON with comments, single records, chosen kinds and broken JSON;
// and asked to say each 0 from the text's other records, what explainDocumentZeros says.
import * as assert from 'node:assert/strict';
import { payloadTextBatches } from '../../../../src/core/validationWorker';
import { explainDocumentZeros, standsOut } from '../../../../src/core/views';
import { generateDataset } from '../../../../src/sandbox/data';
import { PayloadTextOptions, PlacedFinding, placeListRecordFindings, validatePayloadText } from '../../../../src/core/validation';
import { memberListStart, rootListStart } from '../../../../src/core/json';
import { variedRecords } from '../../../fixtures/variedRecords';
import { ACTIVITY } from '../../../fixtures/payloads';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const RECORDS = variedRecords(400);

/** Checks the batches against the whole text, with each 0 said as it is and from the text's other records; returns how many batches. */
function sameAsWhole(text: string, options: PayloadTextOptions, batchRecords: number): number {
  sameAsWholeWith(text, options, batchRecords, true);
  return sameAsWholeWith(text, options, batchRecords, false);
}

function sameAsWholeWith(text: string, options: PayloadTextOptions, batchRecords: number, zeros: boolean): number {
  const whole = zeros ? explainDocumentZeros(validatePayloadText(text, options)) : validatePayloadText(text, options);
  const batches = [...payloadTextBatches(text, options, batchRecords, zeros ? 'in this document' : undefined)];
  assert.deepEqual(
    batches.flatMap((b) => b.findings),
    whole.findings,
  );
  assert.deepEqual(
    batches.flatMap((b) => b.syntaxErrors),
    whole.syntaxErrors,
  );
  assert.equal(
    batches.reduce((n, b) => n + b.records, 0),
    whole.records.length,
  );
  assert.equal(
    batches.reduce((n, b) => n + b.undetected, 0),
    whole.undetected,
  );
  const last = batches[batches.length - 1];
  assert.equal(last.done, last.total);
  return batches.length;
}

describe('validationWorker/batches', () => {
  it('a list in batches: the same findings, places and order as the whole text', () => {
    const text = JSON.stringify(RECORDS, null, 2);
    assert.ok(validatePayloadText(text, { now: NOW }).findings.length > 100, 'the records draw many findings');
    assert.equal(sameAsWhole(text, { now: NOW }, 37), Math.ceil(RECORDS.length / 37));
  });

  it('a list read once, a batch after the other: at every batch size, however the records are written', () => {
    // Records that are no objects, empty ones and arrays among them, some at the batches' edges.
    const mixed = [...RECORDS.slice(0, 60), 7, {}, [], 'text', null, [RECORDS[1]], ...RECORDS.slice(60, 90)];
    const texts = [JSON.stringify(mixed), JSON.stringify(mixed, null, 2), ` \r\n${JSON.stringify(mixed, null, '\t').replace(/\n/g, '\r\n')}\n`];
    for (const text of texts) {
      const whole = validatePayloadText(text, { now: NOW });
      for (const size of [1, 2, 3, 7, 64]) {
        sameAsWhole(text, { now: NOW }, size);
        // The one reading itself, batch after batch from the list's start (the batches would
        // fall back to reading the text twice, with the same findings, should it give up).
        let at = rootListStart(text);
        const placed: PlacedFinding[] = [];
        for (let first = 0; first < whole.records.length; first += size) {
          const batch = whole.records.slice(first, first + size);
          const read = placeListRecordFindings(text, batch, first, at);
          assert.ok(read, `read from ${at} at size ${size}`);
          placed.push(...read.findings);
          at = read.end;
        }
        assert.deepEqual(placed, whole.findings);
        assert.equal(text.slice(at).trim(), ']');
      }
    }
  });

  it('a wrapped list, written on one line', () => {
    assert.ok(sameAsWhole(JSON.stringify({ data: RECORDS, next: null }), { now: NOW }, 50) > 1);
  });

  it('a wrapped list read once too, from its start found by reading the members before it only', () => {
    const records = RECORDS.slice(0, 90);
    // Members of every kind before the list, one holding brackets and quotes in its strings.
    const before = { meta: { pages: [1, { note: 'a ] and a } in a string' }], empty: {} }, count: 90, ok: true, none: null, cursor: 'abc' };
    const texts = [
      JSON.stringify({ ...before, data: records, next: null }),
      JSON.stringify({ ...before, items: records }, null, 2).replace(/\n/g, '\r\n'),
      `\t{ "results" :\n[${records.map((r) => JSON.stringify(r)).join(' ,\n')}] , "total": 90 }\n`,
    ];
    for (const text of texts) {
      const whole = validatePayloadText(text, { now: NOW });
      assert.ok(whole.findings.length > 20);
      const field = ['data', 'items', 'results'].find((f) => text.includes(`"${f}"`))!;
      const start = memberListStart(text, field);
      assert.equal(text[start - 1], '[', `${field}: the list's opening`);
      assert.ok(text.slice(0, start - 1).trimEnd().endsWith(':'));
      for (const size of [1, 3, 64]) {
        sameAsWhole(text, { now: NOW }, size);
        let at = start;
        const placed: PlacedFinding[] = [];
        for (let first = 0; first < whole.records.length; first += size) {
          const read = placeListRecordFindings(text, whole.records.slice(first, first + size), first, at);
          assert.ok(read, `read from ${at} at size ${size}`);
          placed.push(...read.findings);
          at = read.end;
        }
        assert.deepEqual(placed, whole.findings);
        assert.match(text.slice(at), /^\s*\]/);
      }
    }
  });

  it('a wrapped list is read once from the last member of its name, looked past when its name or a backslash follows its opening', () => {
    const records = RECORDS.slice(0, 40);
    const list = JSON.stringify(records);
    const withBackslash = JSON.stringify([...records, { ...(records[0] as object), sourceData: { note: 'a \\ backslash' } }]);
    const withName = JSON.stringify(records.map((r, k) => (k % 9 === 0 ? { ...(r as object), sourceData: { kind: 'data' } } : r)));
    const short = JSON.stringify(records.slice(0, 5));
    // JSON.parse keeps the last member of a name, however it is written: the list read is that
    // one, whose opening is the last place of the marker given (null: no list to read from, and
    // the whole text is read for where the records are).
    const cases: Array<[string, string | null]> = [
      // Nothing of the name can follow the list: nothing after its opening is read (a member of
      // that name inside another does not count).
      [`{"page": {"data": 1}, "data": ${list}}`, '"data": ['],
      // The name or a backslash after the opening: the list is looked past, and the members after it read.
      [`{"data": ${withBackslash}}`, '"data": ['],
      [`{"data": ${withName}, "next": "a\\nb", "total": 41}`, '{"data": ['],
      [`{"data": [], "data": ${list}}`, '"data": ['],
      [`{"data": ${short}, "\\u0064ata": ${list}}`, '"\\u0064ata": ['],
      [`{"data": 1, "data": ${list}}`, '"data": ['],
      [`{"data": ${list}, "data": null}`, null],
      [`[${list}]`, null],
    ];
    for (const [text, marker] of cases) {
      const start = memberListStart(text, 'data');
      assert.equal(start, marker === null ? -1 : text.lastIndexOf(marker) + marker.length, text.slice(0, 40));
      if (start >= 0) assert.deepEqual(JSON.parse(`[${text.slice(start)}`.replace(/[^\]]*$/, '')), JSON.parse(text).data, text.slice(0, 40));
      sameAsWhole(text, { now: NOW }, 7);
    }
  });

  it('JSON with comments between and inside records', () => {
    const text = `// a list\n[\n${RECORDS.slice(0, 90)
      .map((r) => `  /* before */ ${JSON.stringify(r, null, 1).replace('{', '{ // inside\n')}`)
      .join(',\n')},\n]`;
    assert.ok(sameAsWhole(text, { now: NOW, jsonc: true }, 20) > 1);
  });

  it('records validated as a chosen kind, or a fallback for undetected ones', () => {
    const text = JSON.stringify(RECORDS);
    sameAsWhole(text, { now: NOW, kind: 'activity' }, 60);
    sameAsWhole(text, { now: NOW, fallbackKind: 'bodyFat' }, 60);
    assert.ok(validatePayloadText(text, { now: NOW }).undetected > 0, 'some records do not tell their kind');
    sameAsWhole(text, { now: NOW }, 60);
  });

  it('a single record, a short list and broken JSON are one batch', () => {
    assert.equal(sameAsWhole(ACTIVITY, { now: NOW }, 10), 1);
    assert.equal(sameAsWhole(JSON.stringify(RECORDS.slice(0, 5)), { now: NOW }, 10), 1);
    assert.equal(sameAsWhole('[{"steps": 1},', { now: NOW }, 10), 1);
    // A long list with one broken record: its whole records' findings, in one batch.
    const broken = JSON.stringify(RECORDS, null, 2).replace(/,\n {4}"/, '\n    "');
    assert.equal(sameAsWhole(broken, { now: NOW }, 37), 1);
    assert.ok([...payloadTextBatches(broken, { now: NOW }, 37)][0].findings.length > 100);
    assert.ok([...payloadTextBatches('[{"steps": 1},')][0].syntaxErrors.length > 0);
  });

  it('each 0 said from the whole text\'s other records of its kind and source, batch by batch, as the editor says it in place', () => {
    const data = generateDataset({ today: '2026-11-20', days: 40, humans: 2, seed: 'batches' });
    const fitbit = (data.activity as Array<Record<string, unknown>>).filter((r) => r.source === 'fitbit');
    assert.ok(fitbit.length >= 25, `${fitbit.length} fitbit records`);
    // A day the tracker was not worn, among activity summaries and heart rate summaries mixed.
    const records = [...data.activity, ...data.heartRate, { ...fitbit[3], id: 'not-worn', steps: 0 }];
    const text = JSON.stringify(records, null, 2);
    for (const size of [1, 9, 500]) sameAsWhole(text, { now: NOW }, size);
    const findings = [...payloadTextBatches(text, { now: NOW }, 9, 'in this document')].flatMap((b) => b.findings);
    const steps = findings.filter((f) => f.kind === 'zero' && f.path === '/steps');
    const worn = steps.find((f) => f.recordId === 'not-worn')!;
    assert.equal(worn.message, `0 — unusual for fitbit: steps is not 0 on all its ${fitbit.length} other records in this document`);
    assert.ok(standsOut(worn));
    const googlefit = steps.filter((f) => f.message.startsWith('0 — googlefit does not provide steps: 0 on all its'));
    assert.ok(googlefit.length > 10, `${googlefit.length} googlefit steps said`);
    assert.ok(googlefit.every((f) => !standsOut(f) && f.message.endsWith('other records in this document')));
    // Only the zeros' messages changed: the same findings, places and order otherwise.
    const plain = [...payloadTextBatches(text, { now: NOW }, 9)].flatMap((b) => b.findings);
    assert.deepEqual(
      findings.map(({ kind, pointer, offset, length }) => ({ kind, pointer, offset, length })),
      plain.map(({ kind, pointer, offset, length }) => ({ kind, pointer, offset, length })),
    );
    assert.deepEqual(findings.filter((f) => f.kind !== 'zero'), plain.filter((f) => f.kind !== 'zero'));
  });
});
