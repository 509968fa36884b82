// These functions are also shipped verbatim into the HTML report's script (see html/client-bundle.ts):
// keep them self-contained function declarations that call only each other.

/** Formats a time in ns with a unit chosen by magnitude (ns, µs, ms, s) and 3 significant digits. */
export function formatTime(ns: number): string {
  if (!Number.isFinite(ns)) return '∞';
  const abs = Math.abs(ns);
  if (abs < 1e3) return `${sig(ns)} ns`;
  if (abs < 1e6) return `${sig(ns / 1e3)} µs`;
  if (abs < 1e9) return `${sig(ns / 1e6)} ms`;
  return `${sig(ns / 1e9)} s`;
}

/** Formats bytes with a unit chosen by magnitude (B, KB, MB, GB; 1 KB = 1024 B). */
export function formatBytes(bytes: number): string {
  const abs = Math.abs(bytes);
  if (abs < 1024) return `${Math.round(bytes)} B`;
  if (abs < 1024 ** 2) return `${sig(bytes / 1024)} KB`;
  if (abs < 1024 ** 3) return `${sig(bytes / 1024 ** 2)} MB`;
  return `${sig(bytes / 1024 ** 3)} GB`;
}

/** A ratio with 2 decimals, and its error when known: `1.52 ± 0.03`. */
export function formatRatio(ratio: number | null | undefined, error?: number | null): string {
  if (ratio === null || ratio === undefined) return '—';
  return error !== null && error !== undefined && Number.isFinite(error) && error > 0 ? `${ratio.toFixed(2)} ± ${error.toFixed(2)}` : ratio.toFixed(2);
}

/** 3 significant digits without exponent notation. */
export function sig(x: number): string {
  const abs = Math.abs(x);
  return abs >= 100 ? x.toFixed(0) : abs >= 10 ? x.toFixed(1) : x.toFixed(2);
}
