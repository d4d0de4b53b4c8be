/**
 * The input schema as a provider receives it: an object at the root (every
 * provider requires `type: "object"`), plus what the provider would not honour.
 * @module
 */
import type { AnyTool } from '../tools/define-tool.js';
import type { JsonSchemaObject } from '../tools/types.js';
import type { FormatWarning, SchemaProvider } from '../protocol/format-warning.js';
import { openAIStrictLimitWarnings, schemaCompatibilityWarnings, toOpenAIStrictSchema } from './provider-schema/index.js';

export function declaredInputSchema(tool: AnyTool, provider: SchemaProvider): { schema: JsonSchemaObject; warnings: FormatWarning[] } {
  let schema = tool.inputSchema;
  const warnings: FormatWarning[] = [];
  if (provider === 'openai-strict') {
    const converted = toOpenAIStrictSchema(schema);
    schema = converted.schema;
    warnings.push(...converted.warnings, ...openAIStrictLimitWarnings(schema));
  } else {
    if (schema.type === undefined) {
      // defineTool accepts an untyped root; the registry rejects non-object arguments anyway.
      schema = { type: 'object', ...schema };
      warnings.push({
        type: 'rewritten',
        provider,
        feature: 'type',
        path: '/type',
        details: 'added `type: "object"` at the root, which the provider requires (arguments are always objects)',
      });
    }
    warnings.push(...schemaCompatibilityWarnings(schema, provider));
  }
  return { schema, warnings: warnings.map((warning) => ({ ...warning, tool: tool.name })) };
}
