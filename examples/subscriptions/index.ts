/**
 * The subscriptions example pack. Its source lives in src/cli/demo/packs/subscriptions/ so that `toolwright demo` ships it compiled in the package.
 * @module
 */
export * from '../../src/cli/demo/packs/subscriptions/index.js';
