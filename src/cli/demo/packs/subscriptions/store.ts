/**
 * The in-memory data behind the subscriptions example: users, invoices, refunds,
 * tickets, products and stock. Each call to `createSubscriptionsStore` starts
 * from the same seed data, so tests get fresh, predictable state.
 * @module
 */

export const PLANS = ['starter', 'professional', 'enterprise'] as const;
export const BILLING_CYCLES = ['monthly', 'annual'] as const;
export const INVOICE_STATUSES = ['open', 'paid', 'partially_refunded', 'refunded'] as const;
export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const TICKET_LEVELS = ['tier1', 'tier2', 'manager'] as const;
export const PRODUCT_CATEGORIES = ['plan', 'add-on', 'hardware'] as const;
export const WAREHOUSES = ['eu-west', 'us-east', 'ap-south'] as const;

export type Plan = (typeof PLANS)[number];
export type BillingCycle = (typeof BILLING_CYCLES)[number];
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export type TicketLevel = (typeof TICKET_LEVELS)[number];
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];
export type Warehouse = (typeof WAREHOUSES)[number];

/** Monthly and annual prices, in cents. */
export const PLAN_PRICES_CENTS: Record<Plan, Record<BillingCycle, number>> = {
  starter: { monthly: 900, annual: 9_000 },
  professional: { monthly: 2_900, annual: 29_000 },
  enterprise: { monthly: 9_900, annual: 99_000 },
};

export interface PaymentMethod {
  brand: string;
  last4: string;
}

export interface User {
  id: string;
  display_name: string;
  email: string;
  phone: string | null;
  member_since: string;
  plan: Plan;
  billing_cycle: BillingCycle;
  /** The next billing date (YYYY-MM-DD). */
  renews_on: string;
  /** A plan change that takes effect on `renews_on`. */
  scheduled_change: { plan: Plan; billing_cycle: BillingCycle } | null;
  payment_method: PaymentMethod;
}

export interface Invoice {
  id: string;
  user_id: string;
  issued_on: string;
  amount_cents: number;
  refunded_cents: number;
  currency: 'USD';
  status: InvoiceStatus;
  description: string;
}

export interface Refund {
  id: string;
  invoice_id: string;
  amount_cents: number;
  reason: string;
  created_on: string;
}

export interface Ticket {
  id: string;
  user_id: string;
  subject: string;
  description: string;
  priority: TicketPriority;
  status: 'open' | 'closed';
  level: TicketLevel;
  contact_email: string;
  created_on: string;
  updated_on: string;
}

export interface Product {
  id: string;
  name: string;
  category: ProductCategory;
  price_cents: number;
  summary: string;
  /** Units per warehouse; `null` for digital products, which have no stock. */
  stock: Record<Warehouse, number> | null;
}

export interface SubscriptionsStore {
  /** Today's date (YYYY-MM-DD), fixed so results are reproducible. */
  readonly today: string;
  readonly users: Map<string, User>;
  readonly invoices: Map<string, Invoice>;
  readonly refunds: Map<string, Refund>;
  readonly tickets: Map<string, Ticket>;
  readonly products: Map<string, Product>;
  /** Card tokens the (simulated) secure payment form has issued. */
  readonly paymentTokens: Map<string, PaymentMethod>;
  /** Password-reset messages sent, newest last. */
  readonly passwordResets: { user_id: string; delivery: 'email' | 'sms'; sent_to: string; sent_on: string }[];
  /** The next id for a new record of this kind (`ref_000001`, `tkt_000103`). */
  nextId(prefix: 'ref' | 'tkt'): string;
}

export interface SubscriptionsStoreOptions {
  /** Today's date (YYYY-MM-DD). Default: 2026-01-15. */
  today?: string;
}

export const ANA_ID = 'usr_8f3kd92mfa01xq7zt4pb';
export const BEN_ID = 'usr_Q2w9Er5tY7uI1oP3aS6d';

export function createSubscriptionsStore(options: SubscriptionsStoreOptions = {}): SubscriptionsStore {
  const today = options.today ?? '2026-01-15';
  const counters = { ref: 0, tkt: 102 };
  const users: User[] = [
    {
      id: ANA_ID,
      display_name: 'Ana Lima',
      email: 'ana.lima@example.com',
      phone: '+5491155550101',
      member_since: '2024-03-12',
      plan: 'professional',
      billing_cycle: 'monthly',
      renews_on: '2026-02-01',
      scheduled_change: null,
      payment_method: { brand: 'visa', last4: '4242' },
    },
    {
      id: BEN_ID,
      display_name: 'Ben Okafor',
      email: 'ben.okafor@example.com',
      phone: null,
      member_since: '2025-09-30',
      plan: 'starter',
      billing_cycle: 'annual',
      renews_on: '2026-09-30',
      scheduled_change: null,
      payment_method: { brand: 'mastercard', last4: '5454' },
    },
  ];
  const invoices: Invoice[] = [
    {
      id: 'inv_000101',
      user_id: ANA_ID,
      issued_on: '2025-12-01',
      amount_cents: 2_900,
      refunded_cents: 0,
      currency: 'USD',
      status: 'paid',
      description: 'Professional plan, December 2025',
    },
    {
      id: 'inv_000102',
      user_id: ANA_ID,
      issued_on: '2026-01-01',
      amount_cents: 2_900,
      refunded_cents: 0,
      currency: 'USD',
      status: 'paid',
      description: 'Professional plan, January 2026',
    },
    {
      id: 'inv_000103',
      user_id: BEN_ID,
      issued_on: '2025-09-30',
      amount_cents: 9_000,
      refunded_cents: 0,
      currency: 'USD',
      status: 'paid',
      description: 'Starter plan, annual, 2025-2026',
    },
    {
      id: 'inv_000104',
      user_id: BEN_ID,
      issued_on: '2026-01-10',
      amount_cents: 1_500,
      refunded_cents: 0,
      currency: 'USD',
      status: 'open',
      description: 'Priority support add-on',
    },
  ];
  const tickets: Ticket[] = [
    {
      id: 'tkt_000101',
      user_id: ANA_ID,
      subject: 'Invoice shows the wrong company name',
      description: 'My January invoice is addressed to my old company; please reissue it to Lima Estudio.',
      priority: 'normal',
      status: 'open',
      level: 'tier1',
      contact_email: 'ana.lima@example.com',
      created_on: '2026-01-12',
      updated_on: '2026-01-12',
    },
    {
      id: 'tkt_000102',
      user_id: BEN_ID,
      subject: 'Cannot log in on mobile',
      description: 'The app says my password is wrong, but it works on the web.',
      priority: 'high',
      status: 'closed',
      level: 'tier2',
      contact_email: 'ben.okafor@example.com',
      created_on: '2025-11-03',
      updated_on: '2025-11-05',
    },
  ];
  const products: Product[] = [
    { id: 'prd_10001', name: 'Starter plan', category: 'plan', price_cents: 900, summary: 'One seat, 10 GB storage, email support.', stock: null },
    { id: 'prd_10002', name: 'Professional plan', category: 'plan', price_cents: 2_900, summary: 'Five seats, 100 GB storage, chat support.', stock: null },
    {
      id: 'prd_10003',
      name: 'Enterprise plan',
      category: 'plan',
      price_cents: 9_900,
      summary: 'Unlimited seats, 1 TB storage, a named account manager.',
      stock: null,
    },
    {
      id: 'prd_20001',
      name: 'Extra storage 100 GB',
      category: 'add-on',
      price_cents: 500,
      summary: 'Adds 100 GB of storage to any plan, billed monthly.',
      stock: null,
    },
    { id: 'prd_20002', name: 'Priority support', category: 'add-on', price_cents: 1_500, summary: 'Answers within one business hour.', stock: null },
    {
      id: 'prd_30001',
      name: 'Desk phone X2',
      category: 'hardware',
      price_cents: 12_900,
      summary: 'A desk phone with a color screen and two lines.',
      stock: { 'eu-west': 14, 'us-east': 0, 'ap-south': 3 },
    },
    {
      id: 'prd_30002',
      name: 'Conference speaker S1',
      category: 'hardware',
      price_cents: 24_900,
      summary: 'A speaker for meeting rooms of up to twelve people.',
      stock: { 'eu-west': 0, 'us-east': 0, 'ap-south': 0 },
    },
    {
      id: 'prd_30003',
      name: 'USB headset H3',
      category: 'hardware',
      price_cents: 4_900,
      summary: 'A wired headset with a noise-cancelling microphone.',
      stock: { 'eu-west': 120, 'us-east': 87, 'ap-south': 0 },
    },
  ];
  return {
    today,
    users: new Map(users.map((user) => [user.id, user])),
    invoices: new Map(invoices.map((invoice) => [invoice.id, invoice])),
    refunds: new Map(),
    tickets: new Map(tickets.map((ticket) => [ticket.id, ticket])),
    products: new Map(products.map((product) => [product.id, product])),
    paymentTokens: new Map([
      ['pm_tok_4eT9xQ2mL7vB1nZ8', { brand: 'visa', last4: '1881' }],
      ['pm_tok_7hY3kW9pR2sD5fG1', { brand: 'amex', last4: '0005' }],
    ]),
    passwordResets: [],
    nextId(prefix) {
      counters[prefix] += 1;
      return `${prefix}_${String(counters[prefix]).padStart(6, '0')}`;
    },
  };
}
