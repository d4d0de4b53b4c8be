import type { LintRule } from '../lint-rule.js';

/** A tool defined in the seed's four-field shape says nothing about side effects; the registry then treats it as a write, which is safe but serializes it. */
export const undeclaredEffectRule = {
  id: 'tw/undeclared-effect',
  severity: 'warning',
  summary: "A tool does not declare its effect (the seed's four-field shape), so it is treated as a write.",
  checkTool(tool) {
    if (tool.effectDeclared !== false) return [];
    return [
      {
        path: '/effect',
        message: `Tool "${tool.name}" does not declare its effect, so it is treated as a write: it runs alone and in order, never in parallel with other calls.`,
        fix: 'Add effect: "read" if the tool only reads (it may then run in parallel with other reads), or effect: "write" to confirm that it changes something.',
      },
    ];
  },
} as const satisfies LintRule;
