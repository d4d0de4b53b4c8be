import { describe, expect, it } from 'vitest';
import { defineTool } from '../../../tools/define-tool.js';
import { lintTools } from '../lint-tools.js';

const payment = (critical?: string[]) =>
  defineTool({
    name: 'pay_invoice',
    description: 'Pays an invoice to the vendor. Call it only when the user asked to pay that invoice.',
    effect: 'write',
    confirm: true,
    ...(critical ? { critical } : {}),
    inputSchema: {
      type: 'object',
      properties: {
        beneficiaryIban: { type: 'string', description: 'The account.' },
        amount: { type: 'number', description: 'EUR.' },
        notify: { type: 'string', format: 'email', description: 'Who to tell.' },
        reference: { type: 'string', description: 'The invoice number.' },
        reason: { type: 'string', description: 'Why.' },
      },
      required: ['beneficiaryIban', 'amount', 'reference', 'reason'],
      additionalProperties: false,
    },
    execute: () => 'paid',
  });
const unmarked = (tools: Parameters<typeof lintTools>[0], imported = false) =>
  lintTools(tools, { imported }).flatMap((finding) => (finding.rule === 'tw/unmarked-critical' ? [finding.path] : []));

describe('tw/unmarked-critical', () => {
  it('reports the arguments of a write tool that decide where money or messages go, by name or by format', () => {
    expect(unmarked([payment()])).toEqual(['/inputSchema/properties/beneficiaryIban', '/inputSchema/properties/amount', '/inputSchema/properties/notify']);
  });

  it('is quiet once they are critical, on read tools and on imported tools', () => {
    expect(unmarked([payment(['beneficiaryIban', 'amount', 'notify'])])).toEqual([]);
    const lookup = defineTool({
      name: 'find_account',
      description: 'Finds an account.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { iban: { type: 'string' } } },
      execute: () => '',
    });
    expect(unmarked([lookup])).toEqual([]);
    expect(unmarked([payment()], true)).toEqual([]);
  });
});
