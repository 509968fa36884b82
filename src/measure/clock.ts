/**
 * The lab's clock: `performance.now()` (a monotonic high-resolution clock in Node, Bun, Deno and
 * browsers) converted to nanoseconds. Samples last ~10 ms, so its resolution (µs or better on
 * Node; coarser in browsers) is far below a sample's length.
 */
export function nowNs(): number {
  return performance.now() * 1e6;
}

/** Smallest positive step of the clock seen in `tries` successive reads (ns): the timer resolution recorded with results. */
export function timerResolutionNs(tries = 1000): number {
  let best = Infinity;
  for (let i = 0; i < tries; i++) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return best * 1e6;
}

/** Which clock a case's times and ratio come from: the process CPU clock where the runtime has one, else wall time. */
export type ClockKind = 'cpu' | 'wall';

/**
 * The process CPU clock in ns (user + system time of every thread of the process, from
 * `process.cpuUsage()`: getrusage(RUSAGE_SELF) on Linux), or undefined where the runtime has none
 * (browsers, QuickJS). Node, Bun and Deno (its `process` global) have it.
 *
 * Why: preemption by other processes adds wall time, not CPU time. On this 2-core machine at load
 * ~10, the per-process median ratio of two known functions (JSON.stringify twice ÷ once, 6–10
 * processes) had a CV of 27–133% by wall clock and 1.4–4.9% by process CPU time (issue 13's
 * study, benchmarks/engine/q1-twice.mjs). Resolution: 1 µs steps (median 2 µs between distinct
 * reads), always fresh (a read after 200 µs of work advanced ~200 µs every time; a call costs
 * ~1–9 µs, more under load), so a sample of ≥ 2 ms reads within 0.1%. It counts V8's helper
 * threads (concurrent marking, parallel scavenge, concurrent compilation) too: +1–6% over the main
 * thread for most serializers, +37% for class-transformer (orders/1000, Node 20), which is work the
 * process really does for that serializer (benchmarks/engine/q1-threads.mjs).
 */
export const cpuNowNs: (() => number) | undefined = (() => {
  const p = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process;
  if (typeof p?.cpuUsage !== 'function') return undefined;
  try {
    p.cpuUsage();
  } catch {
    return undefined;
  }
  const read = p.cpuUsage.bind(p);
  return () => {
    const u = read();
    return (u.user + u.system) * 1000;
  };
})();

/**
 * Thrown by the thread clocks when a file descriptor they read no longer holds the file they opened: code in the
 * process closed it and opened something else under its number (hx10: a prepare() pointed the measuring thread's fd
 * at a file reading "0 0 0", so every cost-check block read 0 ns and passed; another pointed a helper thread's fd at
 * its own spinner's schedstat, hiding the spinner from the other-threads rule). The case cannot be timed.
 */
export class ClockTampered extends Error {
  constructor(path: string) {
    super(
      `the thread CPU clock's file descriptor for ${path} was replaced during the case (code in the worker closed it and opened another file under its number): the case cannot be timed`,
    );
    this.name = 'ClockTampered';
  }
}

/**
 * Thrown by a timed sample whose wall clock (`performance.now`) did not move while the CPU clock read a millisecond or
 * more: code in the worker replaced or froze it (hx24 PG2: `performance.now = () => 0` in a prepare() made the pilot
 * double its ops forever, a plain "no result after 60 s"). The case cannot be timed.
 */
export class WallClockStopped extends Error {
  constructor(cpuMs: number) {
    super(
      `performance.now() did not move over a timed sample that took ${cpuMs.toFixed(1)} ms of CPU: code in the worker replaced or froze it, so the case cannot be timed`,
    );
    this.name = 'WallClockStopped';
  }
}

/** What the thread clocks take of node:fs when this module loads (before any user code). */
type ClockFs = {
  openSync(path: string, flags: string): number;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  fstatSync(fd: number): { dev: number; ino: number };
};

/**
 * Opens `path` for the thread clocks and returns its fd with a check that the fd still holds that file (its device
 * and inode, by `fstatSync` taken at load; about 1 µs) — @throws ClockTampered from the check when it does not.
 */
function pinnedFd(fs: ClockFs, path: string): { fd: number; check(): void } {
  const { fstatSync } = fs;
  const fd = fs.openSync(path, 'r');
  const { dev, ino } = fstatSync(fd);
  return {
    fd,
    check: () => {
      let st: { dev: number; ino: number };
      try {
        st = fstatSync(fd);
      } catch {
        throw new ClockTampered(path);
      }
      if (st.dev !== dev || st.ino !== ino) throw new ClockTampered(path);
    },
  };
}

/**
 * How long {@link threadCpuNowNs} sleeps before each read (ms): any sleep brings the thread's counter up to date, but
 * a timeout of 1 µs often expired before the thread left the CPU (a stale read: 0 ns over a 1 ms block of calls,
 * seen at load 17); at 50 µs (~100 µs with the kernel's timer slack) the thread either sleeps or is preempted on the
 * way, and either brings its counter up to date.
 */
const FRESH_SLEEP_MS = 0.05;

/**
 * The measuring thread's own CPU time in ns (the first field of Linux's `/proc/thread-self/schedstat`, the
 * scheduler's `sum_exec_runtime` of this thread alone), or undefined where there is none: not Linux, a runtime
 * without `process.getBuiltinModule` (Node before 20.16) or without `Atomics.wait` on its main thread (browsers,
 * QuickJS), or a kernel whose file cannot be read. Opened once, when this module loads, on the thread that loads it
 * (the worker's main thread: the one that runs the samples).
 *
 * Why: {@link cpuNowNs} counts every thread of the process, so a thread a config starts (a `worker_threads` spinner
 * that burns while the baseline's samples run, hx8 SPIN) is charged to whichever side runs at the time; the
 * difference of the two clocks over a side's samples is the CPU other threads burnt meanwhile.
 *
 * The kernel updates the counter of a running thread only at a scheduler tick (4 ms at HZ=250) or when the thread
 * leaves the CPU, and a read of the file does neither: read during a busy loop it lags by up to a tick (a fresh
 * process reads 0; Node 20 here: steps of 0.24 ms median at load 1, more under load). So each read first sleeps
 * {@link FRESH_SLEEP_MS} (`Atomics.wait` with a timeout: the thread leaves the CPU and its counter is brought up to
 * date) and reads again, up to 3 times, until the file's third field (times the thread was put on a CPU) has moved
 * across the sleep, i.e. the thread did leave the CPU during it. A read costs 10–35 µs of CPU and 0.15–0.4 ms of
 * wall time at load 20 (a sleep, two reads of the file), and follows the process clock within 1–2% over 1 ms of the
 * thread's own work (Node 20 and 22, Bun 1.4, Deno 2.9 on Linux 6.18; bench/other-threads/tclock.mjs,
 * docs/limits.md). Never inside a timed sample.
 */
export const threadCpuNowNs: (() => number) | undefined = (() => {
  const p = (
    globalThis as {
      process?: { platform?: string; getBuiltinModule?: (id: string) => unknown };
    }
  ).process;
  if (p?.platform !== 'linux' || typeof p.getBuiltinModule !== 'function' || typeof Atomics?.wait !== 'function')
    return undefined;
  try {
    const fs = p.getBuiltinModule('node:fs') as ClockFs | undefined;
    if (!fs) return undefined;
    // taken now, when the worker loads, before any config or serializer code: a prepare() that replaces
    // fs.readSync or Atomics.wait later (hx9: a fake /proc reading hid a spinner) cannot reach this clock; the fd
    // is checked to hold the file it opened at every read (hx10: one swapped under its number read "0 0 0")
    const { readSync } = fs;
    const wait = Atomics.wait;
    const pinned = pinnedFd(fs, '/proc/thread-self/schedstat');
    const fd = pinned.fd;
    const buf = new Uint8Array(96);
    const cell = new Int32Array(new SharedArrayBuffer(4));
    /** the file's fields: "<ns on CPU> <ns waiting> <times put on a CPU>" */
    const fields = (): [number, number] => {
      pinned.check();
      const n = readSync(fd, buf, 0, buf.length, 0);
      const out: number[] = [];
      let v = 0;
      let digits = 0;
      for (let i = 0; i <= n; i++) {
        const b = i < n ? buf[i] : 32;
        if (b >= 48 && b <= 57) {
          v = v * 10 + (b - 48);
          digits++;
        } else if (digits) {
          out[out.length] = v;
          v = 0;
          digits = 0;
        }
      }
      if (out.length < 3) throw new Error('/proc/thread-self/schedstat: not three numbers');
      return [out[0], out[2]];
    };
    const read = () => {
      let ns = 0;
      for (let k = 0; k < 3; k++) {
        const before = fields()[1];
        wait(cell, 0, 0, FRESH_SLEEP_MS);
        const [runNs, count] = fields();
        ns = runNs;
        // put on a CPU again since just before the sleep: it left the CPU, so its counter is up to date
        if (count !== before) break;
      }
      return ns;
    };
    // a counter that never moves over 1 ms of work is no clock (a kernel without schedstats reads "0 0 0")
    const a = read();
    const until = performance.now() + 1;
    while (performance.now() < until);
    if (!(read() > a)) return undefined;
    return read;
  } catch {
    return undefined;
  }
})();

/**
 * The CPU time (ns) of the threads this process had when this module loaded, the measuring thread excepted: the
 * runtime's own (V8's platform workers, which run the GC's and the compiler's background tasks; the runtime's
 * service threads), summed from each one's `/proc/self/task/<tid>/schedstat` (Linux; undefined elsewhere, or where
 * {@link threadCpuNowNs} is undefined). This module loads when the worker starts, before any config or serializer
 * code, so a thread that code starts (a `worker_threads` Worker, hx8's spinner) is not among them: over a side's
 * samples, process CPU − the measuring thread's − these is the CPU of threads started later (and of threads that
 * ended). A thread that ended keeps the last time read. Read without a sleep: the counters lag a running thread by up
 * to a tick, as the process clock's own sum of them does.
 */
export const helperThreadsCpuNs: (() => number) | undefined = (() => {
  type Fs = ClockFs & {
    readdirSync(path: string): string[];
    readlinkSync(path: string): string;
  };
  const p = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (!threadCpuNowNs || typeof p?.getBuiltinModule !== 'function') return undefined;
  try {
    const fs = p.getBuiltinModule('node:fs') as Fs;
    // taken at load, as threadCpuNowNs's: user code cannot replace what this clock reads with
    const { readSync } = fs;
    const own = fs.readlinkSync('/proc/thread-self').split('/').pop();
    const fds = fs
      .readdirSync('/proc/self/task')
      .filter((tid) => tid !== own)
      .map((tid) => pinnedFd(fs, `/proc/self/task/${tid}/schedstat`));
    const last = fds.map(() => 0);
    const buf = new Uint8Array(96);
    return () => {
      let sum = 0;
      for (let k = 0; k < fds.length; k++) {
        // outside the try: a replaced fd is tampering (ClockTampered), not a thread that ended
        fds[k].check();
        try {
          const n = readSync(fds[k].fd, buf, 0, buf.length, 0);
          let v = 0;
          let i = 0;
          for (; i < n && buf[i] >= 48 && buf[i] <= 57; i++) v = v * 10 + (buf[i] - 48);
          if (i > 0) last[k] = v;
        } catch {
          // the thread ended: its last time read stands
        }
        sum += last[k];
      }
      return sum;
    };
  } catch {
    return undefined;
  }
})();

/** The finest step the cost checks' wall clock ({@link fineWallNowNs}) may have (ns): a coarser clock reads too few steps over a short block. */
const FINE_WALL_STEP_NS = 1000;

/**
 * `performance.now()` as it was when this module loaded (before any config or serializer code: a config that
 * replaces `performance.now` later does not reach it), in ns — where its smallest step, over 20 tries at load, is at
 * most {@link FINE_WALL_STEP_NS} (Node 20 here: ~0.3 µs); else undefined (browsers coarsen it to 5–100 µs). `step`:
 * that smallest step (ns). The cost checks time blocks too short for the thread clock's read cost on it
 * (cache-checks.ts `CostClocks`).
 */
export const fineWallNowNs: { now: () => number; step: number } | undefined = (() => {
  const perf = (globalThis as { performance?: { now?: () => number } }).performance;
  const f = perf?.now;
  if (typeof f !== 'function') return undefined;
  const read = () => f.call(perf) * 1e6;
  let step = Infinity;
  for (let i = 0; i < 20; i++) {
    const a = read();
    let b = read();
    for (let k = 0; b === a && k < 1e6; k++) b = read();
    if (b > a) step = Math.min(step, b - a);
  }
  return step <= FINE_WALL_STEP_NS ? Object.freeze({ now: read, step }) : undefined;
})();
