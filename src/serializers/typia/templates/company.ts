import typia, { type tags } from 'typia';

/** An integer field (typia checks `Number.isInteger`, as the other validate-class adapters do). */
type Int = number & tags.Type<'int64'>;

/**
 * typia template for the `company` workload (shape `single`): one company document with its
 * employees. `npm run build` runs `typia generate`, which writes the compiled functions to
 * ../generated/.
 */

/** One employee. */
export interface Employee {
  name: string;
  age: Int;
  hobbies: string[];
}

/** The company document. */
export interface Company {
  name: string;
  employees: Employee[];
}

/** Document → JSON text. */
export const stringify = typia.json.createStringify<Company>();
/** JSON text → document, type-checked; throws TypeGuardError. */
export const assertParse = typia.json.createAssertParse<Company>();
