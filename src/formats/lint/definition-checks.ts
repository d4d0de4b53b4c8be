/**
 * The poisoning and shadowing checks on their own, for whoever imports someone else's tools (the MCP gateway, at import
 * and whenever a server's list changes): text in a definition that orders the model about, hides something from the
 * user, names other tools, hides characters or encoded payloads, runs far too long, or passes one server's tool off as
 * another's. The same rules run in `lintTools` and `toolwright lint --imported`.
 * @module
 */
import type { AnyTool } from '../../tools/index.js';
import type { LintRuleId } from './lint-rules.js';
import { LINT_RULE_LIST } from './lint-rules.js';
import { lintTools, type LintFinding } from './lint-tools.js';

/** The rule ids of the poisoning and shadowing checks. */
export const POISONING_RULE_IDS = Object.freeze([
  'tw/hidden-instruction',
  'tw/conceals-from-user',
  'tw/invisible-characters',
  'tw/encoded-blob',
  'tw/long-description',
  'tw/cross-tool-reference',
  'tw/shadowing',
] as const satisfies readonly LintRuleId[]);

export type PoisoningRuleId = (typeof POISONING_RULE_IDS)[number];

const OTHER_RULES_OFF = Object.fromEntries(
  LINT_RULE_LIST.filter((rule) => !(POISONING_RULE_IDS as readonly string[]).includes(rule.id)).map((rule) => [rule.id, 'off' as const]),
) as Partial<Record<LintRuleId, 'off'>>;

/**
 * The findings of the poisoning and shadowing rules only, every tool treated as imported. Findings about one tool name it
 * in `tool` (a shadowing finding names the tool that shadows, listed later), so a caller can warn, strip or block per tool.
 */
export function checkImportedDefinitions(tools: readonly AnyTool[]): LintFinding[] {
  return lintTools(tools, { imported: true, rules: OTHER_RULES_OFF });
}
