/**
 * An Anthropic `message` → {@link ModelResponse}. Input tokens count every
 * token the prompt cost: `input_tokens` plus cache writes and reads, which
 * Anthropic reports apart (OpenAI's `prompt_tokens` already includes them).
 * @module
 */
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { ReasoningPart, TextPart, ToolCallPart } from '../../protocol/messages.js';
import type { ModelResponse, TokenUsage } from '../../protocol/model-exchange.js';
import { anthropicCaller, anthropicProviderItems, isAnthropicServerBlock } from './anthropic-programmatic-calls.js';
import { withCacheTokens } from '../cache-usage.js';
import { anthropicReasoningPart } from './anthropic-reasoning.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

export function mapAnthropicResponse(message: Message): ModelResponse {
  const content: (TextPart | ToolCallPart | ReasoningPart)[] = [];
  const serverBlocks: { block: unknown; before: number }[] = [];
  for (const block of message.content) {
    const reasoning = anthropicReasoningPart(block);
    if (reasoning !== undefined) content.push(reasoning);
    else if (block.type === 'text') {
      if (block.text !== '') content.push({ type: 'text', text: block.text });
    } else if (block.type === 'tool_use') {
      const caller = anthropicCaller(block);
      content.push({ type: 'tool-call', id: block.id, name: block.name, arguments: block.input, ...(caller ? { caller } : {}) });
    } else if (isAnthropicServerBlock(block)) {
      serverBlocks.push({ block, before: content.length });
    }
  }
  const response: ModelResponse = {
    content,
    stopReason: mapAnthropicStopReason(
      message.stop_reason,
      content.some((part) => part.type === 'tool-call'),
    ),
    usage: anthropicUsage(message.usage),
    modelId: message.model,
    raw: message,
  };
  if (typeof message.stop_reason === 'string') response.providerStopReason = message.stop_reason;
  const providerItems = anthropicProviderItems(serverBlocks, message.container);
  if (providerItems !== undefined) response.providerItems = providerItems;
  return response;
}

/** Usage as `message_start` and `message_delta` report it (fields may be missing or null in deltas). */
export interface AnthropicUsageLike {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export function anthropicUsage(usage: AnthropicUsageLike): TokenUsage {
  const total = {
    inputTokens: (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
    outputTokens: usage.output_tokens ?? 0,
  };
  return withCacheTokens(total, usage.cache_read_input_tokens, usage.cache_creation_input_tokens);
}
