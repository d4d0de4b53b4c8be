import { beforeEach, describe, expect, it } from 'vitest';
import { lintTools } from '../../src/formats/lint/index.js';
import { ToolRegistry } from '../../src/tools/index.js';
import { ANA_ID, BEN_ID, categories, createSubscriptionTools, createSubscriptionsStore, tools, type SubscriptionsStore } from './index.js';

let store: SubscriptionsStore;
let registry: ToolRegistry;

beforeEach(() => {
  store = createSubscriptionsStore();
  registry = new ToolRegistry(createSubscriptionTools(store));
});

const call = (name: string, args: unknown) => registry.call({ id: 'call_1', name, arguments: args });
const text = (execution: Awaited<ReturnType<typeof call>>) => (execution.result.content[0] as { text: string }).text;
const reason = 'User said: "please move me to the annual enterprise plan"';

describe('examples/subscriptions', () => {
  it("has the seed's update_subscription schema", () => {
    const tool = registry.require('update_subscription');
    expect(tool.effect).toBe('write');
    expect(tool.confirm).toBe(true);
    expect(tool.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        reason: { type: 'string', description: "Why this subscription is being changed (quote the user's request)" },
        user_id: { type: 'string', pattern: '^usr_[a-zA-Z0-9]{20}$' },
        new_plan: { type: 'string', enum: ['starter', 'professional', 'enterprise'] },
        billing_cycle: { type: 'string', enum: ['monthly', 'annual'] },
        effective_date: { type: 'string', enum: ['immediate', 'next_billing_cycle'] },
      },
      required: ['reason', 'user_id', 'new_plan', 'billing_cycle', 'effective_date'],
      additionalProperties: false,
    });
    expect(tool.summarize?.({ reason, user_id: ANA_ID, new_plan: 'enterprise', billing_cycle: 'annual', effective_date: 'immediate' })).toBe(
      `Change ${ANA_ID} to the enterprise plan, billed annual, now`,
    );
  });

  it("exports the seed's routing categories, and every write tool asks for a reason", () => {
    expect(categories).toEqual({
      subscription: ['get_subscription', 'update_subscription'],
      billing: ['get_invoices', 'create_refund', 'update_payment_method'],
      support: ['create_ticket', 'get_ticket_status', 'escalate_ticket'],
      account: ['get_profile', 'update_profile', 'reset_password'],
      product: ['search_products', 'get_product_details', 'check_inventory'],
    });
    for (const tool of tools.filter((candidate) => candidate.effect === 'write')) {
      expect(tool.inputSchema.required, tool.name).toContain('reason');
    }
  });

  it('changes a plan now or schedules it, and refuses a change to the current plan', async () => {
    const now = await call('update_subscription', { reason, user_id: ANA_ID, new_plan: 'enterprise', billing_cycle: 'annual', effective_date: 'immediate' });
    expect(now.result.structuredContent).toEqual({
      user_id: ANA_ID,
      status: 'changed',
      previous: { plan: 'professional', billing_cycle: 'monthly' },
      plan: 'enterprise',
      billing_cycle: 'annual',
      price_cents: 99_000,
      effective_on: '2026-01-15',
    });
    expect(store.users.get(ANA_ID)?.plan).toBe('enterprise');

    const later = await call('update_subscription', {
      reason,
      user_id: BEN_ID,
      new_plan: 'professional',
      billing_cycle: 'monthly',
      effective_date: 'next_billing_cycle',
    });
    expect(later.result.structuredContent).toMatchObject({ status: 'scheduled', effective_on: '2026-09-30' });
    expect((await call('get_subscription', { user_id: BEN_ID })).result.structuredContent).toEqual({
      user_id: BEN_ID,
      plan: 'starter',
      billing_cycle: 'annual',
      price_cents: 9_000,
      renews_on: '2026-09-30',
      scheduled_change: { plan: 'professional', billing_cycle: 'monthly' },
    });

    const same = await call('update_subscription', { reason, user_id: ANA_ID, new_plan: 'enterprise', billing_cycle: 'annual', effective_date: 'immediate' });
    expect(text(same)).toBe(
      `Tool "update_subscription" failed: user "${ANA_ID}" is already on the enterprise plan, billed annual. Nothing needs to change; tell the user which plan they are on. Retrying the same call with the same arguments will fail the same way.`,
    );
    expect(same.failure).toMatchObject({ code: 'tool_error', kind: 'conflict' });
  });

  it('answers an unknown but well-formed user id with a not-found error that says what to do', async () => {
    const execution = await call('get_profile', { user_id: 'usr_AAAAAAAAAAAAAAAAAAAA' });
    expect(execution.result).toEqual({
      content: [
        {
          type: 'text',
          text: 'Tool "get_profile" failed: no user has the id "usr_AAAAAAAAAAAAAAAAAAAA". Use the user id exactly as it appears in the conversation; if you do not have it, ask the user for it instead of guessing. Retrying the same call with the same arguments will fail the same way.',
        },
      ],
      isError: true,
    });
    expect(execution.failure).toMatchObject({ code: 'tool_error', kind: 'not_found' });
  });

  it('rejects malformed arguments before running, naming each problem', async () => {
    const tool = registry.require('update_subscription');
    const execution = await call('update_subscription', {
      user_id: 'user-42',
      new_plan: 'premium',
      billing_cycle: 'annual',
      effective_date: 'immediate',
      coupon: 'X',
    });
    expect(execution.failure?.code).toBe('invalid_arguments');
    expect(text(execution)).toBe(
      'Invalid arguments for tool "update_subscription" (4 problems):\n' +
        '1. $: missing required property "reason" (a string).\n' +
        '2. $: has the unknown property "coupon"; remove it (allowed properties: "reason", "user_id", "new_plan", "billing_cycle", "effective_date").\n' +
        '3. $.user_id: must match the pattern ^usr_[a-zA-Z0-9]{20}$; got the string "user-42".\n' +
        '4. $.new_plan: must be one of "starter", "professional", "enterprise"; got the string "premium".\n' +
        `Fix them and call "update_subscription" again. Its input schema is: ${JSON.stringify(tool.inputSchema)}`,
    );
    expect(store.users.get(ANA_ID)?.plan).toBe('professional');
  });

  it('lists invoices newest first and filters them', async () => {
    const all = await call('get_invoices', { user_id: ANA_ID });
    expect((all.result.structuredContent as { invoices: { invoice_id: string }[] }).invoices.map((invoice) => invoice.invoice_id)).toEqual([
      'inv_000102',
      'inv_000101',
    ]);
    const open = await call('get_invoices', { user_id: BEN_ID, status: 'open' });
    expect(open.result.structuredContent).toEqual({
      user_id: BEN_ID,
      invoices: [
        {
          invoice_id: 'inv_000104',
          issued_on: '2026-01-10',
          description: 'Priority support add-on',
          amount_cents: 1_500,
          refunded_cents: 0,
          currency: 'USD',
          status: 'open',
        },
      ],
    });
    const badDate = await call('get_invoices', { user_id: ANA_ID, issued_since: '15/01/2026' });
    expect(text(badDate).split('\n')[1]).toBe('1. $.issued_since: must be a valid date (for example "2026-01-31"); got the string "15/01/2026".');
  });

  it('refunds part of a paid invoice, then refuses more than what is left, an open invoice and an unknown one', async () => {
    const first = await call('create_refund', { reason: 'User: "refund half of January"', invoice_id: 'inv_000102', amount_cents: 1_450 });
    expect(first.result.structuredContent).toEqual({
      refund_id: 'ref_000001',
      invoice_id: 'inv_000102',
      amount_cents: 1_450,
      currency: 'USD',
      invoice_status: 'partially_refunded',
      created_on: '2026-01-15',
    });
    const tooMuch = await call('create_refund', { reason: 'User: "refund all of January"', invoice_id: 'inv_000102', amount_cents: 2_900 });
    expect(text(tooMuch)).toBe(
      'Tool "create_refund" failed: only 1450 cents of invoice "inv_000102" can still be refunded, not 2900. Refund at most 1450 cents, after checking the amount with the user. Retrying the same call with the same arguments will fail the same way.',
    );
    const open = await call('create_refund', { reason: 'User: "refund it"', invoice_id: 'inv_000104', amount_cents: 100 });
    expect(text(open)).toBe(
      'Tool "create_refund" failed: invoice "inv_000104" has not been paid, so there is nothing to refund. Tell the user the invoice is still open; it can be left unpaid or disputed through a support ticket. Retrying the same call with the same arguments will fail the same way.',
    );
    const unknown = await call('create_refund', { reason: 'User: "refund it"', invoice_id: 'inv_999999', amount_cents: 100 });
    expect(text(unknown)).toBe(
      'Tool "create_refund" failed: no invoice has the id "inv_999999". Call get_invoices with the user\'s id to find the right invoice id. Retrying the same call with the same arguments will fail the same way.',
    );
    const negative = await call('create_refund', { reason: 'User: "refund it"', invoice_id: 'inv_000101', amount_cents: 0 });
    expect(text(negative).split('\n')[1]).toBe('1. $.amount_cents: must be at least 1; got the number 0.');
  });

  it('replaces the card only with a token from the secure form', async () => {
    const ok = await call('update_payment_method', { reason: 'User: "use my new Visa"', user_id: ANA_ID, payment_token: 'pm_tok_4eT9xQ2mL7vB1nZ8' });
    expect(ok.result.structuredContent).toEqual({ user_id: ANA_ID, previous_card: { brand: 'visa', last4: '4242' }, card: { brand: 'visa', last4: '1881' } });
    const expired = await call('update_payment_method', { reason: 'User: "use my new Visa"', user_id: ANA_ID, payment_token: 'pm_tok_0000000000000000' });
    expect(text(expired)).toBe(
      'Tool "update_payment_method" failed: the payment token is unknown or has expired. Ask the user to enter the card again in the secure card form and use the new token; never ask for the card number in chat. Retrying the same call with the same arguments will fail the same way.',
    );
  });

  it('opens, reads and escalates tickets', async () => {
    const created = await call('create_ticket', {
      reason: 'User: "the speaker I ordered never arrived"',
      user_id: BEN_ID,
      subject: 'Conference speaker never arrived',
      description: 'Ordered a Conference speaker S1 on 2026-01-02; tracking has not moved since.',
      priority: 'high',
    });
    expect(created.result.structuredContent).toEqual({
      ticket_id: 'tkt_000103',
      status: 'open',
      level: 'tier1',
      priority: 'high',
      contact_email: 'ben.okafor@example.com',
    });
    const escalated = await call('escalate_ticket', { reason: 'User asked for a manager', ticket_id: 'tkt_000103', level: 'manager' });
    expect(escalated.result.structuredContent).toEqual({ ticket_id: 'tkt_000103', previous_level: 'tier1', level: 'manager', status: 'open' });
    expect((await call('get_ticket_status', { ticket_id: 'tkt_000103' })).result.structuredContent).toMatchObject({
      level: 'manager',
      status: 'open',
      updated_on: '2026-01-15',
    });
    const closed = await call('escalate_ticket', { reason: 'User asked again', ticket_id: 'tkt_000102', level: 'manager' });
    expect(text(closed)).toBe(
      'Tool "escalate_ticket" failed: ticket "tkt_000102" is closed and cannot be escalated. Open a new ticket with create_ticket that refers to the closed one. Retrying the same call with the same arguments will fail the same way.',
    );
    const down = await call('escalate_ticket', { reason: 'User asked again', ticket_id: 'tkt_000103', level: 'tier2' });
    expect(text(down)).toBe(
      'Tool "escalate_ticket" failed: ticket "tkt_000103" is already at level manager. It is at the highest level; tell the user it is with a manager. Retrying the same call with the same arguments will fail the same way.',
    );
    const badEmail = await call('create_ticket', {
      reason: 'x'.repeat(3),
      user_id: BEN_ID,
      subject: 'Help',
      description: 'Something broke today.',
      priority: 'normal',
      contact_email: 'ben at example',
    });
    expect(text(badEmail).split('\n').slice(0, 3)).toEqual([
      'Invalid arguments for tool "create_ticket" (2 problems):',
      '1. $.subject: must have at least 5 characters; got the string "Help".',
      '2. $.contact_email: must be a valid email (for example "name@example.com"); got the string "ben at example".',
    ]);
  });

  it('updates a profile and sends a password reset where it can', async () => {
    const updated = await call('update_profile', { reason: 'User: "my new number is +44 7700 900123"', user_id: BEN_ID, phone: '+447700900123' });
    expect(updated.result.structuredContent).toEqual({
      user_id: BEN_ID,
      changed: ['phone'],
      display_name: 'Ben Okafor',
      email: 'ben.okafor@example.com',
      phone: '+447700900123',
    });
    const nothing = await call('update_profile', { reason: 'User wants changes', user_id: BEN_ID });
    expect(text(nothing)).toBe(
      'Tool "update_profile" failed: nothing to update: no display_name, email or phone was given. Call update_profile again with only the fields the user asked to change. Retrying the same call with the same arguments will fail the same way.',
    );
    const taken = await call('update_profile', { reason: 'User: "use ana.lima@example.com"', user_id: BEN_ID, email: 'Ana.Lima@example.com' });
    expect(taken.failure).toMatchObject({
      kind: 'conflict',
      message: expect.stringContaining('the email address "Ana.Lima@example.com" belongs to another account.'),
    });

    const sms = await call('reset_password', { reason: 'User: "I am locked out"', user_id: BEN_ID, delivery: 'sms' });
    expect(sms.result.structuredContent).toEqual({ user_id: BEN_ID, delivery: 'sms', sent_to: '+44******23', expires_in_minutes: 30 });
    const fresh = new ToolRegistry(createSubscriptionTools(createSubscriptionsStore()));
    const noPhone = await fresh.call({
      id: 'call_2',
      name: 'reset_password',
      arguments: { reason: 'User: "I am locked out"', user_id: BEN_ID, delivery: 'sms' },
    });
    expect((noPhone.result.content[0] as { text: string }).text).toBe(
      `Tool "reset_password" failed: user "${BEN_ID}" has no phone number on file, so the link cannot be sent by SMS. Send it by email instead, or ask the user to add a phone number first. Retrying the same call with the same arguments will fail the same way.`,
    );
    const email = await call('reset_password', { reason: 'User: "I am locked out"', user_id: ANA_ID, delivery: 'email' });
    expect(email.result.structuredContent).toMatchObject({ sent_to: 'a***@example.com' });
  });

  it('searches products, shows details and stock, and says when a product has none', async () => {
    const found = await call('search_products', { query: 'headset' });
    expect(found.result.structuredContent).toEqual({
      query: 'headset',
      products: [{ product_id: 'prd_30003', name: 'USB headset H3', category: 'hardware', price_cents: 4_900 }],
    });
    const cheapPlans = await call('search_products', { query: 'plan', category: 'plan', max_price_cents: 3_000 });
    expect((cheapPlans.result.structuredContent as { products: { product_id: string }[] }).products.map((product) => product.product_id)).toEqual([
      'prd_10001',
      'prd_10002',
    ]);
    expect((await call('get_product_details', { product_id: 'prd_30001' })).result.structuredContent).toMatchObject({ name: 'Desk phone X2', physical: true });
    expect((await call('check_inventory', { product_id: 'prd_30001' })).result.structuredContent).toEqual({
      product_id: 'prd_30001',
      name: 'Desk phone X2',
      total_units: 17,
      warehouses: { 'eu-west': 14, 'us-east': 0, 'ap-south': 3 },
    });
    expect((await call('check_inventory', { product_id: 'prd_30003', warehouse: 'us-east' })).result.structuredContent).toMatchObject({
      total_units: 87,
      warehouses: { 'us-east': 87 },
    });
    const digital = await call('check_inventory', { product_id: 'prd_10002' });
    expect(text(digital)).toBe(
      'Tool "check_inventory" failed: "Professional plan" (prd_10002) is a digital product and has no stock. It is always available; no inventory check is needed. Retrying the same call with the same arguments will fail the same way.',
    );
    const unknown = await call('get_product_details', { product_id: 'prd_99999' });
    expect(text(unknown)).toBe(
      'Tool "get_product_details" failed: no product has the id "prd_99999". Search the product by name with search_products instead of by id. Retrying the same call with the same arguments will fail the same way.',
    );
  });

  it('gives each store its own state', async () => {
    await call('update_subscription', { reason, user_id: ANA_ID, new_plan: 'starter', billing_cycle: 'monthly', effective_date: 'immediate' });
    expect(createSubscriptionsStore().users.get(ANA_ID)?.plan).toBe('professional');
  });

  it('lints clean', () => {
    expect(lintTools(tools, { categories })).toEqual([]);
  });
});
