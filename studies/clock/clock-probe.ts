// Q1: resolution and cost of the CPU clocks reachable from Node without a native addon.
// node build/studies/clock/clock-probe.js (also with node@22, bun, `deno run -A`)
import { openSync, readSync, readFileSync } from 'node:fs';
import { helpRequested } from '../lib/lib.js';

helpRequested(
  'node build/studies/clock/clock-probe.js: cost, step and freshness of the clocks reachable from Node (about 5 s)',
);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}; // ns
const fd = openSync('/proc/thread-self/schedstat', 'r');
const buf = Buffer.alloc(128);
const sched = () => {
  const n = readSync(fd, buf, 0, 128, 0);
  const s = buf.toString('latin1', 0, n);
  return Number(s.slice(0, s.indexOf(' ')));
};
const schedFile = () => {
  const s = readFileSync('/proc/thread-self/schedstat', 'latin1');
  return Number(s.slice(0, s.indexOf(' ')));
};
const wall = () => performance.now() * 1e6;
const hr = () => Number(process.hrtime.bigint());
/** process.threadCpuUsage: Node 23.9+ (absent from Node 20's types and runtime) */
const threadCpuUsage = (process as { threadCpuUsage?: () => { user: number; system: number } }).threadCpuUsage;

function cost(name: string, f: () => number, n = 20000): void {
  for (let i = 0; i < 1000; i++) f();
  const t0 = hr();
  for (let i = 0; i < n; i++) f();
  const ns = (hr() - t0) / n;
  console.log(`${name.padEnd(34)} cost ${ns.toFixed(0).padStart(6)} ns/call`);
}
function steps(name: string, f: () => number, n = 200): void {
  // smallest and median positive step seen when spinning on the clock
  const st: number[] = [];
  let a = f();
  while (st.length < n) {
    const b = f();
    if (b !== a) {
      st.push(b - a);
      a = b;
    }
  }
  st.sort((x, y) => x - y);
  console.log(
    `${name.padEnd(34)} step min ${st[0].toFixed(0)} ns, median ${st[n >> 1].toFixed(0)} ns, p90 ${st[Math.floor(n * 0.9)].toFixed(0)} ns`,
  );
}
function spin(us: number): number {
  const t = wall() + us * 1000;
  let x = 0;
  while (wall() < t) x++;
  return x;
}
function staleness(name: string, f: () => number): void {
  // busy 200 µs between reads: a fresh clock advances ~200 µs each time, a stale one in ticks
  const d: number[] = [];
  let a = f();
  for (let i = 0; i < 200; i++) {
    spin(200);
    const b = f();
    d.push(b - a);
    a = b;
  }
  d.sort((x, y) => x - y);
  const zeros = d.filter((x) => x === 0).length;
  console.log(
    `${name.padEnd(34)} after 200 µs busy: min ${(d[0] / 1e3).toFixed(0)} µs median ${(d[100] / 1e3).toFixed(0)} µs max ${(d[199] / 1e3).toFixed(0)} µs, ${zeros}/200 reads unchanged`,
  );
}
console.log(`node ${process.version}, load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
cost('performance.now()', wall);
cost('process.hrtime.bigint()', hr);
cost('process.cpuUsage()', cpu);
cost('schedstat (open fd, pread)', sched);
cost('schedstat (readFileSync)', schedFile, 5000);
cost('cpuUsage + schedstat', () => {
  cpu();
  return sched();
});
if (threadCpuUsage)
  cost('process.threadCpuUsage()', () => {
    const u = threadCpuUsage();
    return u.user + u.system;
  });
steps('performance.now()', wall);
steps('process.cpuUsage() user+system', cpu);
steps('schedstat', sched, 50);
staleness('process.cpuUsage() user+system', cpu);
staleness('schedstat alone', sched);
staleness('schedstat right after cpuUsage()', () => {
  cpu();
  return sched();
});
if (threadCpuUsage)
  staleness('process.threadCpuUsage()', () => {
    const u = threadCpuUsage();
    return (u.user + u.system) * 1000;
  });
