// The words the tree and the CLI share: which heart rate number a label shows, a record's status
// (clean only without any finding), the tooltip's marks, the order a page runs in, and the
// request prompts' titles written as the commands are.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESOURCES, resource } from '../../../../src/core/resources';
import { dateSpanOf, headlineOf, listOrderOf, recordLabel, recordNode, statusOf, titleCase, tooltipMarkdown } from '../../../../src/core/views';
import { repoRoot } from '../../support/repo';

const base = { id: 'a1', humanId: 'h1', source: 'fitbit', sourceData: {}, createdAt: '2026-11-20T08:00:00Z', updatedAt: '2026-11-20T08:00:00Z' };
const zones = [{ name: 'Fat Burn', min: 97, max: 135, duration: 600, caloriesBurned: 80 }];

describe('tree labels, status and tooltips', () => {
  it('says which heart rate number a label shows', () => {
    assert.equal(headlineOf({ ...base, date: '2026-11-20', value: 75, restingHR: 66, zones }, 'heartRate'), 'resting 66 bpm');
    assert.equal(headlineOf({ ...base, date: '2026-11-20', value: 75, zones }, 'heartRate'), 'value 75 bpm');
    assert.equal(headlineOf({ ...base, date: '2026-11-20', averageHR: 70, zones }, 'heartRate'), 'average 70 bpm');
    assert.equal(headlineOf({ ...base, date: '2026-11-20', steps: 12224 }, 'activity'), '12,224 steps');
    assert.equal(recordNode('heartRate', { ...base, date: '2026-11-20', value: 75, restingHR: 66, zones }, 0).label, 'fitbit · resting 66 bpm');
  });

  it('labels a 0 of a headline field the source does not provide by another number, and only that', () => {
    const phone = { ...base, source: 'googlefit', date: '2026-11-20', duration: 3600, distance: 5234.5, steps: 0, vigorous: 0, moderate: 0, light: 0, sedentary: 0, calories: 747 };
    const never = (field: string) => field === 'steps';
    const nothing = () => false;
    assert.equal(headlineOf(phone, 'activity'), '0 steps');
    assert.equal(headlineOf(phone, 'activity', nothing), '0 steps');
    assert.equal(headlineOf(phone, 'activity', never), '747 kcal');
    assert.equal(headlineOf({ ...phone, calories: 0 }, 'activity', never), '5,234.5 m');
    assert.equal(headlineOf({ ...phone, calories: 0, distance: 0 }, 'activity', never), '0 steps');
    assert.equal(headlineOf({ ...phone, calories: '747', distance: null }, 'activity', never), '0 steps');
    // Steps that are not 0 are the headline, whatever is said of the source.
    assert.equal(headlineOf({ ...phone, steps: 12 }, 'activity', never), '12 steps');
    // Kinds without other numbers to show keep theirs.
    assert.equal(headlineOf({ ...base, date: '2026-11-20', value: 0, zones }, 'heartRate', () => true), 'value 0 bpm');
    // The node's label: its own unless its headline field is 0 of a source that does not provide it.
    const node = recordNode('activity', phone, 0);
    assert.equal(node.label, 'googlefit · 0 steps');
    assert.equal(recordLabel(node, never), 'googlefit · 747 kcal');
    assert.equal(recordLabel(node, nothing), 'googlefit · 0 steps');
    const walked = recordNode('activity', { ...phone, steps: 800 }, 0);
    assert.equal(recordLabel(walked, never), walked.label);
    for (const junk of [null, 7, 'text', [1, 2]]) {
      const n = recordNode('activity', junk, 0);
      assert.equal(recordLabel(n, () => true), n.label);
    }
    assert.equal(recordLabel(recordNode('activity', { steps: 0, calories: 10 }, 0), never), '(no source) · 10 kcal');
  });

  it('calls a record clean only when it has no finding at all', () => {
    const activity = { ...base, date: '2026-11-20', duration: 60, distance: 10, steps: 5, vigorous: 1, moderate: 1, light: 1, sedentary: 1, calories: 3 };
    assert.equal(statusOf(recordNode('activity', activity, 0)), 'clean');
    const zeros = { ...activity, userId: 'u1', steps: 0, vigorous: 0, moderate: 0, light: 0, sedentary: 0 };
    assert.equal(statusOf(recordNode('activity', zeros, 0)), 'notes');
    assert.equal(statusOf(recordNode('activity', { ...activity, extra: 1 }, 0)), 'notes');
    assert.equal(statusOf(recordNode('activity', { ...activity, steps: -1 }, 0)), 'error');
  });

  it('marks zeros and deprecated fields in the tooltip as the record view does', () => {
    const zeros = { ...base, userId: 'u1', date: '2026-11-20', duration: 60, distance: 10, steps: 0, vigorous: 0, moderate: 0, light: 0, sedentary: 0, calories: 3 };
    const md = tooltipMarkdown(recordNode('activity', zeros, 0));
    assert.match(md, /^- steps: 0 — 0 zero: 0 — this source may not provide steps$/m);
    assert.match(md, /^- ~~userId~~: u1 — ⊘ deprecated: userId is deprecated: use humanId$/m);
    assert.match(md, /^- duration: 60$/m);
    assert.match(md, /^Findings: 5 zero fields, 1 deprecated field$/m);
  });

  it('reads the order a page runs in by its dates', () => {
    const day = (date: string) => ({ ...base, date });
    assert.equal(listOrderOf([day('2026-01-01'), day('2026-01-01'), day('2026-01-02')], 'activity'), 'oldestFirst');
    assert.equal(listOrderOf([day('2026-01-03'), day('2026-01-02')], 'activity'), 'newestFirst');
    assert.equal(listOrderOf([day('2026-01-03'), day('2026-01-03')], 'activity'), 'unknown');
    assert.equal(listOrderOf([day('2026-01-03'), day('2026-01-01'), day('2026-01-02')], 'activity'), 'unknown');
    assert.deepEqual(dateSpanOf([day('2026-01-03'), {}, day('2025-12-01')], 'activity'), { oldest: '2025-12-01', newest: '2026-01-03' });
  });

  it('titles the request prompts exactly as the commands are titled', () => {
    const nls = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
    for (const def of RESOURCES) {
      if (def.byDate) assert.equal(`Get ${titleCase(def.singular)} by Date`, nls[`command.${def.kind}.getByDate`]);
      assert.equal(`Get ${titleCase(def.singular)} by Id`, nls[`command.${def.kind}.getById`]);
      assert.equal(`List ${titleCase(def.label)}`, nls[`command.${def.kind}.list`]);
    }
    assert.equal(titleCase(resource('heartRate').singular), 'Heart Rate Summary');
  });
});
