import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { variantPathOf } from '../../case/coordinates.js';
import { defineOwn } from '../../case/own-key.js';
import { ndjsonLines } from '../../workloads/unit.js';

/** A lone surrogate code unit: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A copy of a JSON value with every lone surrogate in its strings (keys and values) replaced by U+FFFD, as a UTF-8 encoder writes it. */
export function wellFormedValue(v: unknown): unknown {
  if (typeof v === 'string') return v.replace(LONE_SURROGATE, '\ufffd');
  if (Array.isArray(v)) return v.map(wellFormedValue);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) defineOwn(out, k.replace(LONE_SURROGATE, '\ufffd'), wellFormedValue(x));
    return out;
  }
  return v;
}

/**
 * The gate's variant payload text as the .NET targets read it: the same value with lone
 * surrogates replaced by U+FFFD, written with the same indentation. System.Text.Json refuses JSON
 * text whose strings escape a lone surrogate (`InvalidOperationException: Cannot read incomplete
 * UTF-16 JSON text as string with missing low surrogate`), so the hostile variant of issue 11
 * (probes/hostile-variant.ts), which carries lone surrogates to catch JavaScript serializers that
 * write them raw, would fail every .NET case at its input. Every other hostile string stays.
 * An NDJSON variant (a user's records, `.ndjson`) is rewritten line by line, compact.
 * @param indent the workload's wire indentation (spaces; absent: compact)
 */
export function wellFormedVariantText(text: string, indent?: number, ndjson = false): string {
  if (ndjson)
    return (
      ndjsonLines(text)
        .map((l) => JSON.stringify(wellFormedValue(JSON.parse(l.text))))
        .join('\n') + '\n'
    );
  return JSON.stringify(wellFormedValue(JSON.parse(text)), null, indent);
}

/**
 * The payload file a .NET launch reads for `payloadPath`: a copy under `<its folder>/dotnet/`
 * whose variant is {@link wellFormedVariantText} (the main payload is copied byte for byte).
 * Written once; later calls return the same path.
 */
export function dotnetPayloadPath(payloadPath: string, indent?: number): string {
  const dir = join(dirname(payloadPath), 'dotnet');
  const copy = join(dir, basename(payloadPath));
  if (existsSync(copy) && existsSync(variantPathOf(copy))) return copy;
  mkdirSync(dir, { recursive: true });
  copyFileSync(payloadPath, copy);
  writeFileSync(
    variantPathOf(copy),
    wellFormedVariantText(readFileSync(variantPathOf(payloadPath), 'utf8'), indent, payloadPath.endsWith('.ndjson')),
  );
  return copy;
}
