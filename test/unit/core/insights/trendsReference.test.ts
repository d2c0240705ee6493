// The typed-array trend series against a straightforward computation (maps per source and x, one
// chart and field at a time) on sandbox data with zero-default gaps, hand-made edge cases and
// hostile records: the same xs, values, refs, gaps, never flags and bands, in the message's form.
import * as assert from 'node:assert/strict';
import { epochDayOf, parseTzOffset } from '../../../../src/core/dates';
import { TrendChart, TrendSeries, buildHumanTrends, buildTrendSeries, buildTrends, chartForMessage, recordsByHuman } from '../../../../src/core/insights';
import { RESOURCES, ResourceKind, resource } from '../../../../src/core/resources';
import { generateDataset } from '../../../../src/sandbox/data';
import { sharedHostileRecords } from '../../support/hostileRecords';

type Obj = Record<string, unknown>;

function referenceX(r: Obj, timestamped: boolean): number {
  if (!timestamped) return typeof r.date === 'string' ? epochDayOf(r.date) * 86_400 : NaN;
  if (typeof r.timestamp !== 'string') return NaN;
  const t = Date.parse(r.timestamp);
  return Number.isNaN(t) ? NaN : Math.floor(t / 1000) + (parseTzOffset(r.tzOffset) ?? 0) * 60;
}

function referenceTrends(kind: ResourceKind, records: readonly unknown[], humanId?: string): TrendChart[] {
  const def = resource(kind);
  const timestamped = def.datingField === 'timestamp';
  const placed: Array<{ index: number; x: number; source: string }> = [];
  records.forEach((r, index) => {
    if (r === null || typeof r !== 'object' || Array.isArray(r)) return;
    const o = r as Obj;
    if (humanId !== undefined && o.humanId !== humanId) return;
    const x = referenceX(o, timestamped);
    if (Number.isFinite(x)) placed.push({ index, x, source: typeof o.source === 'string' ? o.source : '(no source)' });
  });
  const xs = [...new Set(placed.map((p) => p.x))].sort((a, b) => a - b);
  const sources = [...new Set(placed.map((p) => p.source))].sort();
  return def.trendCharts.map((chart) => {
    const fields = [...chart.fields, ...(chart.band ?? [])];
    const series: TrendSeries[] = [];
    for (const source of sources) {
      for (const field of fields) {
        // The first record of the source at each x with a finite number in the field.
        const first = new Map<number, { index: number; v: number }>();
        for (const p of placed) {
          const v = (records[p.index] as Obj)[field];
          if (p.source === source && typeof v === 'number' && Number.isFinite(v) && !first.has(p.x)) first.set(p.x, { index: p.index, v });
        }
        const never = [...first.values()].every((e) => e.v === 0);
        const defaulted = never || def.zeroDefaultFields.includes(field);
        const values = xs.map((x) => {
          const e = first.get(x);
          return e === undefined || (defaulted && e.v === 0) ? null : e.v;
        });
        const refs = xs.map((x) => first.get(x)?.index ?? -1);
        const gaps = defaulted ? xs.flatMap((x, i) => (first.get(x)?.v === 0 ? [i] : [])) : [];
        // Zeros that stand out: 19 in 20 of the source's other records drawn here, or more, have another number.
        const zeros = [...first.values()].filter((e) => e.v === 0).length;
        const sent = [...first.values()].filter((e) => e.v !== 0).length;
        const others = placed.filter((p) => p.source === source).length - 1;
        const unusual = def.zeroDefaultFields.includes(field) && zeros > 0 && others >= 20 && sent >= 0.95 * others;
        series.push({ source, field, band: !chart.fields.includes(field), values, refs, gaps, never, unusual });
      }
    }
    const bands: Array<[number, number]> = [];
    if (chart.band) {
      series.forEach((s, i) => {
        const upper = series.findIndex((u) => u.source === s.source && u.field === chart.band![1]);
        if (s.field === chart.band![0] && upper >= 0 && !s.never && !series[upper].never) bands.push([i, upper]);
      });
    }
    return { id: chart.id, kind, title: chart.title, unit: chart.unit, time: timestamped ? 'instant' : 'day', xs, series, bands };
  });
}

function assertSame(kind: ResourceKind, records: readonly unknown[], humanId?: string): void {
  const expected = referenceTrends(kind, records, humanId);
  assert.deepEqual(buildTrends(kind, records, humanId), expected);
  assert.deepEqual(buildTrendSeries(kind, records, humanId).map(chartForMessage), expected);
  // The panel's way: the list split by human once, then one human's charts, refs into the whole list.
  if (humanId !== undefined) assert.deepEqual(buildHumanTrends(kind, recordsByHuman(records).get(humanId) ?? { records: [], positions: [] }), expected);
}

/** The same records in an order fixed by the seed but far from the list's (Fisher–Yates, driven by a Park–Miller generator). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 48_271) % 2_147_483_647;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('insights: trend series against a straightforward computation', () => {
  const data = generateDataset({ today: '2026-11-20', days: 120, humans: 3, seed: 'trends-reference' });

  it('gives the same charts for every resource and human of the sandbox, and for all humans at once', () => {
    for (const { kind } of RESOURCES) {
      for (const human of [...data.humans, undefined]) assertSame(kind, data[kind], human);
    }
  });

  it('gives the same charts when a device was not worn on some days: its zeros stand out, and only its', () => {
    // Only activity has zero-default fields: its gaps are the zeros that can stand out.
    for (const { kind } of RESOURCES) {
      const records = data[kind] as unknown as Obj[];
      const human = data.humans[0];
      const theirs = records.filter((r) => r.humanId === human);
      const source = theirs[0].source;
      const numbers = (r: Obj) => Object.fromEntries(Object.entries(r).filter(([, v]) => typeof v === 'number').map(([k]) => [k, 0]));
      const days = theirs.filter((r) => r.source === source);
      // Two of the source's days, their numbers all 0 (in place: the day's only record of the source).
      const notWorn = records.map((r) => (r === days[2] || r === days[9] ? { ...r, id: `not-worn-${String(r.id)}`, ...numbers(r) } : r));
      assertSame(kind, notWorn, human);
      const charts = buildTrends(kind, notWorn, human);
      const standing = charts.flatMap((c) => c.series.filter((s) => s.unusual));
      if (kind === 'activity') assert.ok(standing.length > 0 && standing.every((s) => s.source === source), `${kind}: ${JSON.stringify(standing.map((s) => [s.source, s.field]))}`);
      else assert.deepEqual(standing, [], `${kind} draws its zeros as zeros`);
    }
  });

  it('gives the same charts for the sandbox records oldest first (the gaps of a list met in either order)', () => {
    for (const { kind } of RESOURCES) {
      const oldestFirst = [...data[kind]].reverse();
      for (const human of [...data.humans, undefined]) assertSame(kind, oldestFirst, human);
    }
  });

  it('gives the same charts for the sandbox records in no order, the humans mixed', () => {
    for (const { kind } of RESOURCES) {
      const mixed = shuffled<unknown>(data[kind], 7);
      for (const human of [...data.humans, undefined]) assertSame(kind, mixed, human);
    }
  });

  it('gives the same charts for zero-default gaps, sources that never send a field, duplicates and odd values', () => {
    const a = (date: unknown, steps: unknown, source: unknown = 'band', more: Obj = {}): Obj => ({ source, date, steps, calories: 0, distance: 1.5, ...more });
    const activity = [
      a('2026-01-03', 0), a('2026-01-01', 100), a('2026-01-01', 999), a('2026-01-02', 0, 'phone'), a('2026-01-02', -0, 'phone'),
      a('2026-01-05', null), a('2026-01-05', 7), a('2026-02-30', 5), a(20260101, 5), a('1969-12-31', 3, 'old'), a('2026-01-04', '8'),
      a('2026-01-04', Infinity, 'phone'), a('2026-01-06', 4, undefined), a('2026-01-06', 6, 42), a('9999-12-31', 1, 'far'),
      a('0100-01-01', 2, 'far'), a('2026-01-07', 3, 'band', { distance: 0 }), [1, 2], null, 'x',
    ];
    assertSame('activity', activity);
    assertSame('activity', activity.slice(0, 12));
    const h = (date: string, resting: unknown, min: unknown, max: unknown, source = 'watch'): Obj => ({ source, date, restingHR: resting, averageHR: 70, minHR: min, maxHR: max });
    assertSame('heartRate', [h('2026-01-01', 0, 40, 150), h('2026-01-02', 0, 0, 0), h('2026-01-02', 55, 41, 151, 'ring'), h('2026-01-03', 56, 0, 0, 'ring')]);
    const b = (timestamp: unknown, tzOffset: unknown, value: unknown, source = 'scale'): Obj => ({ source, timestamp, tzOffset, value });
    assertSame('bodyFat', [b('2026-01-01T08:00:00Z', '+01:00', 21.5), b('2026-01-01T09:00:00+01:00', undefined, 22), b('2026-01-01T07:00:00Z', '+02:00', 0), b('nope', null, 3), b('2026-01-02T00:00:00Z', 'bad', 20.25, 'other')]);
    assertSame('activity', []);
  });

  it('gives the same charts for hostile records', function () {
    this.timeout(60_000); // building the shared hostile records takes a few seconds
    const records = sharedHostileRecords()
      .filter((r) => !r.tooDeep)
      .map((r) => r.record);
    for (const { kind } of RESOURCES) assertSame(kind, records);
  });
});
