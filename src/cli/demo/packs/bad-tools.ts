/**
 * A deliberately bad tool pack: every tool here breaks at least one lint rule,
 * and together they break all of them. `toolwright lint examples/bad-tools`
 * shows what each finding looks like; do not copy these tools.
 * @module
 */
import { defineTool } from '../../../tools/index.js';
import type { AnyTool } from '../../../tools/index.js';

const done = () => 'done';

/** The seed's bad example: "Manage" hides the action, free-text "action", no reason, nothing required, an open object. */
export const manageSubscription = defineTool({
  name: 'manage_subscription',
  description: "Manage a user's subscription",
  effect: 'write',
  inputSchema: {
    type: 'object',
    properties: {
      action: { type: 'string', description: 'What to do' },
      details: { type: 'string', description: 'Additional details' },
    },
  },
  execute: done,
});

/** tw/missing-description: no tool description, and a property without one. */
export const doStuff = defineTool({
  name: 'do_stuff',
  description: '',
  effect: 'read',
  inputSchema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'], additionalProperties: false },
  execute: done,
});

/** tw/prefer-enum: the allowed values are listed in prose. */
export const setPreferences = defineTool({
  name: 'set_preferences',
  description: 'Save the display preferences the user asked for, for the rest of the session. Call it when the user changes a display setting.',
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: {
      units: { type: 'string', description: 'Either metric or imperial' },
      theme: { type: 'string', description: 'Color theme, one of light, dark, system' },
      sort: { type: 'string', description: 'Sort order of lists: asc|desc' },
    },
    required: ['units', 'theme', 'sort'],
    additionalProperties: false,
  },
  execute: done,
});

/** tw/missing-format: ids, emails, dates, URLs and phone numbers as bare strings. */
export const lookupCustomer = defineTool({
  name: 'lookup_customer',
  description: 'Find the customer record that matches every identifier the user gave; call it before any change to a customer.',
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: {
      customer_id: { type: 'string', description: 'Customer identifier from the CRM.' },
      email: { type: 'string', description: 'Contact address of the customer.' },
      signup_date: { type: 'string', description: 'Day the customer signed up.' },
      website_url: { type: 'string', description: 'Company site of the customer.' },
      phone_number: { type: 'string', description: 'Where to call the customer.' },
    },
    required: [],
    additionalProperties: false,
  },
  execute: done,
});

/** tw/missing-reason: a write with no reason; tw/missing-required: the order id is optional. */
export const cancelOrder = defineTool({
  name: 'cancel_order',
  description: 'Cancel one of the open orders of the user; only after the user confirmed which one.',
  effect: 'write',
  inputSchema: {
    type: 'object',
    properties: { order_id: { type: 'string', pattern: '^ord_[0-9]{8}$', description: 'The order to cancel.' } },
    required: [],
    additionalProperties: false,
  },
  execute: done,
});

/** tw/open-object, nested: the address accepts any property. */
export const saveAddress = defineTool({
  name: 'save_address',
  description: 'Save the shipping address the user dictated, for their future orders. Call it only when the user asks to change the address.',
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: {
      address: {
        type: 'object',
        description: 'The postal address.',
        properties: { street: { type: 'string', description: 'Street and number.' }, city: { type: 'string', description: 'City or town.' } },
        required: ['street', 'city'],
        additionalProperties: true,
      },
    },
    required: ['address'],
    additionalProperties: false,
  },
  execute: done,
});

/** tw/provider-compatibility: a root union (OpenAI and Anthropic refuse it) and a map (OpenAI strict mode cannot carry it). */
export const bookRoom = defineTool({
  name: 'book_room',
  description: 'Book a meeting room, either by room code or as any free room on a floor, when the user asks for a room.',
  effect: 'read',
  inputSchema: {
    anyOf: [
      {
        type: 'object',
        properties: { room: { type: 'string', pattern: '^[A-Z][0-9]{3}$', description: 'Room code such as B204.' } },
        required: ['room'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: {
          floor: { type: 'integer', minimum: 0, maximum: 40, description: 'Any free room on this floor.' },
          labels: { type: 'object', description: 'Labels for the booking, by name.', additionalProperties: { type: 'string' } },
        },
        required: ['floor', 'labels'],
        additionalProperties: false,
      },
    ],
  },
  execute: done,
});

/** tw/undeclared-effect: the seed's four-field shape, `{ name, description, input_schema, fn }`, says nothing about side effects, so it counts as a write. */
export const exportUsage = defineTool({
  name: 'export_usage',
  description: 'Export the usage figures of one month as a CSV file and return its download link, when the user asks for raw figures.',
  input_schema: {
    type: 'object',
    properties: {
      reason: { type: 'string', description: "Why the figures are being exported (quote the user's request)." },
      month: { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'The month to export (YYYY-MM).' },
    },
    required: ['reason', 'month'],
    additionalProperties: false,
  },
  fn: done,
});

/**
 * tw/backtracking-pattern: in `(\w+\s?)*` one word can be split into iterations in exponentially many ways, which a backtracking regex engine tries one
 * by one.
 */
export const searchByLabel = defineTool({
  name: 'search_by_label',
  description: 'Search customer records by the label support attached to them, and return the matching customers. Use it when the user names a label.',
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: { label: { type: 'string', pattern: '^(\\w+\\s?)*$', description: 'Words of the label, separated by single spaces.' } },
    required: ['label'],
    additionalProperties: false,
  },
  execute: done,
});

/** tw/unconfirmed-action: it sends a message to a customer, which cannot be taken back, and nothing asks a person first. */
export const sendReminder = defineTool({
  name: 'send_reminder',
  description: 'Send the customer an email reminding them of an unpaid invoice. Call it only when the user asks to remind a customer.',
  effect: 'write',
  inputSchema: {
    type: 'object',
    properties: {
      reason: { type: 'string', description: "Why the reminder is being sent (quote the user's request)." },
      invoice_id: { type: 'string', pattern: '^inv_[0-9]{6}$', description: 'The unpaid invoice to remind the customer of.' },
    },
    required: ['reason', 'invoice_id'],
    additionalProperties: false,
  },
  execute: done,
});

/** tw/unmarked-critical: the address decides who receives the invoice, and it is not marked critical. */
export const forwardInvoice = defineTool({
  name: 'forward_invoice',
  description: 'Forward an invoice to the email address the user names. Call it only when the user asks to forward a specific invoice.',
  effect: 'write',
  confirm: true,
  inputSchema: {
    type: 'object',
    properties: {
      reason: { type: 'string', description: "Why the invoice is forwarded (quote the user's request)." },
      invoice_id: { type: 'string', pattern: '^inv_[0-9]{6}$', description: 'The invoice to forward.' },
      recipient_email: { type: 'string', format: 'email', description: 'Who receives the invoice.' },
    },
    required: ['reason', 'invoice_id', 'recipient_email'],
    additionalProperties: false,
  },
  execute: done,
});

/** tw/too-many-tools: 15 more tools, well described but without categories, push the pack past 20. */
export const reportTools: AnyTool[] = Array.from({ length: 15 }, (_, index) => {
  const number = String(index + 1).padStart(2, '0');
  return defineTool({
    name: `legacy_report_${number}`,
    description: `Produce legacy sales report ${number} for the month the user named, as a table. Call it only when the user asks for report ${number}.`,
    effect: 'read',
    inputSchema: {
      type: 'object',
      properties: { month: { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'The month to report on (YYYY-MM).' } },
      required: ['month'],
      additionalProperties: false,
    },
    execute: done,
  });
});

export const tools: AnyTool[] = [
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
  ...reportTools,
];
