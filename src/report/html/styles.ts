/** The report's stylesheet, inlined in the page: system fonts, no web fonts, readable at 1280 px and in print. */
export const REPORT_CSS = `
:root { --fg:#1b1f24; --dim:#5b6470; --line:#d8dde3; --bg:#ffffff; --soft:#f4f6f8; --ok:#1a7f37; --bad:#cf222e; --warn:#9a6700; --accent:#0072B2; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif; color:var(--fg); background:var(--bg); }
header.top, main, .summary, .history, .recommendation, .probes, footer { max-width:1280px; margin:0 auto; padding:0 24px; }
header.top { padding-top:20px; }
h1 { font-size:22px; margin:0 0 8px; }
h2 { font-size:19px; margin:28px 0 8px; padding-top:8px; border-top:2px solid var(--fg); }
h3 { font-size:16px; margin:22px 0 4px; }
h4 { font-size:14px; margin:16px 0 4px; text-transform:none; }
code, pre { font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; }
pre { margin:0; white-space:pre-wrap; word-break:break-word; }
.dim { color:var(--dim); font-weight:normal; }
.kvs { display:grid; grid-template-columns:1fr 1fr; gap:2px 32px; margin:6px 0 10px; }
.kv.wide { grid-column:1 / -1; }
.kv { display:grid; grid-template-columns:110px 1fr; gap:12px; padding:2px 0; border-bottom:1px solid var(--soft); }
.kv .k { color:var(--dim); }
.lib { display:inline-block; margin-right:10px; white-space:nowrap; }
.first-look { margin:8px 0; font-style:italic; }
.noise { background:#fff8c5; border:1px solid #d4a72c; padding:8px 12px; border-radius:6px; margin:8px 0; }
.controls { position:sticky; top:0; z-index:10; background:rgba(255,255,255,.97); border-bottom:1px solid var(--line); padding:8px 24px; display:flex; flex-wrap:wrap; gap:6px 18px; align-items:flex-start; }
.controls fieldset { border:0; padding:0; margin:0; display:flex; flex-wrap:wrap; gap:2px 10px; align-items:center; max-width:100%; }
.controls legend { float:left; font-weight:600; margin-right:6px; padding:0; }
.controls label { white-space:nowrap; cursor:pointer; }
.controls button, .controls select { font:inherit; font-size:12px; }
.summary p { margin:8px 0; }
.badge { display:inline-block; padding:0 6px; border-radius:10px; font-size:12px; border:1px solid var(--line); background:var(--soft); white-space:nowrap; }
.badge.measured { color:var(--ok); border-color:#9ad2a8; background:#eefbf1; }
.badge.incorrect, .badge.failed, .badge.crashed, .badge.timeout { color:var(--bad); border-color:#f3a6ab; background:#fff0f0; }
.badge.unsupported, .badge.not-run { color:var(--dim); }
.flag { display:inline-block; margin-left:4px; font-size:12px; color:var(--warn); cursor:help; }
.group { margin:10px 0 26px; }
.payload { color:var(--dim); font-size:12.5px; }
.recommendation ul.recommend { padding-left:0; list-style:none; }
.recommendation ul.recommend > li { margin:8px 0; padding:8px 12px; background:#eef6fc; border-left:4px solid var(--accent); border-radius:0 6px 6px 0; font-size:14.5px; }
.recommendation ul.recommend > li.none { background:var(--soft); border-left-color:var(--line); }
.recommendation ul.recommend ul, .recommendation ul.facts { font-size:13px; color:var(--dim); }
.takeaway { margin:6px 0 8px; padding:8px 12px; background:#eef6fc; border-left:4px solid var(--accent); border-radius:0 6px 6px 0; font-size:14.5px; }
.table-wrap { overflow-x:auto; }
table.results { border-collapse:collapse; width:100%; font-size:13px; }
table.results th, table.results td { padding:4px 8px; border-bottom:1px solid var(--line); text-align:left; vertical-align:top; }
table.results thead th { background:var(--soft); font-weight:600; white-space:nowrap; }
table.results th.target { text-align:center; border-left:2px solid var(--line); }
td.num { text-align:right; white-space:nowrap; font-variant-numeric:tabular-nums; }
td.num .err { color:var(--dim); }
td.num .saves { font-size:11.5px; }
td.why { max-width:48em; }
td.why { color:var(--dim); font-size:12.5px; word-break:break-word; }
td.faster { color:var(--ok); font-weight:600; }
td.slower { color:var(--bad); }
tr.baseline td { background:#f6fbff; }
tr.st-incorrect td, tr.st-failed td, tr.st-crashed td, tr.st-timeout td { background:#fff7f7; }
tr.st-unsupported td { color:var(--dim); }
td.name { white-space:nowrap; }
.summary ul.problems li { white-space:nowrap; overflow:hidden; text-overflow:ellipsis; }
.summary .why { color:var(--dim); }
button.pick { font:inherit; font-weight:600; background:none; border:0; padding:0; color:var(--accent); cursor:pointer; text-align:left; }
button.pick:hover { text-decoration:underline; }
.tag { font-size:11px; color:var(--accent); border:1px solid var(--accent); border-radius:8px; padding:0 5px; }
.ver { color:var(--dim); white-space:nowrap; }
ul.problems { margin:6px 0; padding-left:20px; font-size:13px; }
ul.problems li { margin:3px 0; }
.reason { color:var(--dim); white-space:pre-wrap; max-height:6.5em; overflow:auto; font-size:12.5px; }
.chart { width:100%; min-height:120px; margin:8px 0; }
.chart-grid { display:grid; grid-template-columns:repeat(auto-fit,minmax(480px,1fr)); gap:12px; }
details.code { margin:8px 0; }
details.code summary, .summary summary { cursor:pointer; font-weight:600; }
details.code table { border-collapse:collapse; margin-top:6px; }
details.code th { text-align:left; padding:4px 12px 4px 0; vertical-align:top; white-space:nowrap; }
details.code td { padding:4px 0; }
details.code pre { background:var(--soft); padding:6px 10px; border-radius:6px; }
.warn { color:var(--bad); }
table.probe-matrix td.pm { text-align:center; white-space:nowrap; }
table.probe-matrix td.pm.long { white-space:normal; min-width:10em; max-width:16em; text-align:left; font-size:12px; }
table.probe-matrix td.pm.bad { background:#fff0f0; color:var(--bad); text-align:left; }
table.probe-matrix td.pm details:not([open]) > ul { display:none; }
table.probe-matrix td.pm details ul { white-space:normal; overflow-wrap:anywhere; width:min(560px, 80vw); padding-left:18px; color:var(--fg); font-size:12.5px; }
table.probe-matrix td.pm summary { cursor:pointer; font-weight:600; }
table.probe-matrix th.probe { font-weight:normal; min-width:9em; }
table.probe-matrix tr.fam th { background:var(--soft); text-align:left; }
table.probe-matrix td.m✘, table.probe-matrix td.m– { color:var(--dim); }
footer { color:var(--dim); font-size:12px; margin:40px auto 24px; }
.empty { font-size:16px; color:var(--dim); }
@media print { .controls { display:none; } }
`;
