// A record's zeros compared with its source's other records (the record view's findings): on the
// sandbox's data, a source that never sends a field is said not to provide it and a 0 from a
// source that sends it stands out, each count equal to a count of its own; nested zeros and other
// findings stay as they were; hostile records among the others never break it.
import * as assert from 'node:assert/strict';
import { RESOURCES, ResourceKind } from '../../../../src/core/resources';
import { Finding, detectKind, validate, validatePayload, validatePayloadText } from '../../../../src/core/validation';
import { UNUSUAL_EVIDENCE, UNUSUAL_SHARE } from '../../../../src/core/validation';
import { ZERO_EVIDENCE, ZeroTally, compareZeros, explainDocumentZeros, standsOut } from '../../../../src/core/views';
import { generateDataset } from '../../../../src/sandbox/data';
import { assertPrototypesUnchanged, prototypeSnapshot, sharedHostileRecords } from '../../support/hostileRecords';

type Obj = Record<string, unknown>;

const data = generateDataset({ today: '2026-11-20', days: 60, humans: 3, seed: 'zeros' });

/** The zero findings of a record on top-level fields, by field. */
function zeroFields(findings: readonly Finding[]): string[] {
  return findings.filter((f) => f.kind === 'zero' && /^\/[^/]+$/.test(f.path)).map((f) => f.path.slice(1));
}

describe('zeros compared with the source\'s other records', () => {
  it('on the sandbox\'s data of every resource: each 0 reworded by a count of its own over the same source\'s other records', () => {
    let reworded = 0;
    const seen = new Set<string>();
    for (const def of RESOURCES) {
      const records = data[def.kind] as Obj[];
      for (const record of records) {
        const { findings } = validate(record, def.kind);
        const fields = zeroFields(findings);
        const result = compareZeros(record, findings, records);
        const others = records.filter((r) => r !== record && r.id !== record.id && r.source === record.source);
        assert.equal(result.compared, fields.length ? others.length : 0);
        assert.equal(result.findings.length, findings.length);
        let unusual = 0;
        result.findings.forEach((f, i) => {
          const before = findings[i];
          assert.equal(f.kind, before.kind);
          assert.equal(f.path, before.path);
          const field = before.kind === 'zero' && /^\/[^/]+$/.test(before.path) ? before.path.slice(1) : undefined;
          if (field === undefined || others.length === 0) {
            assert.equal(f.message, before.message);
            return;
          }
          reworded++;
          const sent = others.filter((r) => typeof r[field] === 'number' && r[field] !== 0).length;
          const source = String(record.source);
          if (sent > 0) {
            const on = others.length === 1 ? 'its other record loaded' : sent === others.length ? `all its ${others.length} other records loaded` : `${sent} of its ${others.length} other records loaded`;
            const stands = others.length >= UNUSUAL_EVIDENCE && sent / others.length >= UNUSUAL_SHARE;
            if (stands) unusual++;
            assert.equal(f.message, stands ? `0 — unusual for ${source}: ${field} is not 0 on ${on}` : `0 — ${source} provides ${field}: not 0 on ${on}`);
            seen.add(stands ? 'unusual' : `${source} provides ${field}`);
          } else {
            assert.ok(others.length >= ZERO_EVIDENCE, `${others.length} other ${source} records`);
            assert.equal(f.message, `0 — ${source} does not provide ${field}: 0 on all its ${others.length} other records loaded`);
            seen.add(`${source} ${field}`);
          }
        });
        assert.equal(result.unusual, unusual);
      }
    }
    assert.ok(reworded > 50, `only ${reworded} zeros reworded`);
    // The sandbox's real cases: the phone platform has no steps, the step counter no distance.
    assert.ok(seen.has('googlefit steps'), [...seen].join(', '));
    assert.ok(seen.has('moves distance'), [...seen].join(', '));
    // The band that some days sends only zeros: its 0s are never unusual (it never sends any).
    assert.ok(seen.has('misfit steps'), [...seen].join(', '));
  });

  it('a 0 from a source that usually sends the field stands out; with few others the source only "may" not provide it', () => {
    const fitbit = data.activity.filter((r) => (r as Obj).source === 'fitbit') as Obj[];
    assert.ok(fitbit.length > 10);
    const record = { ...fitbit[0], id: 'zero-day', steps: 0 };
    const { findings } = validate(record, 'activity');
    const result = compareZeros(record, findings, fitbit);
    const steps = result.findings.find((f) => f.path === '/steps')!;
    assert.equal(steps.message, `0 — unusual for fitbit: steps is not 0 on all its ${fitbit.length} other records loaded`);
    assert.equal(result.unusual, 1);
    // One other record, then two: fewer than ZERO_EVIDENCE say "may".
    const zeroed = fitbit.slice(1, 3).map((r) => ({ ...r, steps: 0 }));
    assert.equal(ZERO_EVIDENCE, 3);
    assert.equal(compareZeros(record, findings, zeroed.slice(0, 1)).findings.find((f) => f.path === '/steps')!.message, '0 — fitbit may not provide steps: 0 on its other record loaded');
    assert.equal(compareZeros(record, findings, zeroed).findings.find((f) => f.path === '/steps')!.message, '0 — fitbit may not provide steps: 0 on its 2 other records loaded');
    // Too few to call a 0 unusual: the source provides the field, that is all.
    assert.equal(compareZeros(record, findings, [fitbit[1]]).findings.find((f) => f.path === '/steps')!.message, '0 — fitbit provides steps: not 0 on its other record loaded');
    assert.equal(compareZeros(record, findings, fitbit.slice(1, 3)).unusual, 0);
    // Nineteen in twenty of at least twenty others send it: unusual; fewer: provided, and this 0 is a value.
    assert.equal(UNUSUAL_EVIDENCE, 20);
    const twenty = fitbit.slice(0, 20).map((r, i) => ({ ...r, id: `t${i}`, steps: i === 0 ? 0 : r.steps }));
    assert.equal(compareZeros(record, findings, twenty).unusual, 1);
    assert.equal(compareZeros(record, findings, twenty.slice(0, 19)).unusual, 0);
    assert.equal(compareZeros(record, findings, twenty.slice(0, 19)).findings.find((f) => f.path === '/steps')!.message, '0 — fitbit provides steps: not 0 on 18 of its 19 other records loaded');
    const twoZeros = twenty.map((r, i) => (i === 1 ? { ...r, steps: 0 } : r));
    assert.equal(compareZeros(record, findings, twoZeros).unusual, 0);
    const fifth = fitbit.slice(0, 10).map((r, i) => ({ ...r, id: `f${i}`, steps: i < 2 ? 0 : r.steps }));
    const provided = compareZeros(record, findings, fifth);
    assert.equal(provided.unusual, 0);
    assert.equal(provided.findings.find((f) => f.path === '/steps')!.message, '0 — fitbit provides steps: not 0 on 8 of its 10 other records loaded');
  });

  it('counts neither the record itself (by identity or id) nor another source, and leaves a record without a source as it was', () => {
    const record = { ...(data.activity.find((r) => (r as Obj).source === 'googlefit') as Obj) };
    const { findings } = validate(record, 'activity');
    assert.ok(zeroFields(findings).includes('steps'));
    const others = [record, { ...record }, { ...record, id: 'other', source: 'fitbit', steps: 9000 }];
    const none = compareZeros(record, findings, others);
    assert.equal(none.compared, 0);
    assert.equal(none.findings, findings);
    const sourceless = { ...record, source: undefined };
    const left = compareZeros(sourceless, validate(sourceless, 'activity').findings, data.activity);
    assert.equal(left.source, undefined);
    assert.equal(left.compared, 0);
  });

  it('rewords top-level zeros only: a zone\'s 0, the deprecated userId and the errors stay as they were', () => {
    const hr = { ...(data.heartRate[0] as Obj) };
    const zones = (hr.zones as Obj[]).map((z, i) => (i === 0 ? { ...z, min: 0 } : z));
    const record = { ...hr, id: 'zones-zero', zones, restingHR: 0, userId: 'old' };
    const { findings } = validate(record, 'heartRate');
    const result = compareZeros(record, findings, data.heartRate);
    assert.ok(result.compared > 0);
    for (const [i, f] of result.findings.entries()) {
      if (f.path === '/restingHR' && f.kind === 'zero') assert.match(f.message, /^0 — unusual for fitbit: restingHR is not 0 on (all|\d+ of) its \d+ other records loaded$/);
      else assert.equal(f, findings[i], `${f.path} changed`);
    }
    assert.ok(findings.some((f) => f.path.startsWith('/zones/0/') && f.kind === 'zero'), JSON.stringify(findings));
    assert.equal(result.findings.filter((f) => f.path === '/restingHR' && f.kind === 'zero').length, 1);
  });

  it('hostile records, as the record or among the others, never throw, never touch a prototype, and quote a long source cut', () => {
    const before = prototypeSnapshot();
    const hostile = sharedHostileRecords();
    const activity = data.activity.slice(0, 30);
    for (const { kind, record } of hostile.slice(0, 400)) {
      const k: ResourceKind = kind ?? 'activity';
      const { findings } = validate(record, k);
      const result = compareZeros(record, findings, [...activity, ...hostile.slice(0, 200).map((h) => h.record)]);
      assert.equal(result.findings.length, findings.length);
      for (const f of result.findings) assert.ok(f.message.length < 400, f.message.slice(0, 100));
    }
    const long = 'x'.repeat(5_000);
    const record = { ...(data.activity[0] as Obj), id: 'long', source: long, steps: 0 };
    const others = [{ ...record, id: 'long-2' }];
    const msg = compareZeros(record, validate(record, 'activity').findings, others).findings.find((f) => f.path === '/steps')!.message;
    assert.ok(msg.length < 200, msg.length.toString());
    assert.match(msg, /x…/);
    assertPrototypesUnchanged(before);
  });

  describe('a whole list, by ZeroTally', () => {
    it('says of each record what compareZeros says against the same list, for every resource, in one pass', () => {
      for (const def of RESOURCES) {
        const list = data[def.kind] as Obj[];
        const tally = new ZeroTally();
        const results = validatePayload(list, def.kind);
        results.forEach((r, i) => tally.add(r.kind, list[i]));
        let zeros = 0;
        results.forEach((r, i) => {
          const mine = tally.explain(r.kind, list[i], r.findings);
          const brute = compareZeros(list[i], r.findings, list);
          assert.equal(zeroFields(r.findings).length > 0 ? tally.othersOf(r.kind, list[i]) : 0, brute.compared);
          assert.deepEqual(mine.map((f) => [f.kind, f.path, f.message.replace(/ in this list$/, ' loaded')]), brute.findings.map((f) => [f.kind, f.path, f.message]));
          zeros += mine.filter((f) => f.kind === 'zero' && f.message.endsWith('in this list')).length;
        });
        if (def.kind === 'activity') assert.ok(zeros > 100, `${zeros} zeros explained`);
      }
    });

    it('tells kinds apart, shares one message per source and field, and leaves junk and sourceless records as they are', () => {
      const tally = new ZeroTally();
      const googlefit = (data.activity as Obj[]).filter((r) => r.source === 'googlefit').slice(0, 4);
      // A heart rate summary from "googlefit" that has steps is another kind: it does not count.
      const mixed: unknown[] = [...googlefit, { source: 'googlefit', steps: 5000 }, null, 7, 'text', [1, 2], { steps: 0 }];
      const kinds = mixed.map((r, i) => (i === 4 ? 'heartRate' : i < 4 ? 'activity' : undefined));
      mixed.forEach((r, i) => tally.add(kinds[i], r));
      const a = tally.explain('activity', googlefit[0], validate(googlefit[0], 'activity').findings);
      const b = tally.explain('activity', googlefit[1], validate(googlefit[1], 'activity').findings);
      const steps = (fs: readonly Finding[]) => fs.find((f) => f.path === '/steps')!;
      assert.equal(steps(a).message, '0 — googlefit does not provide steps: 0 on all its 3 other records in this list');
      assert.equal(steps(a).message, steps(b).message);
      for (const junk of [null, 7, 'text', [1, 2], { steps: 0 }]) {
        const findings: Finding[] = [{ kind: 'zero', path: '/steps', message: 'steps is 0' }];
        assert.equal(tally.explain(undefined, junk, findings), findings);
      }
      // A single record of its source in the list: nothing to compare with.
      const lone = { ...googlefit[0], id: 'lone', source: 'lone' };
      const alone = new ZeroTally();
      alone.add('activity', lone);
      const findings = validate(lone, 'activity').findings;
      assert.equal(alone.explain('activity', lone, findings), findings);
    });
  });

  it('doesNotProvide: a field 0 on the record and on at least ZERO_EVIDENCE others of its kind and source, and nothing else', () => {
    const googlefit = (data.activity as Obj[]).filter((r) => r.source === 'googlefit').slice(0, ZERO_EVIDENCE + 1);
    assert.equal(googlefit.length, ZERO_EVIDENCE + 1);
    const tally = new ZeroTally();
    googlefit.slice(0, ZERO_EVIDENCE).forEach((r) => tally.add('activity', r));
    // ZERO_EVIDENCE records: the record and one too few others ("may not provide").
    assert.equal(tally.doesNotProvide('activity', googlefit[0], 'steps'), false);
    tally.add('activity', googlefit[ZERO_EVIDENCE]);
    assert.equal(tally.doesNotProvide('activity', googlefit[0], 'steps'), true);
    // A field it sends, another kind, a record without a source, junk: no.
    assert.equal(tally.doesNotProvide('activity', googlefit[0], 'calories'), false);
    assert.equal(tally.doesNotProvide('heartRate', googlefit[0], 'steps'), false);
    for (const junk of [null, 7, 'text', [1, 2], { steps: 0 }]) assert.equal(tally.doesNotProvide('activity', junk, 'steps'), false);
    // One record of the source with steps: the source provides them, for every record of it.
    tally.add('activity', { ...googlefit[0], id: 'with-steps', steps: 1200 });
    assert.equal(tally.doesNotProvide('activity', googlefit[1], 'steps'), false);
  });

  it('a record added after a 0 was said changes what is said next (nothing said from stale counts)', () => {
    const googlefit = (data.activity as Obj[]).filter((r) => r.source === 'googlefit').slice(0, 6);
    const tally = new ZeroTally();
    googlefit.slice(0, 3).forEach((r) => tally.add('activity', r));
    const findings = validate(googlefit[0], 'activity').findings;
    const steps = () => tally.explain('activity', googlefit[0], findings).find((f) => f.path === '/steps')!.message;
    assert.equal(steps(), '0 — googlefit may not provide steps: 0 on its 2 other records in this list');
    googlefit.slice(3).forEach((r) => tally.add('activity', r));
    assert.equal(steps(), '0 — googlefit does not provide steps: 0 on all its 5 other records in this list');
    const placed = validatePayloadText(JSON.stringify(googlefit));
    const recordOf = (i: number) => ({ record: googlefit[i], kind: 'activity' });
    assert.equal(tally.explainPlaced(placed.findings, recordOf).find((f) => f.pointer === '/0/steps')!.message, '0 — googlefit does not provide steps: 0 on all its 5 other records in this list');
    tally.add('activity', { ...googlefit[0], id: 'stepping', steps: 1200 });
    assert.equal(tally.explainPlaced(placed.findings, recordOf).find((f) => f.pointer === '/0/steps')!.message, '0 — googlefit provides steps: not 0 on 1 of its 6 other records in this list');
  });

  describe('an editor document, by explainDocumentZeros', () => {
    it('says each 0 of a mixed list what compareZeros says against the document\'s other records of the kind, at the same places', () => {
      const fitbit = (data.activity as Obj[]).filter((r) => r.source === 'fitbit');
      const records: unknown[] = [...data.activity, ...data.heartRate, ...data.bodyFat, { ...fitbit[5], id: 'not-worn', steps: 0 }, { steps: 0, date: '2026-11-01' }, null];
      const text = JSON.stringify({ data: records }, null, 1);
      const plain = validatePayloadText(text);
      const explained = explainDocumentZeros(plain);
      assert.equal(explained.findings.length, plain.findings.length);
      let reworded = 0;
      explained.findings.forEach((f, k) => {
        const before = plain.findings[k];
        assert.deepEqual({ ...f, message: '', standsOut: undefined }, { ...before, message: '', standsOut: undefined });
        if (f.message === before.message) return;
        reworded++;
        // By brute force: the record's own findings against every record of the document of its kind.
        const record = records[f.index!];
        const kind = detectKind(record);
        const others = records.filter((r) => detectKind(r) === kind);
        const brute = compareZeros(record, [{ kind: f.kind, path: before.path, message: before.message }], others);
        assert.equal(f.message, brute.findings[0].message.replace(/ loaded$/, ' in this document'));
        assert.equal(standsOut(f), brute.unusual === 1);
      });
      assert.ok(reworded > 100, `${reworded} zeros said`);
      const worn = explained.findings.find((f) => f.recordId === 'not-worn' && f.path === '/steps')!;
      assert.match(worn.message, /^0 — unusual for fitbit: steps is not 0 on all its \d+ other records in this document$/);
      assert.equal(explained.findings.filter((f) => standsOut(f)).length >= 1, true);
      // What has no source, and what is no record, keeps its words.
      const sourceless = explained.findings.filter((f) => f.index === records.length - 2);
      assert.deepEqual(sourceless, plain.findings.filter((f) => f.index === records.length - 2));
    });

    it('leaves one record, a list without zeros and a record alone of its source as they are; reads the whole records of broken JSON', () => {
      const one = validatePayloadText(JSON.stringify(data.activity[0]));
      assert.equal(explainDocumentZeros(one), one);
      const noZeros = validatePayloadText(JSON.stringify((data.bodyFat as Obj[]).slice(0, 5)));
      assert.equal(explainDocumentZeros(noZeros).findings, noZeros.findings);
      const googlefit = (data.activity as Obj[]).filter((r) => r.source === 'googlefit').slice(0, 4);
      const lone = validatePayloadText(JSON.stringify([{ ...googlefit[0], source: 'lone' }, data.heartRate[0]]));
      assert.equal(explainDocumentZeros(lone).findings, lone.findings);
      // A list that breaks off after four whole records: those are compared with each other.
      const broken = validatePayloadText(`${JSON.stringify(googlefit).slice(0, -1)}, {"steps": `);
      assert.ok(broken.syntaxErrors.length > 0);
      const said = explainDocumentZeros(broken).findings.filter((f) => f.path === '/steps');
      assert.equal(said.length, 4);
      assert.ok(said.every((f) => f.message === '0 — googlefit does not provide steps: 0 on all its 3 other records in this document'), said[0].message);
    });
  });
});
