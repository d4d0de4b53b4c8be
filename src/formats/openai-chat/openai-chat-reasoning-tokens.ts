/**
 * Chat Completions reports a reasoning model's reasoning tokens in `completion_tokens_details.reasoning_tokens`, as part
 * of `completion_tokens`: they are named apart for the record and never added to the output count again.
 * @module
 */
import type { CompletionUsage } from 'openai/resources/completions';
import type { TokenUsage } from '../../protocol/model-exchange.js';

/** `usage` with `reasoningTokens` set when the provider reported some. */
export function withChatReasoningTokens(usage: TokenUsage, reported: Pick<CompletionUsage, 'completion_tokens_details'>): TokenUsage {
  const reasoning = reported.completion_tokens_details?.reasoning_tokens;
  return typeof reasoning === 'number' && reasoning > 0 ? { ...usage, reasoningTokens: reasoning } : usage;
}
