// The trends charts' time axis: the whole range loaded, whatever days have data; a zoom as dragged.
import * as assert from 'node:assert/strict';
import { spanOf, xRange } from '../../../src/webview/insights/axis';

const DAY = 86_400;
const day = (date: string): number => Date.parse(`${date}T00:00:00Z`) / 1000;

describe('trends time axis', () => {
  const span = spanOf({ start: '2026-10-28', end: '2026-11-26' });
  // Data from the 7th to the 22nd of November only.
  const days = { time: 'day' as const, xs: [day('2026-11-07'), day('2026-11-15'), day('2026-11-22')] };

  it('spans the range loaded, half a day beyond its first and last day, when the data lies inside it', () => {
    assert.deepEqual(span, { start: day('2026-10-28'), end: day('2026-11-26') });
    assert.deepEqual(xRange(days, span, days.xs[0], days.xs[2]), [day('2026-10-28') - DAY / 2, day('2026-11-26') + DAY / 2]);
    // Data beyond the range (a reading's local day) is not cut off.
    assert.deepEqual(xRange(days, spanOf({ start: '2026-11-10', end: '2026-11-12' }), days.xs[0], days.xs[2]), [days.xs[0] - DAY / 2, days.xs[2] + DAY / 2]);
  });

  it('keeps a zoom (a range within the data) as dragged, with the same room', () => {
    const [from, to] = [day('2026-11-10'), day('2026-11-18')];
    assert.deepEqual(xRange(days, span, from, to), [from - DAY / 2, to + DAY / 2]);
  });

  it('readings: to the end of the last day, a few minutes of room; no range known: the data alone', () => {
    const readings = { time: 'instant' as const, xs: [day('2026-11-07') + 3_600, day('2026-11-20') + 7_200] };
    const [lo, hi] = xRange(readings, span, readings.xs[0], readings.xs[1]);
    const room = (day('2026-11-26') + DAY - day('2026-10-28')) * 0.02;
    assert.deepEqual([lo, hi], [day('2026-10-28') - room, day('2026-11-26') + DAY + room]);
    assert.deepEqual(spanOf({ start: '', end: 'soon' }), { start: undefined, end: undefined });
    assert.deepEqual(xRange(days, {}, days.xs[0], days.xs[2]), [days.xs[0] - DAY / 2, days.xs[2] + DAY / 2]);
  });
});
