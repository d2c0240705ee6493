// The schema files: their $ids match the resource table, they are valid 2020-12 schemas that
// compile in strict mode, and they say what conventions.md decided (and nothing stricter).
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { fullFormats } from 'ajv-formats/dist/formats';
import { RESOURCES } from '../../../../src/core/resources';
import {
  CLIENT_TOKEN_REPLY_SCHEMA_ID,
  SCHEMA_DOCUMENTS,
  ZONE_SCHEMA_ID,
  compiledSchema,
  schemaFor,
} from '../../../../src/core/validation';
import { DATE_FORMAT, DATE_TIME_FORMAT, fastDate, fastDateTime, checkClientTokenReply } from '../../../../src/core/validation';
import { repoRoot } from '../../support/repo';

const dir = join(repoRoot, 'src', 'core', 'validation', 'schemas');
interface Doc {
  $id: string;
  $schema: string;
  title: string;
  description: string;
  required: string[];
  properties: Record<string, Record<string, unknown>>;
}
type Kind = (typeof RESOURCES)[number]['kind'];
const files = readdirSync(dir).filter((f) => f.endsWith('.schema.json'));
const docs = new Map<string, Doc>(files.map((f) => [f, JSON.parse(readFileSync(join(dir, f), 'utf8')) as Doc]));
const docOf = (kind: Kind): Doc => {
  const id = RESOURCES.find((r) => r.kind === kind)!.schemaId;
  return [...docs.values()].find((d) => d.$id === id)!;
};

describe('schemas', () => {
  it('one file per resource plus zone, client token reply and payload, each $id its file name under the base', () => {
    assert.deepEqual(files.sort(), [
      'activity-summary.schema.json',
      'body-fat-reading.schema.json',
      'client-token-reply.schema.json',
      'heart-rate-summary.schema.json',
      'payload.schema.json',
      'zone.schema.json',
    ]);
    for (const [file, doc] of docs) {
      assert.equal(doc.$id, `https://health-data-explorer.dev/schemas/${file}`);
      assert.equal(doc.$schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.ok(doc.title && doc.description, file);
    }
    assert.equal(ZONE_SCHEMA_ID, docs.get('zone.schema.json')!.$id);
    assert.equal(CLIENT_TOKEN_REPLY_SCHEMA_ID, docs.get('client-token-reply.schema.json')!.$id);
  });

  it('every schemaId of resources.ts names a schema file, and schemaFor returns it', () => {
    for (const r of RESOURCES) {
      assert.ok(docOf(r.kind), r.schemaId);
      assert.deepEqual(schemaFor(r.kind), docOf(r.kind));
    }
    assert.equal(SCHEMA_DOCUMENTS.size, files.length);
  });

  it('every file is a valid 2020-12 schema and compiles in strict mode, refs resolved', () => {
    // validateSchema is on here (the default), unlike the validator's runtime instance.
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    ajv.addFormat('date', DATE_FORMAT).addFormat('date-time', DATE_TIME_FORMAT);
    for (const doc of docs.values()) ajv.addSchema(doc);
    for (const doc of docs.values()) {
      assert.equal(ajv.validateSchema(doc), true, `${doc.$id}: ${ajv.errorsText()}`);
      assert.equal(typeof ajv.getSchema(doc.$id), 'function', doc.$id);
      assert.equal(typeof compiledSchema(doc.$id), 'function', doc.$id);
    }
  });

  it('zones refer to the zone schema relative to their $id (as VS Code and ajv both resolve)', () => {
    const items = docOf('heartRate').properties.zones.items as { $ref: string };
    assert.equal(items.$ref, 'zone.schema.json');
    assert.equal(new URL(items.$ref, docOf('heartRate').$id).href, ZONE_SCHEMA_ID);
  });

  it('userId is optional and deprecated in all three, pointing to humanId', () => {
    for (const r of RESOURCES) {
      const doc = docOf(r.kind);
      assert.equal(doc.properties.userId.deprecated, true, r.kind);
      assert.match(String(doc.properties.userId.description), /use humanId/);
      assert.ok(!doc.required.includes('userId'), r.kind);
    }
  });

  it('requires exactly what conventions.md decided', () => {
    const common = ['id', 'humanId', 'source', 'createdAt', 'updatedAt'];
    const required = (kind: Kind): string[] => [...docOf(kind).required].sort();
    assert.deepEqual(required('heartRate'), [...common, 'sourceData', 'date', 'value', 'zones'].sort());
    const eight = ['duration', 'distance', 'steps', 'vigorous', 'moderate', 'light', 'sedentary', 'calories'];
    assert.deepEqual(required('activity'), [...common, 'sourceData', 'date', ...eight].sort());
    assert.deepEqual(required('bodyFat'), [...common, 'timestamp', 'unit', 'value'].sort());
    const zone = [...docs.get('zone.schema.json')!.required].sort();
    assert.deepEqual(zone, ['caloriesBurned', 'duration', 'max', 'min', 'name']);
  });

  it('formats, minimums and the tzOffset pattern where they belong', () => {
    for (const r of RESOURCES) {
      const p = docOf(r.kind).properties;
      assert.equal(p.createdAt.format, 'date-time');
      assert.equal(p.updatedAt.format, 'date-time');
      assert.equal(p.sourceData.type, 'object');
    }
    assert.equal(docOf('heartRate').properties.date.format, 'date');
    assert.equal(docOf('activity').properties.date.format, 'date');
    assert.equal(docOf('bodyFat').properties.timestamp.format, 'date-time');
    for (const f of ['duration', 'distance', 'steps', 'vigorous', 'moderate', 'light', 'sedentary', 'calories']) {
      assert.equal(docOf('activity').properties[f].minimum, 0, f);
    }
    const pattern = new RegExp(String(docOf('bodyFat').properties.tzOffset.pattern), 'u');
    for (const ok of ['-12:00', '-11:59', '-00:00', '+00:00', '+05:45', '+12:00', '+12:45', '+13:59', '+14:00']) {
      assert.ok(pattern.test(ok), ok);
    }
    for (const bad of ['-12:01', '-13:00', '+14:01', '+15:00', '+24:00', '05:00', '+5:00', '+0500', '+05:60', '+05:00\n']) {
      assert.ok(!pattern.test(bad), bad);
    }
  });

  it('unknown properties are allowed: no additionalProperties anywhere', () => {
    for (const [file, text] of files.map((f) => [f, readFileSync(join(dir, f), 'utf8')])) {
      assert.ok(!text.includes('additionalProperties') && !text.includes('unevaluatedProperties'), file);
    }
  });

  it('every property has a title and a description, units where the spec gives them', () => {
    for (const doc of docs.values()) {
      // The payload schema has no properties of its own: it refers to the records' schemas.
      for (const [name, prop] of Object.entries(doc.properties ?? {})) {
        assert.ok(prop.title && prop.description, `${doc.$id} ${name}`);
      }
    }
    const unit = (doc: Doc, field: string, text: string): void =>
      assert.match(String(doc.properties[field].description), new RegExp(text), field);
    for (const f of ['value', 'restingHR', 'averageHR', 'maxHR', 'minHR']) unit(docOf('heartRate'), f, 'bpm');
    const zone = docs.get('zone.schema.json')!;
    unit(zone, 'min', 'bpm');
    unit(zone, 'max', 'bpm');
    unit(zone, 'duration', 'seconds');
    unit(docOf('activity'), 'duration', 'seconds');
    unit(docOf('activity'), 'distance', 'meters');
    for (const f of ['vigorous', 'moderate', 'light', 'sedentary']) unit(docOf('activity'), f, 'minutes');
    unit(docs.get('client-token-reply.schema.json')!, 'expires_in', 'seconds');
  });

  it('the fast date and date-time paths accept only what ajv-formats full mode accepts', () => {
    const fullDate = (fullFormats.date as { validate: (s: string) => boolean }).validate;
    const fullDateTime = (fullFormats['date-time'] as { validate: (s: string) => boolean }).validate;
    const seeds = [
      '2026-11-20T08:00:00Z',
      '2024-02-29T23:59:59.123456+14:00',
      '2026-11-20 08:00:00-05:30',
      '2026-11-20t08:00:00z',
      '2026-11-20',
    ];
    const alphabet = '0123456789-:T tZz+.x\n';
    let seed = 7;
    const random = (n: number): number => {
      // mulberry32: a small deterministic generator, so a failure reproduces.
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const checked = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const chars = [...seeds[random(seeds.length)]];
      for (let k = random(3); k >= 0; k--) chars[random(chars.length)] = alphabet[random(alphabet.length)];
      checked.add(chars.join(''));
    }
    for (const s of [...checked, '2015-02-30', '2026-11-20T25:00:00Z', '2016-12-31T23:59:60Z', '2026-11-20T08:00:00+0500']) {
      if (fastDate(s)) assert.ok(fullDate(s), s);
      if (fastDateTime(s)) assert.ok(fullDateTime(s), s);
      assert.equal((DATE_FORMAT.validate as (s: string) => boolean)(s), fullDate(s), s);
      assert.equal((DATE_TIME_FORMAT.validate as (s: string) => boolean)(s), fullDateTime(s), s);
    }
    // The fast path must take the common shapes, or it saves nothing.
    for (const s of seeds.slice(0, 4)) assert.ok(fastDateTime(s), s);
  });

  it('the fast paths answer a string met again as the first time (they remember the last one they accepted)', () => {
    const sequence = ['2026-11-20T08:00:00Z', '2026-11-20T08:00:00Z', '2026-11-31T08:00:00Z', '2026-11-31T08:00:00Z', '2026-11-20T08:00:00Z'];
    assert.deepEqual(sequence.map(fastDateTime), [true, true, false, false, true]);
    // Equal text in another string (as JSON.parse gives each record its own): the same answer.
    const rebuilt = ['2026-11-', '20T08:00:00Z'].join('');
    assert.equal(fastDateTime(rebuilt), true);
    assert.equal(fastDateTime(`${rebuilt} `), false);
    assert.deepEqual(['2026-11-20', '2026-11-20', '2026-02-30', '2026-02-30', '2026-11-20', '2026-11-20T08:00:00Z'].map(fastDate), [true, true, false, false, true, false]);
  });

  it('the client token reply schema: client_token and expires_in required, expires_in a whole number of seconds', () => {
    assert.deepEqual(checkClientTokenReply({ client_token: 'a.b.c', expires_in: 86400 }), []);
    assert.deepEqual(checkClientTokenReply({ client_token: 'opaque', expires_in: 60 }), []);
    assert.deepEqual(checkClientTokenReply({ client_token: 'opaque' }).map((f) => f.path), ['/expires_in']);
    assert.deepEqual(checkClientTokenReply({ expires_in: 86400 }).map((f) => f.path), ['/client_token']);
    assert.deepEqual(checkClientTokenReply({ client_token: 'a', expires_in: '1h' }).map((f) => f.path), ['/expires_in']);
    assert.deepEqual(checkClientTokenReply({ client_token: '', expires_in: 1 }).map((f) => f.message), ['client_token must not be empty']);
    assert.equal(checkClientTokenReply('<html>').length, 1);
  });
});
