/**
 * Chat Completions `usage` → {@link TokenUsage}: `prompt_tokens` already counts cached tokens, and
 * `prompt_tokens_details.cached_tokens` says how many of them were read from the prompt cache (OpenAI bills no cache writes).
 * @module
 */
import type { CompletionUsage } from 'openai/resources/completions';
import type { TokenUsage } from '../../protocol/model-exchange.js';
import { withCacheTokens } from '../cache-usage.js';

export function openAIChatUsage(usage: CompletionUsage): TokenUsage {
  return withCacheTokens({ inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens }, usage.prompt_tokens_details?.cached_tokens, undefined);
}
