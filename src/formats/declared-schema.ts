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
import { listTools, type ToolSource } from './tool-source.js';
import { openAIStrictLimitWarnings, schemaCompatibilityWarnings, toAnthropicStrictSchema, toOpenAIStrictSchema } from './provider-schema/index.js';

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
  } else if (provider === 'anthropic-strict') {
    const converted = toAnthropicStrictSchema(schema);
    schema = converted.schema;
    warnings.push(...converted.warnings);
  } else {
    if (objectRoot) {
      const rooted = withObjectRoot(schema, provider);
      schema = rooted.schema;
      if (rooted.warning) warnings.push(rooted.warning);
    }
    warnings.push(...schemaCompatibilityWarnings(schema, provider));
  }
  return { schema, warnings: warnings.map((warning) => ({ ...warning, tool: name })) };
}

/**
 * `type: "object"` added at the root of an input schema that leaves it out, with the warning that says so. defineTool
 * accepts an untyped root; every provider requires an object there, and the registry rejects non-object arguments anyway.
 */
export function withObjectRoot(schema: JsonSchemaObject, provider: FormatWarning['provider']): { schema: JsonSchemaObject; warning?: FormatWarning } {
  if (schema.type !== undefined) return { schema };
  return {
    schema: { type: 'object', ...schema },
    warning: {
      type: 'rewritten',
      provider,
      feature: 'type',
      path: '/type',
      details: 'added `type: "object"` at the root, which the provider requires (arguments are always objects)',
    },
  };
}

/**
 * Each tool of `source` declared for `provider` (one for all, or chosen per tool: a tool's own `strict`) by `declare`
 * (given its schema as the provider receives it), with every tool's warnings in order.
 */
export function declareTools<Declaration>(
  source: ToolSource,
  provider: SchemaProvider | ((tool: AnyTool) => SchemaProvider),
  declare: (tool: AnyTool, schema: JsonSchemaObject) => Declaration,
): { tools: Declaration[]; warnings: FormatWarning[] } {
  const warnings: FormatWarning[] = [];
  const tools = listTools(source).map((tool) => {
    const declared = declaredInputSchema(tool, typeof provider === 'function' ? provider(tool) : provider);
    warnings.push(...declared.warnings);
    return declare(tool, declared.schema);
  });
  return { tools, warnings };
}
