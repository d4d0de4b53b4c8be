/**
 * The bad-tools example pack (a tool per lint rule). Its source lives in src/cli/demo/packs/bad-tools.ts so that `toolwright demo` ships it.
 * @module
 */
export {
  manageSubscription,
  doStuff,
  setPreferences,
  lookupCustomer,
  cancelOrder,
  saveAddress,
  bookRoom,
  exportUsage,
  searchByLabel,
  sendReminder,
  forwardInvoice,
  reportTools,
  tools,
} from '../../src/cli/demo/packs/bad-tools.js';
