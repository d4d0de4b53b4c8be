import { findListedChoices } from '../description-heuristics.js';
import type { LintRule, LintRuleReport } from '../lint-rule.js';
import { isFreeString, listProperties, snakeName } from '../walk-schema.js';

/** Names that almost always stand for a small, fixed set of values. */
const CHOICE_NAMES = new Set([
  'action',
  'operation',
  'command',
  'mode',
  'status',
  'priority',
  'severity',
  'tier',
  'plan',
  'unit',
  'units',
  'sort_order',
  'order_by',
  'direction',
  'frequency',
  'billing_cycle',
  'visibility',
]);

/** A model picking from ["buy", "sell", "hold"] is far more reliable than one interpreting intent in free text. */
export const preferEnumRule = {
  id: 'tw/prefer-enum',
  severity: 'warning',
  summary: 'A free-text string lists its allowed values in prose instead of an enum.',
  checkTool(tool, context) {
    const reports: LintRuleReport[] = [];
    const imported = context.isImported(tool);
    for (const property of listProperties(tool.inputSchema, '/inputSchema')) {
      const candidates = [{ schema: property.schema, pointer: property.pointer }];
      // An array of choices ("tags: any of a, b, c") needs the enum on its items.
      if (property.schema.type === 'array' && typeof property.schema.items === 'object' && property.schema.items !== null) {
        candidates.push({ schema: property.schema.items as Record<string, unknown>, pointer: `${property.pointer}/items` });
      }
      for (const candidate of candidates) {
        if (!isFreeString(candidate.schema) || typeof candidate.schema.pattern === 'string' || typeof candidate.schema.format === 'string') continue;
        const description =
          typeof candidate.schema.description === 'string'
            ? candidate.schema.description
            : typeof property.schema.description === 'string'
              ? property.schema.description
              : '';
        const listed = findListedChoices(description);
        if (listed) {
          const suggestion = listed.choices.length > 0 ? `"enum": ${JSON.stringify(listed.choices)}` : '"enum": [...] with the allowed values';
          reports.push({
            path: candidate.pointer,
            message: `Property "${property.name}" is free text, but its description lists the allowed values (${listed.cue}): ${JSON.stringify(description)}.`,
            fix: `Add ${suggestion} to the schema, and keep the description for what each value means.`,
          });
          break;
        }
        // A name is a guess about the author's intent; on someone else's tool only a listed set is worth reporting.
        if (!imported && candidate.pointer === property.pointer && CHOICE_NAMES.has(snakeName(property.name))) {
          reports.push({
            path: candidate.pointer,
            message: `Property "${property.name}" is free text, but its name suggests a fixed set of values.`,
            fix: `If "${property.name}" takes one of a known set of values, list them in "enum"; if it really is free text, describe what it may contain.`,
          });
          break;
        }
      }
    }
    return reports;
  },
} as const satisfies LintRule;
