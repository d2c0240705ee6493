// Payloads validated as text: each finding placed on the field, its key or the object that lacks
// it; syntax errors; kinds given, detected or picked; the deprecated-field fix; and the payload
// schema that VS Code's JSON support uses for *.health.json files (src/core/payloadText.ts).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Node as JsonNode, parseTree } from 'jsonc-parser';
import { applyTextEdits, locatePointers, tokenName } from '../../../../src/core/json';
import { PlacedFinding, deprecatedFieldFixes, deprecatedReplacement, placeFindings, validatePayloadText, SCHEMA_DOCUMENTS, compiledSchema } from '../../../../src/core/validation';
import { RESOURCES } from '../../../../src/core/resources';
import { ACTIVITY } from '../../../fixtures/payloads';
import { variedRecords } from '../../../fixtures/variedRecords';
import { repoRoot } from '../../support/repo';
import { sharedHostileRecords } from '../../support/hostileRecords';

const root = repoRoot;
const fixtureText = (name: string): string => readFileSync(join(root, 'test', 'fixtures', `${name}.json`), 'utf8');
const NOW = Date.parse('2026-11-20T12:00:00Z');
const PAYLOAD_SCHEMA_ID = 'https://health-data-explorer.dev/schemas/payload.schema.json';

const covered = (text: string, f: PlacedFinding): string => text.slice(f.offset, f.offset + f.length);
const only = (findings: readonly PlacedFinding[], pointer: string, kind?: string): PlacedFinding => {
  const matching = findings.filter((f) => f.pointer === pointer && (kind === undefined || f.kind === kind));
  assert.equal(matching.length, 1, `${pointer} ${kind ?? ''}: ${JSON.stringify(findings.map((f) => [f.kind, f.pointer]))}`);
  return matching[0];
};

describe('payloadText', () => {
  describe('validatePayloadText places findings', () => {
    const v = validatePayloadText(ACTIVITY, { now: NOW });

    it('an error on the field: key and value', () => {
      const f = only(v.findings, '/distance', 'error');
      assert.equal(covered(ACTIVITY, f), '"distance": -5');
      assert.equal(f.missing, false);
      assert.match(f.message, /distance must be ≥ 0, got -5/);
      assert.equal(f.index, undefined);
    });

    it('a zero on the field, deprecated and unknown fields on their key', () => {
      assert.equal(covered(ACTIVITY, only(v.findings, '/steps', 'zero')), '"steps": 0');
      assert.equal(covered(ACTIVITY, only(v.findings, '/userId', 'deprecated')), '"userId"');
      assert.equal(covered(ACTIVITY, only(v.findings, '/cadence', 'unknown')), '"cadence"');
      assert.equal(v.records.length, 1);
      assert.equal(v.records[0].kind, 'activity');
      assert.equal(v.undetected, 0);
    });

    it('a missing field on the opening brace of the object that lacks it', () => {
      const text = fixtureText('heart-rate-wrist-tracker');
      const r = validatePayloadText(text, { now: NOW });
      const f = only(r.findings, '/value', 'error');
      assert.equal(f.missing, true);
      assert.equal(f.offset, 0);
      assert.equal(covered(text, f), '{');
      assert.match(f.message, /value is required .* but missing/);
    });

    it('a missing field of a zone on the zone', () => {
      const text = '{"id":"x","humanId":"h","source":"s","sourceData":{},"createdAt":"2026-11-18T05:02:19Z","updatedAt":"2026-11-18T05:02:19Z","date":"2026-11-18","value":60,\n"zones":[{"name":"a","min":1,"max":2,"duration":3,"caloriesBurned":4},\n  {"name":"b","min":1,"duration":3,"caloriesBurned":4}]}';
      const f = only(validatePayloadText(text, { now: NOW }).findings, '/zones/1/max', 'error');
      assert.equal(f.offset, text.indexOf('{"name":"b"'));
      assert.equal(f.length, 1);
    });

    it('a list: pointers and indexes per record, in arrays and wrappers', () => {
      const a = JSON.parse(fixtureText('activity-wrist-tracker')) as object;
      const b = JSON.parse(fixtureText('body-fat-smart-scale')) as object;
      for (const [text, prefix] of [
        [JSON.stringify([a, b], null, 2), ''],
        [JSON.stringify({ data: [a, b] }, null, 2), '/data'],
      ] as const) {
        const r = validatePayloadText(text, { now: NOW });
        assert.deepEqual(r.records.map((x) => x.kind), ['activity', 'bodyFat']);
        const second = only(r.findings, `${prefix}/1/userId`, 'deprecated');
        assert.equal(second.index, 1);
        assert.equal(second.recordId, '6a1f3c9e2b7d4e0058c1a3f7');
        assert.equal(covered(text, second), '"userId"');
        assert.ok(second.offset > text.indexOf('"withings"') - 200, 'in the second record');
        assert.equal(only(r.findings, `${prefix}/0/userId`).index, 0);
      }
    });

    it('a record that is no object: the error on the value', () => {
      const r = validatePayloadText('[\n  42\n]', { now: NOW });
      assert.equal(r.undetected, 0);
      const f = only(r.findings, '/0', 'error');
      assert.equal(covered('[\n  42\n]', f), '42');
    });
  });

  describe('every finding placed as an independent reading of the text places it', () => {
    /**
     * Where a finding goes, worked out on jsonc-parser's syntax tree (not on our scan): the value
     * at its pointer (the last of duplicate keys, as JSON.parse), else its nearest ancestor.
     */
    const reference = (tree: JsonNode, f: PlacedFinding): [number, number, boolean] => {
      const tokens = f.pointer === '' ? [] : f.pointer.split('/').slice(1).map(tokenName);
      let node: JsonNode = tree;
      let found = 0;
      for (const token of tokens) {
        let next: JsonNode | undefined;
        if (node.type === 'array' && /^(?:0|[1-9]\d*)$/.test(token)) next = node.children?.[Number(token)];
        else if (node.type === 'object') for (const p of node.children ?? []) if (p.children?.[0]?.value === token) next = p.children[1];
        if (next === undefined) break;
        node = next;
        found++;
      }
      const missing = found < tokens.length;
      const key = node.parent?.type === 'property' ? node.parent.children![0] : undefined;
      const container = node.type === 'object' || node.type === 'array';
      if (key && (missing || container || f.kind === 'deprecated' || f.kind === 'unknown')) return [key.offset, key.length, missing];
      if (missing || container) return [node.offset, container ? 1 : node.length, missing];
      if (key) return [key.offset, node.offset + node.length - key.offset, missing];
      return [node.offset, node.length, missing];
    };

    const records = variedRecords(42);
    /** Deeper than `limit`: indenting such a record makes megabytes of spaces. */
    const deeper = (v: unknown, limit: number): boolean =>
      limit < 0 || (v !== null && typeof v === 'object' && Object.values(v).some((x) => deeper(x, limit - 1)));
    /** Hostile records of up to 20 kB each, at most 40 deep (some are megabytes, or nested thousands deep). */
    const hostile = (): unknown[] =>
      sharedHostileRecords()
        .filter((h) => !h.tooDeep)
        .slice(0, 600)
        .map((h) => h.record)
        .filter((r) => (JSON.stringify(r)?.length ?? 0) < 20_000 && !deeper(r, 40));
    const texts: Array<[string, () => string, boolean]> = [
      ['varied, compact', () => JSON.stringify(records), false],
      ['varied, pretty', () => JSON.stringify(records, null, 2), false],
      ['varied, tabs and CRLF', () => JSON.stringify(records, null, '\t').replace(/\n/g, '\r\n'), false],
      ['varied, wrapped', () => JSON.stringify({ page: 1, data: records }, null, 1), false],
      ['one record', () => JSON.stringify(records[3], null, 2), false],
      ['hostile, compact', () => JSON.stringify(hostile()), false],
      ['hostile, pretty', () => JSON.stringify(hostile(), null, 2), false],
      // Keys written with escapes, given twice (the last counts), with ~ and / in them.
      ['keys', () => '[{"id":"a","user\\u0049d":"u","userId":0,"steps":"x","date":"2026-11-20","source":"s","humanId":"h","steps":0,"a~/b":1,"zones":[{"min":0},{"min":"x","min":1}]},{}, 7, []]', false],
      ['comments', () => '[\n  // first\n  {"id": "a", /* note */ "userId": "u", "steps": 0, "date": "2026-11-20",},\n]', true],
    ];
    for (const [label, textOf, jsonc] of texts) {
      it(label, () => {
        const text = textOf();
        const v = validatePayloadText(text, { now: NOW, jsonc });
        assert.deepEqual(v.syntaxErrors, []);
        assert.ok(v.findings.length > 0);
        const tree = parseTree(text, [], { allowTrailingComma: jsonc, disallowComments: !jsonc })!;
        for (const f of v.findings) assert.deepEqual([f.offset, f.length, f.missing], reference(tree, f), `${f.kind} ${f.pointer}`);
        // And the same findings as looking each pointer up in locatePointers' spans.
        const pointers = v.records.flatMap((r) => r.findings.map((f) => r.pointer + f.path));
        assert.deepEqual(v.findings, placeFindings(locatePointers(text, pointers, { jsonc }), v.records));
      });
    }
  });

  describe('syntax errors and kinds', () => {
    it('a text that is no JSON gives its syntax errors and no findings', () => {
      const r = validatePayloadText('{\n  "id": "x"\n  "source": 1\n}');
      assert.deepEqual(r.syntaxErrors, [{ code: 'CommaExpected', offset: 16, length: 8 }]);
      assert.deepEqual(r.findings, []);
      assert.deepEqual(r.records, []);
    });

    describe('a list with a syntax error: its records that hold none are still validated, in place', () => {
      const records = variedRecords(12);
      const whole = JSON.stringify(records, null, 2);
      const valid = validatePayloadText(whole, { now: NOW });
      /** The findings of the whole text's records but `skip`, each shifted by `shift` past `from`. */
      const expected = (skip: (index: number) => boolean, from: number, shift: number) =>
        valid.findings.filter((f) => !skip(f.index!)).map((f) => ({ ...f, offset: f.offset >= from ? f.offset + shift : f.offset }));

      it('a comma missing inside one record: every other record\'s findings, at the same places', () => {
        // Take out the comma after record 5's first field.
        const at = whole.indexOf('\n', whole.indexOf(`"id": ${JSON.stringify((records[5] as { id: string }).id)}`)) - 1;
        assert.equal(whole[at], ',');
        const broken = whole.slice(0, at) + whole.slice(at + 1);
        const r = validatePayloadText(broken, { now: NOW });
        assert.equal(r.syntaxErrors[0].code, 'CommaExpected');
        assert.deepEqual(r.records.map((x) => x.index), [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11]);
        assert.deepEqual(r.records.map((x) => x.pointer), r.records.map((x) => `/${x.index}`));
        assert.ok(r.findings.length > 20, `${r.findings.length} findings`);
        assert.deepEqual(r.findings, expected((i) => i === 5, at, -1));
      });

      it('a comma missing between two records: both are whole and validated', () => {
        const second = whole.indexOf('\n  {', whole.indexOf(`"id": ${JSON.stringify((records[3] as { id: string }).id)}`));
        assert.equal(whole[second - 1], ',');
        const broken = whole.slice(0, second - 1) + whole.slice(second);
        const r = validatePayloadText(broken, { now: NOW });
        assert.equal(r.syntaxErrors.length, 1);
        assert.equal(r.records.length, records.length);
        assert.deepEqual(r.findings, expected(() => false, second - 1, -1));
      });

      it('a list cut short: the records before the cut; a wrapper\'s list too', () => {
        const cut = whole.indexOf(`"id": ${JSON.stringify((records[8] as { id: string }).id)}`) + 12;
        const r = validatePayloadText(whole.slice(0, cut), { now: NOW });
        assert.deepEqual(r.records.map((x) => x.index), [0, 1, 2, 3, 4, 5, 6, 7]);
        assert.deepEqual(r.findings, expected((i) => i >= 8, cut, 0));
        const wrapped = JSON.stringify({ data: records, next: null }, null, 2);
        const w = validatePayloadText(wrapped.slice(0, wrapped.indexOf('"next"') - 10), { now: NOW });
        assert.ok(w.syntaxErrors.length > 0);
        assert.deepEqual(w.records.map((x) => x.pointer), records.slice(0, 11).map((_, i) => `/data/${i}`));
        assert.deepEqual(w.findings, validatePayloadText(wrapped, { now: NOW }).findings.filter((f) => f.index! < 11));
      });

      it('one record with a syntax error, or no list at all: nothing but the syntax errors', () => {
        for (const text of ['{\n  "id": "x"\n  "source": 1\n}', '{"data": [{"steps": 1}', '[[1, 2', '"x" "y"']) {
          const r = validatePayloadText(text, { now: NOW });
          assert.ok(r.syntaxErrors.length > 0, text);
          if (text.startsWith('{"data"')) assert.equal(r.records.length, 1, text);
          else assert.deepEqual([r.records, r.findings], [[], []], text);
        }
      });
    });

    it('comments are syntax errors in JSON, allowed in JSON with comments', () => {
      const text = `// a fixture\n${ACTIVITY}`;
      assert.equal(validatePayloadText(text).syntaxErrors[0].code, 'InvalidCommentToken');
      const r = validatePayloadText(text, { jsonc: true, now: NOW });
      assert.deepEqual(r.syntaxErrors, []);
      assert.equal(covered(text, only(r.findings, '/userId')), '"userId"');
    });

    it('a record without identifying fields is counted as undetected, then validated as the fallback kind', () => {
      const text = '[{"id": "x", "humanId": "h"}, ' + fixtureText('body-fat-smart-scale') + ']';
      const plain = validatePayloadText(text, { now: NOW });
      assert.equal(plain.undetected, 1);
      assert.match(only(plain.findings, '/0', 'error').message, /could not detect the kind/);
      const picked = validatePayloadText(text, { now: NOW, fallbackKind: 'heartRate' });
      assert.equal(picked.undetected, 0);
      assert.deepEqual(picked.records.map((r) => r.kind), ['heartRate', 'bodyFat'], 'the detected one keeps its kind');
      assert.equal(only(picked.findings, '/0/zones', 'error').missing, true);
      assert.equal(picked.records[0].index, 0);
      assert.equal(picked.records[0].pointer, '/0');
    });

    it('a kind given applies to every record', () => {
      const r = validatePayloadText(fixtureText('body-fat-smart-scale'), { now: NOW, kind: 'activity' });
      assert.equal(r.records[0].kind, 'activity');
      assert.ok(r.findings.some((f) => f.pointer === '/steps' && f.missing));
    });
  });

  describe('the deprecated-field fix', () => {
    it('userId is replaced by humanId, as the schemas say', () => {
      assert.equal(deprecatedReplacement('userId'), 'humanId');
      assert.equal(deprecatedReplacement('humanId'), undefined);
      assert.equal(deprecatedReplacement('toString'), undefined);
    });

    it('renames userId when the record lacks humanId', () => {
      const text = '{\n  "id": "x",\n  "userId": "u"\n}';
      const offset = text.indexOf('"userId"');
      const fix = deprecatedFieldFixes(text, [offset]).get(offset);
      assert.equal(fix?.action, 'rename');
      assert.equal(applyTextEdits(text, [fix.edit]), '{\n  "id": "x",\n  "humanId": "u"\n}');
    });

    it('removes userId when the record has humanId, in every record of a list', () => {
      const text = '[\n  {\n    "userId": "u",\n    "humanId": "h"\n  },\n  {\n    "humanId": "h",\n    "userId": "u"\n  }\n]';
      const findings = validatePayloadText(text, { now: NOW, kind: 'bodyFat' }).findings.filter((f) => f.kind === 'deprecated');
      assert.equal(findings.length, 2);
      const fixes = deprecatedFieldFixes(text, findings.map((f) => f.offset));
      assert.deepEqual([...fixes.values()].map((f) => f.action), ['remove', 'remove']);
      const fixed = applyTextEdits(text, [...fixes.values()].map((f) => f.edit));
      assert.equal(fixed, '[\n  {\n    "humanId": "h"\n  },\n  {\n    "humanId": "h"\n  }\n]');
    });

    it('offers nothing for a field that is not deprecated, or an offset at no key', () => {
      const text = '{"humanId": "h", "userId": "u"}';
      assert.equal(deprecatedFieldFixes(text, [1, 5, text.indexOf('"u"')]).size, 0);
    });
  });

  describe('the payload schema (jsonValidation for *.health.json)', () => {
    const doc = SCHEMA_DOCUMENTS.get(PAYLOAD_SCHEMA_ID) as unknown as { $defs: { record: { anyOf: { $ref: string }[] } } };

    it('refers to the schema of every resource of the table, and only to those', () => {
      const refs = doc.$defs.record.anyOf.map((r) => new URL(r.$ref, PAYLOAD_SCHEMA_ID).href).sort();
      assert.deepEqual(refs, RESOURCES.map((r) => r.schemaId).sort());
    });

    it('accepts every fixture, alone, in a list and in each wrapper; refuses what is no payload', () => {
      const check = compiledSchema(PAYLOAD_SCHEMA_ID);
      const names = ['activity-all-zeros', 'activity-duration-distance-calories', 'activity-steps-calories-sedentary', 'activity-wrist-tracker', 'body-fat-smart-scale'];
      const records = names.map((n) => JSON.parse(fixtureText(n)) as unknown);
      for (const r of records) assert.equal(check(r), true, JSON.stringify(check.errors));
      assert.equal(check(records), true);
      for (const wrapper of ['data', 'items', 'results']) assert.equal(check({ [wrapper]: records }), true, wrapper);
      assert.equal(check(JSON.parse(fixtureText('heart-rate-wrist-tracker'))), false, 'no value: the spec requires it');
      for (const bad of [42, 'x', [42], { data: 42 }, { id: 'only' }]) assert.equal(check(bad), false, JSON.stringify(bad));
    });
  });
});
