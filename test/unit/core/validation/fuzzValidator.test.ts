// The validator against 1,200 seeded hostile records (see hostile.ts): it never throws, whatever
// kind it is told or detects; its messages stay short whatever a record holds; it changes nothing
// it reads; and no `__proto__` or `constructor.prototype` key reaches a prototype.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { validatePayloadText, ValidationResult, checkClientTokenReply, detectKind, validate, validatePayload } from '../../../../src/core/validation';
import { RESOURCES, ResourceKind } from '../../../../src/core/resources';
import { FUZZ_COUNT, FUZZ_NOW, FUZZ_SEED, HOSTILE_STRINGS, HostileRecord, assertPrototypesUnchanged, hostileRecords, prototypeSnapshot, sharedHostileRecords } from '../../support/hostileRecords';

const KINDS: Array<ResourceKind | undefined> = [undefined, ...RESOURCES.map((r) => r.kind)];
const FINDING_KINDS = new Set(['error', 'warning', 'zero', 'deprecated', 'unknown']);
/** Longest message a finding may have (the longest fixed text is the "could not detect the kind" one). */
const MAX_MESSAGE = 400;

/** A fingerprint of the record's JSON, to show the validator left it as it was. */
const fingerprint = (r: HostileRecord): string | undefined =>
  r.tooDeep ? undefined : createHash('sha256').update(JSON.stringify(r.record) ?? 'undefined').digest('hex');

function assertSane(result: ValidationResult, label: string): void {
  assert.equal(typeof result.valid, 'boolean', label);
  assert.ok(Array.isArray(result.findings), label);
  assert.equal(result.valid, !result.findings.some((f) => f.kind === 'error'), `${label}: valid disagrees with the findings`);
  for (const f of result.findings) {
    assert.ok(FINDING_KINDS.has(f.kind), `${label}: finding kind ${String(f.kind)}`);
    assert.equal(typeof f.path, 'string', label);
    assert.equal(typeof f.message, 'string', label);
    assert.ok(f.message.length <= MAX_MESSAGE, `${label}: a message of ${f.message.length} characters: ${f.message.slice(0, 120)}…`);
    // The huge strings are runs of 'A': a message quotes at most 60 characters of any value.
    assert.ok(!/A{61}/.test(f.message), `${label}: a message quotes a huge value`);
  }
}

describe(`validator fuzz: ${FUZZ_COUNT} hostile records (seed "${FUZZ_SEED}")`, function () {
  this.timeout(120_000);
  const prototypes = prototypeSnapshot();
  let records: readonly HostileRecord[];
  let fingerprints: Array<string | undefined>;

  before(() => {
    records = sharedHostileRecords();
    fingerprints = records.map(fingerprint);
  });

  after(() => assertPrototypesUnchanged(prototypes));

  it('generates at least 1,000 records, the same ones for the same seed, of every class', () => {
    assert.ok(records.length >= 1_000);
    const again = hostileRecords(FUZZ_COUNT, FUZZ_SEED);
    assert.deepEqual(again.map((r) => r.label), records.map((r) => r.label));
    assert.deepEqual(again.map(fingerprint), fingerprints);
    again.length = 0;
    assert.notDeepEqual(hostileRecords(50, 'another seed').map((r) => r.label), records.slice(0, 50).map((r) => r.label));
    const labels = records.map((r) => r.label).join('\n');
    for (const cls of ['junk#', 'proto', 'deep:50000', 'deep:3000', 'zones:5000', 'sourceData', 'confusion', 'key:__proto__', 'key:constructor', 'source:string', 'date:string']) {
      assert.ok(labels.includes(cls), `no record of class ${cls}`);
    }
    // Every hostile string is in some record, and some strings are a megabyte long.
    const missing = new Set(HOSTILE_STRINGS);
    let megabyte = false;
    for (const r of records) {
      if (r.tooDeep) continue;
      const text = JSON.stringify(r.record) ?? '';
      for (const s of missing) if (text.includes(JSON.stringify(s).slice(1, -1))) missing.delete(s);
      megabyte ||= text.includes('A'.repeat(1_000_000));
    }
    assert.deepEqual([...missing], [], 'hostile strings no record carries');
    assert.ok(megabyte, 'no megabyte string');
  });

  it('validate never throws, as the record\'s own kind, as every other kind, or detecting the kind', () => {
    for (const r of records) {
      for (const kind of KINDS) {
        const result = validate(r.record, kind, { now: FUZZ_NOW });
        assertSane(result, `${r.label} as ${kind ?? 'detected'}`);
        if (kind !== undefined && r.record !== null && typeof r.record === 'object' && !Array.isArray(r.record)) assert.equal(result.kind, kind, r.label);
      }
    }
  });

  it('validatePayload takes them all at once: as an array, in each wrapper, and beside hostile keys', () => {
    const payloads: Array<[string, unknown, string]> = [
      ['array', records.map((r) => r.record), ''],
      ['data', { data: records.map((r) => r.record) }, '/data'],
      ['items', JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "items": []}'), '/items'],
    ];
    (payloads[2][1] as { items: unknown[] }).items.push(...records.map((r) => r.record));
    for (const [name, payload, prefix] of payloads) {
      for (const kind of KINDS) {
        const results = validatePayload(payload, kind, { now: FUZZ_NOW });
        assert.equal(results.length, records.length, `${name} as ${kind}`);
        results.forEach((result, i) => {
          assert.equal(result.pointer, `${prefix}/${i}`);
          assert.equal(result.index, i);
          assertSane(result, `${records[i].label} in ${name}`);
        });
      }
    }
  });

  it('validates each record alone as a payload, and leaves every record as it was', () => {
    for (const r of records) for (const result of validatePayload(r.record, undefined, { now: FUZZ_NOW })) assertSane(result, r.label);
    assert.deepEqual(records.map(fingerprint), fingerprints, 'the validator changed a record');
  });

  it('validatePayloadText places every finding inside the text, and never throws', () => {
    for (const r of records) {
      if (r.tooDeep) continue;
      const text = JSON.stringify(r.record) ?? 'null';
      const result = validatePayloadText(text, { now: FUZZ_NOW });
      assert.deepEqual(result.syntaxErrors, [], r.label);
      for (const f of result.findings) {
        assert.ok(f.offset >= 0 && f.length >= 0 && f.offset + f.length <= text.length, `${r.label}: ${f.pointer} placed outside the text`);
        assert.ok(f.message.length <= MAX_MESSAGE, r.label);
      }
    }
  });

  it('detectKind and the token reply check never throw', () => {
    for (const r of records) {
      const kind = detectKind(r.record);
      assert.ok(kind === undefined || RESOURCES.some((d) => d.kind === kind), r.label);
      for (const f of checkClientTokenReply(r.record)) assert.ok(f.message.length <= MAX_MESSAGE, r.label);
      checkClientTokenReply({ client_token: r.record, expires_in: r.record });
    }
  });

  it('no prototype was polluted, and the records still carry their __proto__ keys as plain data', () => {
    assertPrototypesUnchanged(prototypes);
    const own = (o: unknown) => o !== null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, '__proto__');
    const objects = records.map((r) => r.record).filter((o): o is Record<string, unknown> => o !== null && typeof o === 'object' && !Array.isArray(o));
    assert.ok(objects.filter((o) => own(o) || own(o.sourceData)).length > 20, 'too few records carry a __proto__ key');
    for (const o of objects) assert.equal(Object.getPrototypeOf(o), Object.prototype);
  });
});
