// The schema's words for the field at a place in a payload's text (src/core/validation/fieldHelp.ts,
// the editor's hover): every field of every sandbox record, on its name and on its value, in a
// list, a wrapped list, NDJSON and a single record, against the schema read directly; and the
// places that are no field of a record say nothing.
import * as assert from 'node:assert/strict';
import { RESOURCES, ResourceKind, resource } from '../../../../src/core/resources';
import { SCHEMA_DOCUMENTS, ZONE_SCHEMA_ID, schemaFor } from '../../../../src/core/validation';
import { MAX_HOVER_RECORD_CHARS, fieldHelpAt } from '../../../../src/core/validation/fieldHelp';
import { generateDataset } from '../../../../src/sandbox/data';

type Obj = Record<string, unknown>;

/** A place the text was written with: a field's name or value, of a record or of one of its zones. */
interface Place {
  readonly kind: ResourceKind;
  readonly field: string;
  readonly owner: 'record' | 'zone';
  readonly key: { offset: number; length: number };
  readonly value: { offset: number; length: number } | undefined;
}

/** Writes records as JSON (or NDJSON), noting where each field's name and scalar value are. */
class Writer {
  text = '';
  readonly places: Place[] = [];

  put(s: string): void {
    this.text += s;
  }

  record(kind: ResourceKind, record: Obj, indent: string): void {
    this.object(record, indent, (field, value, keyAt) => {
      const zones = resource(kind).zonesField;
      if (field === zones && Array.isArray(value)) {
        this.put('[');
        value.forEach((zone, i) => {
          this.put(i ? ', ' : '');
          this.object(zone as Obj, indent ? `${indent}  ` : '', (f, v, at) => this.places.push({ kind, field: f, owner: 'zone', key: at, value: this.scalar(v) }));
        });
        this.put(']');
        this.places.push({ kind, field, owner: 'record', key: keyAt, value: undefined });
        return;
      }
      this.places.push({ kind, field, owner: 'record', key: keyAt, value: this.scalar(value) });
    });
  }

  private object(o: Obj, indent: string, each: (field: string, value: unknown, keyAt: { offset: number; length: number }) => void): void {
    const newline = indent ? `\n${indent}  ` : ' ';
    this.put('{');
    Object.entries(o).forEach(([field, value], i) => {
      this.put(i ? `,${newline}` : newline);
      const key = JSON.stringify(field);
      const keyAt = { offset: this.text.length, length: key.length };
      this.put(`${key}: `);
      each(field, value, keyAt);
    });
    this.put(indent ? `\n${indent}}` : ' }');
  }

  /** Writes a value; its span when it is a scalar (an object or array is no place for a hover). */
  private scalar(value: unknown): { offset: number; length: number } | undefined {
    const text = JSON.stringify(value);
    const at = { offset: this.text.length, length: text.length };
    this.put(text);
    return value !== null && typeof value === 'object' ? undefined : at;
  }
}

const data = generateDataset({ seed: 'field-help', today: '2026-11-20', days: 6 });
const sample = (kind: ResourceKind): Obj[] => (data[kind] as unknown as Obj[]).slice(0, 5);

function assertPlaces(w: Writer, options: Parameters<typeof fieldHelpAt>[2]): number {
  let checked = 0;
  for (const p of w.places) {
    const schema = p.owner === 'zone' ? SCHEMA_DOCUMENTS.get(ZONE_SCHEMA_ID)! : schemaFor(p.kind);
    const prop = schema.properties?.[p.field];
    for (const span of [p.key, p.value]) {
      if (!span) continue;
      for (const at of [span.offset, span.offset + (span.length >> 1), span.offset + span.length - 1]) {
        const help = fieldHelpAt(w.text, at, options);
        const where = `${p.kind} ${p.owner} ${p.field} at ${at}`;
        assert.ok(help, where);
        assert.deepEqual([help.kind, help.field, help.owner, help.ownerTitle], [p.kind, p.field, p.owner, schema.title], where);
        assert.equal(help.title, prop?.title, where);
        assert.equal(help.description, prop?.description, where);
        assert.equal(help.deprecated, prop?.deprecated === true, where);
        assert.equal(help.required, prop !== undefined && (schema.required ?? []).includes(p.field), where);
        assert.deepEqual(help.span, span, where);
        checked++;
      }
    }
  }
  return checked;
}

describe('field help (the hover of a payload field)', () => {
  it('names every field of every kind, on its name and its value, in a list of mixed kinds, pretty or compact', () => {
    for (const indent of ['  ', '']) {
      const w = new Writer();
      w.put('[');
      let first = true;
      for (const { kind } of RESOURCES) {
        for (const r of sample(kind)) {
          w.put(first ? (indent ? `\n${indent}` : '') : indent ? `,\n${indent}` : ', ');
          first = false;
          w.record(kind, r, indent);
        }
      }
      w.put(indent ? '\n]\n' : ']');
      const checked = assertPlaces(w, {});
      assert.ok(checked > 500, `${checked} places`);
      assert.ok(w.places.some((p) => p.owner === 'zone') && w.places.some((p) => p.field === 'userId'));
    }
  });

  it('in a wrapped list, one record and NDJSON (each line its own record, offsets in the whole text)', () => {
    const wrapped = new Writer();
    wrapped.put('{ "next": null, "data": [');
    sample('activity').forEach((r, i) => {
      wrapped.put(i ? ', ' : '');
      wrapped.record('activity', r, '');
    });
    wrapped.put('] }');
    assertPlaces(wrapped, {});
    // The wrapper's own fields are not a record's.
    assert.equal(fieldHelpAt(wrapped.text, wrapped.text.indexOf('"next"') + 1), undefined);

    const one = new Writer();
    one.record('bodyFat', sample('bodyFat')[0], '  ');
    assertPlaces(one, {});

    const lines = new Writer();
    for (const { kind } of RESOURCES) {
      for (const r of sample(kind)) {
        lines.record(kind, r, '');
        lines.put('\n');
      }
    }
    assertPlaces(lines, { ndjson: true });
    // Read as one text (a plain-text document the validator found to be NDJSON by its content):
    // each top-level record after the one before it, the same help.
    assertPlaces(lines, {});
  });

  it('a field the schema does not define: named, with no words; the kind given or the fallback when the fields tell none', () => {
    const text = '[{"source": "x", "steps": 0, "activeMinutes": 3}, {"source": "y", "value": 4}]';
    const extra = fieldHelpAt(text, text.indexOf('activeMinutes'));
    assert.equal(extra?.kind, 'activity');
    assert.equal(extra?.field, 'activeMinutes');
    assert.equal(extra?.title, undefined);
    assert.equal(extra?.description, undefined);
    assert.equal(extra?.required, false);
    // `{source, value}` tells no kind: nothing, unless a kind is given for it.
    assert.equal(fieldHelpAt(text, text.indexOf('"value"') + 1), undefined);
    assert.equal(fieldHelpAt(text, text.indexOf('"value"') + 1, { fallbackKind: 'bodyFat' })?.title, schemaFor('bodyFat').properties!.value.title);
    assert.equal(fieldHelpAt(text, text.indexOf('"value"') + 1, { kind: 'heartRate' })?.kind, 'heartRate');
    // The kind given is every record's, whatever its fields say.
    assert.equal(fieldHelpAt(text, text.indexOf('"steps"') + 1, { kind: 'heartRate' })?.title, undefined);
  });

  it('says nothing between fields, inside a nested value that is no zone, at either end, or in text that is no JSON', () => {
    const record = { ...sample('heartRate')[0], sourceData: { device: { name: 'Charge 6' } } };
    const text = JSON.stringify([record], null, 2);
    for (const at of [-1, 0, 1, text.length, text.length + 5, text.indexOf('"device"') + 2, text.indexOf('"Charge 6"') + 2, text.indexOf('{') - 1]) {
      assert.equal(fieldHelpAt(text, at), undefined, `at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 5), at + 5))}`);
    }
    // A zone's own fields are a zone's, not a record's; the zones field itself the record's.
    assert.equal(fieldHelpAt(text, text.indexOf('"min"') + 1)?.owner, 'zone');
    assert.equal(fieldHelpAt(text, text.indexOf('"zones"') + 1)?.owner, 'record');
    for (const broken of ['', '   ', 'not json', '{"steps": ', '[{"source": "a", "steps"']) {
      for (let at = 0; at <= broken.length; at++) fieldHelpAt(broken, at); // never throws
    }
    // A record cut short still names the fields it has so far.
    const cut = '[{"source": "fitbit", "steps": 120, "distance": ';
    assert.equal(fieldHelpAt(cut, cut.indexOf('"steps"') + 2)?.field, 'steps');
  });

  it('JSON with comments: brackets, quotes and names in comments are no structure', () => {
    const text = '// a list "data": [ {\n[ /* { "steps": [ */ {"source": "a", // "zones": [\n "steps": 3, "distance": 1, "calories": 2 /* ] } */}]';
    const help = fieldHelpAt(text, text.indexOf('"steps": 3') + 1);
    assert.equal(help?.kind, 'activity');
    assert.equal(help?.field, 'steps');
    assert.deepEqual(help?.span, { offset: text.indexOf('"steps": 3'), length: 7 });
    assert.equal(fieldHelpAt(text, text.indexOf('"calories"') + 1)?.field, 'calories');
  });

  it('only the record hovered is read: a record in a wrapped list far larger than a record may be; a record that large, nothing', () => {
    const record = (data.activity as unknown as Obj[])[0];
    const many = Array.from({ length: Math.ceil((3 * MAX_HOVER_RECORD_CHARS) / JSON.stringify(record).length) }, (_, i) => ({ ...record, id: `r${i}` }));
    const text = JSON.stringify({ next: 'x', data: many, total: many.length });
    assert.ok(text.length > 2 * MAX_HOVER_RECORD_CHARS);
    const last = text.lastIndexOf('"steps"');
    assert.deepEqual([fieldHelpAt(text, last + 1)?.field, fieldHelpAt(text, last + 1)?.span.offset], ['steps', last]);
    // The wrapper's own members are no record's, before the list or after it.
    assert.equal(fieldHelpAt(text, text.indexOf('"next"') + 1), undefined);
    assert.equal(fieldHelpAt(text, text.indexOf('"total"') + 1), undefined);
    // One record larger than that is not parsed for a hover.
    const huge = JSON.stringify({ ...record, sourceData: { blob: 'x'.repeat(MAX_HOVER_RECORD_CHARS) } });
    assert.equal(fieldHelpAt(huge, huge.indexOf('"steps"') + 1), undefined);
  });

  it('reads field names as JSON does: escapes, and names that are Object.prototype\'s', () => {
    const text = '[{"source": "a", "st\\u0065ps": 3, "distance": 2, "calories": 1, "__proto__": 1, "constructor": 2}]';
    assert.equal(fieldHelpAt(text, text.indexOf('st\\u0065ps'))?.title, schemaFor('activity').properties!.steps.title);
    for (const name of ['__proto__', 'constructor']) {
      const help = fieldHelpAt(text, text.indexOf(name));
      assert.equal(help?.field, name);
      assert.equal(help?.title, undefined, name);
    }
  });
});
