import jstatModule from 'jstat';

/**
 * Seals the statistics library jsonbench's intervals come from, before any user code loads (hostile
 * tester hx4, security: a config did `require('jstat').jStat.studentt.inv = () => 0.001`; CommonJS
 * modules are shared through the require cache, so the host's own Student-t quantile became tiny,
 * every interval in results.json collapsed, and a ratio of 0.98 read "clearly faster"). The host
 * guard (config/host-guard.ts) watches built-ins, not packages.
 *
 * config/user-config.ts (which loads every config) and results/io.ts (which every run and every
 * reader of results loads) import this module, so it is evaluated before any config's top level
 * (`--help` does not load it: jstat takes 4–8 ms): jStat's own properties (the distributions and
 * the special functions they call: `ibetainv`, `gammaln`, …) and the distributions stats/** calls
 * (`studentt`, `normal`, `centralF`, `beta`) are frozen. A config that assigns to them then throws a
 * TypeError at its top level (ES modules are strict), and the run stops naming the config; in sloppy
 * code the assignment does nothing. {@link statisticsIntact} checks known quantiles besides.
 */

// jstat is CommonJS; its default export is the jStat object (as stats/estimate.ts reads it)
const jStat = (jstatModule as unknown as { jStat?: typeof jstatModule }).jStat ?? jstatModule;

for (const name of ['studentt', 'normal', 'centralF', 'beta'] as const) Object.freeze(jStat[name]);
Object.freeze(jStat);

/**
 * Whether jStat's quantiles are still right: t(0.975, 10) = 2.228139, z(0.975) = 1.959964,
 * F(0.95; 5, 10) = 3.325835 (to 1e-5; the published tables' values). False when something changed them
 * in a way the freeze above cannot stop (a patched `Math` function they call: the host guard's).
 */
export function statisticsIntact(): boolean {
  const near = (x: number, want: number) => Math.abs(x - want) < 1e-5;
  return (
    near(jStat.studentt.inv(0.975, 10), 2.2281388519649) &&
    near(jStat.normal.inv(0.975, 0, 1), 1.959963984540054) &&
    near(jStat.centralF.inv(0.95, 5, 10), 3.325834530413)
  );
}
