import { parseCaseTimeout, parseResolve, policies, type RunPolicy } from '../config/policies.js';
import { UsageError } from '../config/usage-error.js';

/**
 * `run`'s flag values that config/policies.ts parses, with the cases its messages left unclear
 * (issue 25, hostile tester hx8): `--resolve 0%` was told `"0%" is not a difference from 0% to 50%`
 * (0% is in that range as written: the bound is exclusive), and `--case-timeout 1ms` was taken, so
 * every case timed out before its first warmup op and the run blamed "a kill from outside
 * jsonbench" without a word of the flag.
 */

/**
 * `--resolve`: as {@link parseResolve}, with 0 and values above 50% refused in words that say the
 * band is (0%, 50%] and what to give instead.
 * @throws UsageError naming `--resolve`
 */
export function resolveFlag(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
  if (m && Number(m[1]) === 0)
    throw new UsageError(
      '--resolve',
      `"${text}" is no difference: the band must be wider than 0% (its lower bound is exclusive; ±0% would never be met, so every case would take extra launches until its budget runs out); give a small positive one such as 0.5% or 1%, or off for only the policy's launches`,
    );
  if (m && Number(m[1]) > 50)
    throw new UsageError(
      '--resolve',
      `"${text}" is above 50%: a band wider than ±50% around 1 calls a serializer twice as slow "the same"; give at most 50% (e.g. 2%, 10%), or off`,
    );
  return parseResolve(text);
}

/** How long a worker takes to start and load a case before its first warmup op, on a loaded machine (ms). */
const WORKER_START_MS = 1000;

/**
 * The shortest `--case-timeout` a policy's launch can use: a worker's start ({@link WORKER_START_MS})
 * plus the longest warmup of a case and of its baseline beside it (`warmupMaxMs` each), in whole
 * seconds. Below it a case is killed before it can warm up and measure: quick 2 s, default 3 s, long 11 s.
 */
export function minCaseTimeoutMs(policy: Pick<RunPolicy, 'measure'>): number {
  return Math.ceil((WORKER_START_MS + 2 * policy.measure.warmupMaxMs) / 1000) * 1000;
}

/**
 * `--case-timeout` for the policy named `policyName` (default `default`): a duration ({@link
 * parseCaseTimeout}) of at least {@link minCaseTimeoutMs}. An unknown policy name is left to the
 * run's own check (`--policy`), and only the duration is checked.
 * @throws UsageError naming `--case-timeout`, the value, the floor and why
 */
export function caseTimeoutFlag(text: string, policyName = 'default'): number {
  const ms = parseCaseTimeout(text);
  const policy = Object.hasOwn(policies, policyName) ? policies[policyName as RunPolicy['name']] : undefined;
  if (!policy) return ms;
  const floor = minCaseTimeoutMs(policy);
  if (ms < floor)
    throw new UsageError(
      '--case-timeout',
      `"${text}" is too short for policy ${policy.name}: a launch starts its worker (about ${WORKER_START_MS / 1000} s on a loaded machine) and warms up each case and its baseline (up to ${policy.measure.warmupMaxMs} ms each) before its first sample, so every case would be killed as "timeout" before it measured anything; give ${floor / 1000}s or more (the policy's own: ${policy.caseTimeoutMs / 1000}s)`,
    );
  return ms;
}
