/**
 * The subscriptions example's tools, bound to one store: billing, support,
 * account and product tools as in the seed's routing example, plus the seed's
 * `update_subscription`. Every write asks for a `reason`; every id has a pattern.
 * @module
 */
import { NotFoundError, ToolError, defineTool } from '../../../../tools/index.js';
import type { AnyTool } from '../../../../tools/index.js';
import {
  BILLING_CYCLES,
  INVOICE_STATUSES,
  PLANS,
  PLAN_PRICES_CENTS,
  PRODUCT_CATEGORIES,
  TICKET_LEVELS,
  TICKET_PRIORITIES,
  WAREHOUSES,
  type BillingCycle,
  type Invoice,
  type InvoiceStatus,
  type Plan,
  type ProductCategory,
  type SubscriptionsStore,
  type TicketLevel,
  type TicketPriority,
  type User,
  type Warehouse,
} from './store.js';

const USER_ID = {
  type: 'string',
  pattern: '^usr_[a-zA-Z0-9]{20}$',
  description: 'The user id from the conversation context ("usr_" and 20 letters or digits); never invent one.',
};
const INVOICE_ID = { type: 'string', pattern: '^inv_[0-9]{6}$', description: 'The invoice id as returned by get_invoices ("inv_" and 6 digits).' };
const TICKET_ID = {
  type: 'string',
  pattern: '^tkt_[0-9]{6}$',
  description: 'The support ticket id ("tkt_" and 6 digits), as given by the user or by create_ticket.',
};
const PRODUCT_ID = { type: 'string', pattern: '^prd_[0-9]{5}$', description: 'The product id as returned by search_products ("prd_" and 5 digits).' };

function reasonField(what: string) {
  return { type: 'string', minLength: 3, maxLength: 500, description: `Why ${what} (quote the user's request)` };
}

function requireUser(store: SubscriptionsStore, userId: string): User {
  const user = store.users.get(userId);
  if (!user) {
    throw new NotFoundError(`no user has the id "${userId}"`, {
      suggestion: 'Use the user id exactly as it appears in the conversation; if you do not have it, ask the user for it instead of guessing.',
    });
  }
  return user;
}

function publicInvoice(invoice: Invoice) {
  return {
    invoice_id: invoice.id,
    issued_on: invoice.issued_on,
    description: invoice.description,
    amount_cents: invoice.amount_cents,
    refunded_cents: invoice.refunded_cents,
    currency: invoice.currency,
    status: invoice.status,
  };
}

function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

function maskPhone(phone: string): string {
  return `${phone.slice(0, 3)}******${phone.slice(-2)}`;
}

/** All tools of the example, bound to `store`. */
export function createSubscriptionTools(store: SubscriptionsStore): AnyTool[] {
  const getSubscription = defineTool<{ user_id: string }>({
    name: 'get_subscription',
    title: 'Get subscription',
    description: "Show a user's current plan, billing cycle, price, next billing date and any scheduled plan change. Call it before proposing a plan change.",
    effect: 'read',
    category: 'subscription',
    inputSchema: { type: 'object', properties: { user_id: USER_ID }, required: ['user_id'], additionalProperties: false },
    hints: { openWorld: false },
    execute: ({ user_id }) => {
      const user = requireUser(store, user_id);
      return {
        user_id,
        plan: user.plan,
        billing_cycle: user.billing_cycle,
        price_cents: PLAN_PRICES_CENTS[user.plan][user.billing_cycle],
        renews_on: user.renews_on,
        scheduled_change: user.scheduled_change,
      };
    },
  });

  const updateSubscription = defineTool<{
    reason: string;
    user_id: string;
    new_plan: Plan;
    billing_cycle: BillingCycle;
    effective_date: 'immediate' | 'next_billing_cycle';
  }>({
    name: 'update_subscription',
    title: 'Change subscription plan',
    description:
      "Change a user's subscription plan and billing cycle. Only call when the user has explicitly asked for a plan change and confirmed the new plan; a person approves the change before it runs.",
    effect: 'write',
    confirm: true,
    category: 'subscription',
    summarize: ({ user_id, new_plan, billing_cycle, effective_date }) =>
      `Change ${user_id} to the ${new_plan} plan, billed ${billing_cycle}, ${effective_date === 'immediate' ? 'now' : 'from the next billing cycle'}`,
    inputSchema: {
      type: 'object',
      properties: {
        reason: { type: 'string', minLength: 3, maxLength: 500, description: "Why this subscription is being changed (quote the user's request)" },
        user_id: USER_ID,
        new_plan: { type: 'string', enum: [...PLANS], description: 'The plan the user chose.' },
        billing_cycle: { type: 'string', enum: [...BILLING_CYCLES], description: 'How often the user will be billed for the new plan.' },
        effective_date: {
          type: 'string',
          enum: ['immediate', 'next_billing_cycle'],
          description: 'When the change takes effect: now, or on the next billing date.',
        },
      },
      required: ['reason', 'user_id', 'new_plan', 'billing_cycle', 'effective_date'],
      additionalProperties: false,
    },
    hints: { idempotent: true, openWorld: false },
    execute: ({ user_id, new_plan, billing_cycle, effective_date }) => {
      const user = requireUser(store, user_id);
      if (user.plan === new_plan && user.billing_cycle === billing_cycle) {
        throw new ToolError(`user "${user_id}" is already on the ${new_plan} plan, billed ${billing_cycle}`, {
          kind: 'conflict',
          suggestion: 'Nothing needs to change; tell the user which plan they are on.',
        });
      }
      const previous = { plan: user.plan, billing_cycle: user.billing_cycle };
      if (effective_date === 'immediate') {
        user.plan = new_plan;
        user.billing_cycle = billing_cycle;
        user.scheduled_change = null;
      } else {
        user.scheduled_change = { plan: new_plan, billing_cycle };
      }
      return {
        user_id,
        status: effective_date === 'immediate' ? 'changed' : 'scheduled',
        previous,
        plan: new_plan,
        billing_cycle,
        price_cents: PLAN_PRICES_CENTS[new_plan][billing_cycle],
        effective_on: effective_date === 'immediate' ? store.today : user.renews_on,
      };
    },
  });

  const getInvoices = defineTool<{ user_id: string; status?: InvoiceStatus; issued_since?: string; limit?: number }>({
    name: 'get_invoices',
    title: 'List invoices',
    description:
      "List a user's invoices, newest first, with amounts in cents and refund status. Call it to find an invoice id before refunding or answering a billing question.",
    effect: 'read',
    category: 'billing',
    inputSchema: {
      type: 'object',
      properties: {
        user_id: USER_ID,
        status: { type: 'string', enum: [...INVOICE_STATUSES], description: 'Only invoices in this state; leave out for all.' },
        issued_since: { type: 'string', format: 'date', description: 'Only invoices issued on or after this day (YYYY-MM-DD).' },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'How many invoices to return at most (default 10).' },
      },
      required: ['user_id'],
      additionalProperties: false,
    },
    hints: { openWorld: false },
    execute: ({ user_id, status, issued_since, limit = 10 }) => {
      requireUser(store, user_id);
      const invoices = [...store.invoices.values()]
        .filter(
          (invoice) =>
            invoice.user_id === user_id &&
            (status === undefined || invoice.status === status) &&
            (issued_since === undefined || invoice.issued_on >= issued_since),
        )
        .sort((left, right) => right.issued_on.localeCompare(left.issued_on))
        .slice(0, limit)
        .map(publicInvoice);
      return { user_id, invoices };
    },
  });

  const createRefund = defineTool<{ reason: string; invoice_id: string; amount_cents: number }>({
    name: 'create_refund',
    title: 'Refund an invoice',
    description:
      'Refund part or all of a paid invoice to the card it was paid with. Only call after the user asked for a refund of a specific invoice; a person approves it first.',
    effect: 'write',
    critical: ['amount_cents'],
    confirm: true,
    category: 'billing',
    summarize: ({ invoice_id, amount_cents }) => `Refund ${(amount_cents / 100).toFixed(2)} USD of invoice ${invoice_id}`,
    inputSchema: {
      type: 'object',
      properties: {
        reason: reasonField('this refund is being issued'),
        invoice_id: INVOICE_ID,
        amount_cents: {
          type: 'integer',
          minimum: 1,
          maximum: 500_000,
          description: 'Amount to refund, in cents of the invoice currency (1990 = 19.90); at most what is still refundable.',
        },
      },
      required: ['reason', 'invoice_id', 'amount_cents'],
      additionalProperties: false,
    },
    hints: { openWorld: false },
    execute: ({ reason, invoice_id, amount_cents }) => {
      const invoice = store.invoices.get(invoice_id);
      if (!invoice) {
        throw new NotFoundError(`no invoice has the id "${invoice_id}"`, { suggestion: "Call get_invoices with the user's id to find the right invoice id." });
      }
      if (invoice.status === 'open') {
        throw new ToolError(`invoice "${invoice_id}" has not been paid, so there is nothing to refund`, {
          kind: 'invalid_request',
          suggestion: 'Tell the user the invoice is still open; it can be left unpaid or disputed through a support ticket.',
        });
      }
      const refundable = invoice.amount_cents - invoice.refunded_cents;
      if (amount_cents > refundable) {
        throw new ToolError(`only ${refundable} cents of invoice "${invoice_id}" can still be refunded, not ${amount_cents}`, {
          kind: 'invalid_request',
          suggestion:
            refundable === 0
              ? 'The invoice is already fully refunded; tell the user.'
              : `Refund at most ${refundable} cents, after checking the amount with the user.`,
        });
      }
      invoice.refunded_cents += amount_cents;
      invoice.status = invoice.refunded_cents === invoice.amount_cents ? 'refunded' : 'partially_refunded';
      const refund = { id: store.nextId('ref'), invoice_id, amount_cents, reason, created_on: store.today };
      store.refunds.set(refund.id, refund);
      return { refund_id: refund.id, invoice_id, amount_cents, currency: invoice.currency, invoice_status: invoice.status, created_on: refund.created_on };
    },
  });

  const updatePaymentMethod = defineTool<{ reason: string; user_id: string; payment_token: string }>({
    name: 'update_payment_method',
    title: 'Replace the card on file',
    description:
      "Replace the card a user's subscription is charged to, using a token from the secure card form. Only call after the user entered the new card in that form; never ask for card numbers in chat.",
    effect: 'write',
    confirm: true,
    category: 'billing',
    summarize: ({ user_id }) => `Replace the card on file for ${user_id}`,
    inputSchema: {
      type: 'object',
      properties: {
        reason: reasonField('the card is being replaced'),
        user_id: USER_ID,
        payment_token: {
          type: 'string',
          pattern: '^pm_tok_[a-zA-Z0-9]{16}$',
          description: 'The token the secure card form returned ("pm_tok_" and 16 letters or digits).',
        },
      },
      required: ['reason', 'user_id', 'payment_token'],
      additionalProperties: false,
    },
    hints: { idempotent: true, openWorld: false },
    execute: ({ user_id, payment_token }) => {
      const user = requireUser(store, user_id);
      const card = store.paymentTokens.get(payment_token);
      if (!card) {
        throw new NotFoundError('the payment token is unknown or has expired', {
          suggestion: 'Ask the user to enter the card again in the secure card form and use the new token; never ask for the card number in chat.',
        });
      }
      const previous = user.payment_method;
      user.payment_method = { ...card };
      return { user_id, previous_card: previous, card: user.payment_method };
    },
  });

  const createTicket = defineTool<{ reason: string; user_id: string; subject: string; description: string; priority: TicketPriority; contact_email?: string }>({
    name: 'create_ticket',
    title: 'Open a support ticket',
    description:
      'Open a support ticket for a problem you cannot solve with the other tools. Call it once per problem, after checking with get_ticket_status that no open ticket already covers it.',
    effect: 'write',
    critical: ['contact_email'],
    category: 'support',
    summarize: ({ subject, priority }) => `Open a ${priority}-priority ticket: ${subject}`,
    inputSchema: {
      type: 'object',
      properties: {
        reason: reasonField('a ticket is needed'),
        user_id: USER_ID,
        subject: {
          type: 'string',
          minLength: 5,
          maxLength: 120,
          description: 'One line naming the problem, in the user\'s words ("Invoice shows the wrong company name").',
        },
        description: { type: 'string', minLength: 10, maxLength: 4_000, description: 'What happened, what the user expected, and what was already tried.' },
        priority: {
          type: 'string',
          enum: [...TICKET_PRIORITIES],
          description: 'urgent: service down or money lost; high: blocked; normal: default; low: questions and wishes.',
        },
        contact_email: { type: 'string', format: 'email', description: "Where support should answer, if not the account's email address." },
      },
      required: ['reason', 'user_id', 'subject', 'description', 'priority'],
      additionalProperties: false,
    },
    hints: { additive: true, openWorld: false },
    execute: ({ user_id, subject, description, priority, contact_email }) => {
      const user = requireUser(store, user_id);
      const ticket = {
        id: store.nextId('tkt'),
        user_id,
        subject,
        description,
        priority,
        status: 'open' as const,
        level: 'tier1' as const,
        contact_email: contact_email ?? user.email,
        created_on: store.today,
        updated_on: store.today,
      };
      store.tickets.set(ticket.id, ticket);
      return { ticket_id: ticket.id, status: ticket.status, level: ticket.level, priority, contact_email: ticket.contact_email };
    },
  });

  const getTicketStatus = defineTool<{ ticket_id: string }>({
    name: 'get_ticket_status',
    title: 'Get ticket status',
    description: 'Show the status, support level, priority and dates of one support ticket. Call it when the user asks about a ticket they opened.',
    effect: 'read',
    category: 'support',
    inputSchema: { type: 'object', properties: { ticket_id: TICKET_ID }, required: ['ticket_id'], additionalProperties: false },
    hints: { openWorld: false },
    execute: ({ ticket_id }) => {
      const ticket = store.tickets.get(ticket_id);
      if (!ticket)
        throw new NotFoundError(`no ticket has the id "${ticket_id}"`, {
          suggestion: 'Ask the user for the ticket id from their confirmation email ("tkt_" and 6 digits).',
        });
      return {
        ticket_id,
        subject: ticket.subject,
        status: ticket.status,
        level: ticket.level,
        priority: ticket.priority,
        created_on: ticket.created_on,
        updated_on: ticket.updated_on,
      };
    },
  });

  const escalateTicket = defineTool<{ reason: string; ticket_id: string; level: Exclude<TicketLevel, 'tier1'> }>({
    name: 'escalate_ticket',
    title: 'Escalate a ticket',
    description:
      'Move an open support ticket to a higher support level (tier2, then manager). Only call when the user asks for escalation or the ticket has waited too long at its level.',
    effect: 'write',
    category: 'support',
    summarize: ({ ticket_id, level }) => `Escalate ${ticket_id} to ${level}`,
    inputSchema: {
      type: 'object',
      properties: {
        reason: reasonField('the ticket is being escalated'),
        ticket_id: TICKET_ID,
        level: { type: 'string', enum: TICKET_LEVELS.filter((level) => level !== 'tier1'), description: 'The support level to move the ticket to.' },
      },
      required: ['reason', 'ticket_id', 'level'],
      additionalProperties: false,
    },
    hints: { idempotent: true, openWorld: false },
    execute: ({ ticket_id, level }) => {
      const ticket = store.tickets.get(ticket_id);
      if (!ticket)
        throw new NotFoundError(`no ticket has the id "${ticket_id}"`, {
          suggestion: 'Ask the user for the ticket id from their confirmation email ("tkt_" and 6 digits).',
        });
      if (ticket.status === 'closed') {
        throw new ToolError(`ticket "${ticket_id}" is closed and cannot be escalated`, {
          kind: 'conflict',
          suggestion: 'Open a new ticket with create_ticket that refers to the closed one.',
        });
      }
      if (TICKET_LEVELS.indexOf(level) <= TICKET_LEVELS.indexOf(ticket.level)) {
        throw new ToolError(`ticket "${ticket_id}" is already at level ${ticket.level}`, {
          kind: 'conflict',
          suggestion: ticket.level === 'manager' ? 'It is at the highest level; tell the user it is with a manager.' : 'Escalate it to "manager" instead.',
        });
      }
      const previous = ticket.level;
      ticket.level = level;
      ticket.updated_on = store.today;
      return { ticket_id, previous_level: previous, level, status: ticket.status };
    },
  });

  const getProfile = defineTool<{ user_id: string }>({
    name: 'get_profile',
    title: 'Get profile',
    description:
      "Show a user's display name, email address, phone number, plan and membership date. Call it to confirm who you are talking to before any account change.",
    effect: 'read',
    category: 'account',
    inputSchema: { type: 'object', properties: { user_id: USER_ID }, required: ['user_id'], additionalProperties: false },
    hints: { openWorld: false },
    execute: ({ user_id }) => {
      const user = requireUser(store, user_id);
      return { user_id, display_name: user.display_name, email: user.email, phone: user.phone, plan: user.plan, member_since: user.member_since };
    },
  });

  const updateProfile = defineTool<{ reason: string; user_id: string; display_name?: string; email?: string; phone?: string }>({
    name: 'update_profile',
    title: 'Update profile',
    description: "Change a user's display name, email address or phone number. Only call with the fields the user asked to change; leave the others out.",
    effect: 'write',
    critical: ['email', 'phone'],
    category: 'account',
    summarize: ({ user_id, ...changes }) =>
      `Update ${Object.keys(changes)
        .filter((key) => key !== 'reason')
        .join(', ')} of ${user_id}`,
    inputSchema: {
      type: 'object',
      properties: {
        reason: reasonField('the profile is being changed'),
        user_id: USER_ID,
        display_name: { type: 'string', minLength: 1, maxLength: 80, description: 'The new name to show in the app and on invoices.' },
        email: { type: 'string', format: 'email', maxLength: 254, description: 'The new email address for sign-in and invoices.' },
        phone: {
          type: 'string',
          pattern: '^\\+[1-9][0-9]{6,14}$',
          description: 'The new phone number in international form ("+" and country code, digits only).',
        },
      },
      required: ['reason', 'user_id'],
      additionalProperties: false,
    },
    hints: { idempotent: true, openWorld: false },
    execute: ({ user_id, display_name, email, phone }) => {
      const user = requireUser(store, user_id);
      if (display_name === undefined && email === undefined && phone === undefined) {
        throw new ToolError('nothing to update: no display_name, email or phone was given', {
          kind: 'invalid_request',
          suggestion: 'Call update_profile again with only the fields the user asked to change.',
        });
      }
      if (email !== undefined && [...store.users.values()].some((other) => other.id !== user_id && other.email.toLowerCase() === email.toLowerCase())) {
        throw new ToolError(`the email address "${email}" belongs to another account`, {
          kind: 'conflict',
          suggestion: 'Ask the user for a different email address.',
        });
      }
      const changed: string[] = [];
      if (display_name !== undefined) {
        user.display_name = display_name;
        changed.push('display_name');
      }
      if (email !== undefined) {
        user.email = email;
        changed.push('email');
      }
      if (phone !== undefined) {
        user.phone = phone;
        changed.push('phone');
      }
      return { user_id, changed, display_name: user.display_name, email: user.email, phone: user.phone };
    },
  });

  const resetPassword = defineTool<{ reason: string; user_id: string; delivery: 'email' | 'sms' }>({
    name: 'reset_password',
    title: 'Send a password-reset link',
    description:
      "Send a password-reset link to the user's email address or phone on file. Only call when the user says they cannot sign in and asks for a reset; a person approves it first.",
    effect: 'write',
    confirm: true,
    category: 'account',
    summarize: ({ user_id, delivery }) => `Send a password-reset link to ${user_id} by ${delivery}`,
    inputSchema: {
      type: 'object',
      properties: {
        reason: reasonField('the password is being reset'),
        user_id: USER_ID,
        delivery: { type: 'string', enum: ['email', 'sms'], description: 'Where to send the link: the email address or the phone number on file.' },
      },
      required: ['reason', 'user_id', 'delivery'],
      additionalProperties: false,
    },
    hints: { additive: true, openWorld: true },
    execute: ({ user_id, delivery }) => {
      const user = requireUser(store, user_id);
      if (delivery === 'sms' && user.phone === null) {
        throw new ToolError(`user "${user_id}" has no phone number on file, so the link cannot be sent by SMS`, {
          kind: 'invalid_request',
          suggestion: 'Send it by email instead, or ask the user to add a phone number first.',
        });
      }
      const sentTo = delivery === 'sms' && user.phone !== null ? maskPhone(user.phone) : maskEmail(user.email);
      store.passwordResets.push({ user_id, delivery, sent_to: sentTo, sent_on: store.today });
      return { user_id, delivery, sent_to: sentTo, expires_in_minutes: 30 };
    },
  });

  const searchProducts = defineTool<{ query: string; category?: ProductCategory; max_price_cents?: number; limit?: number }>({
    name: 'search_products',
    title: 'Search products',
    description:
      'Search the catalog of plans, add-ons and hardware by words in the name or summary. Call it to find a product id; search by name rather than guessing an id.',
    effect: 'read',
    category: 'product',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 2, maxLength: 100, description: 'Words to look for, such as "headset" or "storage"; every word must match.' },
        category: { type: 'string', enum: [...PRODUCT_CATEGORIES], description: 'Only products of this kind; leave out to search everything.' },
        max_price_cents: { type: 'integer', minimum: 0, maximum: 10_000_000, description: 'Only products costing at most this many cents.' },
        limit: { type: 'integer', minimum: 1, maximum: 20, default: 5, description: 'How many products to return at most (default 5).' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    hints: { openWorld: false },
    execute: ({ query, category, max_price_cents, limit = 5 }) => {
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      const products = [...store.products.values()]
        .filter((product) => {
          const text = `${product.name} ${product.summary}`.toLowerCase();
          return (
            words.every((word) => text.includes(word)) &&
            (category === undefined || product.category === category) &&
            (max_price_cents === undefined || product.price_cents <= max_price_cents)
          );
        })
        .slice(0, limit)
        .map((product) => ({ product_id: product.id, name: product.name, category: product.category, price_cents: product.price_cents }));
      return { query, products };
    },
  });

  const getProductDetails = defineTool<{ product_id: string }>({
    name: 'get_product_details',
    title: 'Get product details',
    description: 'Show the name, kind, price and summary of one product. Call it after search_products when the user wants to know more about one result.',
    effect: 'read',
    category: 'product',
    inputSchema: { type: 'object', properties: { product_id: PRODUCT_ID }, required: ['product_id'], additionalProperties: false },
    hints: { openWorld: false },
    execute: ({ product_id }) => {
      const product = store.products.get(product_id);
      if (!product)
        throw new NotFoundError(`no product has the id "${product_id}"`, { suggestion: 'Search the product by name with search_products instead of by id.' });
      return {
        product_id,
        name: product.name,
        category: product.category,
        price_cents: product.price_cents,
        summary: product.summary,
        physical: product.stock !== null,
      };
    },
  });

  const checkInventory = defineTool<{ product_id: string; warehouse?: Warehouse }>({
    name: 'check_inventory',
    title: 'Check stock',
    description:
      'Show how many units of a hardware product are in stock, per warehouse. Call it before promising a delivery; plans and add-ons are digital and have no stock.',
    effect: 'read',
    category: 'product',
    inputSchema: {
      type: 'object',
      properties: {
        product_id: PRODUCT_ID,
        warehouse: { type: 'string', enum: [...WAREHOUSES], description: 'Only this warehouse; leave out for all of them.' },
      },
      required: ['product_id'],
      additionalProperties: false,
    },
    hints: { openWorld: false },
    execute: ({ product_id, warehouse }) => {
      const product = store.products.get(product_id);
      if (!product)
        throw new NotFoundError(`no product has the id "${product_id}"`, { suggestion: 'Search the product by name with search_products instead of by id.' });
      if (product.stock === null) {
        throw new ToolError(`"${product.name}" (${product_id}) is a digital product and has no stock`, {
          kind: 'invalid_request',
          suggestion: 'It is always available; no inventory check is needed.',
        });
      }
      const stock = warehouse === undefined ? product.stock : { [warehouse]: product.stock[warehouse] };
      const total = Object.values(stock).reduce((sum, units) => sum + units, 0);
      return { product_id, name: product.name, total_units: total, warehouses: stock };
    },
  });

  return [
    getSubscription,
    updateSubscription,
    getInvoices,
    createRefund,
    updatePaymentMethod,
    createTicket,
    getTicketStatus,
    escalateTicket,
    getProfile,
    updateProfile,
    resetPassword,
    searchProducts,
    getProductDetails,
    checkInventory,
  ];
}
