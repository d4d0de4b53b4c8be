/**
 * The conjugate example pack. Its source lives in src/cli/demo/packs/conjugate.ts so that `toolwright demo` ships it compiled in the package.
 * @module
 */
export * from '../../src/cli/demo/packs/conjugate.js';
