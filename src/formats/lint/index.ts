/**
 * The schema linter: advice on tool definitions, as findings with a rule id, a
 * JSON Pointer and a fix. Any new export added here becomes public API. Use named exports, not wildcards.
 * @module
 */
export { lintTools, DEFAULT_MAX_TOOLS_WITHOUT_ROUTING } from './lint-tools.js';
export type { LintFinding, LintOptions, LintSeverity } from './lint-tools.js';
export { LINT_RULES, isLintRuleId } from './lint-rules.js';
export type { LintRuleId, LintRuleInfo } from './lint-rules.js';
