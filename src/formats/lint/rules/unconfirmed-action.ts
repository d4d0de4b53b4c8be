import type { LintRule } from '../lint-rule.js';
import { consequentialAction, lintEffect } from '../tool-effect.js';

/** The seed's non-negotiable: a model never moves money, deletes, sends or publishes without a person's approval. */
export const unconfirmedActionRule = {
  id: 'tw/unconfirmed-action',
  severity: 'error',
  summary: 'A write tool whose name or description says it moves money, deletes, sends or publishes has no confirm.',
  checkTool(tool, context) {
    if (tool.confirm !== false) return [];
    const effect = lintEffect(tool, context);
    if (effect === 'read') return [];
    const found = consequentialAction(tool);
    if (found === undefined) return [];
    const imported = context.isImported(tool);
    return [
      {
        path: '/confirm',
        message: `Tool "${tool.name}" ${found.action} (${found.evidence}) but runs without a person's confirmation, so one wrong call cannot be undone.`,
        fix: imported
          ? 'Import it with a confirm rule that asks for it (importMcpTools({ confirm: (tool) => … })), or leave it out with `include`.'
          : 'Add confirm: true (or a function of the arguments that returns true for the calls that need approval, such as amounts over a limit).',
      },
    ];
  },
} as const satisfies LintRule;
