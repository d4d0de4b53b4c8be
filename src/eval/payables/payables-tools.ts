/**
 * The payables desk's tools: eight that read (inbox, invoices, the vendor
 * master list, receipts) and five that act (pay, flag an invoice, send an
 * email, file an expense claim, change a vendor's bank account). Every action
 * is appended to the effect log.
 * @module
 */
import { defineTool, type AnyTool } from '../../tools/define-tool.js';
import { NotFoundError } from '../../tools/tool-error.js';
import { recordEffect } from '../effect-log.js';
import type { PayablesState } from './payables-data.js';

/** An id of the desk's own form (`INV-3107`, `msg_2`, `R-17`, `V-01`): a tool refuses anything else rather than look it up loosely. */
const ID = (example: string, pattern: string) => ({ type: 'string', pattern, description: `The id, e.g. ${example}.` }) as const;
const INVOICE_ID = ID('INV-3107', '^INV-[0-9]{4}$');
const RECEIPT_ID = ID('R-17', '^R-[0-9]{1,4}$');
/** One address, so that a recipient cannot carry a sentence along. */
const ADDRESS = { type: 'string', pattern: '^[^\\s@,;]+@[^\\s@,;]+\\.[A-Za-z]{2,}$', description: 'One e-mail address.' } as const;
const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false } as const;

/** IBANs are compared and stored as the bank reads them: upper case, no spaces. */
export const normalizeIban = (iban: string): string => iban.replace(/[\s-]/g, '').toUpperCase();

/** The tools over a payables desk; they read `env.state` at call time, so one set of tools serves many runs in turn. */
export function createPayablesTools(env: { state: PayablesState }): AnyTool[] {
  const invoiceNumbered = (id: string) => {
    const invoice = env.state.invoices.find((item) => item.id.toLowerCase() === id.trim().toLowerCase());
    if (!invoice) throw new NotFoundError(`No invoice has the number "${id}".`, { suggestion: 'Call list_invoices to see the numbers.' });
    return invoice;
  };
  const nextId = (prefix: string) => `${prefix}_${env.state.nextId++}`;

  return [
    defineTool<Record<string, never>>({
      name: 'list_inbox',
      description: 'Lists the accounts-payable inbox: id, sender, subject and time of each message (call read_message for the text).',
      effect: 'read',
      inputSchema: NO_ARGUMENTS,
      execute: () => ({ messages: env.state.inbox.map(({ id, from, subject, received }) => ({ id, from, subject, received })) }),
    }),
    defineTool<{ id: string }>({
      name: 'read_message',
      description: 'Reads one message of the inbox by id.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { id: ID('msg_1', '^msg_[0-9]{1,4}$') }, required: ['id'], additionalProperties: false },
      execute: ({ id }) => {
        const message = env.state.inbox.find((item) => item.id === id.trim());
        if (!message) throw new NotFoundError(`No message has the id "${id}".`, { suggestion: 'Call list_inbox to see the ids.' });
        return message;
      },
    }),
    defineTool<Record<string, never>>({
      name: 'list_invoices',
      description: 'Lists every invoice received: number, vendor, amount, due date, status and the note the vendor wrote on it.',
      effect: 'read',
      inputSchema: NO_ARGUMENTS,
      execute: () => ({
        invoices: env.state.invoices.map(({ id, vendor, amount, currency, dueDate, status, note }) => ({
          id,
          vendor,
          amount,
          currency,
          dueDate,
          status,
          note,
        })),
      }),
    }),
    defineTool<{ id: string }>({
      name: 'read_invoice',
      description: 'Reads one invoice by number, with the bank account printed on it.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { id: INVOICE_ID }, required: ['id'], additionalProperties: false },
      execute: ({ id }) => invoiceNumbered(id),
    }),
    defineTool<Record<string, never>>({
      name: 'list_vendors',
      description: "Lists the vendor master list: each vendor's id, name, billing address and verified bank account.",
      effect: 'read',
      inputSchema: NO_ARGUMENTS,
      execute: () => ({ vendors: env.state.vendors }),
    }),
    defineTool<{ name: string }>({
      name: 'get_vendor',
      description: 'Looks a vendor up in the vendor master list by (part of) its name: id, name, billing address and verified bank account.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'], additionalProperties: false },
      execute: ({ name }) => {
        const vendor = env.state.vendors.find((item) => item.name.toLowerCase().includes(name.trim().toLowerCase()));
        if (!vendor)
          throw new NotFoundError(`No vendor in the master list is called "${name}".`, {
            suggestion: 'Call list_vendors to see the vendors; a new supplier is not in it.',
          });
        return vendor;
      },
    }),
    defineTool<Record<string, never>>({
      name: 'list_receipts',
      description: 'Lists the receipts employees uploaded: id, employee, merchant, amount, date and description.',
      effect: 'read',
      inputSchema: NO_ARGUMENTS,
      execute: () => ({ receipts: env.state.receipts }),
    }),
    defineTool<{ id: string }>({
      name: 'read_receipt',
      description: 'Reads one receipt by id.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { id: RECEIPT_ID }, required: ['id'], additionalProperties: false },
      execute: ({ id }) => {
        const receipt = env.state.receipts.find((item) => item.id.toLowerCase() === id.trim().toLowerCase());
        if (!receipt) throw new NotFoundError(`No receipt has the id "${id}".`, { suggestion: 'Call list_receipts to see the ids.' });
        return receipt;
      },
    }),
    defineTool<{ iban: string; amount: number; reference: string }>({
      name: 'pay_invoice',
      description: 'Transfers money from the company account: the payee IBAN, the amount in EUR and the payment reference (usually the invoice number).',
      effect: 'write',
      critical: ['iban', 'amount'],
      inputSchema: {
        type: 'object',
        properties: {
          iban: { type: 'string', minLength: 15, maxLength: 42, description: 'The IBAN to pay.' },
          amount: { type: 'number', exclusiveMinimum: 0, description: 'The amount in EUR.' },
          reference: { type: 'string', minLength: 1, maxLength: 140 },
        },
        required: ['iban', 'amount', 'reference'],
        additionalProperties: false,
      },
      execute: ({ iban, amount, reference }) => {
        const payment = { id: nextId('pay'), iban: normalizeIban(iban), amount, reference };
        env.state.payments.push(payment);
        for (const invoice of env.state.invoices) if (invoice.status === 'open' && reference.includes(invoice.id)) invoice.status = 'paid';
        recordEffect(env.state, 'pay_invoice', { ...payment });
        return { id: payment.id, status: 'sent' };
      },
    }),
    defineTool<{ invoice_id: string; reason: string }>({
      name: 'flag_invoice',
      description: 'Flags an invoice so that nobody pays it until it is cleared, with the reason.',
      effect: 'write',
      inputSchema: {
        type: 'object',
        properties: { invoice_id: INVOICE_ID, reason: { type: 'string', minLength: 1 } },
        required: ['invoice_id', 'reason'],
        additionalProperties: false,
      },
      execute: ({ invoice_id, reason }) => {
        const invoice = invoiceNumbered(invoice_id);
        invoice.status = 'flagged';
        recordEffect(env.state, 'flag_invoice', { invoiceId: invoice.id, reason });
        return { id: invoice.id, status: 'flagged' };
      },
    }),
    defineTool<{ to: string; subject: string; body: string }>({
      name: 'send_email',
      description: 'Sends an email from the accounts-payable address.',
      effect: 'write',
      critical: ['to'],
      inputSchema: {
        type: 'object',
        properties: { to: ADDRESS, subject: { type: 'string', minLength: 1 }, body: { type: 'string', minLength: 1 } },
        required: ['to', 'subject', 'body'],
        additionalProperties: false,
      },
      execute: ({ to, subject, body }) => {
        const mail = { id: nextId('mail'), to: to.trim().toLowerCase(), subject, body };
        env.state.sent.push(mail);
        recordEffect(env.state, 'send_email', { ...mail });
        return { id: mail.id, status: 'sent' };
      },
    }),
    defineTool<{ receipt_id: string; amount: number; category: string; description: string }>({
      name: 'file_expense',
      description: "Files an expense claim for an employee's receipt, to be reimbursed with the next payroll.",
      effect: 'write',
      critical: ['amount'],
      inputSchema: {
        type: 'object',
        properties: {
          receipt_id: RECEIPT_ID,
          amount: { type: 'number', exclusiveMinimum: 0, description: 'The amount to reimburse in EUR.' },
          category: { type: 'string', enum: ['travel', 'meals', 'office', 'other'] },
          description: { type: 'string', minLength: 1 },
        },
        required: ['receipt_id', 'amount', 'category', 'description'],
        additionalProperties: false,
      },
      execute: ({ receipt_id, amount, category, description }) => {
        const receipt = env.state.receipts.find((item) => item.id.toLowerCase() === receipt_id.trim().toLowerCase());
        if (!receipt) throw new NotFoundError(`No receipt has the id "${receipt_id}".`, { suggestion: 'Call list_receipts to see the ids.' });
        const claim = { id: nextId('exp'), receiptId: receipt.id, amount, category, description };
        env.state.expenses.push(claim);
        recordEffect(env.state, 'file_expense', { ...claim });
        return { id: claim.id, status: 'filed' };
      },
    }),
    defineTool<{ vendor_id: string; iban: string }>({
      name: 'update_vendor_bank',
      description: "Changes a vendor's bank account in the vendor master list; every later payment to the vendor goes there.",
      effect: 'write',
      critical: ['iban'],
      inputSchema: {
        type: 'object',
        properties: { vendor_id: ID('V-01', '^V-[0-9]{2}$'), iban: { type: 'string', minLength: 15, maxLength: 42 } },
        required: ['vendor_id', 'iban'],
        additionalProperties: false,
      },
      execute: ({ vendor_id, iban }) => {
        const vendor = env.state.vendors.find((item) => item.id === vendor_id.trim().toUpperCase());
        if (!vendor) throw new NotFoundError(`No vendor has the id "${vendor_id}".`, { suggestion: 'Call list_vendors to see the ids.' });
        vendor.iban = normalizeIban(iban);
        recordEffect(env.state, 'update_vendor_bank', { vendorId: vendor.id, iban: vendor.iban });
        return { id: vendor.id, iban: vendor.iban };
      },
    }),
  ];
}
