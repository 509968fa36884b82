// ECharts option builders. Shipped verbatim into the report's script (see client-bundle.ts), where
// the inlined ECharts library renders them to SVG; tests render the same options with ECharts'
// server-side SVG renderer. Self-contained function declarations only; no animation, so a chart
// is complete as soon as it is drawn. Tooltip formatters return HTML: data in them is escaped.
import { formatBytes, formatTime } from '../units.js';
import { escapeHtml } from './escape.js';

/** A bar of the ratio chart: one serializer, one value per target (null when not measured), with its log-scale interval. */
export interface RatioBar {
  name: string;
  values: { ratio: number | null; interval: [number, number] | null }[];
}
/** A point of the speed-vs-allocation chart (ns/op, bytes/op); `estimate` when the allocation figure is estimated (shown with `~`). */
export interface ScatterPoint {
  name: string;
  series: string;
  time: number;
  alloc: number;
  estimate?: boolean;
}
/** A line of the scaling chart: [size, ns/op] points. */
export interface ScalingLine {
  name: string;
  points: [number, number][];
}

/** Colours of classes, then of further series (colour-blind-safe Okabe–Ito order). */
export function chartColor(key: string, i: number): string {
  const byClass: Record<string, string> = {
    serialize: '#0072B2',
    parse: '#009E73',
    validate: '#E69F00',
    transform: '#CC79A7',
  };
  const cycle = ['#0072B2', '#D55E00', '#009E73', '#E69F00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];
  return byClass[key] ?? cycle[i % cycle.length];
}

/**
 * Horizontal ratio bars (time ÷ baseline's, < 1 is faster) on a log axis, so one slow library
 * does not flatten the rest and 0.5× and 2× sit equally far from 1; whiskers are the log-scale
 * intervals (never below 0), a dashed line at 1, one bar series per target. The axis runs between
 * powers of ten around every ratio, whisker and 1. Serializers top to bottom in the given order.
 * @param colorKey the class, so a class keeps its colour when there is one target
 */
export function ratioChartOption(
  title: string,
  bars: RatioBar[],
  targets: string[],
  baselineLabel: string,
  colorKey: string,
): Record<string, unknown> {
  const n = targets.length;
  const ends = [1];
  for (const b of bars)
    for (const v of b.values) {
      if (v.ratio !== null && v.ratio > 0) ends.push(v.ratio);
      if (v.interval !== null) ends.push(v.interval[0], v.interval[1]);
    }
  const finite = ends.filter((x) => x > 0 && Number.isFinite(x));
  const axisMin = 10 ** Math.floor(Math.log10(Math.min(...finite) / 1.05));
  const axisMax = 10 ** Math.ceil(Math.log10(Math.max(...finite) * 1.05));
  const barPx = n > 1 ? 10 : 16;
  const step = barPx * 1.3;
  const series: Record<string, unknown>[] = [];
  targets.forEach((t, ti) => {
    const color = n > 1 ? chartColor(`#${ti}`, ti) : chartColor(colorKey, ti);
    series.push({
      type: 'bar',
      name: t,
      barWidth: barPx,
      barGap: '30%',
      itemStyle: { color },
      data: bars.map((b) => b.values[ti]?.ratio ?? null),
      ...(ti === 0
        ? {
            markLine: {
              silent: true,
              symbol: 'none',
              lineStyle: { type: 'dashed', color: '#555' },
              label: { formatter: `${baselineLabel} = 1`, position: 'start', color: '#333' },
              data: [{ xAxis: 1 }],
            },
          }
        : {}),
    });
    const offset = (ti - (n - 1) / 2) * step;
    series.push({
      type: 'custom',
      name: `${t} error`,
      silent: true,
      z: 5,
      data: bars.map((b, bi) => {
        const v = b.values[ti];
        return v && v.ratio !== null && v.interval !== null && v.interval[1] > v.interval[0]
          ? [v.interval[0], v.interval[1], bi]
          : [null, null, bi];
      }),
      encode: { x: [0, 1], y: 2 },
      clip: true,
      renderItem: (_params: unknown, api: { value(i: number): number; coord(p: number[]): number[] }) => {
        const lo = api.value(0);
        const hi = api.value(1);
        if (lo === null || hi === null || Number.isNaN(lo) || Number.isNaN(hi)) return null;
        const a = api.coord([lo, api.value(2)]);
        const b = api.coord([hi, api.value(2)]);
        const y = a[1] + offset;
        const cap = barPx / 2;
        const style = { stroke: '#222', lineWidth: 1.5 };
        const children = [
          { type: 'line', shape: { x1: a[0], y1: y, x2: b[0], y2: y }, style },
          { type: 'line', shape: { x1: a[0], y1: y - cap, x2: a[0], y2: y + cap }, style },
          { type: 'line', shape: { x1: b[0], y1: y - cap, x2: b[0], y2: y + cap }, style },
        ];
        return { type: 'group', children };
      },
    });
  });
  return {
    animation: false,
    title: { text: title, left: 0, textStyle: { fontSize: 13, fontWeight: 600 } },
    ...(n > 1 ? { legend: { data: targets, top: 0, right: 0 } } : {}),
    grid: { left: 8, right: 24, top: 44, bottom: 36, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: {
      type: 'log',
      logBase: 10,
      min: axisMin,
      max: axisMax,
      name: `time ÷ ${baselineLabel}'s (< 1 is faster; log scale)`,
      nameLocation: 'middle',
      nameGap: 24,
    },
    yAxis: { type: 'category', inverse: true, data: bars.map((b) => b.name), axisTick: { show: false } },
    series,
  };
}

/**
 * A linear axis domain from `lo` to `hi` bytes with about five ticks at round numbers of the unit
 * formatBytes writes (B, KiB = 1024 B, MiB = 1024 KiB): a step of 1, 2, 2.5 or 5 × 10ⁿ units, the
 * domain rounded out to whole steps (never below 0).
 */
export function binaryTicks(lo: number, hi: number): { min: number; max: number; interval: number } {
  const unit = hi >= 1024 ** 2 ? 1024 ** 2 : hi >= 1024 ? 1024 : 1;
  const rough = (hi - lo) / 5 / unit;
  const p = 10 ** Math.floor(Math.log10(rough));
  const nice = [1, 2, 2.5, 5, 10].find((m) => m * p >= rough)! * p;
  const interval = nice * unit;
  return { min: Math.max(0, Math.floor(lo / interval) * interval), max: Math.ceil(hi / interval) * interval, interval };
}

/**
 * Speed against allocation: time per op (x) and bytes per op (y), log axes when values span over
 * 20×. Each series (class, or class · target) has its own colour: the class's colour while every
 * series is a different class, else one per series. An estimated allocation keeps its `~` in the
 * label and the tooltip.
 */
export function scatterChartOption(title: string, points: ScatterPoint[]): Record<string, unknown> {
  const keys = [...new Set(points.map((p) => p.series))];
  const byClass = new Set(keys.map((k) => k.split(' · ')[0])).size === keys.length;
  // A linear axis whose values lie within 10% of each other (all 640 B, or 640.25–640.75 B) gets a
  // domain padded by 10% of the largest value on each side, rounded out to a power of ten that is
  // also the least tick interval (1 when every value is 0), never below 0 for positive values: left to
  // ECharts, its ticks fell at fractions of a byte that the formatter wrote as one label ("640 B" on every tick).
  // A linear bytes axis wider than that gets ticks at round numbers of its unit (KiB, MiB: 1024-based,
  // as formatBytes writes them), not at round numbers of bytes ("19.5 KiB, 39.1 KiB, 58.6 KiB").
  const axis = (vals: number[], name: string, fmt: (v: number) => string, binary = false) => {
    const lo = Math.min(...vals);
    const hi = Math.max(...vals);
    const log = lo > 0 && hi / lo > 20;
    const top = Math.max(Math.abs(lo), Math.abs(hi));
    const narrow = !log && hi - lo <= 0.1 * top;
    const pad = top > 0 ? 0.1 * top : 1;
    const step = 10 ** Math.floor(Math.log10(pad));
    const domain = narrow
      ? {
          min: lo >= 0 ? Math.max(0, Math.floor((lo - pad) / step) * step) : Math.floor((lo - pad) / step) * step,
          max: Math.ceil((hi + pad) / step) * step,
          minInterval: step,
        }
      : binary && !log && lo >= 0 && hi > lo
        ? binaryTicks(lo, hi)
        : {};
    return {
      type: log ? 'log' : 'value',
      name,
      nameLocation: 'middle',
      nameGap: 28,
      scale: !log,
      ...domain,
      axisLabel: { formatter: fmt, hideOverlap: true },
    };
  };
  // where a value lies across the plot, 0 to 1, on its axis' scale (log past 20×, as `axis` decides)
  const share = (vals: number[], binary = false) => {
    const [lo, hi] = [Math.min(...vals), Math.max(...vals)];
    if (hi === lo) return () => 0.5;
    // the axis' extent as ECharts draws it (approximately): whole powers of ten on a log axis, the binary
    // ticks' domain on a bytes axis, else rounded out to a step of 1, 2, 2.5 or 5 × 10ⁿ (about five ticks)
    if (lo > 0 && hi / lo > 20) {
      const [a, b] = [Math.floor(Math.log10(lo)), Math.ceil(Math.log10(hi))];
      return (v: number) => (Math.log10(v) - a) / (b - a);
    }
    const rough = (hi - lo) / 5;
    const p10 = 10 ** Math.floor(Math.log10(rough));
    const step = [1, 2, 2.5, 5, 10].find((m) => m * p10 >= rough)! * p10;
    const d =
      binary && lo >= 0 ? binaryTicks(lo, hi) : { min: Math.floor(lo / step) * step, max: Math.ceil(hi / step) * step };
    return (v: number) => (v - d.min) / (d.max - d.min);
  };
  const xShare = share(points.map((p) => p.time));
  const yShare = share(
    points.map((p) => p.alloc),
    true,
  );
  // The labels, placed here (nu6: json's and typebox's were drawn over each other, names were cut at the
  // plot's edge; ECharts' own label layout only shifts or hides them within one series). Points that (almost)
  // coincide share one label (`json, typebox`); then each label takes the first side of its point — right,
  // left, above, below — where it stays inside the plot and meets no point and no label placed before it; one
  // with no such side is left out (the tooltip names every point). Sizes in shares of a plot about 600 × 230 px
  // (at 800 px; a wider plot only leaves more room): 6.2 px a character, 14 px a line, 8 px from its point.
  const W = 600;
  const H = 230;
  const groups: ScatterPoint[][] = [];
  for (const p of [...points].sort((a, b) => a.time - b.time)) {
    const same = groups.find((g) =>
      g.some(
        (q) =>
          Math.abs(xShare(p.time) - xShare(q.time)) <= 12 / W && Math.abs(yShare(p.alloc) - yShare(q.alloc)) <= 12 / H,
      ),
    );
    if (same) same.push(p);
    else groups.push([p]);
  }
  type Box = [number, number, number, number];
  const meets = (a: Box, b: Box) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  const dots: Box[] = points.map((p) => [
    xShare(p.time) - 6 / W,
    yShare(p.alloc) - 6 / H,
    xShare(p.time) + 6 / W,
    yShare(p.alloc) + 6 / H,
  ]);
  const placed: Box[] = [];
  const labels: unknown[] = [];
  for (const g of groups) {
    const names = g.map((p) => `${p.name}${p.estimate ? ' ~' : ''}`);
    // a group's label is drawn beside its outermost point on that side (its first point above or below)
    const last = g.reduce((a, b) => (xShare(b.time) > xShare(a.time) ? b : a));
    const at: Record<string, ScatterPoint> = { right: last, left: g[0], top: g[0], bottom: g[0] };
    const h = 14 / H;
    const [dx, dy] = [8 / W, 8 / H];
    const box = (side: string, w: number): Box => {
      const [x, y] = [xShare(at[side].time), yShare(at[side].alloc)];
      if (side === 'right') return [x + dx, y - h / 2, x + dx + w, y + h / 2];
      if (side === 'left') return [x - dx - w, y - h / 2, x - dx, y + h / 2];
      if (side === 'top') return [x - w / 2, y + dy, x + w / 2, y + dy + h];
      return [x - w / 2, y - dy - h, x + w / 2, y - dy];
    };
    const inside = (b: Box) => b[0] >= -0.02 && b[2] <= 1.05 && b[1] >= -0.04 && b[3] <= 1.1;
    const own = g.map((p) => points.indexOf(p));
    const free = (b: Box) =>
      inside(b) && !placed.some((o) => meets(o, b)) && !dots.some((d, i) => !own.includes(i) && meets(d, b));
    // every name if it fits, else the first and how many more (`json +3`: the tooltip names them)
    const texts = names.length > 1 ? [names.join(', '), `${names[0]} +${names.length - 1}`] : names;
    let chosen: [string, string, Box] | undefined;
    for (const text of texts) {
      const w = (text.length * 6.2) / W;
      const side = ['right', 'left', 'top', 'bottom'].find((k) => free(box(k, w)));
      if (side) {
        chosen = [text, side, box(side, w)];
        break;
      }
    }
    if (!chosen) continue;
    const [text, side, b] = chosen;
    placed.push(b);
    const value = [at[side].time, at[side].alloc, text, 0];
    labels.push(side === 'right' ? value : { value, label: { position: side } });
  }
  return {
    animation: false,
    title: { text: title, left: 0, textStyle: { fontSize: 13, fontWeight: 600 } },
    // the legend names the classes (not the labels' series); clicking it would hide points but not their labels
    legend: { data: keys, top: 0, right: 0, selectedMode: false },
    // room above the plot for the labels of its topmost points (they were drawn into the title)
    grid: { left: 28, right: 40, top: 56, bottom: 40, containLabel: true },
    tooltip: {
      trigger: 'item',
      formatter: (p: { value?: [number, number, string, number]; data: [number, number, string, number] }) => {
        const d = p.value ?? p.data;
        return `${escapeHtml(d[2])}<br>${formatTime(d[0])}/op · ${d[3] ? '~' : ''}${formatBytes(d[1])}/op${d[3] ? ' (estimated)' : ''}`;
      },
    },
    xAxis: axis(
      points.map((p) => p.time),
      'time per op (lower is faster)',
      formatTime,
    ),
    yAxis: {
      ...axis(
        points.map((p) => p.alloc),
        'allocated per op',
        formatBytes,
        true,
      ),
      nameGap: 64,
    },
    series: [
      ...keys.map((k, i) => ({
        type: 'scatter',
        name: k,
        symbolSize: 10,
        itemStyle: { color: byClass ? chartColor(k.split(' · ')[0], i) : chartColor(`#${i}`, i) },
        data: points.filter((p) => p.series === k).map((p) => [p.time, p.alloc, p.name, p.estimate ? 1 : 0]),
      })),
      // the labels, one per cluster of nearby points, in one series of their own (ECharts moves and hides
      // overlapping labels within a series, not across the classes); a point in the right part of the plot is
      // labelled on its left, so its name is not cut at the edge; silent and transparent, never in the legend
      {
        type: 'scatter',
        name: 'labels',
        silent: true,
        symbolSize: 10,
        itemStyle: { color: 'rgba(0,0,0,0)' },
        tooltip: { show: false },
        z: 3,
        data: labels,
        label: {
          show: true,
          position: 'right',
          formatter: (p: { value?: [number, number, string, number]; data: [number, number, string, number] }) => {
            const d = p.value ?? p.data;
            return `${d[2]}${d[3] ? ' ~' : ''}`;
          },
          fontSize: 11,
          color: '#333',
        },
        // a safety net: a label that still meets another (a plot narrower than assumed) is hidden
        labelLayout: { hideOverlap: true },
      },
    ],
  };
}

/** Time per op against input size, log-log, one line per serializer. */
export function scalingChartOption(title: string, lines: ScalingLine[]): Record<string, unknown> {
  return {
    animation: false,
    title: { text: title, left: 0, textStyle: { fontSize: 13, fontWeight: 600 } },
    legend: { type: 'scroll', top: 22, left: 0, right: 0 },
    grid: { left: 12, right: 120, top: 56, bottom: 36, containLabel: true },
    tooltip: {
      trigger: 'item',
      formatter: (p: { seriesName: string; data: [number, number] }) =>
        `${escapeHtml(p.seriesName)}<br>size ${p.data[0]}: ${formatTime(p.data[1])}/op`,
    },
    xAxis: {
      type: 'log',
      name: 'size (records per payload)',
      nameLocation: 'middle',
      nameGap: 24,
      min: 'dataMin',
      max: 'dataMax',
    },
    yAxis: { type: 'log', axisLabel: { formatter: formatTime } },
    series: lines.map((l, i) => ({
      type: 'line',
      name: l.name,
      data: l.points,
      symbolSize: 6,
      itemStyle: { color: chartColor(`#${i}`, i) },
      endLabel: { show: true, formatter: l.name, fontSize: 11 },
    })),
  };
}
