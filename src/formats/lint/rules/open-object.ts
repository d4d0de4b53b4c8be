import type { LintRule, LintRuleReport } from '../lint-rule.js';
import { isObjectSchema, listSchemas } from '../walk-schema.js';

/** With open objects, a misspelled or invented property passes validation silently and is ignored; OpenAI's strict mode also requires them closed. */
export const openObjectRule = {
  id: 'tw/open-object',
  severity: 'warning',
  summary: 'An object schema allows properties it does not declare (additionalProperties absent or true).',
  checkTool(tool, context) {
    const reports: LintRuleReport[] = [];
    // Only the author can close the object; what strict mode does with it is tw/provider-compatibility's and `lint --imported`'s.
    if (context.isImported(tool)) return reports;
    for (const { schema, pointer, via } of listSchemas(tool.inputSchema, '/inputSchema')) {
      // allOf branches must stay open to combine; the closing belongs on the object that holds them.
      if (via === 'allOf' || !isObjectSchema(schema)) continue;
      const additional = schema.additionalProperties;
      if (additional !== undefined && additional !== true) continue;
      if (schema.unevaluatedProperties === false || schema.patternProperties !== undefined) continue;
      reports.push({
        path: pointer,
        message: `${pointer === '/inputSchema' ? `The arguments of tool "${tool.name}" accept` : 'This object accepts'} any undeclared property (additionalProperties is ${additional === true ? 'true' : 'absent'}), so a misspelled argument is silently ignored.`,
        fix: 'Add "additionalProperties": false (with Zod, use z.strictObject), so the model is told which property it got wrong.',
      });
    }
    return reports;
  },
} as const satisfies LintRule;
