import { test } from 'node:test';
import assert from 'node:assert/strict';
import vm from 'node:vm';
import * as echarts from 'echarts';
import { renderHtml } from '../../src/report/html/page.js';
import { buildModel } from '../../src/report/model.js';
import { toViewData } from '../../src/report/html/view.js';
import { defaultState, indexCases, sectionRows } from '../../src/report/html/rebase.js';
import { renderBody } from '../../src/report/html/sections.js';
import { ratioOptionFor, scalingOptionFor, scatterOptionFor } from '../../src/report/html/chart-data.js';
import { binaryTicks, ratioChartOption, scalingChartOption, scatterChartOption } from '../../src/report/html/charts.js';
import { shippedSource, SHIPPED_FUNCTIONS } from '../../src/report/html/client-bundle.js';
import { parseState, stateHash } from '../../src/report/html/client.js';
import { fixture, hostileResults } from './support.js';

const stub = { chartLibrary: { name: 'stub', version: '0', license: 'MIT', source: '' }, script: '' };

test('a serializer error message containing <script> stays text in the HTML report', () => {
  const html = renderHtml(hostileResults(), stub);
  assert.equal((html.match(/<script\b/g) ?? []).length, 3, 'only the data, library and page scripts');
  assert.doesNotMatch(html, /<script>window\.__pwned/);
  assert.doesNotMatch(html, /<img src=x/);
  assert.doesNotMatch(html, /<b onmouseover/);
  assert.match(html, /&lt;\/script&gt;&lt;script&gt;window\.__pwned = 1&lt;\/script&gt;/);
  assert.match(html, /&lt;script&gt;window\.__pwned=3&lt;\/script&gt;/);
  const data = /<script type="application\/json" id="jb-data">([\s\S]*?)<\/script>/.exec(html)![1];
  assert.doesNotMatch(data, /</, 'no raw < inside the embedded data');
  assert.equal(
    JSON.parse(data).cases.find((c: { status: string }) => c.status === 'failed').reason,
    'prepare() threw: </script><script>window.__pwned = 1</script>',
  );
});

test('the HTML report is self-contained: no external script, stylesheet, image or font', () => {
  const html = renderHtml(fixture('single'));
  assert.doesNotMatch(html, /<script\b[^>]*\bsrc=/i);
  // outside the inline scripts (ECharts holds '<img src=' in a string for rich tooltips)
  const markup = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '<script></script>');
  assert.doesNotMatch(markup, /<(img|iframe|source|video|audio|embed|object)\b/i);
  assert.doesNotMatch(markup, /<link\b/i);
  assert.doesNotMatch(markup, /@import|url\(/i);
  assert.doesNotMatch(markup, /\b(src|href)="(https?:)?\/\//i);
  assert.ok(html.length > 1_000_000, 'ECharts is inlined');
  assert.match(html, /Apache ECharts 6\./);
});

test('every shipped function is a named declaration, and the bundle alone renders the same body as the build', () => {
  const src = shippedSource();
  for (const f of SHIPPED_FUNCTIONS) assert.match(src, new RegExp(`function ${f.name}\\(`));
  const data = toViewData(buildModel([fixture('two-targets')]));
  const context = vm.createContext({ URLSearchParams, data });
  vm.runInContext(
    `${src}\nvar out = renderBody(data, indexCases(data), defaultState()); var ratio = ratioOptionFor(data, indexCases(data), 0, 0, defaultState());`,
    context,
  );
  assert.equal(context.out, renderBody(data, indexCases(data), defaultState()));
  assert.equal((context.ratio as { series: unknown[] }).series.length, 4, 'a bar and an error-bar series per target');
});

test('the chart options render to SVG with ECharts: bars per serializer, error bars, points and scaling lines', () => {
  const data = toViewData(buildModel([fixture('scaling')]));
  const index = indexCases(data);
  const svg = (option: Record<string, unknown> | null) => {
    assert.ok(option);
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 800, height: 400 });
    chart.setOption(option);
    const out = chart.renderToSVGString();
    chart.dispose();
    return out;
  };
  const ratio = svg(ratioOptionFor(data, index, 0, 0, defaultState()));
  for (const name of data.groups[0].sections[0].serializers.filter((s) =>
    data.cases.some((c) => c.group === data.groups[0].key && c.serializer === s && c.status === 'measured'),
  ))
    assert.match(ratio, new RegExp(`>${name}<`));
  assert.match(ratio, /JSON\.stringify = 1/);
  const scatter = svg(scatterOptionFor(data, 0, defaultState()));
  assert.match(scatter, /Speed vs allocation/);
  assert.equal(data.scaling.length > 0, true, 'the two-size run has scaling charts');
  const scaling = svg(scalingOptionFor(data, 0, defaultState()));
  assert.match(scaling, /log-log/);
  assert.match(scaling, /<path[^>]*d="M/);
});

test('with two targets the scatter series get distinct colours, and an estimated allocation keeps its ~', () => {
  const o = scatterChartOption('t', [
    { name: 'json', series: 'serialize · node 20.20.2', time: 1000, alloc: 640 },
    { name: 'json', series: 'serialize · bun 1.1.30', time: 900, alloc: 700, estimate: true },
  ]) as {
    series: {
      itemStyle: { color: string };
      data: (unknown[] | { value: unknown[] })[];
      label: { formatter(p: { data: unknown }): string };
    }[];
    tooltip: { formatter(p: { data: unknown[] }): string };
  };
  assert.notEqual(o.series[0].itemStyle.color, o.series[1].itemStyle.color);
  assert.match(o.tooltip.formatter({ data: o.series[1].data[0] as unknown[] }), /~700 B\/op \(estimated\)/);
  // the names are the labels series' (the last): each point's, the estimate with its ~
  const labels = o.series[o.series.length - 1];
  const texts = labels.data.map((d) =>
    labels.label.formatter({ data: d, ...(Array.isArray(d) ? {} : { value: d.value }) } as { data: unknown }),
  );
  assert.deepEqual([...texts].sort(), ['json', 'json ~']);
  // one target: the class keeps its colour
  const one = scatterChartOption('t', [
    { name: 'json', series: 'serialize', time: 1, alloc: 1 },
    { name: 'json', series: 'parse', time: 1, alloc: 1 },
  ]) as { series: { itemStyle: { color: string } }[] };
  assert.deepEqual(
    one.series.slice(0, 2).map((x) => x.itemStyle.color),
    ['#0072B2', '#009E73'],
  );
});

test('the speed-vs-allocation labels at 800 px neither overlap nor leave the chart; crowded points share one label (nu6: json over typebox, names cut at the edge)', () => {
  const points = [
    ['json', 'parse', 225e3, 75e3],
    ['secure-json-parse', 'parse', 290e3, 76e3],
    ['superjson', 'parse', 390e3, 160e3],
    ['typebox', 'validate', 245e3, 80e3],
    ['typia', 'validate', 250e3, 84e3],
    ['ajv-jtd', 'validate', 2.04e6, 1.5e6],
    ['zod', 'transform', 420e3, 300e3],
    ['valibot', 'transform', 580e3, 400e3],
    ['arktype', 'transform', 2.52e6, 1.45e6],
  ].map(([name, series, time, alloc]) => ({
    name: name as string,
    series: series as string,
    time: time as number,
    alloc: alloc as number,
  }));
  const width = 752;
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height: 340 });
  chart.setOption(scatterChartOption('t', points));
  const svg = chart.renderToSVGString();
  chart.dispose();
  const names = new Set(points.map((p) => p.name));
  // each label's box: 11 px text, about 6.2 px a character, anchored at its start or its end
  const boxes = [
    ...svg.matchAll(
      /<text[^>]*text-anchor="(start|end|middle)"[^>]*translate\(([\d.]+) ([\d.]+)\)[^>]*>([^<]*)<\/text>/g,
    ),
  ]
    .filter((m) => m[4].split(/, | \+/)[0] && names.has(m[4].split(/, | \+/)[0]))
    .map((m) => {
      const [x, y, w] = [Number(m[2]), Number(m[3]), m[4].length * 6.2];
      const left = m[1] === 'start' ? x : m[1] === 'end' ? x - w : x - w / 2;
      return { text: m[4], left, right: left + w, top: y - 7, bottom: y + 7 };
    });
  assert.ok(boxes.length >= 5, `labels: ${boxes.map((b) => b.text).join(' | ')}`);
  for (const b of boxes) assert.ok(b.left >= 0 && b.right <= width, `${b.text} leaves the chart: ${b.left}–${b.right}`);
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      assert.ok(
        !(a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom),
        `${a.text} meets ${b.text}`,
      );
    }
  // the rightmost points are labelled on their left (never cut), the crowd at the bottom left in one label
  assert.ok(boxes.some((b) => b.text === 'arktype' && b.right <= width - 40));
  assert.ok(
    boxes.some((b) => /^json(, | \+)/.test(b.text)),
    boxes.map((b) => b.text).join(' | '),
  );
});

test('a linear bytes axis ticks at round KiB or MiB (1024-based), not at round numbers of bytes', () => {
  // the new user's chart ticked at 19.5, 39.1, 58.6 KiB: ECharts' steps of 20,000 bytes
  assert.deepEqual(binaryTicks(11_900, 91_400), { min: 0, max: 102_400, interval: 20_480 });
  assert.deepEqual(binaryTicks(300, 900), { min: 200, max: 1000, interval: 200 });
  assert.deepEqual(binaryTicks(4_200_000, 9_000_000), { min: 4_194_304, max: 9_437_184, interval: 1_048_576 });
  const o = scatterChartOption('t', [
    { name: 'a', series: 's', time: 1000, alloc: 11_900 },
    { name: 'b', series: 's', time: 2000, alloc: 91_400 },
  ]) as { yAxis: { interval: number }; series: { labelLayout?: { hideOverlap: boolean } }[] };
  assert.equal(o.yAxis.interval, 20_480);
  assert.equal(
    o.series[o.series.length - 1].labelLayout?.hideOverlap,
    true,
    'a label that still meets another is hidden',
  );
});

test('the ratio bars sit on a log axis between powers of ten around every whisker and 1', () => {
  const o = ratioChartOption(
    't',
    [
      { name: 'slow', values: [{ ratio: 57.6, interval: [20, 160] }] },
      { name: 'fast', values: [{ ratio: 0.3, interval: [0.25, 0.36] }] },
    ],
    ['node'],
    'json',
    'serialize',
  ) as { xAxis: { type: string; min: number; max: number } };
  assert.deepEqual([o.xAxis.type, o.xAxis.min, o.xAxis.max], ['log', 0.1, 1000]);
});

test('choosing another baseline divides the ratios by its ratio and adds the errors in quadrature', () => {
  const data = toViewData(buildModel([fixture('single')]));
  const index = indexCases(data);
  const group = data.groups[0];
  const section = group.sections[0];
  const t = data.targets[0];
  const measured = sectionRows(index, group, section, t, defaultState());
  const fjs = measured.find((r) => r.serializer === 'fast-json-stringify')!;
  const typia = measured.find((r) => r.serializer === 'typia')!;
  const rebased = sectionRows(index, group, section, t, { ...defaultState(), baseline: 'typia' });
  const r = rebased.find((x) => x.serializer === 'fast-json-stringify')!;
  assert.equal(r.derived, true);
  assert.ok(Math.abs(r.ratio! - fjs.ratio! / typia.ratio!) < 1e-12);
  // log half-widths added in quadrature: the lower side from fjs's lower and typia's upper
  const down = Math.hypot(Math.log(fjs.ratio! / fjs.interval![0]), Math.log(typia.interval![1] / typia.ratio!));
  const up = Math.hypot(Math.log(fjs.interval![1] / fjs.ratio!), Math.log(typia.ratio! / typia.interval![0]));
  assert.ok(Math.abs(r.interval![0] - r.ratio! * Math.exp(-down)) < 1e-12);
  assert.ok(Math.abs(r.interval![1] - r.ratio! * Math.exp(up)) < 1e-12);
  assert.ok(r.interval![0] > 0 && r.interval![0] < r.ratio! && r.ratio! < r.interval![1]);
  assert.deepEqual(
    [rebased.find((x) => x.serializer === 'typia')!.ratio, rebased.find((x) => x.serializer === 'typia')!.interval],
    [1, [1, 1]],
  );
});

test('the view state round-trips through the URL hash, and unknown values are dropped', () => {
  const data = toViewData(buildModel([fixture('two-targets')]));
  const state = {
    serializer: ['json', 'typia'],
    cls: null,
    direction: ['serialize'],
    target: ['bun 1.1.30'],
    baseline: 'typia',
  };
  const hash = stateHash(state);
  assert.equal(hash, '#serializer=json,typia&direction=serialize&target=bun%201.1.30&baseline=typia');
  assert.deepEqual(parseState(hash, data), state);
  assert.deepEqual(parseState('#serializer=json,nope&baseline=nope', data), {
    ...defaultState(),
    serializer: ['json'],
  });
  assert.equal(stateHash(defaultState()), '');
});

test('chart tooltips, which ECharts renders as HTML, escape serializer names', () => {
  const option = scatterChartOption('t', [
    { name: '<img src=x onerror=alert(1)>', series: 'serialize', time: 10, alloc: 20 },
  ]);
  const formatter = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
  assert.equal(
    formatter({ data: [10, 20, '<img src=x onerror=alert(1)>'] }),
    '&lt;img src=x onerror=alert(1)&gt;<br>10.0 ns/op · 20 B/op',
  );
  const scaling = scalingChartOption('t', [{ name: '<b>x</b>', points: [[1, 2]] }]);
  assert.match(
    (scaling.tooltip as { formatter: (p: unknown) => string }).formatter({ seriesName: '<b>x</b>', data: [1, 2] }),
    /^&lt;b&gt;x&lt;\/b&gt;<br>/,
  );
});

test('the speed-vs-allocation chart labels every axis tick differently when all points allocate (about) the same', () => {
  const labels = (points: { time: number; alloc: number }[]) => {
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 800, height: 400 });
    chart.setOption(
      scatterChartOption(
        't',
        points.map((p, i) => ({ name: `s${i}`, series: 'serialize', ...p })),
      ),
    );
    const svg = chart.renderToSVGString();
    chart.dispose();
    const all = [...svg.matchAll(/>([^<>]*?) (B|KiB|ns|µs)</g)].map((m) => `${m[1]} ${m[2]}`);
    return { bytes: all.filter((l) => / (Ki)?B$/.test(l)), times: all.filter((l) => / (ns|µs)$/.test(l)) };
  };
  for (const points of [
    [
      { time: 1590, alloc: 640.25 },
      { time: 1600, alloc: 640.75 },
      { time: 1595, alloc: 640.5 },
    ],
    [
      { time: 1590, alloc: 640 },
      { time: 4340, alloc: 640 },
    ],
    [
      { time: 1590, alloc: 0 },
      { time: 1600, alloc: 0 },
    ],
  ]) {
    const { bytes, times } = labels(points);
    assert.ok(bytes.length >= 2 && times.length >= 2, `ticks on both axes: ${bytes} / ${times}`);
    assert.equal(new Set(bytes).size, bytes.length, `distinct byte labels: ${bytes.join(', ')}`);
    assert.equal(new Set(times).size, times.length, `distinct time labels: ${times.join(', ')}`);
    assert.ok(
      bytes.every((l) => !l.startsWith('-')),
      `no negative bytes: ${bytes.join(', ')}`,
    );
  }
});
