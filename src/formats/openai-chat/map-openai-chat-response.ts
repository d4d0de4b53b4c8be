/**
 * A Chat Completions response → {@link ModelResponse}: text first, then the
 * calls in order; calls parsed by the format adapter, the raw argument text
 * kept on each tool-call part for a verbatim replay.
 * @module
 */
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { parseOpenAIChatToolCalls } from './parse-openai-chat-tool-calls.js';
import type { TextPart, ToolCallPart } from '../../protocol/messages.js';
import type { ModelResponse, TokenUsage } from '../../protocol/model-exchange.js';
import { toolCallPart } from '../tool-call-part.js';
import type { ToolSource } from '../tool-source.js';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason.js';
import { openAIChatUsage } from './openai-chat-usage.js';

export interface OpenAIChatResponseOptions {
  tools?: ToolSource | undefined;
  strict?: boolean;
  /** Used when the server reports no usage. */
  fallbackUsage: () => TokenUsage;
}

export function mapOpenAIChatResponse(completion: ChatCompletion, options: OpenAIChatResponseOptions): ModelResponse | undefined {
  const choice = completion.choices[0];
  if (choice === undefined) return undefined;
  const content: (TextPart | ToolCallPart)[] = [];
  const message = choice.message;
  if (typeof message.content === 'string' && message.content !== '') content.push({ type: 'text', text: message.content });
  if (typeof message.refusal === 'string' && message.refusal !== '') content.push({ type: 'text', text: message.refusal });
  const calls = parseOpenAIChatToolCalls(completion, { ...(options.tools ? { tools: options.tools } : {}), strict: options.strict ?? false });
  calls.forEach((call, index) => {
    const raw = message.tool_calls?.[index];
    content.push(toolCallPart(call, raw?.type === 'function' ? raw.function.arguments : undefined));
  });
  const refused = typeof message.refusal === 'string' && message.refusal !== '';
  const response: ModelResponse = {
    content,
    stopReason: refused ? 'refusal' : mapOpenAIChatFinishReason(choice.finish_reason, calls.length > 0),
    usage: completion.usage ? openAIChatUsage(completion.usage) : options.fallbackUsage(),
    modelId: completion.model,
    raw: completion,
  };
  if (typeof choice.finish_reason === 'string') response.providerStopReason = choice.finish_reason;
  return response;
}
