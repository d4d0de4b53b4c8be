/**
 * A Responses API `response` → {@link ModelResponse}: output items in order
 * (message text, refusals, function calls), the status and
 * `incomplete_details.reason` mapped to a stop reason.
 * @module
 */
import type { Response } from 'openai/resources/responses/responses';
import { isResponsesProgramItem, responsesProviderItems } from './openai-responses-programmatic-calls.js';
import { parseOpenAIResponsesToolCalls } from './parse-openai-responses-tool-calls.js';
import type { ReasoningPart, TextPart, ToolCallPart } from '../../protocol/messages.js';
import { clientToolSearchCall, openAIResponsesSearchItem } from './openai-responses-tool-search.js';
import { openAIResponsesReasoningPart } from './openai-responses-reasoning.js';
import type { ModelResponse, StopReason, TokenUsage } from '../../protocol/model-exchange.js';
import { toolCallPart } from '../tool-call-part.js';
import { grammarToolCallPart } from '../grammar-tools.js';
import type { ToolSource } from '../tool-source.js';
import { openAIResponsesUsage } from './openai-responses-usage.js';
import { withCallNamespace } from './openai-responses-namespaces.js';

export interface OpenAIResponsesResponseOptions {
  tools?: ToolSource | undefined;
  strict?: boolean;
  /** The request's client-run search tool (`ModelToolSearch.clientSearchTool`): its `tool_search_call`s read as calls of it. */
  clientSearchTool?: string | undefined;
  fallbackUsage: () => TokenUsage;
}

export function mapOpenAIResponsesResponse(response: Response, options: OpenAIResponsesResponseOptions): ModelResponse {
  const calls = parseOpenAIResponsesToolCalls(response, { ...(options.tools ? { tools: options.tools } : {}), strict: options.strict ?? false });
  const content: (TextPart | ToolCallPart | ReasoningPart)[] = [];
  let refused = false;
  let callIndex = 0;
  // Items the provider ran on its side (programs, searches), replayed to it in their place.
  const programItems: { item: unknown; before: number }[] = [];
  for (const item of response.output) {
    if (isResponsesProgramItem(item)) programItems.push({ item, before: content.length });
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
      if (call) content.push(withCallNamespace(toolCallPart(call, item.arguments), item));
    } else if (item.type === 'custom_tool_call') {
      callIndex++;
      content.push(grammarToolCallPart(item.call_id, item.name, item.input));
    } else if (clientToolSearchCall(item, options.clientSearchTool)) {
      content.push(clientToolSearchCall(item, options.clientSearchTool)!);
    } else {
      const kept = openAIResponsesSearchItem(item);
      if (kept) programItems.push({ item: kept, before: content.length });
    }
  }
  const mapped: ModelResponse = {
    content,
    stopReason: refused
      ? 'refusal'
      : mapOpenAIResponsesStatus(
          response,
          content.some((part) => part.type === 'tool-call'),
        ),
    usage: response.usage ? openAIResponsesUsage(response.usage) : options.fallbackUsage(),
    modelId: response.model,
    raw: response,
  };
  const reason = response.incomplete_details?.reason;
  if (typeof response.status === 'string') mapped.providerStopReason = typeof reason === 'string' ? `${response.status}: ${reason}` : response.status;
  const providerItems = responsesProviderItems(programItems);
  if (providerItems !== undefined) mapped.providerItems = providerItems;
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
