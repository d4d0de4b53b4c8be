import { describe, expect, it } from 'vitest';
import { defineTool } from '../../../tools/index.js';
import { lintTools } from '../lint-tools.js';

function makeTools(count: number, category?: (index: number) => string | undefined) {
  return Array.from({ length: count }, (_, index) =>
    defineTool({
      name: `report_${String(index + 1).padStart(2, '0')}`,
      description: `Produce sales report number ${index + 1} for the period the user named.`,
      effect: 'read',
      category: category?.(index),
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      execute: () => 'ok',
    }),
  );
}

const routing = (tools: ReturnType<typeof makeTools>, options = {}) => lintTools(tools, options).filter((finding) => finding.rule === 'tw/too-many-tools');

describe('tw/too-many-tools', () => {
  it('reports more than 20 tools when some have no category', () => {
    expect(routing(makeTools(21, (index) => (index < 9 ? 'sales' : undefined)))).toEqual([
      {
        rule: 'tw/too-many-tools',
        severity: 'warning',
        tool: null,
        path: '',
        message:
          '21 tools (more than 20), and 12 have no category: report_10, report_11, report_12, report_13, report_14, report_15, report_16, report_17, report_18, report_19, … (2 more). Models choose less accurately from this many tools.',
        fix: 'Give every tool a "category" (or export "categories": { billing: ["get_invoices", …], … }) and route in two stages: first let the model pick a category, then offer only that category\'s tools.',
      },
    ]);
  });

  it('stays silent at 20 tools, when every tool has a category, or when exported categories cover them', () => {
    expect(routing(makeTools(20))).toEqual([]);
    expect(routing(makeTools(25, () => 'sales'))).toEqual([]);
    const tools = makeTools(21);
    expect(routing(tools, { categories: { sales: tools.map((tool) => tool.name) } })).toEqual([]);
  });

  it('honours a custom threshold', () => {
    expect(routing(makeTools(6), { maxToolsWithoutRouting: 5 }).map((finding) => finding.message)).toEqual([
      '6 tools (more than 5), and 6 have no category: report_01, report_02, report_03, report_04, report_05, report_06. Models choose less accurately from this many tools.',
    ]);
  });
});
