/**
 * The final-answer tool under the model's `strictTools` on Anthropic Messages: declared `strict: true` with its schema
 * rewritten by `toAnthropicStrictSchema`, like any strict tool, so the answer is decoded under the schema as OpenAI's
 * Structured Outputs decode theirs. Nothing is restored when it is read back: Anthropic's strict rewrite keeps optional
 * properties optional and invites no null. The final tool is one more strict schema of the request, so Anthropic's
 * request-wide limits are counted again with it.
 * @module
 */
import type { Tool as AnthropicTool, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { ModelOutputFormat } from '../../protocol/model-exchange.js';
import { isPlainObject } from '../../shared/own.js';
import type { JsonSchemaObject } from '../../tools/types.js';
import { declaredOutputSchema } from '../output-format.js';
import { anthropicStrictLimitWarnings } from '../provider-schema/index.js';
import { finalAnswerDescription } from './anthropic-final-answer.js';

/** The features of the warnings {@link anthropicStrictLimitWarnings} gives, one per request-wide limit. */
const LIMIT_FEATURES: ReadonlySet<string> = new Set(['strict-tools', 'optional-parameters', 'union-parameters']);

/** The final tool declared strict, with the strict rewrite's warnings (each naming the output in `tool`). */
export function toAnthropicStrictFinalAnswerTool(format: ModelOutputFormat): { tool: AnthropicTool; warnings: FormatWarning[] } {
  const declared = declaredOutputSchema(format, 'anthropic-strict');
  return {
    tool: { name: format.name, description: finalAnswerDescription(format), input_schema: declared.schema as AnthropicTool.InputSchema, strict: true },
    warnings: declared.warnings,
  };
}

/**
 * `warnings` with the request-wide strict limits counted over every strict declaration in `tools` (the final tool
 * included) in place of the count the real tools alone gave.
 */
export function withStrictLimitsRecounted(warnings: readonly FormatWarning[], tools: readonly ToolUnion[]): FormatWarning[] {
  const strictSchemas = tools.flatMap((tool) =>
    'input_schema' in tool && tool.strict === true && isPlainObject(tool.input_schema) ? [tool.input_schema as JsonSchemaObject] : [],
  );
  const kept = warnings.filter((warning) => !(warning.provider === 'anthropic-strict' && warning.tool === undefined && LIMIT_FEATURES.has(warning.feature)));
  return [...kept, ...anthropicStrictLimitWarnings(strictSchemas)];
}
