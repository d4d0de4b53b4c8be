/**
 * Models: the provider-neutral `Model` contract, the OpenAI / Anthropic / OpenAI-compatible
 * providers (their SDKs load on first request), and a scripted model for tests.
 * Internal barrel, not a package entry point (see package.json `exports`): what users can import is
 * chosen name by name in src/index.ts or a subpath entry. Use named exports, not wildcards.
 * @module
 */
export type { Model } from './types.js';
export { CHARACTERS_PER_TOKEN, IMAGE_TOKEN_ESTIMATE, estimateInputTokens, estimateTextTokens } from './estimate-tokens.js';
export { ScriptExhaustedError, ScriptedModel, createScriptedModel, errorTurn, textTurn, toolCallTurn } from './scripted/scripted-model.js';
export type { ScriptedModelOptions, ScriptedResponse, ScriptedToolCall, ScriptedTurn, ScriptedTurnContext } from './scripted/scripted-model.js';
export { MODEL_PROVIDERS, createModel } from './create-model.js';
export type { ModelProvider } from './create-model.js';
export { DEFAULT_TIMEOUT_MS } from './model-options.js';
export type { ModelOptions } from './model-options.js';
export { DEFAULT_RETRY } from './retry/call-with-retries.js';
export type { RetryEvent, RetryOptions } from './retry/call-with-retries.js';
export {
  InvalidModelSpecError,
  MissingApiKeyError,
  ProviderAuthError,
  ProviderBadRequestError,
  ProviderError,
  ProviderModelNotFoundError,
  ProviderRateLimitError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
} from './provider-errors.js';
export type { ProviderErrorContext, ProviderErrorDetails } from './provider-errors.js';
export { ANTHROPIC_DEFAULT_MAX_TOKENS } from './anthropic/anthropic-defaults.js';
export type { LocalModelOptions } from './local/local-model-options.js';
export type { PromptCacheRules } from './prompt-cache-rules.js';
