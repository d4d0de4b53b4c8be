/**
 * Chat Completions `message.tool_calls` → neutral tool calls. For a strict tool
 * the text is parsed here, to restore the nulls strict mode invites
 * (`argumentsReader`); otherwise it is passed on as `argumentsText`.
 * `mapOpenAIChatResponse` then makes each call a history part with
 * `toolCallPart`, the one parse of the text; nothing after it parses again
 * (docs/architecture.md, "ToolCallPart").
 * @module
 */
import type { ChatCompletion, ChatCompletionMessage, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import type { ToolCallRequest } from '../../tools/types.js';
import { argumentsReader, type ParseToolCallOptions } from '../call-arguments.js';

export interface ParseOpenAIChatToolCallsOptions extends ParseToolCallOptions {
  /** Which choice to read when given a whole `ChatCompletion` (`n` > 1). Default 0. */
  choiceIndex?: number;
}

/** What the parser reads: a whole completion, its message, or the `tool_calls` list. */
export type OpenAIChatToolCallsInput = ChatCompletion | Pick<ChatCompletionMessage, 'tool_calls'> | readonly ChatCompletionMessageToolCall[];

export function parseOpenAIChatToolCalls(input: OpenAIChatToolCallsInput, options: ParseOpenAIChatToolCallsOptions = {}): ToolCallRequest[] {
  let calls: readonly ChatCompletionMessageToolCall[] | null | undefined;
  if (Array.isArray(input)) calls = input as readonly ChatCompletionMessageToolCall[];
  else if ('choices' in input) calls = input.choices[options.choiceIndex ?? 0]?.message.tool_calls;
  else calls = (input as Pick<ChatCompletionMessage, 'tool_calls'>).tool_calls;
  if (!calls) return [];
  const read = argumentsReader(options);
  return calls.map((call): ToolCallRequest => {
    if (call.type === 'custom') {
      // Free-form custom tools are not declared by toolwright; pass the input on so the
      // registry answers the model (unknown tool, or arguments that are not an object).
      return { id: call.id, name: call.custom.name, arguments: call.custom.input };
    }
    return read(call.id, call.function.name, call.function.arguments);
  });
}
