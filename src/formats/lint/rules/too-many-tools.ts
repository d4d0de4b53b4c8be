import type { LintRule } from '../lint-rule.js';

/** Past 10-20 tools, selection accuracy drops; a first call that picks a category keeps each choice small. */
export const tooManyToolsRule = {
  id: 'tw/too-many-tools',
  severity: 'warning',
  summary: 'More tools than a model picks from reliably, and some have no category for two-stage routing.',
  checkToolSet(tools, context) {
    if (tools.length <= context.maxToolsWithoutRouting) return [];
    const uncategorized = tools.filter((tool) => tool.category === undefined && !tool.alwaysAvailable && !context.categorized.has(tool.name));
    if (uncategorized.length === 0) return [];
    const shown =
      uncategorized
        .slice(0, 10)
        .map((tool) => tool.name)
        .join(', ') + (uncategorized.length > 10 ? `, … (${uncategorized.length - 10} more)` : '');
    return [
      {
        path: '',
        message: `${tools.length} tools (more than ${context.maxToolsWithoutRouting}), and ${uncategorized.length} ${uncategorized.length === 1 ? 'has' : 'have'} no category: ${shown}. Models choose less accurately from this many tools.`,
        fix: 'Give every tool a "category" (or export "categories": { billing: ["get_invoices", …], … }) and route in two stages: first let the model pick a category, then offer only that category\'s tools.',
      },
    ];
  },
} as const satisfies LintRule;
