import { describe, expect, it } from 'vitest';
import { defineTool } from '../../../tools/index.js';
import { lintTools } from '../lint-tools.js';

const only = { rules: { 'tw/vague-description': 'off', 'tw/open-object': 'off', 'tw/missing-required': 'off', 'tw/missing-when': 'off' } } as const;

describe('tw/missing-description', () => {
  it('reports a tool without a description as an error and an undescribed property as a warning', () => {
    const tool = defineTool({
      name: 'lookup',
      description: '  ',
      effect: 'read',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
      execute: () => 'ok',
    });
    expect(lintTools([tool], only).filter((finding) => finding.rule === 'tw/missing-description')).toEqual([
      {
        rule: 'tw/missing-description',
        severity: 'error',
        tool: 'lookup',
        path: '/description',
        message: 'Tool "lookup" has no description, so the model must guess what it does from its name.',
        fix: 'Describe what the tool does and when to call it, including when not to ("Change a user\'s plan. Only call when the user has asked for a plan change and confirmed the new plan.").',
      },
      {
        rule: 'tw/missing-description',
        severity: 'warning',
        tool: 'lookup',
        path: '/inputSchema/properties/query',
        message: 'Property "query" has no description.',
        fix: 'Add a "description" saying what "query" holds, its format or unit, and where the model should take the value from.',
      },
    ]);
  });

  it('looks into nested objects and array items', () => {
    const tool = defineTool({
      name: 'add_items',
      description: 'Add line items to the draft order the user is editing.',
      effect: 'read',
      inputSchema: {
        type: 'object',
        properties: { items: { type: 'array', description: 'Items to add.', items: { type: 'object', properties: { sku: { type: 'string' } } } } },
      },
      execute: () => 'ok',
    });
    expect(lintTools([tool], only).map((finding) => finding.path)).toEqual(['/inputSchema/properties/items/items/properties/sku']);
  });

  it('stays silent when the tool and every property are described', () => {
    const tool = defineTool({
      name: 'lookup',
      description: 'Search the help center for articles matching the user question.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'Words from the user question.' } } },
      execute: () => 'ok',
    });
    expect(lintTools([tool], only)).toEqual([]);
  });
});
