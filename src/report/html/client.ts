// The page's script: filters, baseline choice, URL-hash state and chart drawing. Shipped verbatim
// (see client-bundle.ts) with the functions it calls; `boot` is the entry point. Self-contained
// function declarations only.
import type { ViewData } from './view.js';
import type { ViewState } from './rebase.js';
import { defaultState, indexCases } from './rebase.js';
import { escapeHtml } from './escape.js';
import { renderBody } from './sections.js';
import { ratioOptionFor, scalingOptionFor, scatterOptionFor } from './chart-data.js';

/** The part of ECharts the page uses. */
export interface ChartLibrary {
  init(
    el: HTMLElement,
    theme: null,
    opts: { renderer: 'svg' },
  ): { setOption(o: unknown): void; dispose(): void; resize(): void };
}

/** Reads the state from a URL hash like `#serializer=json,typia&class=parse&baseline=typia`; unknown values are dropped. */
export function parseState(hash: string, data: ViewData): ViewState {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const list = (key: string, known: string[]) => {
    const v = p.get(key);
    return v === null ? null : v.split(',').filter((x) => known.includes(x));
  };
  const b = p.get('baseline');
  return {
    serializer: list('serializer', data.serializers),
    cls: list('class', data.classes),
    direction: list('direction', data.directions),
    target: list('target', data.targets),
    baseline: b !== null && data.serializers.includes(b) ? b : null,
  };
}

/** Writes a state as a URL hash (only what differs from the default); `''` for the default. */
export function stateHash(state: ViewState): string {
  const parts: string[] = [];
  const add = (key: string, v: string[] | null) => {
    if (v !== null) parts.push(`${key}=${v.map(encodeURIComponent).join(',')}`);
  };
  add('serializer', state.serializer);
  add('class', state.cls);
  add('direction', state.direction);
  add('target', state.target);
  if (state.baseline) parts.push(`baseline=${encodeURIComponent(state.baseline)}`);
  return parts.length ? `#${parts.join('&')}` : '';
}

/** The filter bar: a fieldset of checkboxes per filter (target only when there are several) and the baseline choice. */
export function renderControls(data: ViewData, state: ViewState): string {
  const box = (key: string, title: string, all: string[], shown: string[] | null) =>
    `<fieldset data-filter="${key}"><legend>${title}</legend>${all.map((v) => `<label><input type="checkbox" value="${escapeHtml(v)}"${shown === null || shown.includes(v) ? ' checked' : ''}> ${escapeHtml(v)}</label>`).join('')}<button type="button" class="all" data-filter="${key}">all</button></fieldset>`;
  const options = data.serializers
    .map((s) => `<option value="${escapeHtml(s)}"${state.baseline === s ? ' selected' : ''}>${escapeHtml(s)}</option>`)
    .join('');
  return (
    box('serializer', 'Serializer', data.serializers, state.serializer) +
    box('class', 'Class', data.classes, state.cls) +
    box('direction', 'Direction', data.directions, state.direction) +
    (data.targets.length > 1 ? box('target', 'Target', data.targets, state.target) : '') +
    `<fieldset><legend>Baseline</legend><select id="jb-baseline"><option value="">as measured (per class)</option>${options}</select> <span class="dim">or click a serializer's name</span></fieldset><button type="button" id="jb-reset">Reset view</button>`
  );
}

/** Starts the page: reads the state from the hash, renders, draws the charts, and wires every control. */
export function boot(data: ViewData, lib: ChartLibrary): void {
  const index = indexCases(data);
  const body = document.getElementById('jb-body') as HTMLElement;
  const controls = document.getElementById('jb-controls') as HTMLElement;
  let state: ViewState = parseState(location.hash, data);
  let charts: { dispose(): void; resize(): void }[] = [];
  const draw = () => {
    charts.forEach((c) => c.dispose());
    charts = [];
    body.querySelectorAll<HTMLElement>('.chart').forEach((el) => {
      const gi = Number(el.dataset.group);
      const kind = el.dataset.kind;
      const option =
        kind === 'ratio'
          ? ratioOptionFor(data, index, gi, Number(el.dataset.section), state)
          : kind === 'scatter'
            ? scatterOptionFor(data, gi, state)
            : scalingOptionFor(data, Number(el.dataset.scaling), state);
      if (!option) {
        el.style.display = 'none';
        return;
      }
      const chart = lib.init(el, null, { renderer: 'svg' });
      chart.setOption(option);
      el.dataset.rendered = 'true';
      charts.push(chart);
    });
  };
  const render = () => {
    controls.innerHTML = renderControls(data, state);
    body.innerHTML = renderBody(data, index, state);
    draw();
  };
  const update = (next: ViewState) => {
    state = next;
    history.replaceState(null, '', stateHash(state) || location.pathname + location.search);
    render();
  };
  controls.addEventListener('change', (e) => {
    const t = e.target as HTMLInputElement;
    if (t.id === 'jb-baseline') {
      update({ ...state, baseline: t.value || null });
      return;
    }
    const fs = t.closest('fieldset') as HTMLElement | null;
    const key = fs?.dataset.filter;
    if (!fs || !key) return;
    const boxes = [...fs.querySelectorAll<HTMLInputElement>('input[type=checkbox]')];
    const shown = boxes.filter((b) => b.checked).map((b) => b.value);
    const value = shown.length === boxes.length ? null : shown;
    update({ ...state, [key === 'class' ? 'cls' : key]: value } as ViewState);
  });
  controls.addEventListener('click', (e) => {
    if ((e.target as HTMLElement).closest('#jb-reset')) {
      update(defaultState());
      return;
    }
    const b = (e.target as HTMLElement).closest('button.all') as HTMLElement | null;
    if (b && b.dataset.filter)
      update({ ...state, [b.dataset.filter === 'class' ? 'cls' : b.dataset.filter]: null } as ViewState);
  });
  body.addEventListener('click', (e) => {
    const b = (e.target as HTMLElement).closest('button.pick') as HTMLElement | null;
    if (b) update({ ...state, baseline: state.baseline === b.dataset.baseline ? null : (b.dataset.baseline ?? null) });
  });
  window.addEventListener('hashchange', () => {
    state = parseState(location.hash, data);
    render();
  });
  window.addEventListener('resize', () => charts.forEach((c) => c.resize()));
  document.addEventListener('click', (e) => {
    const a = (e.target as HTMLElement).closest('a[data-scroll]') as HTMLElement | null;
    if (!a) return;
    e.preventDefault();
    document.getElementById(a.dataset.scroll as string)?.scrollIntoView();
  });
  render();
}
