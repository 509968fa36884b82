import { deepFreeze } from './frozen.js';
/**
 * The words of a probe verdict (issue 11), shared by the worker that judges a probe, the protocol
 * that carries the verdict, the results file that keeps it and the reports that show it. A probe is
 * a small untimed case (input, schema, what a correct serializer must do); the catalog and the
 * judge live in src/probes/.
 */

/** The probe families of issue 11, one catalog file each (src/probes/catalog/). */
export type ProbeFamily = 'feature' | 'edge' | 'string' | 'structure' | 'safety' | 'conformance' | 'payload';
export const PROBE_FAMILIES: readonly ProbeFamily[] = deepFreeze([
  'feature',
  'edge',
  'string',
  'structure',
  'safety',
  'conformance',
  // built from a user's payload by a run on --payload (issue 24: the costs of this payload)
  'payload',
]);

/** How a wrong result is wrong: the ✗ kinds of issue 11, plus process-level faults. */
export type Fault =
  | 'silent-loss' // a member, element, digit or type dropped or replaced without an error
  | 'invalid-json' // the output does not parse
  | 'ill-formed' // the output parses but holds a lone surrogate (not encodable as UTF-8, RFC 8259 §8.1)
  | 'wrong-value' // any other difference
  | 'accepts-invalid' // a deserializer returned a value for input it must reject
  | 'pollution' // Object.prototype changed
  | 'crash' // the process died
  | 'hang'; // no answer within the probe timeout

export const FAULTS: readonly Fault[] = deepFreeze([
  'silent-loss',
  'invalid-json',
  'ill-formed',
  'wrong-value',
  'accepts-invalid',
  'pollution',
  'crash',
  'hang',
]);

/**
 * The verdict of one probe × serializer × direction (issue 11's marks):
 * ✔ does it (with the accepted behaviour's label), ✘ cannot (declared by the adapter through
 * `directions`/`supports()`), ✗ wrong (with the first difference), ⚠ throws where output was
 * expected (with the message, and whether `prepare()` or the call threw), and – not expressible in
 * jsonbench yet (a limit of the harness, not the library).
 */
export type Verdict =
  | { mark: '✔'; label?: string }
  | { mark: '✘'; reason: string }
  | { mark: '✗'; fault: Fault; path: string; expected: string; actual: string }
  | { mark: '⚠'; message: string; stage: 'prepare' | 'call' }
  | { mark: '–'; reason: string };

export type Mark = Verdict['mark'];

/**
 * How the ✔ label of a payload probe's refusal begins (probes/catalog/payload.ts `refusalLabel`:
 * "rejects a response without $.id, which all your samples had: …"): a validator that refuses a
 * drifted payload did what its schema says, so it is ✔ and no failure; a report still names it as
 * what this payload costs where the baseline reads the response.
 */
const REFUSAL_LABEL_PREFIX = 'rejects ';

/** True for a payload probe's ✔ that is a refusal ({@link REFUSAL_LABEL_PREFIX}). */
export const isRefusal = (v: { mark: string; label?: string }) =>
  v.mark === '✔' && typeof v.label === 'string' && v.label.startsWith(REFUSAL_LABEL_PREFIX);

/** The marks from worst to best, the order a matrix cell lists counts in. */
export const MARKS_BY_SEVERITY: readonly Mark[] = deepFreeze(['✗', '⚠', '–', '✘', '✔']);
