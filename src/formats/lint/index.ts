/**
 * The schema linter: advice on tool definitions, as findings with a rule id, a
 * JSON Pointer and a fix.
 * Internal barrel, not a package entry point (see package.json `exports`): what users can import is
 * chosen name by name in src/index.ts or a subpath entry. Use named exports, not wildcards.
 * @module
 */
export { lintTools, DEFAULT_MAX_TOOLS_WITHOUT_ROUTING } from './lint-tools.js';
export type { LintFinding, LintOptions, LintSeverity } from './lint-tools.js';
export { LINT_RULES, isLintRuleId } from './lint-rules.js';
export { LINT_PROVIDERS } from './rules/provider-compatibility.js';
export { checkImportedDefinitions, POISONING_RULE_IDS } from './definition-checks.js';
export type { PoisoningRuleId } from './definition-checks.js';
export type { LintRuleId, LintRuleInfo } from './lint-rules.js';
