/** The two tools the OAuth tests serve: a read (`lookup`, which names the user in its context) and a write (`refund`). */
import { defineTool, type ToolContext } from '../../src/tools/index.js';

export function invoiceTools(refunds: string[], onLookup?: (context: ToolContext<{ user?: string | undefined }>) => void) {
  const lookup = defineTool<{ invoice: string }, string, { user?: string | undefined }>({
    name: 'lookup',
    description: 'Looks an invoice up.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'] },
    execute: ({ invoice }, context) => (onLookup?.(context), `invoice ${invoice} for ${context.context?.user ?? 'nobody'}`),
  });
  const refund = defineTool<{ invoice: string }>({
    name: 'refund',
    description: 'Refunds an invoice.',
    effect: 'write',
    inputSchema: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'] },
    execute: ({ invoice }) => (refunds.push(invoice), `refunded ${invoice}`),
  });
  return { lookup, refund };
}
