/**
 * Every lint rule, in the order findings are reported. Rule ids are stable:
 * a rule is never renamed or given a different meaning, and each is documented
 * in `docs/lint-rules.md` (a test keeps the two in step).
 * @module
 */
import type { LintSeverity } from './lint-rule.js';
import { backtrackingPatternRule } from './rules/backtracking-pattern.js';
import { missingDescriptionRule } from './rules/missing-description.js';
import { missingFormatRule } from './rules/missing-format.js';
import { missingReasonRule } from './rules/missing-reason.js';
import { missingRequiredRule } from './rules/missing-required.js';
import { openObjectRule } from './rules/open-object.js';
import { preferEnumRule } from './rules/prefer-enum.js';
import { providerCompatibilityRule } from './rules/provider-compatibility.js';
import { tooManyToolsRule } from './rules/too-many-tools.js';
import { undeclaredEffectRule } from './rules/undeclared-effect.js';
import { unconfirmedActionRule } from './rules/unconfirmed-action.js';
import { unmarkedCriticalRule } from './rules/unmarked-critical.js';
import { missingWhenRule } from './rules/missing-when.js';
import { vagueDescriptionRule } from './rules/vague-description.js';
import { hiddenInstructionRule } from './rules/hidden-instruction.js';
import { concealsFromUserRule } from './rules/conceals-from-user.js';
import { crossToolReferenceRule } from './rules/cross-tool-reference.js';
import { invisibleCharactersRule } from './rules/invisible-characters.js';
import { encodedBlobRule } from './rules/encoded-blob.js';
import { longDescriptionRule } from './rules/long-description.js';
import { shadowingRule } from './rules/shadowing.js';

export const LINT_RULE_LIST = [
  missingDescriptionRule,
  vagueDescriptionRule,
  missingWhenRule,
  preferEnumRule,
  missingFormatRule,
  backtrackingPatternRule,
  missingReasonRule,
  unconfirmedActionRule,
  unmarkedCriticalRule,
  missingRequiredRule,
  openObjectRule,
  providerCompatibilityRule,
  undeclaredEffectRule,
  tooManyToolsRule,
  hiddenInstructionRule,
  concealsFromUserRule,
  invisibleCharactersRule,
  encodedBlobRule,
  longDescriptionRule,
  crossToolReferenceRule,
  shadowingRule,
] as const;

/** A stable rule id such as `tw/missing-description`. */
export type LintRuleId = (typeof LINT_RULE_LIST)[number]['id'];

/** What each rule checks and its default severity, for help texts and docs. */
export interface LintRuleInfo {
  id: LintRuleId;
  /** The severity of its findings unless configured otherwise (a rule may report some findings as errors and others as warnings). */
  severity: LintSeverity;
  summary: string;
}

export const LINT_RULES: readonly LintRuleInfo[] = Object.freeze(LINT_RULE_LIST.map(({ id, severity, summary }) => Object.freeze({ id, severity, summary })));

export function isLintRuleId(value: string): value is LintRuleId {
  return LINT_RULE_LIST.some((rule) => rule.id === value);
}
