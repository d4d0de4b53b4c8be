/**
 * The subscriptions example's store; the source is src/cli/demo/packs/subscriptions/store.ts.
 * @module
 */
export * from '../../src/cli/demo/packs/subscriptions/store.js';
