// The record view's model (src/core/recordView.ts) against 1,200 seeded hostile records: it
// never throws, it can be posted to a webview (plain JSON, bounded in size), and every string of
// a payload reaches it only as data: a node's JSON text, a key, a title, never markup or a DOM
// id with unsafe characters. Also keeps test/fixtures/hostile-records.json, the e2e test's
// hostile records for Chromium, in step with the generator.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_TEXT, resolvePointer, JsonNode, RecordView, RecordViewModel } from '../../../../src/core/views';
import { ResourceKind } from '../../../../src/core/resources';
import { validate } from '../../../../src/core/validation';
import { FUZZ_COUNT, FUZZ_NOW, FUZZ_SEED, HOSTILE_STRINGS, HostileRecord, POLLUTION_KEY, assertPrototypesUnchanged, fixtureRecords, hostileRecords, prototypeSnapshot } from '../../support/hostileRecords';
import { repoRoot } from '../../support/repo';

const FIXTURE = join(repoRoot, 'test', 'fixtures', 'hostile-records.json');
/** What may go to the webview for one record: the model is built to stay small whatever the record. */
const MAX_MODEL_CHARS = 4_000_000;
const SAFE_ANCHOR = /^j[A-Za-z0-9_-]*$/;

function nodes(root: JsonNode | undefined, out: JsonNode[] = []): JsonNode[] {
  const stack = root ? [root] : [];
  while (stack.length) {
    const node = stack.pop()!;
    out.push(node);
    if (node.children) stack.push(...node.children);
  }
  return out;
}

/** Every node is plain data about the record: safe ids, keys and texts taken from the record as they are. */
function assertPlainData(record: unknown, list: readonly JsonNode[], label: string): void {
  for (const node of list) {
    assert.match(node.anchorId, SAFE_ANCHOR, `${label}: anchor of ${node.pointer.slice(0, 80)}`);
    if (node.type === 'missing') continue;
    const at = resolvePointer(record, node.pointer);
    assert.ok(at.found, `${label}: a node at ${node.pointer.slice(0, 80)} that the record does not have`);
    if (typeof node.key === 'string') assert.ok(node.pointer.endsWith(`/${node.key.replace(/~/g, '~0').replace(/\//g, '~1')}`), `${label}: key ${node.key.slice(0, 40)}`);
    if (node.type === 'string') {
      const text = JSON.parse(node.text!) as unknown;
      assert.equal(typeof text, 'string', label);
      const value = at.value as string;
      assert.equal(text, value.slice(0, MAX_TEXT), `${label}: the text of ${node.pointer.slice(0, 80)} is not the value`);
      assert.equal(node.cut ?? 0, Math.max(0, value.length - MAX_TEXT), label);
    }
  }
}

/**
 * Every value under `value` is what JSON carries unchanged: null, a boolean, a finite number, a
 * string, an array or an object of Object.prototype (a property may be undefined: it is left out).
 */
function assertJsonData(value: unknown, label: string, path = '', above = new Set<object>()): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    assert.ok(Number.isFinite(value), `${label}: ${path || '(model)'} is ${value}, which JSON turns into null`);
    return;
  }
  assert.equal(typeof value, 'object', `${label}: ${path || '(model)'} is a ${typeof value}`);
  const o = value as object;
  assert.ok(!above.has(o), `${label}: ${path} holds itself (a cycle)`);
  above.add(o);
  if (Array.isArray(o)) {
    assert.equal(Object.getPrototypeOf(o), Array.prototype, `${label}: ${path} is not a plain array`);
    o.forEach((v: unknown, i) => assertJsonData(v, label, `${path}/${i}`, above));
  } else {
    assert.equal(Object.getPrototypeOf(o), Object.prototype, `${label}: ${path || '(model)'} is not a plain object`);
    assert.equal(Object.getOwnPropertySymbols(o).length, 0, `${label}: ${path} has symbol keys`);
    for (const [k, v] of Object.entries(o)) if (v !== undefined) assertJsonData(v, label, `${path}/${k}`, above);
  }
  above.delete(o);
}

function assertModel(record: unknown, view: RecordView, label: string): RecordViewModel {
  const { model } = view;
  const posted = JSON.stringify(model);
  assert.ok(posted.length <= MAX_MODEL_CHARS, `${label}: a model of ${posted.length} characters`);
  // What the webview receives is exactly this plain data (no functions, no cycles, no prototypes).
  assertJsonData(model, label);
  assert.ok(model.title.length <= 100, `${label}: title of ${model.title.length} characters`);
  for (const f of model.findings) assert.match(f.anchorId, SAFE_ANCHOR, label);
  for (const z of model.zones ?? []) assert.match(z.anchorId, SAFE_ANCHOR, label);
  assertPlainData(record, nodes(model.root), label);
  return model;
}

describe(`record view fuzz: ${FUZZ_COUNT} hostile records (seed "${FUZZ_SEED}")`, function () {
  this.timeout(120_000);
  const prototypes = prototypeSnapshot();
  let records: HostileRecord[];

  before(() => {
    // Its own copy, not sharedHostileRecords(): see there.
    records = hostileRecords(FUZZ_COUNT, FUZZ_SEED);
  });

  after(() => assertPrototypesUnchanged(prototypes));

  it('builds a plain, bounded model of every record, and pages of what it left closed', () => {
    let opened = 0;
    for (const r of records) {
      const { kind, findings } = validate(r.record, r.kind, { now: FUZZ_NOW });
      const view = new RecordView(r.record, kind, findings);
      const model = assertModel(r.record, view, r.label);
      // Open a few closed containers as the webview would, and their first closed child.
      const closed = nodes(model.root).filter((n) => n.collapsed).slice(0, 3);
      for (const node of closed) {
        const page = view.childPage(node.pointer, 0);
        assert.ok(page, `${r.label}: no page for ${node.pointer.slice(0, 80)}`);
        assertPlainData(r.record, page.nodes, r.label);
        opened++;
        const deeper = page.nodes.find((n) => n.collapsed);
        if (deeper) assertPlainData(r.record, view.childPage(deeper.pointer, 0)?.nodes ?? [], r.label);
      }
      assert.equal(view.childPage('/no such field', 0), undefined);
    }
    assert.ok(opened > 100, `only ${opened} closed containers were opened`);
  });

  it('keeps every finding of a hostile record, and a kind it could not detect says so in the title', () => {
    for (const r of records.slice(0, 300)) {
      const { kind, findings } = validate(r.record, undefined, { now: FUZZ_NOW });
      const { model } = new RecordView(r.record, kind, findings);
      assert.equal(model.findingsTotal, findings.length, r.label);
      assert.equal(Object.values(model.counts).reduce((a, b) => a + b, 0), findings.length, r.label);
      if (kind === undefined) assert.match(model.title, /^Record/, r.label);
    }
  });

  it('test/fixtures/hostile-records.json is the generator\'s 50 records for the record view in Chromium', () => {
    // One record a line: readable in a diff, and no indentation growing with the nesting.
    const expected = `[\n${fixtureRecords().map((f) => JSON.stringify(f)).join(',\n')}\n]\n`;
    // HDE_WRITE_HOSTILE_FIXTURE=1 writes the file after a change of the generator.
    if (process.env.HDE_WRITE_HOSTILE_FIXTURE === '1') writeFileSync(FIXTURE, expected);
    const text = readFileSync(FIXTURE, 'utf8');
    assert.equal(text, expected, 'the fixture is out of date: run this test with HDE_WRITE_HOSTILE_FIXTURE=1');
    const fixture = JSON.parse(text) as Array<{ kind: ResourceKind | null; label: string; record: unknown }>;
    assert.equal(fixture.length, 50);
    // Every hostile string is in the fixture, and each record carries a __proto__ key as data.
    for (const s of HOSTILE_STRINGS) assert.ok(text.includes(JSON.stringify(s).slice(1, -1)), `the fixture lacks ${JSON.stringify(s)}`);
    const objects = fixture.filter((f) => f.kind !== null);
    assert.ok(objects.every((f) => Object.prototype.hasOwnProperty.call((f.record as { sourceData: object }).sourceData, '__proto__')));
    for (const f of fixture) {
      const { kind, findings } = validate(f.record, f.kind ?? undefined, { now: FUZZ_NOW });
      assertModel(f.record, new RecordView(f.record, kind, findings), f.label);
    }
    assert.equal(({} as Record<string, unknown>)[POLLUTION_KEY], undefined);
  });
});
