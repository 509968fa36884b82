import type { Workload } from './types.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * The copy of a workload (or of its unit view) that a config's code is handed — its serializers' supports() in
 * jsonbench's own process, their prepare() in the worker: frozen, its schema, wire options and size and shape lists
 * frozen copies, its functions (build, toModel, checkText) the workload's own. What the code changes there cannot reach
 * the run: hx28 C3, a supports() that renamed the payload's workload, ended the run with "an internal error"; hx34 s17,
 * a prepare() that set `wire.indent` on the object the baseline's adapter was handed too, made JSON.stringify write
 * indented JSON beside it and was recommended "faster by 1.17×". In strict code an assignment throws, and the case
 * fails naming it. A part structuredClone refuses (a function in a config workload's schema) is handed as it is.
 */
export function userWorkloadView(view: Workload): Workload {
  const frozen = <T>(v: T): T => {
    try {
      return deepFreeze(structuredClone(v));
    } catch {
      return v;
    }
  };
  return Object.freeze({
    ...view,
    schema: frozen(view.schema),
    sizes: frozen(view.sizes),
    defaultSizes: frozen(view.defaultSizes),
    shapes: frozen(view.shapes),
    ...(view.wire !== undefined ? { wire: frozen(view.wire) } : {}),
  });
}
