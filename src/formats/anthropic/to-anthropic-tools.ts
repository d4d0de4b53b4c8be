/**
 * Tools → Anthropic Messages API `tools` declarations.
 * @module
 */
import type { Tool as AnthropicTool } from '@anthropic-ai/sdk/resources/messages';
import { declareTools } from '../declared-schema.js';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { JsonSchemaObject } from '../../tools/types.js';
import { anthropicStrictLimitWarnings } from '../provider-schema/index.js';
import { isStrictTool } from '../strict-tools.js';
import type { ToolSource } from '../tool-source.js';
import { grammarFallbackWarnings } from '../grammar-tools.js';

export interface AnthropicTools {
  /** The declarations, ready for `tools` in a `messages.create` request. */
  tools: AnthropicTool[];
  /** What the provider will not honour, per tool (`warning.tool`). */
  warnings: FormatWarning[];
}

export interface AnthropicToolsOptions {
  /**
   * Declare the tools with `strict: true` (strict tool use): each schema is rewritten with `toAnthropicStrictSchema`
   * and its warnings returned. A tool's own `strict` wins over this. Default `false`.
   */
  strict?: boolean;
}

export function toAnthropicTools(source: ToolSource, options: AnthropicToolsOptions = {}): AnthropicTools {
  const strictTools = options.strict ?? false;
  const strictSchemas: JsonSchemaObject[] = [];
  // declaredInputSchema guarantees a root `type`; a non-object one is reported in the warnings.
  const declared = declareTools(
    source,
    (tool) => (isStrictTool(tool, strictTools) ? 'anthropic-strict' : 'anthropic'),
    (tool, schema): AnthropicTool => {
      const declaration: AnthropicTool = { name: tool.name, description: tool.description, input_schema: schema as AnthropicTool.InputSchema };
      if (tool.examples !== undefined && tool.examples.length > 0) declaration.input_examples = tool.examples.map((example) => ({ ...example }));
      if (isStrictTool(tool, strictTools)) {
        declaration.strict = true;
        strictSchemas.push(schema);
      }
      return declaration;
    },
  );
  return {
    tools: declared.tools,
    warnings: [...declared.warnings, ...anthropicStrictLimitWarnings(strictSchemas), ...grammarFallbackWarnings(source, 'anthropic')],
  };
}
