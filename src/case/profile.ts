import { deepFreeze } from './frozen.js';
/**
 * The runtime profile of a run (issue 23, decision 3: fidelity first). `default`: every runtime
 * with its own default settings, what a user's process pays (V8's parallel GC helpers, the .NET
 * GC's own gen0 budget, region size and large-object threshold). `steady`: the lab's settings that
 * make numbers steadier by changing the runtime's GC (`--single-threaded-gc` for V8; the .NET
 * gen0/region/LOH settings), opt-in with `run --profile steady`. Results record it
 * (`policy.profile`); every report names it; `compare` calls runs of different profiles not
 * comparable. The settings per runtime are in runtimes/launch.ts (V8) and runtimes/dotnet/build.ts
 * (.NET); docs/profiles.md has their measured effect on ratios.
 */
export type ProfileName = 'default' | 'steady';

/** Every profile, the default first. */
export const PROFILE_NAMES: readonly ProfileName[] = deepFreeze(['default', 'steady']);

/** One line per profile, for `--help` and the docs. */
export const PROFILE_DESCRIPTIONS: Readonly<Record<ProfileName, string>> = deepFreeze({
  default: "each runtime's default settings (what your process pays)",
  steady:
    "the lab's steadier GC settings: V8 --single-threaded-gc, .NET GCgen0size 256 MiB, GCRegionSize 32 MiB, GCLOHThreshold 100 MB (opt-in; changes the runtime)",
});
