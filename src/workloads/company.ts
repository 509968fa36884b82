import { fakerEn } from './faker.js';
import type { Workload } from './types.js';
import type { SchemaNode } from './schema.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * `company`: one large document, a company with its employee list, for a size sweep. It follows
 * the study that serializes one company object holding 1,000, 10,000, 50,000 and 100,000
 * employees (each with a name, an age and three hobbies) to see how serializers scale with
 * document size, rather than with the number of calls.
 *
 * Units: `size` is the number of employees in the one document. Shape: `single` only (an op is
 * one stringify or one parse of the whole document). Compact, camelCase; wire = model.
 */

/** Schema of the company document. */
export const companySchema: SchemaNode = deepFreeze({
  type: 'object',
  properties: {
    name: { type: 'string' },
    employees: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          age: { type: 'number', integer: true },
          hobbies: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
});

/** The hobbies employees pick three distinct ones from (a fixed pool: faker has no hobby list). */
export const HOBBIES = deepFreeze([
  'reading',
  'hiking',
  'cycling',
  'running',
  'swimming',
  'chess',
  'photography',
  'painting',
  'cooking',
  'baking',
  'gardening',
  'fishing',
  'climbing',
  'yoga',
  'gaming',
  'knitting',
  'woodworking',
  'birdwatching',
  'guitar',
  'piano',
  'singing',
  'dancing',
  'skiing',
  'surfing',
  'camping',
  'traveling',
  'pottery',
  'calligraphy',
  'astronomy',
  'board games',
] as const);

/** One employee of the company document. */
export interface Employee {
  name: string;
  /** whole years, 18–70 */
  age: number;
  /** exactly 3 distinct entries of {@link HOBBIES} */
  hobbies: string[];
}

/** The company document with `employees` employees for `seed`. */
export function generateCompany(employees: number, seed: number): { name: string; employees: Employee[] } {
  const f = fakerEn();
  f.seed(seed);
  const name = f.company.name();
  const list: Employee[] = new Array(employees);
  for (let i = 0; i < employees; i++) {
    list[i] = {
      name: f.person.fullName(),
      age: f.number.int({ min: 18, max: 70 }),
      hobbies: f.helpers.arrayElements(HOBBIES, 3),
    };
  }
  return { name, employees: list };
}

/** The `company` workload: one document whose size is its number of employees. */
const workload: Workload = {
  id: 'company',
  description: 'One company document with `size` employees {name, age, 3 hobbies}: a document-size sweep',
  sizes: [1000, 10000, 50000, 100000],
  defaultSizes: [1000],
  shapes: ['single'],
  schema: companySchema,
  build(size, seed) {
    return generateCompany(size, seed);
  },
};

export default deepFreeze(workload);
