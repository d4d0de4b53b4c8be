/**
 * Tools → Chat Completions `tools` declarations.
 * @module
 */
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { declareTools } from '../declared-schema.js';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { ToolSource } from '../tool-source.js';
import { grammarFallbackWarnings } from '../grammar-tools.js';

/**
 * Chat Completions has `custom` tools in requests and responses, but its stream chunks carry function calls only, so a
 * streamed custom call has no documented shape: grammar tools go as functions over their object form on both paths.
 */
const CHAT_GRAMMAR_FALLBACK = 'Chat Completions streams no documented custom tool calls (ChatCompletionChunk carries function calls only)';

export interface OpenAIToolsOptions {
  /**
   * Declare the tools with `strict: true` (Structured Outputs): the schema is rewritten with
   * `toOpenAIStrictSchema` and its warnings returned. Parse the calls with the same `strict`
   * and `tools` so that the nulls strict mode invites become "absent" again. Default `false`.
   */
  strict?: boolean;
}

export interface OpenAIChatTools {
  /** The declarations, ready for `tools` in a Chat Completions request. */
  tools: ChatCompletionFunctionTool[];
  /** What the provider will not honour, per tool (`warning.tool`). */
  warnings: FormatWarning[];
}

export function toOpenAIChatTools(source: ToolSource, options: OpenAIToolsOptions = {}): OpenAIChatTools {
  const strict = options.strict ?? false;
  const provider = strict ? 'openai-strict' : 'openai';
  const declared = declareTools(source, provider, (tool, parameters): ChatCompletionFunctionTool => {
    const definition: ChatCompletionFunctionTool['function'] = { name: tool.name, description: tool.description, parameters };
    if (strict) definition.strict = true;
    return { type: 'function', function: definition };
  });
  declared.warnings.push(...grammarFallbackWarnings(source, provider, CHAT_GRAMMAR_FALLBACK));
  return declared;
}
