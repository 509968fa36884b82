/**
 * makeFolder lives on the ground floor (case/make-folder.ts), where results/ may import it for the integrity
 * key's folder; the rooms that write files keep importing it from here.
 */
export { makeFolder } from '../case/make-folder.js';
