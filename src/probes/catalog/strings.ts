import type { Probe, Construct } from '../types.js';
import { hostileSamples } from '../hostile-strings.js';
import { anyClass, obj, own, str } from './build.js';
import type { SchemaNode } from '../../workloads/schema.js';

/**
 * String probes: every hostile sample (hostile-strings.ts: each class × each length, and each
 * single character) as a value under every string format, as a declared property name, and as
 * a record key. Serialize must write the exact string back (or refuse a value that breaks its
 * format); deserialize must return it from correctly escaped text (or, for a checking class,
 * reject it as not matching its format).
 */

type Format = 'plain' | 'date-time' | 'date' | 'time' | 'uuid' | 'email';
const FORMATS: readonly Format[] = ['plain', 'date-time', 'date', 'time', 'uuid', 'email'];

function formatSchema(format: Format): { node: SchemaNode; needs: Construct[] } {
  if (format === 'plain') return { node: str(), needs: [] };
  return { node: str({ format }), needs: [] };
}

function valueProbes(): Probe[] {
  const out: Probe[] = [];
  for (const format of FORMATS) {
    const { node, needs } = formatSchema(format);
    const formatted = format !== 'plain';
    for (const { name, value, words } of hostileSamples()) {
      const doc = { s: value };
      out.push({
        id: `string.value.${format}.${name}`,
        family: 'string',
        title: `${words}, as ${format === 'plain' ? 'a plain string' : `a ${format} string`} value`,
        schema: obj({ s: node }),
        ...(needs.length ? { needs, intended: `{ s: string (format ${format}) }` } : {}),
        serialize: {
          input: () => ({ s: value }),
          accept: [{ json: doc }, ...(formatted ? [{ throws: true as const, label: `rejects: not a ${format}` }] : [])],
        },
        deserialize: {
          text: () => JSON.stringify(doc),
          accept: (cls) => [
            { value: doc },
            ...(formatted && cls !== 'parse' ? [{ throws: true as const, label: `rejects: not a ${format}` }] : []),
          ],
        },
      });
    }
  }
  return out;
}

function keyProbes(): Probe[] {
  const out: Probe[] = [];
  for (const { name, value, words } of hostileSamples()) {
    const doc = own([[value, 'v']]);
    out.push({
      id: `string.key.declared.${name}`,
      family: 'string',
      title: `${words}, as a property name the schema declares`,
      schema: obj([[value, str()]]),
      serialize: { input: () => own([[value, 'v']]), accept: [{ json: doc }] },
      deserialize: { text: () => JSON.stringify(doc), accept: anyClass({ value: doc }) },
    });
    out.push({
      id: `string.key.record.${name}`,
      family: 'string',
      title: `${words}, as a key of an object used as a map`,
      schema: obj([[value, str()]]),
      needs: ['record'],
      intended: 'record<string, string>',
      serialize: { input: () => own([[value, 'v']]), accept: [{ json: doc }] },
      deserialize: { text: () => JSON.stringify(doc), accept: anyClass({ value: doc }) },
    });
  }
  return out;
}

export function stringProbes(): Probe[] {
  return [...valueProbes(), ...keyProbes()];
}
