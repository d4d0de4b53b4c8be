/**
 * Tool results → Chat Completions `role: "tool"` messages, one per call. Tool
 * messages carry text only, so other parts become text placeholders, each with
 * a warning.
 * @module
 */
import type { ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import { contentPartAsText, resultParts, type CallResult } from '../content-as-text.js';
import type { FormatWarning } from '../../protocol/format-warning.js';

export interface OpenAIChatResultMessage {
  /** The message to append to `messages`. */
  message: ChatCompletionToolMessageParam;
  /** Parts that could not be sent as they are. */
  warnings: FormatWarning[];
}

export interface OpenAIChatResultMessages {
  /** One message per call, in the order given. */
  messages: ChatCompletionToolMessageParam[];
  warnings: FormatWarning[];
}

export function toOpenAIChatResultMessage(call: CallResult): OpenAIChatResultMessage {
  const warnings: FormatWarning[] = [];
  const texts = resultParts(call.result).map((part, index) => {
    const converted = contentPartAsText(part, 'openai', `/content/${index}`, 'A Chat Completions tool message');
    if (converted.warning) warnings.push({ ...converted.warning, tool: call.callId });
    return converted.text;
  });
  return { message: { role: 'tool', tool_call_id: call.callId, content: texts.join('\n') }, warnings };
}

export function toOpenAIChatResultMessages(calls: Iterable<CallResult>): OpenAIChatResultMessages {
  const messages: ChatCompletionToolMessageParam[] = [];
  const warnings: FormatWarning[] = [];
  for (const call of calls) {
    const converted = toOpenAIChatResultMessage(call);
    messages.push(converted.message);
    warnings.push(...converted.warnings);
  }
  return { messages, warnings };
}
