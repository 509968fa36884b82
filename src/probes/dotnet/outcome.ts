import type { Outcome, Probe, ProbeDirection, Verdict } from '../types.js';
import { judge } from '../judge.js';
import { acceptsFor } from '../run-probe.js';

/**
 * What the C# worker reports for one probe side (a `probe-outcome` message, workers/dotnet/src/
 * ProbeRunner.cs) and how the host judges it: the worker only calls the library; the judge is the
 * JavaScript catalog's (probes/judge.ts), with the accepted behaviours of the .NET probe for a
 * `transform` deserializer (a .NET deserializer produces its typed model).
 */
export interface DotnetProbeOutcome {
  outcome: 'returned' | 'threw' | 'unsupported' | 'inexpressible';
  /** serialize: the output text's UTF-16 code units, base64 (a lone surrogate crosses intact) */
  text64?: string;
  /** deserialize: the result written back as ASCII JSON with ProbeModel.cs's tags ({@link decodeDump}) */
  dump?: string;
  stage?: 'prepare' | 'call';
  /** the exception's type name */
  name?: string;
  message?: string;
  /** unsupported: why the library has no way to do it; inexpressible: why jsonbench could not build the probe */
  reason?: string;
  /** types the call constructed that only the input named (the safety probes' gadget) */
  constructed?: string[];
}

/** A base64 string of UTF-16LE code units as a JavaScript string, code unit by code unit (Node's utf16le decoder keeps lone surrogates). */
export function decodeUtf16(base64: string): string {
  return Buffer.from(base64, 'base64').toString('utf16le');
}

/**
 * An integer's digits as the catalog writes exact integers (catalog/conformance.ts `exactValue`): a
 * number when a double holds it exactly (-2^63 does), else a BigInt.
 */
export function exactInteger(digits: string): number | bigint {
  const big = BigInt(digits);
  return BigInt(Number(digits)) === big ? Number(digits) : big;
}

/**
 * A result as the worker wrote it back (ProbeModel.Dump), as JavaScript values the probe accepts
 * compare with: `{"$bigint":"…"}` → {@link exactInteger}, `{"$number":"NaN"}` → the number, a bare word
 * (`{"$token":"undefined"}`, Newtonsoft's undefined token) → the string `token undefined`, a DateTime of kind Utc
 * with no sub-millisecond part → a Date, any other DateTime → the string `DateTime <round-trip form>
 * (Kind <kind>)` (not an instant), `{"$dateOffset":…}` → a Date, `{"$decimal":"…"}` → `decimal …`.
 * `$class` stays a key (the instance's class when it is not the declared one).
 * @throws SyntaxError when the dump is not JSON (a fault of the worker)
 */
export function decodeDump(dump: string): unknown {
  return JSON.parse(dump, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && typeof o.$bigint === 'string') return exactInteger(o.$bigint);
    if (keys.length === 1 && typeof o.$token === 'string')
      return /^-?Infinity$|^NaN$/.test(o.$token) ? Number(o.$token) : `token ${o.$token}`;
    if (keys.length === 1 && typeof o.$number === 'string') return Number(o.$number);
    if (keys.length === 1 && typeof o.$decimal === 'string') return `decimal ${o.$decimal}`;
    if (keys.length === 1 && typeof o.$dateOffset === 'string') return new Date(o.$dateOffset);
    if (keys.length === 2 && typeof o.$date === 'string' && typeof o.kind === 'string') {
      const subMs = /\.\d{3}(\d+)/.exec(o.$date)?.[1] ?? '';
      if (o.kind === 'Utc' && /^0*$/.test(subMs)) return new Date(o.$date);
      return `DateTime ${o.$date} (Kind ${o.kind})`;
    }
    return v;
  });
}

/** The outcome a .NET probe side's report stands for (what {@link judge} takes). */
function dotnetOutcome(m: DotnetProbeOutcome): Outcome {
  switch (m.outcome) {
    case 'unsupported':
      return { kind: 'unsupported', reason: m.reason ?? 'the library cannot do this' };
    case 'inexpressible':
      return { kind: 'inexpressible', reason: m.reason ?? 'jsonbench could not build this probe for .NET' };
    case 'threw':
      return { kind: 'threw', stage: m.stage ?? 'call', name: m.name ?? 'Exception', message: m.message ?? '' };
    case 'returned':
      if (m.text64 !== undefined) return { kind: 'returned', value: decodeUtf16(m.text64) };
      return { kind: 'returned', value: m.dump === undefined ? undefined : decodeDump(m.dump) };
  }
}

/**
 * The verdict of a .NET probe side: ✗ accepts-invalid when the call constructed a type only the
 * input named (a `$type` the program never declared: the known TypeNameHandling risk, whatever
 * came back), else the catalog's judge on the outcome with the probe's transform-class accepts.
 */
export function judgeDotnet(probe: Probe, direction: ProbeDirection, m: DotnetProbeOutcome): Verdict {
  if (m.constructed?.length)
    return {
      mark: '✗',
      fault: 'accepts-invalid',
      path: '$',
      expected: 'no instance of a type named only by the input ("$type")',
      actual: `constructed ${m.constructed.join(', ')}, the type the input named${m.outcome === 'threw' ? ` (then threw ${m.name})` : ''}`,
    };
  try {
    return judge(direction, acceptsFor(probe, { deserializeClass: 'transform' }, direction), dotnetOutcome(m));
  } catch (e) {
    return { mark: '–', reason: `jsonbench could not read the .NET worker's report: ${(e as Error).message}` };
  }
}
