import { getOwn, isPlainObject } from '../../../shared/own.js';
import type { LintRule } from '../lint-rule.js';
import { schemaTypes } from '../walk-schema.js';

const REASON_SCHEMA = '"reason": { "type": "string", "description": "Why this call is being made (quote the user\'s request)" }';

/** Asking for the reason before the action's arguments works like chain-of-thought inside the call, and leaves an audit trail. */
export const missingReasonRule = {
  id: 'tw/missing-reason',
  severity: 'error',
  summary: 'A write tool has no required string property "reason".',
  checkTool(tool, context) {
    // Nobody can add a property to someone else's server; and an unannotated imported tool is not known to be a write.
    if (tool.effect !== 'write' || context.isImported(tool)) return [];
    const properties = isPlainObject(tool.inputSchema.properties) ? tool.inputSchema.properties : {};
    const reason = getOwn(properties, 'reason');
    if (!isPlainObject(reason)) {
      return [
        {
          path: '/inputSchema/properties',
          message: `Write tool "${tool.name}" has no "reason" property, so the model changes things without first saying why.`,
          fix: `Add ${REASON_SCHEMA} as the first property, and list "reason" in "required".`,
        },
      ];
    }
    const required = Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required : [];
    if (!required.includes('reason')) {
      return [
        {
          path: '/inputSchema/required',
          message: `Write tool "${tool.name}" has a "reason" property, but it is optional, so the model can skip it.`,
          fix: 'Add "reason" to "required".',
        },
      ];
    }
    const types = schemaTypes(reason);
    if (types.length > 0 && !types.includes('string')) {
      return [
        {
          path: '/inputSchema/properties/reason',
          severity: 'warning',
          message: `The "reason" of write tool "${tool.name}" is not a string (type ${JSON.stringify(reason.type)}).`,
          fix: `Make it ${REASON_SCHEMA}.`,
        },
      ];
    }
    return [];
  },
} as const satisfies LintRule;
