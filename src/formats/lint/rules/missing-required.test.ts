import { describe, expect, it } from 'vitest';
import { defineTool } from '../../../tools/index.js';
import { lintTools } from '../lint-tools.js';

function requiredFindings(name: string, inputSchema: Record<string, unknown>) {
  const tool = defineTool({
    name,
    description: 'Look up one record the user asked about, by its identifier.',
    effect: 'read',
    inputSchema,
    execute: () => 'ok',
  });
  return lintTools([tool]).filter((finding) => finding.rule === 'tw/missing-required');
}

const ticketId = { type: 'string', pattern: '^tkt_[0-9]{6}$', description: 'The ticket to look up.' };

describe('tw/missing-required', () => {
  it('reports objects with no "required" list at all', () => {
    expect(requiredFindings('get_ticket_status', { type: 'object', properties: { ticket_id: ticketId }, additionalProperties: false })).toEqual([
      {
        rule: 'tw/missing-required',
        severity: 'warning',
        tool: 'get_ticket_status',
        path: '/inputSchema',
        message: 'The arguments of tool "get_ticket_status" have no "required" list, so every property (ticket_id) is optional.',
        fix: 'List the properties the tool cannot work without in "required"; write "required": [] to say on purpose that all are optional.',
      },
    ]);
  });

  it('reports an optional id of the thing the tool is named after, and an optional property described as required', () => {
    const findings = requiredFindings('get_ticket_status', {
      type: 'object',
      properties: { ticket_id: ticketId, locale: { type: 'string', pattern: '^[a-z]{2}$', description: 'Language of the answer (required).' } },
      required: [],
      additionalProperties: false,
    });
    expect(findings.map((finding) => [finding.path, finding.message])).toEqual([
      ['/inputSchema/properties/ticket_id', 'Property "ticket_id" is optional, but it looks like the id of the thing "get_ticket_status" acts on.'],
      ['/inputSchema/properties/locale', 'Property "locale" is optional, but its description says it is required.'],
    ]);
    expect(findings[0]!.fix).toBe('Add "ticket_id" to "required" of the object at /inputSchema, or say in its description what happens when it is left out.');
  });

  it('reports "required" entries that name no property, as errors', () => {
    expect(
      requiredFindings('get_invoices', { type: 'object', properties: { user_id: ticketId }, required: ['usr_id'], additionalProperties: false }).map(
        (finding) => [finding.severity, finding.path, finding.message],
      ),
    ).toEqual([['error', '/inputSchema/required', '"required" lists "usr_id", which is not a declared property, so every call fails validation.']]);
  });

  it('stays silent when essential properties are required and optional ones are plain filters', () => {
    expect(
      requiredFindings('get_invoices', {
        type: 'object',
        properties: { invoice_id: ticketId, status: { type: 'string', enum: ['paid', 'open'], description: 'Only invoices in this state.' } },
        required: ['invoice_id'],
        additionalProperties: false,
      }),
    ).toEqual([]);
    expect(requiredFindings('search_products', { type: 'object', properties: { category_id: ticketId }, required: [], additionalProperties: false })).toEqual(
      [],
    );
  });
});
