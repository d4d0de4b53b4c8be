/**
 * Grammar tools on the Responses API: declared as `custom` tools with the grammar as `format`, called with
 * `custom_tool_call` items whose `input` is the raw text, answered with `custom_tool_call_output` items.
 * @module
 */
import type { CustomTool, ResponseCustomToolCall, ResponseCustomToolCallOutput } from 'openai/resources/responses/responses';
import type { AnyTool } from '../../tools/define-tool.js';
import type { ToolGrammar } from '../../tools/grammar-input.js';
import type { ToolCallRequest } from '../../tools/types.js';
import { GRAMMAR_INPUT_PROPERTY } from '../../tools/grammar-input.js';
import type { OpenAIResponsesResultItem } from './to-openai-responses-result-items.js';

export function toOpenAIResponsesCustomTool(tool: AnyTool, grammar: ToolGrammar): CustomTool {
  return {
    type: 'custom',
    name: tool.name,
    description: tool.description,
    format: { type: 'grammar', syntax: grammar.syntax, definition: grammar.definition },
  };
}

/** A `custom_tool_call` as the registry takes it: the text under `input`, never parsed as JSON. */
export function readOpenAIResponsesCustomToolCall(item: Pick<ResponseCustomToolCall, 'call_id' | 'name' | 'input'>): ToolCallRequest {
  return { id: item.call_id, name: item.name, arguments: { [GRAMMAR_INPUT_PROPERTY]: item.input } };
}

/** A grammar tool's call replayed in `input`: its text exactly as the model wrote it. */
export function toOpenAIResponsesCustomToolCallItem(callId: string, name: string, text: string): ResponseCustomToolCall {
  return { type: 'custom_tool_call', call_id: callId, name, input: text };
}

/** The result of a custom tool call: the same output as a function call's, under the type the API pairs with `custom_tool_call`. */
export function asCustomToolCallOutput(item: OpenAIResponsesResultItem): ResponseCustomToolCallOutput {
  return { type: 'custom_tool_call_output', call_id: item.call_id, output: item.output as ResponseCustomToolCallOutput['output'] };
}
