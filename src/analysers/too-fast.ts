import { isMeasured } from '../results/types.js';
import { formatNs, keptLaunches, type Analyser } from './analyser.js';

/** A case is "too fast to be real" when its mean is under this many times the empty op's (a DCE symptom). */
export const TOO_FAST_FACTOR = 3;

/**
 * The most payload bytes per ns an op can handle: 100 bytes/ns (100 GB/s). An op reads its input
 * (deserialize: the payload text) or writes its output (serialize: the same JSON, at most its
 * whitespace less), every byte of it, so its mean time cannot be under `bytes / ceiling`. The
 * ceiling sits far above any real JSON library and about at memory's own speed:
 * - the fastest JSON parser published, simdjson, parses about 2.5 GB/s on one core with full
 *   validation (Langdale & Lemire, "Parsing Gigabytes of JSON per Second", VLDB Journal 28, 2019);
 *   its cheapest pass alone, UTF-8 validation, takes under one instruction per byte (Keiser & Lemire,
 *   Software: Practice and Experience 51(5), 2021): a few GB/s to tens of GB/s, not 100;
 * - JSON.parse here: 11,996 bytes in 18.0 µs, 0.67 bytes/ns (hostile tester hx1, load 11–24);
 * - a desktop's whole DRAM bandwidth, DDR5-6400 on two channels, peaks at 102.4 GB/s
 *   (2 × 8 bytes × 6.4 GT/s); one core streams well under that.
 * So a JSON library at 100 bytes/ns would be 40× simdjson and 150× JSON.parse. A result served
 * from a cache is not bound by it: the parser that cached results by their text ran 11.7 ns per
 * 11,996-byte op, 1,025 bytes/ns (hx1 1.1).
 */
export const MAX_BYTES_PER_NS = 100;

/**
 * `too-fast`: the mean is under {@link TOO_FAST_FACTOR}× an empty op measured the same way (the
 * work may have been optimised away), or it handles more than {@link MAX_BYTES_PER_NS} bytes of the
 * payload per ns (no JSON work is that fast: a cache, or no work). The message starts with its
 * short reason (up to the `:`), which reports show where such a case is left out of the ranking and
 * the recommendation (report/takeaway.ts unrankedFinding).
 */
export const tooFast: Analyser = Object.freeze<Analyser>({
  id: 'too-fast',
  analyse(c) {
    if (!isMeasured(c)) return [];
    const mean = c.time.mean;
    const perNs = c.payload.bytes / mean;
    if (mean > 0 && perNs > MAX_BYTES_PER_NS)
      return [
        {
          code: 'too-fast',
          message: `too fast to be real at ${Math.round(perNs).toLocaleString('en-US')} bytes/ns: ${c.payload.bytes.toLocaleString('en-US')} bytes of payload per op in ${formatNs(mean)} is above ${MAX_BYTES_PER_NS} bytes/ns, faster than memory can be read and 40× the fastest JSON parser published; a result served from a cache, or work optimised away`,
        },
      ];
    const emptyNs = Math.min(...keptLaunches(c).map((l) => l.emptyNsPerOp));
    if (!(mean < TOO_FAST_FACTOR * emptyNs)) return [];
    return [
      {
        code: 'too-fast',
        message: `mean ${mean.toFixed(1)} ns/op is under ${TOO_FAST_FACTOR}× an empty op (${emptyNs.toFixed(1)} ns/op): the work may have been optimised away`,
      },
    ];
  },
});
