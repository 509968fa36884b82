import type { Accept, Fault, Outcome, ProbeDirection, Verdict } from './types.js';
import { renderProbeValue, strictMismatch, type ProbeMismatch } from './equal.js';

/**
 * The judge: one pure function from (direction, accepted behaviours, outcome) to a verdict.
 * Serialize output is held to three rules before any accepted behaviour is tried: it is a
 * string, it is valid JSON (`JSON.parse`, ECMA-404), and it is well-formed Unicode (no lone
 * surrogate: RFC 8259 §8.1 requires UTF-8, which cannot encode one, so a writer that emits one
 * raw corrupts the text on the wire). A thrown error is ✔ only when the probe accepts refusing.
 */
export function judge(direction: ProbeDirection, accept: readonly Accept[], outcome: Outcome): Verdict {
  switch (outcome.kind) {
    case 'unsupported':
      return { mark: '✘', reason: outcome.reason };
    case 'inexpressible':
      return { mark: '–', reason: outcome.reason };
    case 'crashed':
      return wrong('crash', '$', 'an answer or a clean error', outcome.reason);
    case 'timeout':
      return wrong('hang', '$', 'an answer or a clean error', `no answer within ${outcome.ms} ms`);
    default:
      break;
  }
  if (outcome.polluted?.length)
    return wrong('pollution', 'Object.prototype', 'unchanged', `gained ${outcome.polluted.join(', ')}`);
  if (outcome.kind === 'threw') {
    const refusal = accept.find((a) => a.throws);
    if (refusal) return { mark: '✔', label: refusal.label ?? 'refuses' };
    return {
      mark: '⚠',
      stage: outcome.stage,
      message: `${outcome.name}: ${outcome.message}`.replace(/\s+/g, ' ').slice(0, 300),
    };
  }
  return direction === 'serialize' ? judgeText(accept, outcome.value) : judgeValue(accept, outcome.value);
}

function wrong(fault: Fault, path: string, expected: string, actual: string): Verdict {
  return { mark: '✗', fault, path, expected, actual };
}

function judgeText(accept: readonly Accept[], out: unknown): Verdict {
  if (typeof out !== 'string') return wrong('wrong-value', '$', 'a string', renderProbeValue(out));
  let parsed: unknown;
  try {
    parsed = JSON.parse(out);
  } catch (e) {
    const at = /position (\d+)/.exec((e as Error).message)?.[1];
    const i = at === undefined ? 0 : Number(at);
    return wrong(
      'invalid-json',
      at === undefined ? '$' : `$ (char ${i})`,
      'valid JSON',
      renderProbeValue(out.slice(Math.max(0, i - 20), i + 20)),
    );
  }
  const lone = loneSurrogateAt(out);
  if (lone >= 0)
    return wrong(
      'ill-formed',
      `$ (char ${lone})`,
      'well-formed UTF-16 (a lone surrogate written as \\uXXXX)',
      `a raw lone surrogate U+${out.charCodeAt(lone).toString(16).toUpperCase()}`,
    );
  // The difference reported is the first one by value; a text-only difference only when no value accept exists.
  let byValue: Verdict | null = null;
  let byText: Verdict | null = null;
  for (const a of accept) {
    if (a.throws) continue;
    let m: ProbeMismatch | null = null;
    if (a.text !== undefined && out !== a.text) {
      byText ??= wrong('wrong-value', '$', renderProbeValue(a.text), renderProbeValue(out));
      continue;
    } else if ('json' in a) {
      m = strictMismatch(a.json, parsed);
    }
    const problem = m ? null : (a.check?.(parsed, out) ?? null);
    if (!m && !problem) return { mark: '✔', ...(a.label ? { label: a.label } : {}) };
    byValue ??= m ? fromMismatch(m) : wrong('wrong-value', '$', problem!, renderProbeValue(out));
  }
  return byValue ?? byText ?? mustRefuse('serialize', accept, out);
}

function judgeValue(accept: readonly Accept[], result: unknown): Verdict {
  let first: Verdict | null = null;
  for (const a of accept) {
    if (a.throws) continue;
    const m = 'value' in a ? strictMismatch(a.value, result) : null;
    const problem = m ? null : (a.check?.(result) ?? null);
    if (!m && !problem) return { mark: '✔', ...(a.label ? { label: a.label } : {}) };
    first ??= m ? fromMismatch(m) : wrong('wrong-value', '$', problem!, renderProbeValue(result));
  }
  return first ?? mustRefuse('deserialize', accept, result);
}

/**
 * Only refusing was acceptable, and a value came back: a deserializer accepted input it must
 * reject; a serializer wrote a substitute for a value JSON cannot hold (silent loss).
 */
function mustRefuse(direction: ProbeDirection, accept: readonly Accept[], got: unknown): Verdict {
  const why = accept.find((a) => a.throws)?.label ?? 'refuses';
  return direction === 'serialize'
    ? wrong('silent-loss', '$', `an error: ${why}`, renderProbeValue(got))
    : wrong('accepts-invalid', '$', `an error: ${why}`, renderProbeValue(got));
}

/**
 * Index of the first unpaired surrogate code unit in `s`, or -1. Uses ES2024's
 * `String.prototype.isWellFormed` as a fast path where the runtime has it (Node 20 does; the
 * worker's other targets may not), which says only whether.
 */
export function loneSurrogateAt(s: string): number {
  const wellFormed = (s as { isWellFormed?: () => boolean }).isWellFormed;
  if (wellFormed && wellFormed.call(s)) return -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const n = s.charCodeAt(i + 1);
      if (n >= 0xdc00 && n <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

/**
 * Classifies a difference: `silent-loss` when something expected is gone or degraded without an
 * error — absent, null, emptied, shortened, a number rounded (a BigInt or long integer become a
 * nearby double), -0 become 0, a character replaced by U+FFFD — else `wrong-value`.
 */
export function faultOf(m: ProbeMismatch): Fault {
  const { expected: e, actual: a } = m.raw;
  if (a === undefined && e !== undefined) return 'silent-loss';
  if (a === null && e !== null) return 'silent-loss';
  if (m.path.endsWith('.length') || m.path.endsWith('.size'))
    return (a as number) < (e as number) ? 'silent-loss' : 'wrong-value';
  if (typeof a === 'number' && (typeof e === 'bigint' || typeof e === 'number') && Number(e) === a)
    return 'silent-loss';
  if (
    typeof a === 'object' &&
    a !== null &&
    Object.keys(a).length === 0 &&
    typeof e === 'object' &&
    e !== null &&
    !Array.isArray(a) &&
    !(a instanceof Date)
  )
    return 'silent-loss';
  if (typeof e === 'string' && typeof a === 'string' && a.includes('\ufffd') && !e.includes('\ufffd'))
    return 'silent-loss';
  if (
    typeof e === 'object' &&
    e !== null &&
    typeof a === 'object' &&
    a !== null &&
    Object.getPrototypeOf(e) !== Object.getPrototypeOf(a)
  )
    return 'silent-loss';
  return 'wrong-value';
}

function fromMismatch(m: ProbeMismatch): Verdict {
  return wrong(faultOf(m), m.path, m.expected, m.actual);
}
