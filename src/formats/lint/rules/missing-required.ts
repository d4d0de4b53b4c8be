import type { LintRule, LintRuleReport } from '../lint-rule.js';
import { snakeName, listProperties, listSchemas } from '../walk-schema.js';
import { isPlainObject } from '../../../shared/own.js';

const SAYS_REQUIRED = /\b(required|mandatory|must be (?:given|provided|set|passed))\b/i;

/** "get_invoice" + "invoice_id": the id of the thing the tool is named after. */
function isSubjectId(toolName: string, propertyName: string): boolean {
  const match = /^(.+)_ids?$/.exec(snakeName(propertyName));
  if (!match?.[1]) return false;
  const subject = match[1];
  const words = snakeName(toolName).split('_');
  const singular = words.map((word) =>
    word.endsWith('ies') ? word.slice(0, -3) + 'y' : word.endsWith('ses') ? word.slice(0, -2) : word.endsWith('s') ? word.slice(0, -1) : word,
  );
  return [words, singular].some((list) => `_${list.join('_')}_`.includes(`_${subject}_`));
}

/** A property the tool cannot work without must be required, or the model will leave it out and the call fails in execute instead of validation. */
export const missingRequiredRule = {
  id: 'tw/missing-required',
  severity: 'warning',
  summary: 'An object has no "required" list, lists unknown properties, or leaves an essential-looking property optional.',
  checkTool(tool, context) {
    const reports: LintRuleReport[] = [];
    // On someone else's tool only what makes every call fail is reported: the rest is advice for the author.
    const imported = context.isImported(tool);
    for (const { schema, pointer, via } of listSchemas(tool.inputSchema, '/inputSchema')) {
      if (!isPlainObject(schema.properties)) continue;
      const names = Object.keys(schema.properties);
      if (names.length === 0 || via === 'allOf') continue;
      if (!Array.isArray(schema.required)) {
        if (imported) continue;
        reports.push({
          path: pointer,
          message: `${pointer === '/inputSchema' ? `The arguments of tool "${tool.name}" have` : 'This object has'} no "required" list, so every property (${names.join(', ')}) is optional.`,
          fix: 'List the properties the tool cannot work without in "required"; write "required": [] to say on purpose that all are optional.',
        });
        continue;
      }
      for (const name of schema.required) {
        if (typeof name === 'string' && !names.includes(name)) {
          reports.push({
            path: `${pointer}/required`,
            severity: 'error',
            message: `"required" lists "${name}", which is not a declared property, so every call fails validation.`,
            fix: `Fix the spelling in "required" or add "${name}" to "properties".`,
          });
        }
      }
    }
    if (imported) return reports;
    for (const property of listProperties(tool.inputSchema, '/inputSchema')) {
      if (property.required || !Array.isArray(property.parent.required)) continue;
      // A write tool's optional reason is reported by tw/missing-reason.
      if (property.topLevel && property.name === 'reason' && tool.effect === 'write') continue;
      const description = typeof property.schema.description === 'string' ? property.schema.description : '';
      const why =
        property.topLevel && isSubjectId(tool.name, property.name)
          ? `it looks like the id of the thing "${tool.name}" acts on`
          : SAYS_REQUIRED.test(description) && !/\bnot required\b|\boptional\b/i.test(description)
            ? 'its description says it is required'
            : undefined;
      if (why === undefined) continue;
      reports.push({
        path: property.pointer,
        message: `Property "${property.name}" is optional, but ${why}.`,
        fix: `Add "${property.name}" to "required" of the object at ${property.parentPointer}, or say in its description what happens when it is left out.`,
      });
    }
    return reports;
  },
} as const satisfies LintRule;
