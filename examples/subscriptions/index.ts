/**
 * The subscriptions example pack. Its source lives in src/cli/demo/packs/subscriptions/ so that `toolwright demo` ships it compiled in the package.
 * @module
 */
export {
  createSubscriptionTools,
  ANA_ID,
  BEN_ID,
  PLAN_PRICES_CENTS,
  createSubscriptionsStore,
  store,
  tools,
  categories,
} from '../../src/cli/demo/packs/subscriptions/index.js';
export type {
  Invoice,
  PaymentMethod,
  Product,
  Refund,
  SubscriptionsStore,
  SubscriptionsStoreOptions,
  Ticket,
  User,
} from '../../src/cli/demo/packs/subscriptions/index.js';
