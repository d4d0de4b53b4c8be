import { saysWhenToCall } from '../description-heuristics.js';
import type { LintRule } from '../lint-rule.js';

/** What a tool does is half of a description; the model also needs when to reach for it, and when not to. */
export const missingWhenRule = {
  id: 'tw/missing-when',
  severity: 'warning',
  summary: 'A tool description never says when to call the tool (or when not to).',
  checkTool(tool, context) {
    // Only the author can change the description; an importer cannot act on this.
    if (context.isImported(tool) || tool.description.trim() === '' || saysWhenToCall(tool.description)) return [];
    return [
      {
        path: '/description',
        message: `The description of tool "${tool.name}" says what it does but never when to call it (or when not to), so the model must guess between it and similar tools.`,
        fix: 'Add a sentence such as "Call it when the user asks for …; do not call it for …" or "Use it only after …".',
      },
    ];
  },
} as const satisfies LintRule;
