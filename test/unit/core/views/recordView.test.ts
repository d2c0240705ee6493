// The record view's model (src/core/recordView.ts, jsonTree.ts), its HTML shell and its message
// checks: every finding kind marked on its field, placeholders for missing fields, the zones
// table, hostile strings kept as plain data, and large records built lazily.
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Finding, FindingKind, validate } from '../../../../src/core/validation';
import { LARGE_BYTES, MAX_DEPTH, MAX_TEXT, PAGE_SIZE, anchorOf, estimateSize, JsonNode, RecordView, RecordViewModel, emptyRecordViewModel, titleOf, parseWebviewMessage } from '../../../../src/core/views';
import { ACTIVITY_NUMBER_FIELDS, ResourceKind } from '../../../../src/core/resources';
import { contentSecurityPolicy, newNonce, recordViewHtml } from '../../../../src/extension/recordView/html';
import { repoRoot } from '../../support/repo';

const root = repoRoot;
const NOW = Date.parse('2026-11-21T12:00:00Z');
type Rec = Record<string, unknown>;

const fixture = (name: string): Rec => JSON.parse(readFileSync(join(root, 'test', 'fixtures', `${name}.json`), 'utf8')) as Rec;

function view(record: unknown, kind?: ResourceKind): { model: RecordViewModel; findings: readonly Finding[]; view: RecordView } {
  const result = validate(record, kind, { now: NOW });
  const v = new RecordView(record, result.kind, result.findings);
  return { model: v.model, findings: result.findings, view: v };
}

/** The built node at a pointer (undefined when it is not built). */
function nodeAt(model: RecordViewModel, pointer: string): JsonNode | undefined {
  const walk = (node: JsonNode): JsonNode | undefined => {
    if (node.pointer === pointer) return node;
    for (const child of node.children ?? []) {
      const found = walk(child);
      if (found) return found;
    }
    return undefined;
  };
  return model.root && walk(model.root);
}

function allNodes(node: JsonNode | undefined, out: JsonNode[] = []): JsonNode[] {
  if (!node) return out;
  out.push(node);
  for (const child of node.children ?? []) allNodes(child, out);
  return out;
}

const marksOf = (model: RecordViewModel, pointer: string) => nodeAt(model, pointer)?.marks ?? [];

/** Every finding marks the node at its path, with its kind and message; the list points there. */
function assertEveryFindingMarked(model: RecordViewModel, findings: readonly Finding[]): void {
  for (const f of findings) {
    const node = nodeAt(model, f.path);
    assert.ok(node, `no node at ${f.path}`);
    assert.ok(node.marks?.some((m) => m.kind === f.kind && m.message === f.message), `${f.path} lacks its ${f.kind} mark`);
  }
  const anchors = new Set(allNodes(model.root).map((n) => n.anchorId));
  for (const entry of model.findings) assert.ok(anchors.has(entry.anchorId), `finding ${entry.path} points at no node`);
}

/** A heart rate summary with one finding of every kind. */
function everyKind(): Rec {
  const record = fixture('heart-rate-wrist-tracker'); // no value (error), userId (deprecated)
  record.minHR = 170; // above maxHR 158: warning
  record.restingHR = 0; // zero
  record.firmware = '4.2'; // unknown
  (record.zones as Rec[])[1].min = 150; // a zone with min > max: warning inside zones
  return record;
}

describe('record view model', () => {
  it('marks every finding kind on its own field', () => {
    const { model, findings, view: recordView } = view(everyKind(), 'heartRate');
    const kinds = new Set(findings.map((f) => f.kind));
    assert.deepEqual([...kinds].sort(), ['deprecated', 'error', 'unknown', 'warning', 'zero']);
    assertEveryFindingMarked(model, findings);
    // 0 bpm is both a zero and implausible.
    assert.deepEqual(marksOf(model, '/restingHR').map((m) => m.kind).sort(), ['warning', 'zero']);
    assert.deepEqual(marksOf(model, '/firmware').map((m) => m.kind), ['unknown']);
    assert.ok(marksOf(model, '/minHR').some((m) => m.kind === 'warning'));
    assert.ok(allNodes(model.root).some((n) => n.pointer.startsWith('/zones/1/') && n.marks?.some((m) => m.kind === 'warning')));
    // Fields without findings carry no marks.
    assert.equal(nodeAt(model, '/source')?.marks, undefined);
    assert.deepEqual(model.counts, {
      error: findings.filter((f) => f.kind === 'error').length,
      warning: findings.filter((f) => f.kind === 'warning').length,
      zero: 1,
      deprecated: 1,
      unknown: 1,
    });
    assert.equal(model.valid, false);
    assert.equal(model.findingsTotal, findings.length);
    // Listed in the order of the tree (as Previous/Next and F8 walk them), the validator's order
    // kept among the marks of one field; the same findings as the validator's.
    const treeOrder = allNodes(model.root).flatMap((n) => (n.marks ?? []).map((m) => [m.kind, n.pointer, m.message]));
    assert.deepEqual(model.findings.map((f) => [f.kind, f.path, f.message]), treeOrder);
    assert.notDeepEqual(treeOrder, findings.map((f) => [f.kind, f.path, f.message]), 'the validator reports in another order');
    const text = (f: { kind: string; path: string; message: string }) => `${f.kind} ${f.path} ${f.message}`;
    assert.deepEqual(model.findings.map(text).sort(), findings.map(text).sort());
    assert.deepEqual([0, 1, 2].map((i) => recordView.findingAt(i)?.path), model.findings.slice(0, 3).map((f) => f.path));
  });

  it('orders findings as the document does: keys as written, indices as numbers, placeholders after the fields', () => {
    const record = { b: 1, a: { z: 0, y: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }, c: 'x' };
    const f = (path: string, kind: FindingKind = 'warning'): Finding => ({ kind, path, message: `${kind} at ${path}` });
    const findings = [f('/missing', 'error'), f('/a/y/10'), f('/c'), f('/a/y/9'), f('/a/y/9', 'zero'), f('/a/z'), f('/a'), f('/b'), f('/a/gone', 'error')];
    const v = new RecordView(record, undefined, findings);
    assert.deepEqual(
      v.model.findings.map((x) => `${x.path} ${x.kind}`),
      ['/b warning', '/a warning', '/a/z warning', '/a/y/9 warning', '/a/y/9 zero', '/a/y/10 warning', '/a/gone error', '/c warning', '/missing error'],
    );
  });

  it('shows a missing required field as a placeholder marked error, where the finding points', () => {
    const { model } = view(fixture('heart-rate-wrist-tracker'), 'heartRate');
    const value = nodeAt(model, '/value');
    assert.ok(value);
    assert.equal(value.type, 'missing');
    assert.equal(value.key, 'value');
    assert.equal(value.marks?.[0].kind, 'error');
    assert.match(value.marks?.[0].message ?? '', /value is required/);
    // Among the record's fields, counted in the record's size.
    assert.ok(model.root?.children?.includes(value));
    assert.equal(model.root?.count, model.root?.children?.length);
    const entry = model.findings.find((f) => f.path === '/value');
    assert.equal(entry?.anchorId, value.anchorId);
  });

  it('places a missing field of a zone under that zone', () => {
    const record: Rec = { ...fixture('heart-rate-wrist-tracker'), value: 66 };
    delete (record.zones as Rec[])[2].name;
    const { model, findings } = view(record, 'heartRate');
    const missing = nodeAt(model, '/zones/2/name');
    assert.equal(missing?.type, 'missing');
    assert.ok(nodeAt(model, '/zones/2')?.children?.includes(missing!));
    assertEveryFindingMarked(model, findings);
  });

  it('explains zeros of the eight activity fields and titles the record', () => {
    const { model, findings } = view(fixture('activity-all-zeros'), 'activity');
    assert.equal(model.title, 'Activity 2026-11-17 · misfit');
    assert.equal(model.kindLabel, 'Activity summary');
    for (const field of ACTIVITY_NUMBER_FIELDS) {
      assert.deepEqual(marksOf(model, `/${field}`), [{ kind: 'zero', message: `0 — this source may not provide ${field}` }], field);
    }
    assert.equal(model.counts.zero, 8);
    assert.equal(model.valid, true);
    assertEveryFindingMarked(model, findings);
  });

  it('marks deprecated userId with its replacement, and an error on a wrong type', () => {
    const record = fixture('activity-wrist-tracker');
    record.steps = '12224';
    const { model, findings } = view(record, 'activity');
    assert.deepEqual(marksOf(model, '/userId'), [{ kind: 'deprecated', message: 'userId is deprecated: use humanId' }]);
    assert.equal(marksOf(model, '/steps')[0]?.kind, 'error');
    assertEveryFindingMarked(model, findings);
  });

  it('builds the zones table of a heart rate summary with time in zone as h:mm', () => {
    const { model } = view(fixture('heart-rate-wrist-tracker'), 'heartRate');
    assert.deepEqual(
      model.zones?.map((z) => [z.name, z.range, z.time, z.calories]),
      [
        ['Out of Range', '30–97 bpm', '22:26', '1,722.8'],
        ['Fat Burn', '97–135 bpm', '1:21', '512.4'],
        ['Cardio', '135–164 bpm', '0:12', '118.9'],
        ['Peak', '164–220 bpm', '0:01', '17.3'],
      ],
    );
    assert.equal(model.zones?.[1].anchorId, nodeAt(model, '/zones/1')?.anchorId);
  });

  it('shows a broken zone with dashes, and no zones table for other kinds', () => {
    const record = fixture('heart-rate-wrist-tracker');
    record.zones = [{ name: 7, min: 'low' }, 'not a zone'];
    const { model } = view(record, 'heartRate');
    assert.deepEqual(model.zones?.map((z) => [z.name, z.range, z.time, z.calories]), [['—', '—', '—', '—'], ['—', '—', '—', '—']]);
    assert.equal(view(fixture('activity-wrist-tracker'), 'activity').model.zones, undefined);
    assert.equal(view(fixture('body-fat-smart-scale'), 'bodyFat').model.zones, undefined);
  });

  it('keeps the legend: every kind with a symbol and a word', () => {
    const { model } = view(fixture('body-fat-smart-scale'), 'bodyFat');
    assert.deepEqual(model.legend.map((l) => l.kind), ['error', 'warning', 'zero', 'deprecated', 'unknown'] satisfies FindingKind[]);
    for (const entry of model.legend) {
      assert.ok(entry.icon.length > 0 && entry.word.length > 0 && entry.description.length > 0, entry.kind);
    }
  });

  it('keeps hostile strings as plain data: text of nodes, never markup', () => {
    const hostile = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', 'javascript:alert(1)', '"><svg onload=alert(1)>'];
    const record = fixture('activity-wrist-tracker');
    record.source = hostile[0];
    record[hostile[1]] = hostile[2];
    record.sourceData = { note: hostile[3], [hostile[0]]: [hostile[1]] };
    const { model, findings } = view(record, 'activity');
    assert.equal(model.title, `Activity 2026-11-18 · ${hostile[0]}`);
    assert.equal(nodeAt(model, '/source')?.text, JSON.stringify(hostile[0]));
    const field = nodeAt(model, `/${hostile[1]}`);
    assert.equal(field?.key, hostile[1]);
    assert.equal(field?.text, JSON.stringify(hostile[2]));
    assert.equal(field?.marks?.[0].kind, 'unknown');
    assert.equal(nodeAt(model, '/sourceData/note')?.text, JSON.stringify(hostile[3]));
    assert.equal(nodeAt(model, `/sourceData/${hostile[0].replace(/\//g, '~1')}/0`)?.text, JSON.stringify(hostile[1]));
    // Every DOM id derived from a key is made of safe characters only.
    for (const node of allNodes(model.root)) assert.match(node.anchorId, /^j[A-Za-z0-9_-]*$/);
    assertEveryFindingMarked(model, findings);
  });

  it('escapes pointers and gives every field its own DOM id', () => {
    const record = { ...fixture('activity-wrist-tracker'), 'a/b': 1, 'a~1b': 2, a_2f: 3, 'a b': 4 };
    const { model } = view(record, 'activity');
    assert.equal(nodeAt(model, '/a~1b')?.key, 'a/b');
    assert.equal(nodeAt(model, '/a~01b')?.key, 'a~1b');
    const anchors = allNodes(model.root).map((n) => n.anchorId);
    assert.equal(new Set(anchors).size, anchors.length);
    assert.equal(anchorOf('/a~1b'), nodeAt(model, '/a~1b')?.anchorId);
    assert.equal(anchorOf('/zones/0'), 'j_2f_zones_2f_0');
  });

  it('titles a record of unknown kind plainly, and shows what is not an object', () => {
    assert.equal(titleOf({ id: 'abcdefghijklmnop' }, undefined), 'Record abcdefghij…');
    assert.equal(titleOf(42, undefined), 'Record');
    const { model } = view([1, 2]);
    assert.equal(model.root?.type, 'array');
    assert.equal(model.valid, false);
    assert.equal(model.root?.marks?.[0].kind, 'error');
    const empty = emptyRecordViewModel('Activity 2026-11-20', 'activity', 'Fetching…');
    assert.equal(empty.root, undefined);
    assert.equal(empty.note, 'Fetching…');
  });
});

describe('record view model of large records', () => {
  /** A heart rate summary carrying about `bytes` of intraday samples in sourceData. */
  function withSamples(bytes: number): Rec {
    const samples: Array<{ t: number; bpm: number }> = [];
    for (let size = 0; size < bytes; size += 20) samples.push({ t: samples.length, bpm: 60 + (samples.length % 90) });
    return { ...fixture('heart-rate-wrist-tracker'), value: 66, sourceData: { intraday: { samples }, device: 'tracker' } };
  }

  it('leaves 1 MB of sourceData collapsed and unbuilt, and the model small', () => {
    const record = withSamples(1_000_000);
    const { model, view: v } = view(record, 'heartRate');
    const sourceData = nodeAt(model, '/sourceData');
    assert.ok(sourceData);
    assert.equal(sourceData.collapsed, true);
    assert.equal(sourceData.children, undefined);
    assert.equal(sourceData.count, 2);
    assert.ok(JSON.stringify(model).length < 20_000, `model is ${JSON.stringify(model).length} bytes`);
    // Opened on demand: one level, the big array again closed.
    const page = v.childPage('/sourceData', 0);
    assert.equal(page?.total, 2);
    const intraday = page?.nodes.find((n) => n.key === 'intraday');
    assert.equal(intraday?.collapsed, true);
    assert.equal(intraday?.children, undefined);
    const samples = v.childPage('/sourceData/intraday/samples', 0);
    const count = (record.sourceData as { intraday: { samples: unknown[] } }).intraday.samples.length;
    assert.equal(samples?.total, count);
    assert.equal(samples?.nodes.length, PAGE_SIZE);
    assert.equal(samples?.nodes[0].pointer, '/sourceData/intraday/samples/0');
    // Small items are built whole, open.
    assert.equal(samples?.nodes[0].collapsed, undefined);
    assert.equal(samples?.nodes[0].children?.length, 2);
    const last = v.childPage('/sourceData/intraday/samples', count - 5);
    assert.deepEqual(last?.nodes.map((n) => n.key), [count - 5, count - 4, count - 3, count - 2, count - 1]);
    assert.equal(v.childPage('/nothing/here', 0), undefined);
    assert.equal(v.childPage('/source', 0), undefined);
  });

  it('cuts a 1 MB string to a view-sized text and says how much is left', () => {
    const record = { ...fixture('heart-rate-wrist-tracker'), value: 66, sourceData: { blob: 'QUJD'.repeat(250_000) } };
    const { model, view: v } = view(record, 'heartRate');
    // One key, but a megabyte: closed, and its one child built when opened.
    assert.equal(nodeAt(model, '/sourceData')?.collapsed, true);
    const blob = v.childPage('/sourceData', 0)?.nodes[0];
    assert.ok(blob);
    assert.equal(blob.text?.length, MAX_TEXT + 2);
    assert.equal(blob.cut, 1_000_000 - MAX_TEXT);
    assert.ok(JSON.stringify(model).length < 20_000);
  });

  it('pages an object with many keys and closes deep nesting without overflowing the stack', () => {
    const wide: Rec = {};
    for (let i = 0; i < 450; i++) wide[`k${i}`] = i;
    let deep: unknown = 'bottom';
    for (let i = 0; i < 5_000; i++) deep = [deep];
    let deeper: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deeper = [deeper];
    const record = { ...fixture('heart-rate-wrist-tracker'), value: 66, wide, deep, sourceData: { deeper } };
    const { model, view: v } = view(record, 'heartRate');
    const wideNode = nodeAt(model, '/wide');
    assert.equal(wideNode?.collapsed, true);
    assert.equal(wideNode?.count, 450);
    assert.equal(wideNode?.children, undefined);
    const pages = [0, PAGE_SIZE, 2 * PAGE_SIZE].map((offset) => v.childPage('/wide', offset));
    assert.deepEqual(pages.map((p) => p?.nodes.length), [PAGE_SIZE, PAGE_SIZE, 50]);
    assert.equal(pages[2]?.nodes[49].key, 'k449');
    // Small but deep: built down to MAX_DEPTH, the rest on demand.
    const depth = (n: JsonNode | undefined): number => (n?.children?.length ? 1 + depth(n.children[0]) : 0);
    const built = depth(nodeAt(model, '/deep'));
    assert.ok(built > 10 && built <= MAX_DEPTH, String(built));
    assert.equal(nodeAt(model, '/sourceData')?.collapsed, true);
  });

  it('estimates sizes with work bounded by the limit', () => {
    assert.equal(estimateSize({ a: 'xy' }, 1000), 2 + 5 + 4);
    const huge = Array.from({ length: 1_000_000 }, () => 'abcdefgh');
    assert.ok(estimateSize(huge, LARGE_BYTES) > LARGE_BYTES);
    assert.ok(estimateSize(huge, LARGE_BYTES) < LARGE_BYTES + 100);
  });
});

describe('record view HTML shell', () => {
  const parts = () => ({
    cspSource: 'https://webview.example',
    scriptUri: 'https://webview.example/dist/webview.js',
    styleUri: 'https://webview.example/media/recordView.css',
    nonce: newNonce(),
    lang: 'en',
    title: 'Health Data record',
  });

  it('has a strict CSP whose script nonce is fresh per load', () => {
    const a = parts();
    const b = parts();
    assert.notEqual(a.nonce, b.nonce);
    assert.equal(Buffer.from(a.nonce, 'base64').length, 16);
    const html = recordViewHtml(a);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
    assert.equal(csp, contentSecurityPolicy(a.cspSource, a.nonce));
    assert.match(csp!, /^default-src 'none'; /);
    assert.ok(csp!.includes(`script-src 'nonce-${a.nonce}'`));
    assert.match(csp!, /style-src https:\/\/webview\.example(;|$)/);
    assert.doesNotMatch(csp!, /unsafe-inline|unsafe-eval|\*/);
    assert.notEqual(recordViewHtml(b), html);
  });

  it('loads one script (with the nonce) and one stylesheet, with no inline style or script', () => {
    const p = parts();
    const html = recordViewHtml(p);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.ok(scripts[0][1].includes(`nonce="${p.nonce}"`));
    assert.match(scripts[0][1], /src="https:\/\/webview\.example\/dist\/webview\.js"/);
    assert.equal(scripts[0][2].trim(), '');
    assert.match(html, /<link rel="stylesheet" href="https:\/\/webview\.example\/media\/recordView\.css">/);
    assert.doesNotMatch(html, /<style|\sstyle=|\son\w+=/i);
  });

  it('takes no record data at all: the record goes by postMessage', () => {
    // The shell is made from these parts only; a title with markup would still be escaped.
    const html = recordViewHtml({ ...parts(), title: '<script>alert(1)</script>' });
    assert.ok(!html.includes('<script>alert(1)'));
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.equal(recordViewHtml.length, 1);
  });

  it('the webview script builds DOM from text only, and the stylesheet uses theme colours only', () => {
    const media = join(root, 'media');
    const webview = join(root, 'src', 'webview');
    const scripts = readdirSync(webview).filter((f) => f.endsWith('.ts'));
    assert.ok(scripts.includes('main.ts'));
    // media/ holds assets only: the webview's code lives in src/webview.
    assert.deepEqual(readdirSync(media).filter((f) => /\.[cm]?[jt]s$/.test(f)), []);
    // The virtual list alone sets geometry through the CSSOM (allowed by the CSP, unlike a style
    // attribute): pixel sizes computed from row numbers, never anything from a record.
    const geometry = /\.style\.(?:height|transform|paddingLeft) = `(?:translateY\()?\$\{[^`]*\}px\)?`;/g;
    const virtual = readFileSync(join(webview, 'virtualJsonView.ts'), 'utf8');
    assert.equal(virtual.match(geometry)?.length, 3);
    for (const file of scripts) {
      const source = readFileSync(join(webview, file), 'utf8').replace(geometry, '');
      assert.doesNotMatch(source, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|\.style\b/, file);
    }
    const css = readFileSync(join(media, 'recordView.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    // Every colour is a theme variable: no literal colours (white-space is no colour).
    assert.doesNotMatch(css.replace(/white-space/g, ''), /#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(|\b(?:red|green|blue|yellow|orange|white|black|gray|grey)\b/i);
    assert.match(css, /body\.vscode-high-contrast/);
    assert.match(css, /prefers-reduced-motion/);
  });
});

describe('record view messages from the webview', () => {
  it('accepts exactly the messages the webview may send', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseWebviewMessage({ type: 'action', requestId: 3, action: 'refetch', extra: 1 }), { type: 'action', requestId: 3, action: 'refetch' });
    assert.deepEqual(parseWebviewMessage({ type: 'expand', requestId: 1, version: 2, pointer: '/sourceData', offset: 200 }), {
      type: 'expand',
      requestId: 1,
      version: 2,
      pointer: '/sourceData',
      offset: 200,
    });
  });

  it('refuses anything else', () => {
    const bad: unknown[] = [
      undefined,
      null,
      'ready',
      [],
      { type: 'eval', code: 'x' },
      { type: 'action', requestId: 1, action: 'deleteAll' },
      { type: 'action', requestId: -1, action: 'copyJson' },
      { type: 'action', requestId: 1.5, action: 'copyJson' },
      { type: 'action', action: 'copyJson' },
      { type: 'expand', requestId: 1, version: 1, pointer: 'sourceData', offset: 0 },
      { type: 'expand', requestId: 1, version: 1, pointer: '/a', offset: -1 },
      { type: 'expand', requestId: 1, version: 1, pointer: 7, offset: 0 },
      { type: 'expand', requestId: 1, version: 1, pointer: `/${'a'.repeat(100_000)}`, offset: 0 },
      { type: 'rows', requestId: 1, version: 1, start: 0, count: 10, toggle: { pointer: '/zones', open: 'yes' } },
      { type: 'rows', requestId: 1, version: 1, start: 0, count: 10, toggle: { pointer: '/zones' } },
      { type: 'rows', requestId: 1, version: 1, start: 0, count: 10, toggle: null },
      { type: 'rows', requestId: 1, version: 1, start: 0, count: 10, reveal: 'zones' },
      { type: 'rows', requestId: 1, version: 1, start: 0, count: 10, finding: -1 },
      { type: 'rows', requestId: 1, version: 1, start: -1, count: 10 },
    ];
    for (const message of bad) assert.equal(parseWebviewMessage(message), undefined, String(JSON.stringify(message)).slice(0, 200));
    // The longest pointer taken, and a rows request with all it may carry.
    const longest = `/${'a'.repeat(99_999)}`;
    assert.equal((parseWebviewMessage({ type: 'expand', requestId: 1, version: 1, pointer: longest, offset: 0 }) as { pointer?: string } | undefined)?.pointer, longest);
    assert.deepEqual(parseWebviewMessage({ type: 'rows', requestId: 1, version: 2, start: 0, count: 10, toggle: { pointer: '/zones', open: false, extra: 1 }, reveal: '/steps', finding: 3 }), {
      type: 'rows', requestId: 1, version: 2, start: 0, count: 10, toggle: { pointer: '/zones', open: false }, reveal: '/steps', finding: 3,
    });
  });
});
