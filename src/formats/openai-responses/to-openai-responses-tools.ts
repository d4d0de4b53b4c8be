/**
 * Tools → Responses API function tools. Unlike Chat Completions, the Responses
 * API treats an omitted `strict` as strict, so it is always sent.
 * @module
 */
import type { FunctionTool } from 'openai/resources/responses/responses';
import { declaredInputSchema } from '../declared-schema.js';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { OpenAIToolsOptions } from '../openai-chat/to-openai-chat-tools.js';
import { listTools, type ToolSource } from '../tool-source.js';

export interface OpenAIResponsesTools {
  /** The declarations, ready for `tools` in a `responses.create` request. */
  tools: FunctionTool[];
  /** What the provider will not honour, per tool (`warning.tool`). */
  warnings: FormatWarning[];
}

export function toOpenAIResponsesTools(source: ToolSource, options: OpenAIToolsOptions = {}): OpenAIResponsesTools {
  const strict = options.strict ?? false;
  const warnings: FormatWarning[] = [];
  const tools = listTools(source).map((tool): FunctionTool => {
    const declared = declaredInputSchema(tool, strict ? 'openai-strict' : 'openai');
    warnings.push(...declared.warnings);
    return { type: 'function', name: tool.name, description: tool.description, parameters: declared.schema, strict };
  });
  return { tools, warnings };
}
