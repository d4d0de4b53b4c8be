/**
 * A Responses API `response` → {@link ModelResponse}: output items in order
 * (message text, refusals, function calls), the status and
 * `incomplete_details.reason` mapped to a stop reason.
 * @module
 */
import type { Response } from 'openai/resources/responses/responses';
import { openAIResponsesReasoningPart } from './openai-responses-reasoning.js';
import { parseOpenAIResponsesToolCalls } from './parse-openai-responses-tool-calls.js';
import type { ReasoningPart, TextPart, ToolCallPart } from '../../protocol/messages.js';
import type { ModelResponse, StopReason, TokenUsage } from '../../protocol/model-exchange.js';
import { toolCallPart } from '../tool-call-part.js';
import type { ToolSource } from '../tool-source.js';

export interface OpenAIResponsesResponseOptions {
  tools?: ToolSource | undefined;
  strict?: boolean;
  fallbackUsage: () => TokenUsage;
}

export function mapOpenAIResponsesResponse(response: Response, options: OpenAIResponsesResponseOptions): ModelResponse {
  const calls = parseOpenAIResponsesToolCalls(response, { ...(options.tools ? { tools: options.tools } : {}), strict: options.strict ?? false });
  const content: (TextPart | ToolCallPart | ReasoningPart)[] = [];
  let refused = false;
  let callIndex = 0;
  for (const item of response.output) {
    const reasoning = openAIResponsesReasoningPart(item);
    if (reasoning !== undefined) content.push(reasoning);
    else if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type === 'output_text') {
          if (part.text !== '') content.push({ type: 'text', text: part.text });
        } else if (part.type === 'refusal') {
          refused = true;
          content.push({ type: 'text', text: part.refusal });
        }
      }
    } else if (item.type === 'function_call') {
      const call = calls[callIndex++];
      if (call) content.push(toolCallPart(call, item.arguments));
    }
  }
  const mapped: ModelResponse = {
    content,
    stopReason: refused ? 'refusal' : mapOpenAIResponsesStatus(response, calls.length > 0),
    usage: response.usage ? openAIResponsesUsage(response.usage) : options.fallbackUsage(),
    modelId: response.model,
    raw: response,
  };
  const reason = response.incomplete_details?.reason;
  if (typeof response.status === 'string') mapped.providerStopReason = typeof reason === 'string' ? `${response.status}: ${reason}` : response.status;
  return mapped;
}

/** `completed` → `end_turn` or `tool_calls`; `incomplete` → its reason (`max_output_tokens`, `content_filter`). */
export function mapOpenAIResponsesStatus(response: Pick<Response, 'status' | 'incomplete_details'>, hasToolCalls: boolean): StopReason {
  if (response.status === 'incomplete') {
    const reason = response.incomplete_details?.reason;
    if (reason === 'max_output_tokens') return 'max_tokens';
    if (reason === 'content_filter') return 'content_filter';
    return 'other';
  }
  if (hasToolCalls) return 'tool_calls';
  return response.status === 'completed' || response.status === undefined ? 'end_turn' : 'other';
}

/** Reasoning tokens are part of `output_tokens` already; they are named apart for the record, never added again. */
function openAIResponsesUsage(usage: NonNullable<Response['usage']>): TokenUsage {
  const mapped: TokenUsage = { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number' && reasoning > 0) mapped.reasoningTokens = reasoning;
  return mapped;
}
