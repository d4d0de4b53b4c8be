/**
 * One schema for every backend: the strict rewrite for OpenAI (`rewrite.ts`), the
 * plan that maps its nulls back to "absent" (`restore.ts`), and what each
 * provider would ignore or reject (`limits.ts`).
 * Internal barrel, not a package entry point (see package.json `exports`).
 * @module
 */
export { toOpenAIStrictSchema, type StrictSchemaConversion } from './rewrite.js';
export { NullRestorePlan, nullRestorePlan, restoreOptionalNulls, schemaAcceptsNull } from './restore.js';
export { OPENAI_STRICT_LIMITS, openAIStrictLimitWarnings, schemaCompatibilityWarnings } from './limits.js';
export { ANTHROPIC_STRICT_LIMITS, anthropicStrictLimitCounts, anthropicStrictLimitWarnings, toAnthropicStrictSchema } from './anthropic-strict.js';
