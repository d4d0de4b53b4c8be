/**
 * Neutral messages → Anthropic Messages `system` + `messages`. System messages
 * go to the `system` parameter; the tool results of a turn (and any text that
 * follows them) become ONE user message with the `tool_result` blocks first;
 * assistant calls become `tool_use` blocks. Anthropic needs each call's input
 * as an object, so a call whose arguments never parsed is replayed as `{}`
 * with a text note quoting what the model sent, and a warning.
 * @module
 */
import type { ContentBlockParam, ImageBlockParam, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { FormatWarning } from '../../protocol/format-warning.js';
import { objectCallInput } from '../object-call-input.js';
import { anthropicCallerParam, replayAnthropicItems } from './anthropic-programmatic-calls.js';
import { anthropicReasoningBlock } from './anthropic-reasoning.js';
import { toAnthropicResultMessage } from './to-anthropic-result-message.js';
import type { AssistantMessage, Message, UserMessage } from '../../protocol/messages.js';

export interface AnthropicMessages {
  /** The joined system messages, or `undefined` when there were none. */
  system: string | undefined;
  messages: MessageParam[];
  warnings: FormatWarning[];
}

export function convertToAnthropicMessages(messages: readonly Message[]): AnthropicMessages {
  const system: string[] = [];
  const converted: MessageParam[] = [];
  const warnings: FormatWarning[] = [];
  const append = (message: { role: 'user' | 'assistant'; content: ContentBlockParam[] }) => {
    if (message.content.length === 0) return;
    const last = converted.at(-1);
    // Anthropic wants turns to alternate; consecutive same-role turns are merged into one.
    if (last !== undefined && last.role === message.role && Array.isArray(last.content)) last.content.push(...message.content);
    else converted.push(message);
  };
  messages.forEach((message, messageIndex) => {
    switch (message.role) {
      case 'system':
        if (converted.length > 0) {
          warnings.push({
            type: 'rewritten',
            provider: 'anthropic',
            feature: 'late-system-message',
            path: `/messages/${messageIndex}`,
            details: 'Anthropic takes system text only before the conversation; this system message was moved to the `system` parameter',
          });
        }
        system.push(message.content);
        break;
      case 'user':
        append({ role: 'user', content: userBlocks(message) });
        break;
      case 'assistant':
        append({ role: 'assistant', content: assistantBlocks(message, messageIndex, warnings) });
        break;
      case 'tool': {
        const results = toAnthropicResultMessage(message.results.map((part) => ({ callId: part.callId, result: part.result })));
        append({ role: 'user', content: results.message.content });
        warnings.push(...results.warnings);
        break;
      }
    }
  });
  return { system: system.length > 0 ? system.join('\n\n') : undefined, messages: converted, warnings };
}

function userBlocks(message: UserMessage): ContentBlockParam[] {
  if (typeof message.content === 'string') return message.content === '' ? [] : [{ type: 'text', text: message.content }];
  return message.content.map((part): TextBlockParam | ImageBlockParam =>
    part.type === 'text'
      ? { type: 'text', text: part.text }
      : { type: 'image', source: { type: 'base64', media_type: part.mimeType as 'image/png', data: part.data } },
  );
}

function assistantBlocks(message: AssistantMessage, messageIndex: number, warnings: FormatWarning[]): ContentBlockParam[] {
  const partBlocks = message.content.map((part, partIndex): ContentBlockParam[] => {
    const blocks: ContentBlockParam[] = [];
    if (part.type === 'text') {
      // Anthropic rejects empty text blocks.
      if (part.text !== '') blocks.push({ type: 'text', text: part.text });
      return blocks;
    }
    if (part.type === 'reasoning') {
      const block = anthropicReasoningBlock(part, `/messages/${messageIndex}/content/${partIndex}`, warnings);
      if (block !== undefined) blocks.push(block);
      return blocks;
    }
    const { input, note, warning } = objectCallInput(part, {
      provider: 'anthropic',
      path: `/messages/${messageIndex}/content/${partIndex}`,
      requirement: 'Anthropic needs tool_use input as an object',
    });
    if (note !== undefined) blocks.push({ type: 'text', text: note });
    if (warning !== undefined) warnings.push(warning);
    blocks.push({ type: 'tool_use', id: part.id, name: part.name, input, ...anthropicCallerParam(part.caller) });
    return blocks;
  });
  return replayAnthropicItems(message.providerItems, partBlocks);
}
