/**
 * Tools → Responses API function tools. Unlike Chat Completions, the Responses
 * API treats an omitted `strict` as strict, so it is always sent.
 * @module
 */
import type { CustomTool, FunctionTool } from 'openai/resources/responses/responses';
import { declareTools } from '../declared-schema.js';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { OpenAIToolsOptions } from '../openai-chat/to-openai-chat-tools.js';
import { isStrictTool } from '../strict-tools.js';
import { describedWithExamples } from '../tool-examples-description.js';
import type { ToolSource } from '../tool-source.js';
import { withoutGrammarToolWarnings } from '../grammar-tools.js';
import { toOpenAIResponsesCustomTool } from './openai-responses-custom-tools.js';

export interface OpenAIResponsesTools {
  /** The declarations, ready for `tools` in a `responses.create` request; a grammar tool is a `custom` tool. */
  tools: (FunctionTool | CustomTool)[];
  /** What the provider will not honour, per tool (`warning.tool`). */
  warnings: FormatWarning[];
}

export function toOpenAIResponsesTools(source: ToolSource, options: OpenAIToolsOptions = {}): OpenAIResponsesTools {
  const strict = options.strict ?? false;
  const declared = declareTools(
    source,
    (tool) => (isStrictTool(tool, strict) ? 'openai-strict' : 'openai'),
    (tool, parameters): FunctionTool | CustomTool =>
      tool.grammar
        ? toOpenAIResponsesCustomTool(tool, tool.grammar)
        : { type: 'function', name: tool.name, description: describedWithExamples(tool), parameters, strict: isStrictTool(tool, strict) },
  );
  return { tools: declared.tools, warnings: withoutGrammarToolWarnings(declared.warnings, source) };
}
