/**
 * The subscriptions example's tools; the source is src/cli/demo/packs/subscriptions/create-subscription-tools.ts.
 * @module
 */
export { createSubscriptionTools } from '../../src/cli/demo/packs/subscriptions/create-subscription-tools.js';
