import { definitionTexts, describePlace, quoteExcerpt } from '../definition-text.js';
import type { LintRule, LintRuleReport } from '../lint-rule.js';

/**
 * Above the longest description of 193 real servers' tools (6,991 characters: firecrawl's `firecrawl_monitor_create`,
 * over a quarter of it JSON examples; nine of them pass 2,000), with a margin: shorter thresholds flag real, benign tools
 * (docs/lint-rules.md, "Poisoning checks measured").
 */
export const MAX_DESCRIPTION_CHARS = 8000;

/** A description far longer than a tool needs: a person skims it, a model reads every word. */
export const longDescriptionRule = {
  id: 'tw/long-description',
  severity: 'warning',
  summary: `An imported tool's description (or a schema description) is longer than ${MAX_DESCRIPTION_CHARS.toLocaleString('en-US')} characters.`,
  checkTool(tool, context) {
    if (!context.isImported(tool)) return [];
    const reports: LintRuleReport[] = [];
    for (const text of definitionTexts(tool)) {
      if (text.field !== 'description' || text.raw.length <= MAX_DESCRIPTION_CHARS) continue;
      reports.push({
        path: text.pointer,
        message: `Tool "${tool.name}" has ${text.raw.length.toLocaleString('en-US')} characters in ${describePlace(text)} (more than ${MAX_DESCRIPTION_CHARS.toLocaleString('en-US')}); it begins ${quoteExcerpt(text.raw, 0, 0)}.`,
        fix: 'Read the whole text before importing the tool; the other poisoning checks look at all of it, but a long description is where instructions hide. Strip it (the gateway\'s `poisoning: "strip"`) or ask the server\'s author to shorten it.',
      });
    }
    return reports;
  },
} as const satisfies LintRule;
