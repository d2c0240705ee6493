// The tree's model (src/core/treeModel.ts, labels.ts) against 1,200 seeded hostile records:
// labels stay short, a tooltip's Markdown carries a payload's text escaped (no link, image,
// HTML or new line can come from a record), no record is dropped, nothing throws, no prototype
// is polluted.
import * as assert from 'node:assert/strict';
import { isCalendarDate } from '../../../../src/core/dates';
import { recordTitle, buildDateFirstTree, buildResourceTree, escapeMarkdown, recordNode, statusOf, tooltipMarkdown } from '../../../../src/core/views';
import { RESOURCES, ResourceKind } from '../../../../src/core/resources';
import { FUZZ_COUNT, FUZZ_SEED, HOSTILE_KEYS, HOSTILE_STRINGS, HostileRecord, assertPrototypesUnchanged, prototypeSnapshot, sharedHostileRecords } from '../../support/hostileRecords';

const KINDS = RESOURCES.map((r) => r.kind);
/** The longest a label may get: a 30-character source, a headline number and its unit. */
const MAX_LABEL = 100;

/**
 * ASCII characters that start Markdown syntax in the middle of a line: code, emphasis,
 * strike-through, links and images, HTML and autolinks, entities, tables. Each must come escaped.
 */
const ACTIVE = new Set('\\`*_~[]<>!&|');

/** Where escaped text from a payload has a character that is still Markdown syntax; -1 if none. */
export function firstActive(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++; // a backslash escape: the next character is literal
      if (i >= text.length) return i - 1; // a trailing backslash would escape what follows
      continue;
    }
    if (ACTIVE.has(c) || c === '\n' || c === '\r') return i;
  }
  return -1;
}

/** The tooltip keeps its own shape, and every piece of it that comes from the record is inert. */
function assertInertTooltip(md: string, label: string): void {
  const lines = md.split('\n');
  assert.match(lines[0], /^\*\*[^*]+\*\* /, `${label}: heading`);
  assert.equal(firstActive(lines[0].replace(/^\*\*[^*]+\*\* /, '')), -1, `${label}: heading ${JSON.stringify(lines[0].slice(0, 200))}`);
  assert.equal(lines[1], '', label);
  let i = 2;
  for (; i < lines.length && lines[i].startsWith('- '); i++) {
    // The one piece of syntax of our own: a deprecated field's name struck through (~~userId~~).
    const at = firstActive(lines[i].slice(2).replace(/^~~([^~]+)~~:/, '$1:'));
    assert.equal(at, -1, `${label}: active Markdown at ${at} of ${JSON.stringify(lines[i].slice(0, 200))}`);
    // A field's value (60 characters, escaped) and its mark (a finding's message cut to 60, escaped).
    assert.ok(lines[i].length <= 320, `${label}: a tooltip line of ${lines[i].length} characters`);
  }
  assert.ok(i <= 2 + 4 + 8 + 2, `${label}: ${i - 2} field lines`);
  assert.deepEqual(lines.slice(i, i + 1), [''], `${label}: a line broke: ${JSON.stringify(lines[i]?.slice(0, 120))}`);
  assert.match(lines[i + 1] ?? '', /^Findings: (none|(\d+ (errors?|warnings?|zero fields?|deprecated fields?|unknown fields?)(, )?)+)$/, label);
  assert.equal(lines.length, i + 2, `${label}: extra lines`);
}

describe(`tree model fuzz: ${FUZZ_COUNT} hostile records (seed "${FUZZ_SEED}")`, function () {
  this.timeout(60_000);
  const prototypes = prototypeSnapshot();
  let records: readonly HostileRecord[];
  /** Each record with the kind the tree files it under: its own, or (junk) one in turn. */
  const kindOf = (r: HostileRecord, i: number): ResourceKind => r.kind ?? KINDS[i % KINDS.length];

  before(() => {
    records = sharedHostileRecords();
  });

  after(() => assertPrototypesUnchanged(prototypes));

  it('escapeMarkdown leaves no syntax in any hostile string or key, and the check finds raw syntax', () => {
    for (const s of [...HOSTILE_STRINGS, ...HOSTILE_KEYS]) assert.equal(firstActive(escapeMarkdown(s)), -1, JSON.stringify(s));
    // The check itself: raw syntax is found, escaped syntax is not.
    assert.notEqual(firstActive('[x](javascript:y)'), -1);
    assert.notEqual(firstActive('a\rb'), -1);
    assert.equal(firstActive('\\[x\\]\\(y\\)'), -1);
    assert.notEqual(firstActive('\\\\[x]'), -1);
  });

  it('labels are short, descriptions are times of day, and nothing throws', () => {
    records.forEach((r, i) => {
      const node = recordNode(kindOf(r, i), r.record, i);
      assert.ok(node.label.length <= MAX_LABEL, `${r.label}: a label of ${node.label.length} characters: ${node.label.slice(0, 120)}`);
      assert.match(node.description, /^(\d{2}:\d{2})?$/, r.label);
      assert.ok(node.date === undefined || isCalendarDate(node.date), `${r.label}: date ${node.date}`);
      assert.ok(recordTitle(r.record, kindOf(r, i)).length <= MAX_LABEL, r.label);
      assert.ok(['error', 'warning', 'notes', 'clean'].includes(statusOf(node)), r.label);
    });
  });

  it('tooltips escape everything a record brings: no link, image, HTML or line break', () => {
    records.forEach((r, i) => {
      const md = tooltipMarkdown(recordNode(kindOf(r, i), r.record, i));
      assertInertTooltip(md, r.label);
    });
  });

  it('the tree files every record under a date or as undated, grouped by resource or by date', () => {
    const byKind = new Map<ResourceKind, unknown[]>(KINDS.map((k) => [k, []]));
    records.forEach((r, i) => byKind.get(kindOf(r, i))!.push(r.record));
    const count = (tree: ReturnType<typeof buildResourceTree>) =>
      tree.undated.length + tree.months.reduce((n, m) => n + m.dates.reduce((k, d) => k + d.groups.reduce((j, g) => j + g.records.length, 0), 0), 0);
    for (const kind of KINDS) {
      const tree = buildResourceTree(kind, byKind.get(kind)!);
      assert.equal(tree.count, byKind.get(kind)!.length);
      assert.equal(count(tree), tree.count, `${kind}: records dropped`);
      for (const month of tree.months) assert.ok(month.dates.every((d) => isCalendarDate(d.date) && d.date.startsWith(month.month)));
    }
    const all = buildDateFirstTree(Object.fromEntries(byKind) as Record<ResourceKind, unknown[]>);
    assert.equal(all.count, records.length);
    assert.equal(count(all), records.length);
  });

  it('no prototype was polluted', () => {
    assertPrototypesUnchanged(prototypes);
  });
});
