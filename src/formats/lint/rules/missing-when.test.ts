import { describe, expect, it } from 'vitest';
import { defineTool } from '../../../tools/index.js';
import { saysWhenToCall } from '../description-heuristics.js';
import { lintTools } from '../lint-tools.js';

describe('tw/missing-when', () => {
  it('tells descriptions that say when to call the tool (or when not to) from those that only say what it does', () => {
    const says = [
      'Change the plan. Only call when the user has confirmed the new plan.',
      'Look up an order by id; use it before any refund.',
      'Search the help center. Do not call it for billing questions.',
      'Return the weather for a city if the user asks about the weather.',
      'Use this tool to find a product by name.',
      'Prefer this over search_all for questions about invoices.',
    ];
    const silent = ['Get a list of all users in the workspace with their basic profile information', 'Create a new issue in a GitHub repository', ''];
    expect(says.filter((text) => !saysWhenToCall(text))).toEqual([]);
    expect(silent.filter((text) => saysWhenToCall(text))).toEqual([]);
  });

  it('warns on a local tool, not on an imported one (its description is not the importer’s to change)', () => {
    const make = (imported: boolean) =>
      defineTool({
        name: 'get_users',
        description: 'Get a list of all users in the workspace with their basic profile information.',
        effect: 'read',
        inputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
        execute: () => 'ok',
        ...(imported ? { origin: { kind: 'mcp' as const, server: 'slack', effectAnnotated: false } } : {}),
      });
    const rules = (imported: boolean) => lintTools([make(imported)]).map((finding) => [finding.rule, finding.severity, finding.path]);
    expect(rules(false)).toEqual([['tw/missing-when', 'warning', '/description']]);
    expect(rules(true)).toEqual([]);
  });
});
