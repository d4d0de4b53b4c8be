/**
 * The two state ids with a meaning of their own in the JSON automaton's transition tables (`json-automaton.ts`) and
 * in the transitions derived from them (`derived-transitions.ts`).
 * @module
 */

/** Transition not computed yet. */
export const UNKNOWN = -2;
/** No configuration survives the byte. */
export const DEAD = -1;
