// The time axis of a trends chart: the range the panel loaded, in the axis' seconds, and the x
// range uPlot asks for (on load, and on a zoom). Apart from the chart code so a test can run it
// without a canvas.

import type { TrendChart, TrendsViewModel } from '../../core/views/insightsProtocol';

/** The range the charts were loaded for, in the axis' seconds (UTC midnight of its first and last day); undefined parts are not known. */
export interface Span {
  readonly start?: number;
  readonly end?: number;
}

export function spanOf(m: Pick<TrendsViewModel, 'start' | 'end'>): Span {
  const day = (date: string): number | undefined => {
    const ms = /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T00:00:00Z`) : NaN;
    return Number.isNaN(ms) ? undefined : ms / 1000;
  };
  return { start: day(m.start), end: day(m.end) };
}

/** Room beside the first and last x: half a day, or a few minutes for readings. */
function edgeOf(chart: Pick<TrendChart, 'time'>, min: number, max: number): number {
  return chart.time === 'day' ? 43_200 : Math.max(1_800, (max - min) * 0.02);
}

/**
 * The x range of a chart for the data range `min`–`max` uPlot gives: the whole range loaded when
 * that covers all the data (on load, or zoomed out), so days without data show as such and the
 * charts of one panel line up; a zoom (a range within the data) as dragged. Room on each side, so
 * the first and last points, and the gap markers there, are drawn whole instead of cut in half by
 * the plot's edge.
 */
export function xRange(chart: Pick<TrendChart, 'xs' | 'time'>, span: Span, min: number, max: number): [number, number] {
  const n = chart.xs.length;
  const whole = n > 0 && min <= chart.xs[0] && max >= chart.xs[n - 1];
  // Readings are placed at their local time: the last day of the range runs to its end.
  const end = span.end === undefined ? undefined : chart.time === 'day' ? span.end : span.end + 86_400;
  const lo = whole && span.start !== undefined ? Math.min(min, span.start) : min;
  const hi = whole && end !== undefined ? Math.max(max, end) : max;
  const edge = edgeOf(chart, lo, hi);
  return [lo - edge, hi + edge];
}
