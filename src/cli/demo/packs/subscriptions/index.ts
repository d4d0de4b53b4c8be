/**
 * The subscriptions example: a SaaS support desk's tools (subscription, billing,
 * support, account, product) over an in-memory store. `tools` share one default
 * store; `createSubscriptionTools(createSubscriptionsStore())` gives fresh state.
 * Internal barrel, not a package entry point: `toolwright demo` imports it, and
 * examples/subscriptions re-exports it by name.
 * @module
 */
import type { AnyTool } from '../../../../tools/index.js';
import { createSubscriptionTools } from './create-subscription-tools.js';
import { createSubscriptionsStore } from './store.js';

export { createSubscriptionTools } from './create-subscription-tools.js';
export { ANA_ID, BEN_ID, PLAN_PRICES_CENTS, createSubscriptionsStore } from './store.js';
export type { Invoice, PaymentMethod, Product, Refund, SubscriptionsStore, SubscriptionsStoreOptions, Ticket, User } from './store.js';

/** The store behind {@link tools}. */
export const store = createSubscriptionsStore();

export const tools: AnyTool[] = createSubscriptionTools(store);

/** Tool names per category, for two-stage routing: first pick a category, then offer only its tools. */
export const categories: Record<string, string[]> = groupByCategory(tools);

function groupByCategory(list: readonly AnyTool[]): Record<string, string[]> {
  const groups: Record<string, string[]> = {};
  for (const tool of list) if (tool.category !== undefined) (groups[tool.category] ??= []).push(tool.name);
  return groups;
}
