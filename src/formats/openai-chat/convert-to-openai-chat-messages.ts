/**
 * Neutral messages → Chat Completions `messages`. Assistant tool calls replay
 * the model's argument text verbatim (`argumentsText`) so the history shows
 * exactly what the model sent, broken JSON included; tool results go through
 * the format adapter, one `role: "tool"` message per call.
 * @module
 */
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { FormatWarning } from '../../protocol/format-warning.js';
import { reasoningNotReplayed } from '../reasoning-parts.js';
import { toOpenAIChatResultMessages } from './to-openai-chat-result-messages.js';
import type { AssistantMessage, Message, UserMessage } from '../../protocol/messages.js';

export interface OpenAIChatMessages {
  messages: ChatCompletionMessageParam[];
  /** What the wire format could not carry as it was. */
  warnings: FormatWarning[];
}

export function convertToOpenAIChatMessages(messages: readonly Message[]): OpenAIChatMessages {
  const converted: ChatCompletionMessageParam[] = [];
  const warnings: FormatWarning[] = [];
  messages.forEach((message, messageIndex) => {
    switch (message.role) {
      case 'system':
        converted.push({ role: 'system', content: message.content });
        break;
      case 'user':
        converted.push({ role: 'user', content: userContent(message) });
        break;
      case 'assistant':
        converted.push(assistantMessage(message, messageIndex, warnings));
        break;
      case 'tool': {
        const results = toOpenAIChatResultMessages(message.results.map((part) => ({ callId: part.callId, result: part.result })));
        converted.push(...results.messages);
        warnings.push(...results.warnings);
        break;
      }
    }
  });
  return { messages: converted, warnings };
}

function userContent(message: UserMessage): string | ChatCompletionContentPart[] {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part): ChatCompletionContentPart =>
    part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: `data:${part.mimeType};base64,${part.data}` } },
  );
}

function assistantMessage(message: AssistantMessage, messageIndex: number, warnings: FormatWarning[]): ChatCompletionAssistantMessageParam {
  const texts: string[] = [];
  const calls: ChatCompletionMessageFunctionToolCall[] = [];
  for (const [partIndex, part] of message.content.entries()) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'reasoning')
      warnings.push(reasoningNotReplayed(part, 'openai', `/messages/${messageIndex}/content/${partIndex}`, 'Chat Completions has no reasoning input'));
    else calls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.argumentsText ?? JSON.stringify(part.arguments ?? {}) } });
  }
  // Chat Completions keeps text and calls apart; text parts are joined, calls keep their order.
  const result: ChatCompletionAssistantMessageParam = { role: 'assistant', content: texts.length > 0 ? texts.join('\n') : null };
  if (calls.length > 0) result.tool_calls = calls;
  return result;
}
