/**
 * The package entry `toolwright/models`: the model options and defaults that the root entry
 * leaves out (retries, timeouts, the local model's options, the provider list) and the input
 * token estimate the budgets use. `createModel` and the `Model` contract are in the root entry;
 * the provider errors are in `toolwright/errors`.
 * Any new export added here becomes public API and changes the count pinned in
 * test/architecture/entry-counts.test.ts. Use named exports, not wildcards.
 * @module
 */
export { ANTHROPIC_DEFAULT_MAX_TOKENS, DEFAULT_RETRY, DEFAULT_TIMEOUT_MS, MODEL_PROVIDERS, estimateInputTokens } from './index.js';
export type { LocalModelOptions, PromptCacheRules, RetryEvent, RetryOptions } from './index.js';
