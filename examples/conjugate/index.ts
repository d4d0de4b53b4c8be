/**
 * The conjugate example pack. Its source lives in src/cli/demo/packs/conjugate.ts so that `toolwright demo` ships it compiled in the package.
 * @module
 */
export { TENSES, PERSONS, SUPPORTED_VERBS, conjugateVerb, conjugate, listVerbs, tools } from '../../src/cli/demo/packs/conjugate.js';
export type { Tense, Person, Conjugation } from '../../src/cli/demo/packs/conjugate.js';
