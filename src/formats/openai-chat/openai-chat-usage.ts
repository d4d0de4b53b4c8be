/**
 * Chat Completions `usage` → {@link TokenUsage}: `prompt_tokens` already counts cached tokens, and
 * `prompt_tokens_details.cached_tokens` says how many of them were read from the prompt cache (OpenAI bills no cache writes).
 * A reasoning model's `completion_tokens_details.reasoning_tokens` are part of `completion_tokens`: they are named apart
 * for the record and never added to the output count again.
 * @module
 */
import type { CompletionUsage } from 'openai/resources/completions';
import type { TokenUsage } from '../../protocol/model-exchange.js';
import { withCacheTokens } from '../cache-usage.js';

export function openAIChatUsage(usage: CompletionUsage): TokenUsage {
  const mapped = withCacheTokens(
    { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens },
    usage.prompt_tokens_details?.cached_tokens,
    undefined,
  );
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number' && reasoning > 0) mapped.reasoningTokens = reasoning;
  return mapped;
}
