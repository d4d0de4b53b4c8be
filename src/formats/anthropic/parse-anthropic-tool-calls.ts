/**
 * Anthropic `tool_use` content blocks → neutral tool calls. Anthropic sends the
 * input already parsed, so it goes on as `arguments` for the registry to validate.
 * @module
 */
import type { ContentBlock, Message } from '@anthropic-ai/sdk/resources/messages';
import type { ToolCallRequest } from '../../tools/types.js';
import { anthropicCaller } from './anthropic-programmatic-calls.js';

/** What the parser reads: a whole message, or its content blocks. */
export type AnthropicToolCallsInput = Pick<Message, 'content'> | readonly ContentBlock[];

export function parseAnthropicToolCalls(input: AnthropicToolCallsInput): ToolCallRequest[] {
  const blocks: readonly ContentBlock[] = Array.isArray(input) ? (input as readonly ContentBlock[]) : (input as Pick<Message, 'content'>).content;
  const calls: ToolCallRequest[] = [];
  // `server_tool_use` blocks are run by Anthropic itself and answered in the same response.
  for (const block of blocks) {
    if (block.type !== 'tool_use') continue;
    const caller = anthropicCaller(block);
    calls.push({ id: block.id, name: block.name, arguments: block.input, ...(caller ? { caller } : {}) });
  }
  return calls;
}
