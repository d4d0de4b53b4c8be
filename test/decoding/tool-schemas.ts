/**
 * Realistic tool-call schemas with valid instances, shared by the decoding tests and
 * `npm run bench:mask`: the issue's three tools plus the example packs' tools.
 */
import type { AnyTool } from '../../src/tools/index.js';
import { tools as conjugateTools } from '../../examples/conjugate/index.js';
import { tools as subscriptionTools } from '../../examples/subscriptions/index.js';

export interface ToolCase {
  readonly name: string;
  readonly schema: unknown;
  /** Valid arguments, as a model would send them. */
  readonly instances: readonly Record<string, unknown>[];
}

export const updateSubscription: ToolCase = {
  name: 'update_subscription',
  schema: {
    type: 'object',
    properties: {
      reason: { type: 'string', description: 'Why the plan changes, in the user’s words.' },
      user_id: { type: 'string', pattern: '^usr_[a-zA-Z0-9]{20}$' },
      new_plan: { type: 'string', enum: ['starter', 'professional', 'enterprise'] },
      billing_cycle: { type: 'string', enum: ['monthly', 'annual'] },
      effective_date: { type: 'string', enum: ['immediate', 'next_billing_cycle'] },
    },
    required: ['reason', 'user_id', 'new_plan', 'billing_cycle', 'effective_date'],
    additionalProperties: false,
  },
  instances: [
    {
      reason: 'The team grew to 40 people and needs SSO, so they want Enterprise.',
      user_id: 'usr_a1B2c3D4e5F6g7H8i9J0',
      new_plan: 'enterprise',
      billing_cycle: 'annual',
      effective_date: 'immediate',
    },
    {
      reason: 'Budget cuts for Q3: "we only need the basics" (café team of 3).',
      user_id: 'usr_ZZZZZZZZZZzzzzzzzz00',
      new_plan: 'starter',
      billing_cycle: 'monthly',
      effective_date: 'next_billing_cycle',
    },
    {
      reason: 'Wants API access\nand priority support — ticket #4411 😀',
      user_id: 'usr_0000000000aaaaaaaaaa',
      new_plan: 'professional',
      billing_cycle: 'monthly',
      effective_date: 'immediate',
    },
  ],
};

export const conjugate: ToolCase = {
  name: 'conjugate',
  schema: {
    type: 'object',
    properties: {
      verb: { type: 'string', enum: ['be', 'have', 'do', 'go', 'eat', 'see', 'write', 'make'] },
      tense: { type: 'string', enum: ['present_simple', 'past_simple', 'present_perfect', 'future_simple'] },
      person: { type: 'string', enum: ['1sg', '2sg', '3sg', '1pl', '2pl', '3pl'] },
    },
    required: ['verb', 'tense', 'person'],
    additionalProperties: false,
  },
  instances: [
    { verb: 'eat', tense: 'present_perfect', person: '3sg' },
    { verb: 'be', tense: 'past_simple', person: '2pl' },
    { verb: 'write', tense: 'future_simple', person: '1sg' },
  ],
};

export const searchDocuments: ToolCase = {
  name: 'search_documents',
  schema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 120 },
      limit: { type: 'integer', minimum: 1, maximum: 50 },
      notify: { type: 'string', format: 'email' },
      since: { type: 'string', format: 'date' },
      tags: { type: 'array', items: { type: 'string', maxLength: 20 }, maxItems: 5 },
    },
    required: ['query'],
    additionalProperties: false,
  },
  instances: [
    { query: 'refund policy for annual plans', limit: 10, notify: 'ana.perez@example.com' },
    { query: 'Überweisung storniert — was nun?', limit: 1, since: '2024-02-29', tags: ['billing', 'de'] },
    { query: 'q', limit: 50, notify: 'x+ops@sub.example.co.uk', since: '1999-12-31', tags: [] },
  ],
};

/** The schemas plus every tool of the example packs (with instances where written). */
export function toolCases(): ToolCase[] {
  const packs: AnyTool[] = [...subscriptionTools, ...conjugateTools];
  const written: Record<string, readonly Record<string, unknown>[]> = {
    update_subscription: [
      {
        reason: 'User asked: "please move me to annual billing"',
        user_id: 'usr_a1B2c3D4e5F6g7H8i9J0',
        new_plan: 'professional',
        billing_cycle: 'annual',
        effective_date: 'next_billing_cycle',
      },
    ],
    create_refund: [{ reason: 'Charged twice for March', invoice_id: 'inv_004211', amount_cents: 4900 }],
    get_invoices: [{ user_id: 'usr_a1B2c3D4e5F6g7H8i9J0', status: 'paid', issued_since: '2024-01-01', limit: 5 }],
    create_ticket: [
      {
        reason: 'Login loop',
        user_id: 'usr_a1B2c3D4e5F6g7H8i9J0',
        subject: 'Cannot log in after reset',
        description: 'The page reloads forever.',
        priority: 'high',
        contact_email: 'ana@example.com',
      },
    ],
    search_products: [{ query: 'usb headset', category: 'hardware', max_price_cents: 15000, limit: 3 }],
    conjugate: [{ verb: 'eat', tense: 'past_simple', person: '1pl' }],
    list_verbs: [{}],
  };
  return [
    updateSubscription,
    conjugate,
    searchDocuments,
    ...packs.map((tool) => ({ name: `pack:${tool.name}`, schema: tool.inputSchema, instances: written[tool.name] ?? [] })),
  ];
}
