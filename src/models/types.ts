/**
 * The provider-neutral model contract. Every provider (OpenAI, Anthropic,
 * OpenAI-compatible servers, local GGUF models, the scripted test model)
 * implements {@link Model}; the agent loop speaks only this and the neutral
 * types of `protocol/`, so a provider difference lives in its adapter and nowhere else.
 * @module
 */
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '../protocol/model-exchange.js';
import type { PromptCacheRules } from './prompt-cache-rules.js';

export interface Model {
  /** `provider:model`, e.g. `openai:gpt-4o-mini`; used for pricing and the record. */
  readonly id: string;
  readonly provider: string;
  generate(request: ModelRequest): Promise<ModelResponse>;
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /** Estimated input tokens of a request before it is sent, for budgets; providers may count more exactly. */
  estimateInputTokens(request: ModelRequest): number;
  /** Whether the provider searches deferred tools itself (`ModelRequest.toolSearch`); absent or `false`: toolwright's search is used. */
  readonly nativeToolSearch?: boolean;
  /** Whether the provider can also hand its search to the client (OpenAI Responses `execution: 'client'`). */
  readonly clientToolSearch?: boolean;
  /** How the provider's prompt cache treats a prompt (minimum length, hit steps, billed writes), for the cost breaker's estimate with `cache: 'auto'`. */
  readonly promptCache?: PromptCacheRules;
}
