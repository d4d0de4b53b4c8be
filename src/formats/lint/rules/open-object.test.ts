import { describe, expect, it } from 'vitest';
import { defineTool } from '../../../tools/index.js';
import { lintTools } from '../lint-tools.js';

function openFindings(inputSchema: Record<string, unknown>) {
  const tool = defineTool({
    name: 'save_address',
    description: 'Save a shipping address the user dictated for future orders.',
    effect: 'read',
    inputSchema,
    execute: () => 'ok',
  });
  return lintTools([tool]).filter((finding) => finding.rule === 'tw/open-object');
}

const street = { type: 'string', description: 'Street and number.' };

describe('tw/open-object', () => {
  it('reports objects whose additionalProperties is absent or true, at any depth', () => {
    const findings = openFindings({
      type: 'object',
      properties: { address: { type: 'object', properties: { street }, required: ['street'], additionalProperties: true } },
      required: ['address'],
    });
    expect(findings).toEqual([
      {
        rule: 'tw/open-object',
        severity: 'warning',
        tool: 'save_address',
        path: '/inputSchema',
        message:
          'The arguments of tool "save_address" accept any undeclared property (additionalProperties is absent), so a misspelled argument is silently ignored.',
        fix: 'Add "additionalProperties": false (with Zod, use z.strictObject), so the model is told which property it got wrong.',
      },
      {
        rule: 'tw/open-object',
        severity: 'warning',
        tool: 'save_address',
        path: '/inputSchema/properties/address',
        message: 'This object accepts any undeclared property (additionalProperties is true), so a misspelled argument is silently ignored.',
        fix: 'Add "additionalProperties": false (with Zod, use z.strictObject), so the model is told which property it got wrong.',
      },
    ]);
  });

  it('stays silent on closed objects, typed maps and allOf branches', () => {
    expect(
      openFindings({
        type: 'object',
        properties: {
          address: { type: 'object', properties: { street }, required: ['street'], additionalProperties: false },
          labels: { type: 'object', description: 'Free labels.', additionalProperties: { type: 'string' } },
          extra: { allOf: [{ type: 'object', properties: { street } }], unevaluatedProperties: false, description: 'More.' },
        },
        required: ['address'],
        additionalProperties: false,
      }),
    ).toEqual([]);
  });
});
