/**
 * Responses API `function_call` output items → neutral tool calls. The id the
 * result must echo is `call_id` (not the item's `id`). The arguments are read
 * as by the Chat parser (`argumentsReader`: parsed here only for a strict tool);
 * `mapOpenAIResponsesResponse` then makes each call a part with `toolCallPart`,
 * the one parse of the text.
 * @module
 */
import type { Response, ResponseOutputItem } from 'openai/resources/responses/responses';
import type { ToolCallRequest } from '../../tools/types.js';
import { argumentsReader, type ParseToolCallOptions } from '../call-arguments.js';
import { readOpenAIResponsesCustomToolCall } from './openai-responses-custom-tools.js';
import { responsesCaller } from './openai-responses-programmatic-calls.js';

/** What the parser reads: a whole response, or its `output` items. */
export type OpenAIResponsesToolCallsInput = Pick<Response, 'output'> | readonly ResponseOutputItem[];

export function parseOpenAIResponsesToolCalls(input: OpenAIResponsesToolCallsInput, options: ParseToolCallOptions = {}): ToolCallRequest[] {
  const items: readonly ResponseOutputItem[] = Array.isArray(input) ? (input as readonly ResponseOutputItem[]) : (input as Pick<Response, 'output'>).output;
  const read = argumentsReader(options);
  const calls: ToolCallRequest[] = [];
  for (const item of items) {
    if (item.type === 'custom_tool_call') {
      calls.push(readOpenAIResponsesCustomToolCall(item));
      continue;
    }
    if (item.type !== 'function_call') continue;
    const call = read(item.call_id, item.name, item.arguments);
    const caller = responsesCaller(item);
    calls.push(caller === undefined ? call : { ...call, caller });
  }
  return calls;
}
