/**
 * Tools → Anthropic Messages API `tools` declarations.
 * @module
 */
import type { Tool as AnthropicTool } from '@anthropic-ai/sdk/resources/messages';
import { declareTools } from '../declared-schema.js';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { ToolSource } from '../tool-source.js';
import { grammarFallbackWarnings } from '../grammar-tools.js';

export interface AnthropicTools {
  /** The declarations, ready for `tools` in a `messages.create` request. */
  tools: AnthropicTool[];
  /** What the provider will not honour, per tool (`warning.tool`). */
  warnings: FormatWarning[];
}

export function toAnthropicTools(source: ToolSource): AnthropicTools {
  // declaredInputSchema guarantees a root `type`; a non-object one is reported in the warnings.
  const declared = declareTools(source, 'anthropic', (tool, schema): AnthropicTool => ({
    name: tool.name,
    description: tool.description,
    input_schema: schema as AnthropicTool.InputSchema,
  }));
  declared.warnings.push(...grammarFallbackWarnings(source, 'anthropic'));
  return declared;
}
