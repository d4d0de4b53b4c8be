/**
 * Neutral messages → Responses API `input` items. Unlike Chat Completions the
 * Responses API keeps an assistant turn's text and calls as separate items, so
 * their order survives; calls replay the model's argument text verbatim.
 * @module
 */
import type { ResponseInputContent, ResponseInputItem } from 'openai/resources/responses/responses';
import type { FormatWarning } from '../../protocol/format-warning.js';
import { openAIResponsesReasoningItem } from './openai-responses-reasoning.js';
import { toOpenAIResponsesResultItems } from './to-openai-responses-result-items.js';
import type { Message, UserMessage } from '../../protocol/messages.js';

export interface OpenAIResponsesInput {
  input: ResponseInputItem[];
  warnings: FormatWarning[];
}

export function convertToOpenAIResponsesInput(messages: readonly Message[]): OpenAIResponsesInput {
  const input: ResponseInputItem[] = [];
  const warnings: FormatWarning[] = [];
  messages.forEach((message, messageIndex) => {
    switch (message.role) {
      case 'system':
        input.push({ role: 'system', content: message.content });
        break;
      case 'user':
        input.push({ role: 'user', content: userContent(message) });
        break;
      case 'assistant': {
        let text: string[] = [];
        const flushText = () => {
          if (text.length > 0) input.push({ role: 'assistant', content: text.join('\n') });
          text = [];
        };
        message.content.forEach((part, partIndex) => {
          if (part.type === 'text') {
            text.push(part.text);
            return;
          }
          flushText();
          if (part.type === 'reasoning') {
            const item = openAIResponsesReasoningItem(part, `/messages/${messageIndex}/content/${partIndex}`, warnings);
            if (item !== undefined) input.push(item);
            return;
          }
          input.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: part.argumentsText ?? JSON.stringify(part.arguments ?? {}) });
        });
        flushText();
        break;
      }
      case 'tool': {
        const results = toOpenAIResponsesResultItems(message.results.map((part) => ({ callId: part.callId, result: part.result })));
        input.push(...results.items);
        warnings.push(...results.warnings);
        break;
      }
    }
  });
  return { input, warnings };
}

function userContent(message: UserMessage): string | ResponseInputContent[] {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part): ResponseInputContent =>
    part.type === 'text'
      ? { type: 'input_text', text: part.text }
      : { type: 'input_image', image_url: `data:${part.mimeType};base64,${part.data}`, detail: 'auto' },
  );
}
