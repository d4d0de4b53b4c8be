/**
 * Tools → Chat Completions `tools` declarations.
 * @module
 */
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { declareTools } from '../declared-schema.js';
import type { FormatWarning } from '../../protocol/format-warning.js';
import { isStrictTool } from '../strict-tools.js';
import { describedWithExamples } from '../tool-examples-description.js';
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
   * `toOpenAIStrictSchema` and its warnings returned. A tool's own `strict` wins over this. Parse the calls with the same `strict`
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
  const declared = declareTools(
    source,
    (tool) => (isStrictTool(tool, strict) ? 'openai-strict' : 'openai'),
    (tool, parameters): ChatCompletionFunctionTool => {
      const definition: ChatCompletionFunctionTool['function'] = { name: tool.name, description: describedWithExamples(tool), parameters };
      if (isStrictTool(tool, strict)) definition.strict = true;
      return { type: 'function', function: definition };
    },
  );
  declared.warnings.push(...grammarFallbackWarnings(source, strict ? 'openai-strict' : 'openai', CHAT_GRAMMAR_FALLBACK));
  return declared;
}
