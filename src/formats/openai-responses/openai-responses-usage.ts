/**
 * Responses API `usage` → {@link TokenUsage}: `input_tokens` already counts cached tokens, and
 * `input_tokens_details.cached_tokens` says how many of them were read from the prompt cache (OpenAI bills no cache writes).
 * Reasoning tokens are part of `output_tokens` already; they are named apart for the record, never added again.
 * @module
 */
import type { ResponseUsage } from 'openai/resources/responses/responses';
import type { TokenUsage } from '../../protocol/model-exchange.js';
import { withCacheTokens } from '../cache-usage.js';

export function openAIResponsesUsage(usage: ResponseUsage): TokenUsage {
  // The SDK types the details as always present; a compatible server may still leave them out.
  const details = usage.input_tokens_details as ResponseUsage['input_tokens_details'] | undefined;
  const mapped = withCacheTokens({ inputTokens: usage.input_tokens, outputTokens: usage.output_tokens }, details?.cached_tokens, undefined);
  const reasoning = (usage.output_tokens_details as ResponseUsage['output_tokens_details'] | undefined)?.reasoning_tokens;
  if (typeof reasoning === 'number' && reasoning > 0) mapped.reasoningTokens = reasoning;
  return mapped;
}
