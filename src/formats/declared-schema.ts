/**
 * A schema as a provider receives it, with what the provider would not honour:
 * OpenAI's strict rewrite and its limits, or the provider's compatibility
 * warnings. A tool's input schema also gets an object root (every provider
 * requires `type: "object"`); a final answer's schema is declared as it is.
 * @module
 */
import type { AnyTool } from '../tools/define-tool.js';
import type { JsonSchemaObject } from '../tools/types.js';
import type { FormatWarning, SchemaProvider } from '../protocol/format-warning.js';
import { openAIStrictLimitWarnings, schemaCompatibilityWarnings, toOpenAIStrictSchema } from './provider-schema/index.js';

export interface DeclaredSchema {
  schema: JsonSchemaObject;
  warnings: FormatWarning[];
}

export function declaredInputSchema(tool: AnyTool, provider: SchemaProvider): DeclaredSchema {
  return declaredSchema(tool.inputSchema, provider, tool.name, true);
}

/** `schema` for `provider`; each warning names `name` (the tool, or the final answer) in `tool`. */
export function declaredSchema(schema: JsonSchemaObject, provider: SchemaProvider, name: string, objectRoot: boolean): DeclaredSchema {
  const warnings: FormatWarning[] = [];
  if (provider === 'openai-strict') {
    const converted = toOpenAIStrictSchema(schema);
    schema = converted.schema;
    warnings.push(...converted.warnings, ...openAIStrictLimitWarnings(schema));
  } else {
    if (objectRoot && schema.type === undefined) {
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
  return { schema, warnings: warnings.map((warning) => ({ ...warning, tool: name })) };
}
