import type { LintRule, LintRuleReport } from '../lint-rule.js';
import { valueKindOf } from '../value-kind.js';
import { isFreeString, listProperties, type SchemaRecord } from '../walk-schema.js';

function isConstrained(schema: SchemaRecord): boolean {
  return typeof schema.pattern === 'string' || typeof schema.format === 'string' || Array.isArray(schema.enum) || 'const' in schema;
}

/** For ids, emails and dates, a pattern or format catches a hallucinated or mistyped value before the tool runs. */
export const missingFormatRule = {
  id: 'tw/missing-format',
  severity: 'warning',
  summary: 'An id-, email-, date-, URL- or phone-like string has no pattern or format.',
  checkTool(tool, context) {
    const reports: LintRuleReport[] = [];
    // Schema-design advice only the author can take.
    if (context.isImported(tool)) return reports;
    for (const property of listProperties(tool.inputSchema, '/inputSchema')) {
      const advice = valueKindOf(property.name);
      if (!advice) continue;
      let target = property.schema;
      let pointer = property.pointer;
      if (property.schema.type === 'array' && typeof property.schema.items === 'object' && property.schema.items !== null) {
        target = property.schema.items as SchemaRecord;
        pointer = `${property.pointer}/items`;
      }
      if (!isFreeString(target) || isConstrained(target)) continue;
      reports.push({
        path: pointer,
        message: `Property "${property.name}" looks like ${advice.noun} but accepts any string.`,
        fix: `Add ${advice.constraint}, so a malformed or invented value is rejected with a clear message before the tool runs.`,
      });
    }
    return reports;
  },
} as const satisfies LintRule;
