/**
 * The subscriptions example's store; the source is src/cli/demo/packs/subscriptions/store.ts.
 * @module
 */
export {
  PLANS,
  BILLING_CYCLES,
  INVOICE_STATUSES,
  TICKET_PRIORITIES,
  TICKET_LEVELS,
  PRODUCT_CATEGORIES,
  WAREHOUSES,
  PLAN_PRICES_CENTS,
  ANA_ID,
  BEN_ID,
  createSubscriptionsStore,
} from '../../src/cli/demo/packs/subscriptions/store.js';
export type {
  Plan,
  BillingCycle,
  InvoiceStatus,
  TicketPriority,
  TicketLevel,
  ProductCategory,
  Warehouse,
  PaymentMethod,
  User,
  Invoice,
  Refund,
  Ticket,
  Product,
  SubscriptionsStore,
  SubscriptionsStoreOptions,
} from '../../src/cli/demo/packs/subscriptions/store.js';
