import type { LintRule, LintRuleReport } from '../lint-rule.js';
import { listProperties } from '../walk-schema.js';

/** The description is the model's only guide to what a tool or an argument is for. */
export const missingDescriptionRule = {
  id: 'tw/missing-description',
  severity: 'error',
  summary: 'A tool or one of its properties has no description.',
  checkTool(tool, context) {
    const reports: LintRuleReport[] = [];
    const imported = context.isImported(tool);
    if (tool.description.trim() === '') {
      reports.push({
        path: '/description',
        // The importer cannot write it, but should know the model will guess: a warning.
        ...(imported ? { severity: 'warning' as const } : {}),
        message: `Tool "${tool.name}" has no description, so the model must guess what it does from its name.`,
        fix: 'Describe what the tool does and when to call it, including when not to ("Change a user\'s plan. Only call when the user has asked for a plan change and confirmed the new plan.").',
      });
    }
    if (imported) return reports;
    for (const property of listProperties(tool.inputSchema, '/inputSchema')) {
      if ('$ref' in property.schema) continue;
      const description = property.schema.description;
      if (typeof description === 'string' && description.trim() !== '') continue;
      reports.push({
        path: property.pointer,
        severity: 'warning',
        message: `Property "${property.name}" has no description.`,
        fix: `Add a "description" saying what "${property.name}" holds, its format or unit, and where the model should take the value from.`,
      });
    }
    return reports;
  },
} as const satisfies LintRule;
