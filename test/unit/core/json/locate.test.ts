// Where things are in a JSON text: syntax errors, the spans of values at JSON Pointers
// (src/core/jsonLocate.ts), and the edits that rename or remove a property (src/core/jsonEdit.ts).
import * as assert from 'node:assert/strict';
import { PropertyContext, applyTextEdits, propertiesAt, removePropertyEdit, renamePropertyEdit, MAX_SYNTAX_ERRORS, locatePointers, locateStrictJson, parentPointer, parseJsonText } from '../../../../src/core/json';

/** The text a span covers. */
const at = (text: string, span: { offset: number; length: number } | undefined): string | undefined =>
  span === undefined ? undefined : text.slice(span.offset, span.offset + span.length);

function propertyAt(text: string, key: string): PropertyContext {
  const offset = text.indexOf(`"${key}"`);
  const found = propertiesAt(text, [offset]).get(offset);
  assert.ok(found, `no property ${key} at ${offset}`);
  return found;
}

describe('jsonLocate', () => {
  describe('parseJsonText', () => {
    it('returns the value of valid JSON, with no errors', () => {
      assert.deepEqual(parseJsonText('{"a": [1, {"b": null}]}'), { value: { a: [1, { b: null }] }, errors: [] });
    });

    it('says where strict JSON breaks, one error per place', () => {
      assert.deepEqual(parseJsonText('{"a": 1,}').errors, [{ code: 'PropertyNameExpected', offset: 8, length: 1 }]);
      assert.deepEqual(parseJsonText('{"a" 1}').errors, [{ code: 'ColonExpected', offset: 5, length: 1 }]);
      assert.deepEqual(parseJsonText('[1,2').errors, [{ code: 'CloseBracketExpected', offset: 4, length: 0 }]);
      assert.deepEqual(parseJsonText('{"a": 1} x').errors, [{ code: 'InvalidSymbol', offset: 9, length: 1 }]);
      assert.deepEqual(parseJsonText('').errors, [{ code: 'ValueExpected', offset: 0, length: 0 }]);
      assert.equal(parseJsonText('{"a": 1}').value !== undefined, true);
      assert.equal(parseJsonText('{"a": 1,}').value, undefined);
    });

    it('refuses comments and trailing commas in JSON, takes them in JSON with comments', () => {
      const text = '{\n  // a comment\n  "a": 1,\n}';
      assert.deepEqual(parseJsonText(text).errors[0], { code: 'InvalidCommentToken', offset: 4, length: 12 });
      assert.deepEqual(parseJsonText(text, { jsonc: true }), { value: { a: 1 }, errors: [] });
    });

    it(`reports at most ${MAX_SYNTAX_ERRORS} errors`, () => {
      const text = `[${'"\n'.repeat(500)}]`;
      const { errors } = parseJsonText(text);
      assert.ok(errors.length > 10 && errors.length <= MAX_SYNTAX_ERRORS, String(errors.length));
    });
  });

  describe('locatePointers', () => {
    const text = '{\n  "id": "a",\n  "zones": [\n    { "min": 30, "max": 97 },\n    { "min": 97 }\n  ],\n  "a/b": 1,\n  "sourceData": { "x": 1 }\n}';

    it('finds keys and values of properties, array items and the root', () => {
      const spans = locatePointers(text, ['/zones/1/min', '/id', '/a~1b']);
      assert.equal(at(text, spans.get('/id')?.key), '"id"');
      assert.equal(at(text, spans.get('/id')?.value), '"a"');
      assert.equal(spans.get('/id')?.container, false);
      assert.equal(at(text, spans.get('/zones/1/min')?.key), '"min"');
      assert.equal(at(text, spans.get('/zones/1/min')?.value), '97');
      assert.equal(at(text, spans.get('/zones/1')?.value), '{ "min": 97 }');
      assert.equal(spans.get('/zones/1')?.key, undefined);
      assert.equal(spans.get('/zones/1')?.container, true);
      assert.equal(at(text, spans.get('/zones')?.key), '"zones"');
      assert.equal(at(text, spans.get('')?.value), text);
      assert.equal(at(text, spans.get('/a~1b')?.key), '"a/b"', 'keys are matched as escaped pointer tokens');
    });

    it('records only the pointers asked for and their ancestors; a missing one has no span', () => {
      const spans = locatePointers(text, ['/zones/1/max']);
      for (const p of ['', '/zones', '/zones/1']) assert.ok(spans.get(p), p);
      for (const p of ['/zones/1/max', '/zones/0', '/id', '/zones/1/min', '/nothing/here']) assert.equal(spans.get(p), undefined, p);
      assert.equal(locatePointers(text, []).get(''), undefined);
    });

    it('takes the last of duplicate keys, as JSON.parse does', () => {
      const dup = '{"a": 1, "a": 22}';
      assert.equal(at(dup, locatePointers(dup, ['/a']).get('/a')?.value), '22');
    });

    it('locates in JSON with comments when told so', () => {
      const jsonc = '{ /* c */ "a": [ // x\n 5 ] }';
      assert.equal(at(jsonc, locatePointers(jsonc, ['/a/0'], { jsonc: true }).get('/a/0')?.value), '5');
    });

    it('finds in strict JSON the same spans as jsonc-parser’s scanner, for every value and some that are absent', () => {
      const value = {
        'a"b': [1, -2.5e3, true, false, null, '', 'q\\"x', '\u00e9\n'],
        'k~/\u0041': { '': {}, e: [], n: [[], [{}], [[0]]] },
        nested: [{ x: { y: [1, { z: 'deep' }] } }, 'str,]}', 0],
        dup: 1,
      };
      const texts = [JSON.stringify(value), JSON.stringify(value, null, 2), JSON.stringify(value, null, '\t').replace(/\n/g, '\r\n'), ' [ 1 , { "a" : [ ] } ] ', '"just a string"', '42', '{"dup": 1, "dup": {"x": 2}}',
        // Keys written with escapes, and keys that only begin like a name asked for.
        '{"user\\u0049d": 1, "userIdx": 2, "u": {"\\"q": [3], "k~/A": 4}, "0": {"1": 5}, "dup\\u0000": 6}'];
      const pointersOf = (v: unknown, pointer: string, out: string[]): string[] => {
        out.push(pointer);
        if (Array.isArray(v)) v.forEach((item, i) => pointersOf(item, `${pointer}/${i}`, out));
        else if (v !== null && typeof v === 'object') for (const [k, item] of Object.entries(v)) pointersOf(item, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
        return out;
      };
      for (const text of texts) {
        const pointers = [...pointersOf(JSON.parse(text), '', []), '/nothing', '/0/none', '/nested/9'];
        // The quick scan alone (locatePointers would hide its giving up behind jsonc-parser).
        const strict = locateStrictJson(text, pointers);
        assert.ok(strict, `the quick scan gave up on ${text}`);
        const scanned = locatePointers(text, pointers, { jsonc: true });
        for (const p of pointers) assert.deepEqual(strict.get(p), scanned.get(p), `${JSON.stringify(text.slice(0, 30))} at ${p}`);
        assert.ok(strict.get(pointers[pointers.length - 4]) !== undefined);
        // Some pointers only: the containers with nothing wanted inside are skipped to their end.
        for (const some of [pointers.filter((p) => p.split('/').length <= 2), pointers.filter((_, i) => i % 3 === 0), ['']]) {
          const strictSome = locateStrictJson(text, some);
          assert.ok(strictSome, `the quick scan gave up on ${text} for ${some.length} pointers`);
          const scannedSome = locatePointers(text, some, { jsonc: true });
          for (const p of pointers) assert.deepEqual(strictSome.get(p), scannedSome.get(p), `${JSON.stringify(text.slice(0, 30))} at ${p} of ${some.length}`);
        }
      }
    });

    it('a text whose brackets do not match where nothing is wanted is left to jsonc-parser, as one where something is', () => {
      for (const text of ['[{"a": [1}], 2]', '[{"a": "x}]"}, [}]', '{"a": {"b": [1, 2}, "c": 3}']) {
        for (const pointers of [['/0'], ['/a'], ['/1', '/c']]) {
          const strict = locatePointers(text, pointers);
          const scanned = locatePointers(text, pointers, { jsonc: true });
          for (const p of pointers) assert.deepEqual(strict.get(p), scanned.get(p), `${text} at ${p}`);
        }
      }
    });

    it('locates in a text that is not strict JSON even when not told so (comments): jsonc-parser reads it', () => {
      const jsonc = '{ /* c */ "a": [ 5 ] }';
      assert.equal(at(jsonc, locatePointers(jsonc, ['/a/0']).get('/a/0')?.value), '5');
      const unclosed = '{"a": [1, 2';
      assert.equal(at(unclosed, locatePointers(unclosed, ['/a/1']).get('/a/1')?.value), '2');
    });

    it('parentPointer', () => {
      assert.equal(parentPointer('/3/zones/1'), '/3/zones');
      assert.equal(parentPointer('/x'), '');
      assert.equal(parentPointer(''), '');
    });
  });

  describe('property edits', () => {
    const pretty = '{\n  "userId": "u",\n  "id": "a",\n  "humanId": "h"\n}';

    it('propertiesAt gives the key, the whole property and the siblings; other offsets are absent', () => {
      const p = propertyAt(pretty, 'id');
      assert.equal(p.name, 'id');
      assert.equal(at(pretty, p.key), '"id"');
      assert.equal(at(pretty, p.property), '"id": "a"');
      assert.deepEqual(p.siblings, ['userId', 'id', 'humanId']);
      assert.equal(propertiesAt(pretty, [pretty.indexOf('"u"')]).size, 0, 'a value is no key');
    });

    it('finds properties of nested objects and of objects in arrays', () => {
      const text = '[{"a": {"userId": [1, 2], "b": 1}}, {"userId": "x"}]';
      const second = text.lastIndexOf('"userId"');
      const found = propertiesAt(text, [text.indexOf('"userId"'), second]);
      assert.equal(at(text, found.get(text.indexOf('"userId"'))?.property), '"userId": [1, 2]');
      assert.deepEqual(found.get(second)?.siblings, ['userId']);
    });

    it('renames only the key', () => {
      assert.equal(applyTextEdits(pretty, [renamePropertyEdit(propertyAt(pretty, 'userId'), 'humanId')]), pretty.replace('"userId"', '"humanId"'));
    });

    it('removes the first, a middle, the last and the only property, keeping valid JSON and its layout', () => {
      const remove = (text: string, key: string): string => applyTextEdits(text, [removePropertyEdit(propertyAt(text, key))]);
      assert.equal(remove(pretty, 'userId'), '{\n  "id": "a",\n  "humanId": "h"\n}');
      assert.equal(remove(pretty, 'id'), '{\n  "userId": "u",\n  "humanId": "h"\n}');
      assert.equal(remove(pretty, 'humanId'), '{\n  "userId": "u",\n  "id": "a"\n}');
      assert.equal(remove('{"userId":"u","id":"a"}', 'userId'), '{"id":"a"}');
      assert.equal(remove('{"id":"a","userId":"u"}', 'userId'), '{"id":"a"}');
      assert.equal(remove('{ "userId": {"x": [1]} }', 'userId'), '{}');
      assert.equal(remove('[{"id": 1, "userId": {"n": 2}, "z": 3}]', 'userId'), '[{"id": 1, "z": 3}]');
    });
  });
});
