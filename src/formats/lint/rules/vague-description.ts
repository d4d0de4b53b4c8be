import { propertyDescriptionVagueness, toolDescriptionVagueness } from '../description-heuristics.js';
import type { LintRule, LintRuleReport } from '../lint-rule.js';
import { listProperties } from '../walk-schema.js';

/** "Manage a user's subscription" or "What to do" leave the model to guess; a vague description is almost as bad as none. */
export const vagueDescriptionRule = {
  id: 'tw/vague-description',
  severity: 'warning',
  summary: 'A tool or property description is too short or too generic to guide the model.',
  checkTool(tool, context) {
    const reports: LintRuleReport[] = [];
    if (tool.description.trim() !== '') {
      const vagueness = toolDescriptionVagueness(tool.description, tool.name);
      if (vagueness !== undefined) {
        reports.push({
          path: '/description',
          message: `The description of tool "${tool.name}" is vague: ${vagueness.reason} (${JSON.stringify(tool.description)}).`,
          fix:
            vagueness.kind === 'too-generic'
              ? 'Name the one action the tool takes, what it returns, and when to call it. If it does several things, split it into one tool per action ("update_subscription", "cancel_subscription").'
              : 'Say what the tool does, what it returns, and when to call it (and when not to), in a sentence or two.',
        });
      }
    }
    // Property descriptions are the author's to improve; the tool's tells an importer whether to offer the tool at all.
    if (context.isImported(tool)) return reports;
    for (const property of listProperties(tool.inputSchema, '/inputSchema')) {
      const description = property.schema.description;
      if (typeof description !== 'string' || description.trim() === '') continue;
      const reason = propertyDescriptionVagueness(description, property.name);
      if (reason === undefined) continue;
      reports.push({
        path: property.pointer,
        message: `The description of property "${property.name}" is vague: ${reason} (${JSON.stringify(description)}).`,
        fix: `Say what "${property.name}" means, its format or unit, and where its value comes from; if it is a choice, make it an "enum".`,
      });
    }
    return reports;
  },
} as const satisfies LintRule;
