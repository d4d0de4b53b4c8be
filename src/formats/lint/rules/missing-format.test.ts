import { describe, expect, it } from 'vitest';
import { defineTool } from '../../../tools/index.js';
import { lintTools } from '../lint-tools.js';

function formatFindings(properties: Record<string, unknown>) {
  const tool = defineTool({
    name: 'lookup_customer',
    description: 'Find a customer record by any of the identifiers the user gave.',
    effect: 'read',
    inputSchema: { type: 'object', properties, required: [], additionalProperties: false },
    execute: () => 'ok',
  });
  return lintTools([tool]).filter((finding) => finding.rule === 'tw/missing-format');
}

describe('tw/missing-format', () => {
  it('reports id-, email-, date-, url- and phone-like strings without pattern or format', () => {
    const findings = formatFindings({
      customerId: { type: 'string', description: 'Customer identifier.' },
      email: { type: 'string', description: 'Contact address of the customer.' },
      birth_date: { type: 'string', description: 'Birthday of the customer.' },
      created_at: { type: 'string', description: 'When the record was created.' },
      website_url: { type: 'string', description: 'Company site of the customer.' },
      phone_number: { type: 'string', description: 'Where to call the customer.' },
      order_ids: { type: 'array', items: { type: 'string' }, description: 'Orders placed by the customer.' },
    });
    expect(findings.map((finding) => [finding.path, finding.message])).toEqual([
      ['/inputSchema/properties/customerId', 'Property "customerId" looks like an identifier but accepts any string.'],
      ['/inputSchema/properties/email', 'Property "email" looks like an email address but accepts any string.'],
      ['/inputSchema/properties/birth_date', 'Property "birth_date" looks like a date but accepts any string.'],
      ['/inputSchema/properties/created_at', 'Property "created_at" looks like a date-time but accepts any string.'],
      ['/inputSchema/properties/website_url', 'Property "website_url" looks like a URL but accepts any string.'],
      ['/inputSchema/properties/phone_number', 'Property "phone_number" looks like a phone number but accepts any string.'],
      ['/inputSchema/properties/order_ids/items', 'Property "order_ids" looks like an identifier but accepts any string.'],
    ]);
    expect(findings[1]!.fix).toBe('Add "format": "email", so a malformed or invented value is rejected with a clear message before the tool runs.');
    expect(findings[5]!.fix).toBe(
      'Add "pattern": "^\\\\+[1-9][0-9]{6,14}$" (E.164), so a malformed or invented value is rejected with a clear message before the tool runs.',
    );
  });

  it('stays silent when a pattern, format, enum or non-string type pins the value', () => {
    expect(
      formatFindings({
        user_id: { type: 'string', pattern: '^usr_[a-zA-Z0-9]{20}$', description: 'The user.' },
        email: { type: 'string', format: 'email', description: 'Contact address.' },
        effective_date: { type: 'string', enum: ['immediate', 'next_billing_cycle'], description: 'When the change applies.' },
        page_id: { type: 'integer', minimum: 1, description: 'Page of results.' },
        nickname: { type: 'string', description: 'What the customer likes to be called.' },
      }),
    ).toEqual([]);
  });
});
