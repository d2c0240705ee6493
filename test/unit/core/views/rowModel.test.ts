// The virtual list's rows (src/core/views/rowModel.ts): the flattening checked row by row against
// a plain recursive walk after random opens and closes, windows, the row of a finding far down a
// 100,000-record list, and the record view answering the webview's row requests.
import * as assert from 'node:assert/strict';
import { Finding, validatePayload } from '../../../../src/core/validation';
import { FindingIndex, JsonRow, MAX_WINDOW, PAGE_SIZE, RecordView, RowModel, parseWebviewMessage } from '../../../../src/core/views';
import { pointerToken } from '../../../../src/core/json';
import { generateDataset } from '../../../../src/sandbox/data';

type Line = Pick<JsonRow, 'pointer' | 'depth' | 'open' | 'close'>;

/** Every row of `value` with the containers in `open` open: a recursive walk, the reference. */
function reference(value: unknown, open: (pointer: string) => boolean): Line[] {
  const out: Line[] = [];
  const walk = (v: unknown, pointer: string, depth: number, isRoot: boolean): void => {
    const entries = v !== null && typeof v === 'object' ? (Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v)) : [];
    if (entries.length > 0 && (isRoot || open(pointer))) {
      out.push({ pointer, depth, open: true });
      for (const [k, x] of entries) walk(x, `${pointer}/${pointerToken(k)}`, depth + 1, false);
      out.push({ pointer, depth, close: true });
    } else out.push({ pointer, depth, open: entries.length > 0 ? false : undefined });
  };
  walk(value, '', 0, true);
  return out.map(line);
}

const line = (l: Line): Line => JSON.parse(JSON.stringify({ pointer: l.pointer, depth: l.depth, open: l.open, close: l.close })) as Line;
const lines = (model: RowModel): Line[] => model.window(0, model.total).map(line);

/** A small random JSON value with containers at several depths. */
function randomValue(seed: number): unknown {
  let s = seed;
  const rand = (n: number): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
  const make = (depth: number): unknown => {
    const pick = depth > 3 ? rand(3) : rand(6);
    if (pick === 0) return rand(100);
    if (pick === 1) return `s${rand(9)}`;
    if (pick === 2) return rand(2) === 0 ? null : true;
    const n = rand(5);
    if (pick === 3 || pick === 4) return Array.from({ length: n }, () => make(depth + 1));
    return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}/~${rand(3)}`, make(depth + 1)]));
  };
  return { a: make(0), b: [make(1), make(1)], c: make(0) };
}

describe('rowModel: the rows of a virtual list', () => {
  it('flattens like a recursive walk, after any opens and closes', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const value = randomValue(seed);
      const model = new RowModel(value, new FindingIndex(value, []));
      // Which containers are open: read from the model itself, then checked against the walk.
      const isOpen = (p: string) => model.isOpen(p);
      assert.deepEqual(lines(model), reference(value, isOpen), `seed ${seed}, as built`);
      for (let step = 0; step < 12; step++) {
        const rows = model.window(0, model.total).filter((r) => r.open !== undefined && !r.close && r.pointer !== '');
        if (rows.length === 0) break;
        const target = rows[(seed * 7 + step * 13) % rows.length];
        assert.equal(model.toggle(target.pointer, !target.open), true);
        assert.equal(model.isOpen(target.pointer), !target.open);
        const got = lines(model);
        assert.deepEqual(got, reference(value, isOpen), `seed ${seed}, step ${step}`);
        assert.equal(model.total, got.length);
        got.forEach((line, i) => assert.equal(model.rowAt(i).index, i));
      }
    }
  });

  it('opens small containers with their parent and leaves large ones closed', () => {
    const big = Array.from({ length: PAGE_SIZE + 1 }, (_, i) => i);
    const value = { small: { a: 1, b: [1, 2] }, big, empty: {} };
    const model = new RowModel(value, new FindingIndex(value, []));
    assert.equal(model.isOpen('/small'), true);
    assert.equal(model.isOpen('/small/b'), true);
    assert.equal(model.isOpen('/big'), false);
    const empty = model.window(0, model.total).find((r) => r.pointer === '/empty');
    assert.equal(empty?.open, undefined, 'an empty object is one line, nothing to open');
    assert.equal(empty?.last, true);
    assert.equal(model.toggle('/empty', true), false);
    assert.equal(model.toggle('/big', true), true);
    assert.equal(model.total, 1 + 7 + (PAGE_SIZE + 1 + 2) + 1 + 1);
  });

  it('gives bounded windows, ending at the last row', () => {
    const value = Array.from({ length: 5000 }, (_, i) => ({ i }));
    const model = new RowModel(value, new FindingIndex(value, []), { list: '' });
    assert.equal(model.total, 5002, 'a list: one line per record, closed, plus the brackets');
    assert.equal(model.window(0, 10_000).length, MAX_WINDOW);
    const end = model.window(4995, 100);
    assert.deepEqual(end.map((r) => r.index), [4995, 4996, 4997, 4998, 4999, 5000, 5001]);
    assert.equal(end[5].pointer, '/4999');
    assert.equal(end[5].last, true);
    assert.equal(end[6].close, true);
    assert.deepEqual(model.window(9999, 10), []);
  });

  it('finds the row of a finding far down a 100,000-record list, opening what holds it', () => {
    const dataset = generateDataset({ seed: 'rows', today: '2026-11-20', days: 200, humans: 10 });
    const list: unknown[] = [];
    while (list.length < 100_000) list.push(...(dataset.heartRate as unknown[]).slice(0, 100_000 - list.length));
    const pointer = '/99876/zones/1/max';
    const findings: Finding[] = [{ kind: 'warning', path: pointer, message: 'far down' }];
    const model = new RowModel(list, new FindingIndex(list, findings), { list: '', labelOf: (i) => `record ${i}` });
    assert.equal(model.total, 100_002);
    assert.equal(model.rowOf(pointer), undefined, 'not shown before it is revealed');
    const row = model.reveal(pointer);
    assert.ok(row !== undefined && row > 99_876);
    const at = model.rowAt(row);
    assert.equal(at.pointer, pointer);
    assert.deepEqual(at.marks, [{ kind: 'warning', message: 'far down' }]);
    assert.equal(model.rowOf(pointer), row);
    assert.equal(model.isOpen('/99876'), true);
    // The records above it are still one line each, and the one holding it says so when closed.
    assert.equal(model.rowAt(99_876).pointer, '/99875');
    assert.equal(model.rowAt(99_876).label, 'record 99875');
    assert.equal(model.rowAt(99_877).open, true);
    model.toggle('/99876', false);
    assert.equal(model.rowAt(99_877).nested, 1);
    assert.equal(model.total, 100_002);
  });

  it('keeps zero and deprecated marks and missing-field placeholders on their rows', () => {
    const record = { id: 'r1', userId: 'u', steps: 0, inner: { x: 1 } };
    const findings: Finding[] = [
      { kind: 'zero', path: '/steps', message: 'zero steps' },
      { kind: 'deprecated', path: '/userId', message: 'use humanId' },
      { kind: 'error', path: '/inner/y', message: 'y is required' },
    ];
    const model = new RowModel(record, new FindingIndex(record, findings));
    const rows = model.window(0, model.total);
    assert.deepEqual(rows.find((r) => r.pointer === '/steps')?.marks, [{ kind: 'zero', message: 'zero steps' }]);
    assert.deepEqual(rows.find((r) => r.pointer === '/userId')?.marks, [{ kind: 'deprecated', message: 'use humanId' }]);
    const missing = rows.find((r) => r.pointer === '/inner/y');
    assert.equal(missing?.type, 'missing');
    assert.equal(missing?.key, 'y');
    assert.equal(model.reveal('/inner/y'), missing?.index);
  });

  it('answers the webview with windows around a finding, never the whole list', () => {
    const dataset = generateDataset({ seed: 'rows-view', today: '2026-11-20', days: 400, humans: 3 });
    const list = dataset.activity as unknown[];
    const findings: Finding[] = [];
    for (const r of validatePayload(list)) for (const f of r.findings) findings.push({ ...f, path: `${r.pointer}${f.path}` });
    assert.ok(findings.length > 0, 'the generator makes zeros and deprecated fields');
    const view = new RecordView(list, undefined, findings, { list: { pointer: '', count: list.length, labelOf: () => undefined, title: 'list' } });
    assert.equal(view.model.root, undefined);
    assert.ok(view.model.rows && view.model.rows.rows.length <= 200);
    assert.equal(view.model.rows.total, list.length + 2);
    const last = findings.length - 1;
    const answer = view.answerRows({ start: 0, count: 60, finding: last });
    assert.ok(answer?.finding && answer.revealed !== undefined);
    assert.equal(answer.finding.entry.path, findings[last].path);
    assert.ok(answer.window.rows.some((r) => r.index === answer.revealed && r.pointer === findings[last].path));
    assert.ok(answer.window.rows.length <= 60);
    assert.equal(view.answerRows({ start: 0, count: 10, finding: findings.length }), undefined);
  });

  it('checks row requests from the webview field by field', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'rows', requestId: 1, version: 2, start: 0, count: 50, toggle: { pointer: '/3', open: true } }), {
      type: 'rows', requestId: 1, version: 2, start: 0, count: 50, toggle: { pointer: '/3', open: true }, reveal: undefined, finding: undefined,
    });
    assert.equal(parseWebviewMessage({ type: 'rows', requestId: 1, version: 2, start: -1, count: 50 }), undefined);
    assert.equal(parseWebviewMessage({ type: 'rows', requestId: 1, version: 2, start: 0, count: 50, toggle: { pointer: 'x', open: true } }), undefined);
    assert.equal(parseWebviewMessage({ type: 'rows', requestId: 1, version: 2, start: 0, count: 50, reveal: 7 }), undefined);
    assert.equal(parseWebviewMessage({ type: 'rows', requestId: 1, version: 2, start: 0, count: 50, finding: 1.5 }), undefined);
  });
});
