// The trends webview: uPlot canvas charts (bundled, no eval, no remote content) in the theme's
// colours, one series per source, legend toggles, defaulted zeros as marked gaps, hover details,
// a click opens the record, and every chart has a keyboard-reachable table of the same data.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { InsightsHostMessage, TrendChart, TrendSeries, TrendsViewModel } from '../../core/views/insightsProtocol';
import { type Span, spanOf, xRange } from './axis';
import { button, el, keep, post, setStrings, statusLine, t, tn } from './dom';

const PALETTE = ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-red', '--vscode-charts-yellow'];
const FALLBACK = ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700'];
const MAX_TABLE_ROWS = 1000;
const HEIGHT = 240;

const app = document.getElementById('app')!;
let model: TrendsViewModel | undefined;
const plots: uPlot[] = [];

window.addEventListener('message', (event: MessageEvent<InsightsHostMessage>) => {
  const m = event.data;
  if (m.type === 'trends') {
    keep(m.persist);
    setStrings(m.strings);
    model = m.model;
    render();
  } else if (m.type === 'rangeRefused') {
    const status = document.getElementById('range-status');
    if (status) status.textContent = m.message;
  }
});

// A theme change restyles the page but not the canvases: draw them again in the new colours.
new MutationObserver(() => render()).observe(document.body, { attributes: true, attributeFilter: ['class'] });

const css = (name: string, fallback: string): string => getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;

function colours(): { text: string; grid: string; series: string[]; background: string } {
  const hc = document.body.classList.contains('vscode-high-contrast') || document.body.classList.contains('vscode-high-contrast-light');
  return {
    text: css('--vscode-foreground', '#cccccc'),
    grid: hc ? css('--vscode-contrastBorder', '#6fc3df') : css('--vscode-editorWidget-border', '#8884'),
    background: css('--vscode-editor-background', '#1e1e1e'),
    series: PALETTE.map((name, i) => css(name, FALLBACK[i])),
  };
}

/** `#rrggbb`, `#rgb` or `rgb(…)` with an alpha; anything else as it is. */
function withAlpha(colour: string, alpha: number): string {
  let m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(colour);
  if (m) {
    const n = parseInt(m[1], 16);
    return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
  }
  m = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(colour);
  if (m) return `rgba(${parseInt(m[1] + m[1], 16)}, ${parseInt(m[2] + m[2], 16)}, ${parseInt(m[3] + m[3], 16)}, ${alpha})`;
  const rgb = /^rgba?\(([^,]+),([^,]+),([^,)]+)/.exec(colour);
  return rgb ? `rgba(${rgb[1]},${rgb[2]},${rgb[3]}, ${alpha})` : colour;
}

const formatX = (x: number, time: TrendChart['time']): string => {
  const iso = new Date(x * 1000).toISOString();
  return time === 'day' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
};
// Grouped in the UI's locale, as uPlot writes the axis beside them ("9,774 steps", not "9774").
const WHOLE = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const SMALL = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const LARGE = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const formatValue = (v: number): string => (Number.isInteger(v) ? WHOLE : Math.abs(v) < 100 ? SMALL : LARGE).format(v);
const seriesLabel = (s: TrendSeries): string => `${s.source} ${s.field}`;

function render(): void {
  for (const p of plots.splice(0)) p.destroy();
  if (!model) return;
  app.replaceChildren();
  app.setAttribute('aria-busy', String(model.status?.state === 'loading'));
  app.append(toolbar(model), el('p', 'heading', model.heading), statusLine(model.status));
  // Loading, or nothing to draw: a failed or cancelled reload still draws the last complete load.
  if (model.status && model.sections.length === 0) return;
  app.append(el('p', 'legend', `${t('clickHint')} ${t('gapLegend')}`));
  for (const section of model.sections) {
    const s = el('section', 'trend-section');
    s.dataset.kind = section.kind;
    s.append(el('h2', undefined, section.label));
    if (section.message) s.append(el('p', 'hint', section.message));
    app.append(s);
    const span = spanOf(model);
    for (const chart of section.charts) s.append(chartFigure(chart, span));
  }
}

function toolbar(m: TrendsViewModel): HTMLElement {
  const header = el('header', 'toolbar');
  header.append(el('h1', undefined, t('title')));
  const form = el('form', 'range');
  const from = dateInput('range-from', t('from'), m.start);
  const to = dateInput('range-to', t('to'), m.end);
  const apply = el('button', 'button', t('apply'));
  apply.type = 'submit';
  form.append(from.label, from.input, to.label, to.input, apply);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    post({ type: 'setRange', start: from.input.value, end: to.input.value });
  });
  header.append(form);
  if (m.humans.length > 1) {
    const label = el('label', undefined, t('human'));
    const select = el('select');
    select.id = 'human';
    label.htmlFor = 'human';
    for (const h of m.humans) {
      const option = el('option', undefined, tn('humanOption', h.records, h.humanId, h.records));
      option.value = h.humanId;
      option.selected = h.humanId === m.humanId;
      select.append(option);
    }
    select.addEventListener('change', () => post({ type: 'selectHuman', humanId: select.value }));
    header.append(label, select);
  }
  header.append(button(t('reload'), () => post({ type: 'reload' })));
  const status = el('span', 'range-status');
  status.id = 'range-status';
  status.setAttribute('role', 'alert');
  header.append(status);
  return header;
}

function dateInput(id: string, text: string, value: string): { label: HTMLLabelElement; input: HTMLInputElement } {
  const label = el('label', undefined, text);
  const input = el('input');
  input.type = 'date';
  input.id = id;
  input.value = value;
  label.htmlFor = id;
  return { label, input };
}

function chartFigure(chart: TrendChart, span: Span): HTMLElement {
  const figure = el('figure', 'chart');
  figure.id = `chart-${chart.id}`;
  figure.dataset.chart = chart.id;
  figure.append(el('figcaption', undefined, `${chart.title} (${chart.unit})`));
  const c = colours();
  const sources = [...new Set(chart.series.map((s) => s.source))];
  const colourOf = (s: TrendSeries) => c.series[sources.indexOf(s.source) % c.series.length];
  const mainFields = [...new Set(chart.series.filter((s) => !s.band).map((s) => s.field))];

  const legend = el('div', 'chart-legend');
  legend.setAttribute('role', 'group');
  const never = chart.series.filter((s) => s.never && !s.band);
  const holder = el('div', 'plot');
  const tooltip = el('div', 'tooltip');
  tooltip.setAttribute('role', 'status');
  figure.append(legend, holder, tooltip);
  for (const s of never) figure.append(el('p', 'never-note', t('never', s.source, s.field)));
  // Gaps of a source that nearly always sends the field (only the activity's zero-default fields have gaps of days).
  for (const s of chart.series) if (s.unusual && !s.band) figure.append(el('p', 'unusual-note', tn('unusual', s.gaps.length, s.source, s.field, s.gaps.length)));

  const opts: uPlot.Options = {
    width: Math.max(320, (app.clientWidth || 800) - 24),
    height: HEIGHT,
    legend: { show: false },
    cursor: { focus: { prox: 30 }, drag: { x: true, y: false } },
    focus: { alpha: 0.4 },
    scales: { x: { time: true, range: (_u, min, max) => (min === null || max === null ? [min, max] : xRange(chart, span, min, max)) } },
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    axes: [
      { stroke: c.text, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid } },
      { stroke: c.text, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid }, label: chart.unit, size: 60 },
    ],
    series: [
      {},
      ...chart.series.map((s) => ({
        label: s.band ? t('band', s.source) : seriesLabel(s),
        stroke: s.band ? withAlpha(colourOf(s), 0.5) : colourOf(s),
        width: s.band ? 1 : 2,
        dash: !s.band && mainFields.indexOf(s.field) > 0 ? [6, 4] : undefined,
        spanGaps: chart.time === 'instant',
        // Points always where they stay apart, so a day between two gaps still shows.
        points: { show: chart.time === 'instant' || chart.xs.length <= 400, size: 5 },
      })),
    ],
    bands: chart.bands.map(([lower, upper]) => ({ series: [upper + 1, lower + 1] as [number, number], fill: withAlpha(colourOf(chart.series[lower]), 0.15) })),
    hooks: {
      draw: [(u) => drawGaps(u, chart, colourOf, figure)],
      setCursor: [(u) => showTooltip(u, chart, tooltip)],
    },
  };
  const data = [chart.xs, ...chart.series.map((s) => s.values)] as uPlot.AlignedData;
  const plot = new uPlot(opts, data, holder);
  plots.push(plot);
  plot.over.addEventListener('click', () => openAt(plot, chart));
  plot.over.addEventListener('mouseleave', () => (tooltip.textContent = ''));

  chart.series.forEach((s, i) => {
    if (s.band) return;
    const b = button(seriesLabel(s), () => {
      const show = b.getAttribute('aria-pressed') !== 'true';
      b.setAttribute('aria-pressed', String(show));
      plot.setSeries(i + 1, { show });
      // The band of a source goes with its first series.
      chart.series.forEach((o, j) => {
        if (o.band && o.source === s.source && mainFields.indexOf(s.field) === 0) plot.setSeries(j + 1, { show });
      });
    }, 'legend-toggle');
    b.setAttribute('aria-pressed', 'true');
    b.title = t('legendToggle', seriesLabel(s));
    // A short line as the series is drawn (dashed for a second field), in the series' own colour,
    // so the legend says which line is which source; the colour is set through the CSSOM, which
    // the webview's CSP allows where it refuses a style attribute.
    const swatch = el('span', mainFields.indexOf(s.field) > 0 ? 'swatch dashed' : 'swatch');
    swatch.setAttribute('aria-hidden', 'true');
    swatch.style.color = colourOf(s);
    b.prepend(swatch);
    b.dataset.colour = colourOf(s);
    legend.append(b);
  });
  new ResizeObserver(() => {
    const width = Math.max(320, holder.clientWidth);
    if (Math.abs(width - plot.width) > 2) plot.setSize({ width, height: HEIGHT });
  }).observe(holder);
  figure.append(tableView(chart));
  return figure;
}

/** The room left beside the first and last x: half a day, or 2 % of the span of readings (at least 30 minutes). */

/**
 * Marked gaps: where a source sent a defaulted 0, a hollow ring just above the x axis and a
 * dotted tick above it, in the series' colour, never a point at 0; a hollow triangle where the
 * 0 stands out (a source that nearly always sends the value: a day without it). Also writes the plot's geometry and scales
 * on the figure, so a test can find a point's pixel.
 */
function drawGaps(u: uPlot, chart: TrendChart, colourOf: (s: TrendSeries) => string, figure: HTMLElement): void {
  const ctx = u.ctx;
  const dpr = devicePixelRatio || 1;
  const xMin = u.scales.x.min ?? 0;
  const xMax = u.scales.x.max ?? 0;
  const bottom = u.bbox.top + u.bbox.height;
  let drawn = 0;
  let triangles = 0;
  let row = 0;
  ctx.save();
  chart.series.forEach((s, i) => {
    if (!u.series[i + 1].show || s.gaps.length === 0) return;
    // Each series with gaps has a row of its own above the axis, so markers of two sources on
    // one day never hide each other.
    const lift = row++ * 10 * dpr;
    ctx.strokeStyle = colourOf(s);
    ctx.lineWidth = 1.5 * dpr;
    for (const at of s.gaps) {
      const x = chart.xs[at];
      if (x < xMin || x > xMax) continue;
      const px = u.valToPos(x, 'x', true);
      ctx.setLineDash([2 * dpr, 2 * dpr]);
      ctx.beginPath();
      ctx.moveTo(px, bottom - lift - 9 * dpr);
      ctx.lineTo(px, bottom - lift - 16 * dpr);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      const cy = bottom - lift - 4.5 * dpr;
      if (s.unusual) {
        // A triangle, as a warning sign is: by its shape, not by a colour, and unlike a point.
        ctx.moveTo(px, cy - 4.5 * dpr);
        ctx.lineTo(px + 4.5 * dpr, cy + 3.5 * dpr);
        ctx.lineTo(px - 4.5 * dpr, cy + 3.5 * dpr);
        ctx.closePath();
      } else ctx.arc(px, cy, 3.5 * dpr, 0, 2 * Math.PI);
      ctx.stroke();
      drawn++;
      if (s.unusual) triangles++;
    }
  });
  ctx.restore();
  const y = u.scales.y;
  Object.assign(figure.dataset, {
    gapMarkers: String(drawn),
    unusualMarkers: String(triangles),
    xMin: String(xMin),
    xMax: String(xMax),
    yMin: String(y.min ?? 0),
    yMax: String(y.max ?? 0),
  });
}

function showTooltip(u: uPlot, chart: TrendChart, tooltip: HTMLElement): void {
  const idx = u.cursor.idx;
  if (idx === null || idx === undefined) {
    tooltip.textContent = '';
    return;
  }
  const lines: string[] = [];
  chart.series.forEach((s, i) => {
    if (!u.series[i + 1].show) return;
    const v = s.values[idx];
    if (v !== null) lines.push(t('hover', formatX(chart.xs[idx], chart.time), seriesLabel(s), formatValue(v), chart.unit));
    else if (s.gaps.includes(idx)) lines.push(t(s.unusual ? 'hoverUnusual' : 'hoverGap', formatX(chart.xs[idx], chart.time), seriesLabel(s)));
  });
  tooltip.textContent = lines.join('\n');
}

/** The record under the cursor: at the cursor's x, the visible series nearest to it vertically. */
function openAt(u: uPlot, chart: TrendChart): void {
  const idx = u.cursor.idx;
  const top = u.cursor.top;
  if (idx === null || idx === undefined || top === undefined || top < 0) return;
  let best = -1;
  let bestDistance = Infinity;
  chart.series.forEach((s, i) => {
    if (!u.series[i + 1].show || s.refs[idx] < 0) return;
    const v = s.values[idx];
    // A gap sits on the x axis.
    const y = v === null ? u.over.clientHeight : u.valToPos(v, 'y');
    const d = Math.abs(y - top);
    if (d < bestDistance) {
      bestDistance = d;
      best = i;
    }
  });
  if (best >= 0 && bestDistance <= 40) post({ type: 'open', kind: chart.kind, ref: chart.series[best].refs[idx] });
}

/** The same data as a table: a disclosure reachable with Tab, each value a button that opens its record. */
function tableView(chart: TrendChart): HTMLElement {
  const details = el('details', 'table-view');
  const summary = el('summary', undefined, t('showTable', chart.title));
  details.append(summary);
  details.addEventListener('toggle', () => {
    if (!details.open || details.querySelector('table')) return;
    const shown = chart.series;
    const table = el('table');
    const head = el('tr');
    head.append(el('th', undefined, chart.time === 'day' ? t('date') : t('time')));
    for (const s of shown) head.append(el('th', 'value', s.band ? `${s.source} ${s.field}` : seriesLabel(s)));
    table.append(el('thead'), el('tbody'));
    table.tHead!.append(head);
    const gapSets = shown.map((s) => new Set(s.gaps));
    const rows = chart.xs.map((_, i) => i).reverse().slice(0, MAX_TABLE_ROWS);
    for (const i of rows) {
      const row = el('tr');
      const th = el('th', undefined, formatX(chart.xs[i], chart.time));
      th.scope = 'row';
      row.append(th);
      shown.forEach((s, k) => {
        const td = el('td', 'value');
        const v = s.values[i];
        const ref = s.refs[i];
        if (v !== null || gapSets[k].has(i)) {
          const text = v !== null ? `${formatValue(v)} ${chart.unit}` : s.unusual ? `⚠ ${t('unusualGap')}` : `⊘ ${t('gap')}`;
          const b = button(text, () => post({ type: 'open', kind: chart.kind, ref }), v !== null ? 'link' : s.unusual ? 'link gap unusual' : 'link gap');
          b.title = t('open');
          td.append(b);
        } else td.textContent = '—';
        row.append(td);
      });
      table.tBodies[0].append(row);
    }
    details.append(table);
  });
  return details;
}

post({ type: 'ready' });
