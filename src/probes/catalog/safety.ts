import type { Accept, Probe } from '../types.js';
import type { GuaranteeClass } from '../../case/coordinates.js';
import { anyClass, obj, own, str } from './build.js';
import { deepFreeze } from '../../case/frozen.js';

/**
 * Safety probes: keys named like Object.prototype members (`__proto__`, `constructor`,
 * `prototype`, `toString`), plain text and unicode-escaped (`"\u005f\u005fproto__"`).
 * On parse the key must become an own property (or the document be rejected), the result's
 * prototype must stay Object.prototype, and nothing may reach Object.prototype — the runner
 * checks that after the call and after spreading and `Object.assign`-ing the result, as
 * application code does. On serialize a declared key must be written, not dropped.
 */

export const DANGEROUS_KEYS = deepFreeze(['__proto__', 'constructor', 'prototype', 'toString'] as const);

/**
 * The payload did not become the result's prototype: it is Object.prototype, null, or a class's
 * own prototype (a transform-class result may be a DTO instance), never a plain data object.
 */
function prototypeUntouched(v: unknown): string | null {
  if (v === null || typeof v !== 'object') return null;
  const proto = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null) return null;
  const ctor = Object.prototype.hasOwnProperty.call(proto, 'constructor') ? proto.constructor : undefined;
  if (typeof ctor === 'function' && ctor.prototype === proto) return null;
  return `its prototype untouched (got the data object ${JSON.stringify(proto) ?? String(proto)})`;
}

/** `JSON.stringify` of a key, with every character written as \uXXXX (the unicode-escaped spelling). */
export function escapedKey(key: string): string {
  return '"' + [...key].map((c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')).join('') + '"';
}

function undeclaredProbes(): Probe[] {
  // own(): an object literal's `__proto__:` would set the prototype instead of making a key.
  const payloads = own([
    ['__proto__', { polluted: 'yes' }],
    ['constructor', { prototype: { polluted: 'yes' } }],
    ['prototype', { polluted: 'yes' }],
    ['toString', 'not a function'],
  ]);
  const out: Probe[] = [];
  for (const key of DANGEROUS_KEYS) {
    for (const spelling of ['plain', 'escaped'] as const) {
      const keyText = spelling === 'plain' ? JSON.stringify(key) : escapedKey(key);
      const text = `{"name":"x",${keyText}:${JSON.stringify(payloads[key])}}`;
      const kept = own([
        ['name', 'x'],
        [key, payloads[key]],
      ]);
      const keeps: Accept = { value: kept, label: 'keeps it as an own property', check: prototypeUntouched };
      const drops: Accept = { value: { name: 'x' }, label: 'drops it', check: prototypeUntouched };
      const rejects: Accept = { throws: true, label: 'rejects the document' };
      out.push({
        id: `safety.parse.undeclared.${key}.${spelling}`,
        family: 'safety',
        title: `an undeclared "${key}" key${spelling === 'escaped' ? ', unicode-escaped,' : ''} on parse`,
        schema: obj({ name: str() }),
        deserialize: {
          text: () => text,
          // An untyped parser must keep what the text says (or refuse); a checking one may also drop undeclared keys.
          accept: (cls: GuaranteeClass) => (cls === 'parse' ? [keeps, rejects] : [keeps, drops, rejects]),
        },
      });
    }
  }
  return out;
}

function declaredProbes(): Probe[] {
  const out: Probe[] = [];
  for (const key of DANGEROUS_KEYS) {
    const doc = () =>
      own([
        ['id', 1],
        [key, 'v'],
      ]);
    const schema = obj([
      ['id', { type: 'number', integer: true }],
      [key, str()],
    ]);
    out.push({
      id: `safety.declared.${key}`,
      family: 'safety',
      title: `a declared property named "${key}"`,
      schema,
      serialize: { input: doc, accept: [{ json: doc(), label: 'writes it' }] },
      deserialize: {
        text: () => `{"id":1,${JSON.stringify(key)}:"v"}`,
        accept: anyClass({ value: doc(), label: 'reads it', check: prototypeUntouched }),
      },
    });
    out.push({
      id: `safety.declared.${key}.escaped`,
      family: 'safety',
      title: `a declared property named "${key}", unicode-escaped on the wire`,
      schema,
      deserialize: {
        text: () => `{"id":1,${escapedKey(key)}:"v"}`,
        accept: anyClass({ value: doc(), label: 'reads it', check: prototypeUntouched }),
      },
    });
  }
  return out;
}

export function safetyProbes(): Probe[] {
  return [...undeclaredProbes(), ...declaredProbes()];
}
