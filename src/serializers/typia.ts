import type { Direction } from '../case/coordinates.js';
import type { Workload } from '../workloads/types.js';
import type { SerializerAdapter } from './types.js';

/**
 * The functions one generated typia module exports (see typia/templates/): `stringify` and
 * `assertParse` for one unit (the document, or one record), the `…List` pair for an array of
 * records. A module leaves out what its workload cannot use.
 */
export interface TypiaModule {
  stringify?: (value: never) => string;
  stringifyList?: (value: never) => string;
  assertParse?: (text: string) => unknown;
  assertParseList?: (text: string) => unknown;
}

/** Built-in workload id → its ahead-of-time generated module (typia/generated/, made by `npm run build`). */
const generated: Readonly<Record<string, () => Promise<TypiaModule>>> = {
  'weather-station': () => import('./typia/generated/weather-station.js'),
  users: () => import('./typia/generated/users.js'),
  'users-settings': () => import('./typia/generated/users-settings.js'),
  orders: () => import('./typia/generated/orders.js'),
  company: () => import('./typia/generated/company.js'),
};

/** Workloads whose template exports no serializer, with the reason. */
const noSerializer: Readonly<Record<string, string>> = {
  'users-settings': 'typia has no naming policy or indentation (users-settings needs snake_case keys and 2-space indentation from the camelCase model)',
};

/** The export a (unit-view) workload and direction use: the `…List` variant when the unit is an array of records. */
function exportName(workload: Workload, direction: Direction): keyof TypiaModule {
  const base = direction === 'serialize' ? 'stringify' : 'assertParse';
  return workload.schema.type === 'array' ? `${base}List` : base;
}

/**
 * typia 12 (family `schema-compiled`): a compiler that turns TypeScript types into specialised
 * code ahead of time — `typia.json.createStringify<T>()` and `typia.json.createAssertParse<T>()`
 * in one template per built-in workload, expanded by `typia generate` during the build. Closest
 * to System.Text.Json's source generator. Deserialize = `assertParse(text)`: `JSON.parse`, then a
 * generated type check that throws a TypeGuardError (class `validate`). Caveats: it needs
 * compile-time types, so a user's own workload (no template) is unsupported; its stringify
 * trusts the input's types and has no naming policy or indentation.
 */
const adapter: SerializerAdapter = {
  id: 'typia',
  family: 'schema-compiled',
  directions: ['serialize', 'deserialize'],
  deserializeClass: 'validate',
  packageName: 'typia',
  supports(workload, direction) {
    if (!generated[workload.id]) return `typia needs compile-time types: no generated code for workload ${workload.id}`;
    if (direction === 'serialize' && noSerializer[workload.id]) return noSerializer[workload.id];
    return true;
  },
  async prepare(workload, direction) {
    const load = generated[workload.id];
    if (!load) throw new Error(`typia: no generated code for workload ${workload.id}`);
    const name = exportName(workload, direction);
    const fn = (await load())[name];
    if (!fn) throw new Error(`typia: the ${workload.id} template exports no ${name}`);
    if (direction === 'serialize') {
      const stringify = fn as (value: unknown) => string;
      return { serialize: (value) => stringify(value) };
    }
    const assertParse = fn as (text: string) => unknown;
    return { deserialize: (text) => assertParse(text) };
  },
  code: {
    serialize: 'stringify(value) // typia.json.createStringify<T>(), generated ahead of time',
    deserialize: 'assertParse(text) // typia.json.createAssertParse<T>(), generated ahead of time',
  },
};

export default adapter;
