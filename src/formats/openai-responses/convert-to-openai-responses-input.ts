/**
 * Neutral messages → Responses API `input` items. Unlike Chat Completions the
 * Responses API keeps an assistant turn's text and calls as separate items, so
 * their order survives; calls replay the model's argument text verbatim.
 * @module
 */
import type { ResponseInputContent, ResponseInputItem } from 'openai/resources/responses/responses';
import type { FormatWarning } from '../../protocol/format-warning.js';
import { programmaticCallers, responsesCallerParam, responsesItemsBefore } from './openai-responses-programmatic-calls.js';
import { openAIResponsesReasoningItem } from './openai-responses-reasoning.js';
import { responsesNamespaceParam } from './openai-responses-namespaces.js';
import { toOpenAIResponsesResultItems } from './to-openai-responses-result-items.js';
import { asCustomToolCallOutput, toOpenAIResponsesCustomToolCallItem } from './openai-responses-custom-tools.js';
import type { Message, UserMessage } from '../../protocol/messages.js';
import type { ProgrammaticCaller } from '../../tools/types.js';

export interface OpenAIResponsesInput {
  input: ResponseInputItem[];
  warnings: FormatWarning[];
}

export function convertToOpenAIResponsesInput(messages: readonly Message[]): OpenAIResponsesInput {
  const input: ResponseInputItem[] = [];
  const warnings: FormatWarning[] = [];
  // A grammar tool's call is a `custom_tool_call`, and its result must be the matching `custom_tool_call_output`.
  const customCallIds = new Set<string>();
  // The callers of the last assistant turn's calls, which their outputs must name again.
  let callers = new Map<string, ProgrammaticCaller>();
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
        const partCount = message.content.length;
        callers = programmaticCallers(message.content);
        message.content.forEach((part, partIndex) => {
          const replayed = responsesItemsBefore(message.providerItems, partIndex, partCount);
          if (replayed.length > 0) flushText();
          input.push(...replayed);
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
          if (part.freeformInput !== undefined) {
            customCallIds.add(part.id);
            input.push(toOpenAIResponsesCustomToolCallItem(part.id, part.name, part.freeformInput));
            return;
          }
          input.push({
            type: 'function_call',
            call_id: part.id,
            name: part.name,
            arguments: part.argumentsText ?? JSON.stringify(part.arguments ?? {}),
            ...responsesCallerParam(part.caller),
            ...responsesNamespaceParam(part),
          });
        });
        flushText();
        input.push(...responsesItemsBefore(message.providerItems, partCount, partCount));
        break;
      }
      case 'tool': {
        const results = toOpenAIResponsesResultItems(message.results.map((part) => ({ callId: part.callId, result: part.result })));
        input.push(
          ...results.items.map((item) =>
            customCallIds.has(item.call_id) ? asCustomToolCallOutput(item) : { ...item, ...responsesCallerParam(callers.get(item.call_id)) },
          ),
        );
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
