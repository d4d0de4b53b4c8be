/**
 * Tools → the AI SDK's function tool declarations (`LanguageModelV4FunctionTool`),
 * which the provider package then writes in its own wire format. The input
 * schema goes as the tool declares it, with `type: "object"` added at the root
 * when missing; what the provider itself cannot carry it reports in its own
 * warnings (see `mapAISDKWarnings`).
 * @module
 */
import type { JSONObject, LanguageModelV4FunctionTool, LanguageModelV4ToolChoice } from '@ai-sdk/provider';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { ToolChoice } from '../../protocol/model-exchange.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { JsonSchemaObject } from '../../tools/types.js';
import { declaredInputSchema, withObjectRoot } from '../declared-schema.js';
import { aiSDKStrictLimitWarnings } from './ai-sdk-strict-tools.js';
import { isStrictTool } from '../strict-tools.js';
import { describedWithExamples } from '../tool-examples-description.js';
import { grammarFallbackWarnings } from '../grammar-tools.js';
import { listTools, type ToolSource } from '../tool-source.js';

export interface AISDKFunctionTools {
  tools: LanguageModelV4FunctionTool[];
  warnings: FormatWarning[];
}

export interface AISDKFunctionToolsOptions {
  /**
   * Send `examples` as the AI SDK's `inputExamples` (for a provider package that maps them: `@ai-sdk/anthropic`); otherwise they are
   * folded into the description, as the AI SDK's `addToolInputExamplesMiddleware` does, since other packages drop the field. Default `false`.
   */
  nativeExamples?: boolean;
  /** The model's `strictTools`: sent as the tool's `strict: true` unless the tool's own `strict` says otherwise. Default `false`. */
  strict?: boolean;
  /** The rewrite a strict tool's schema needs for the model's package (`aiSDKStrictSchemaProvider`); none by default: the schema as declared. */
  strictSchema?: 'openai-strict' | 'anthropic-strict';
}

export function toAISDKFunctionTools(source: ToolSource, options: AISDKFunctionToolsOptions = {}): AISDKFunctionTools {
  const warnings: FormatWarning[] = [];
  const strictSchemas: JsonSchemaObject[] = [];
  const tools = listTools(source).map((tool): LanguageModelV4FunctionTool => {
    const strictRewrite = isStrictTool(tool, options.strict ?? false) ? options.strictSchema : undefined;
    // Only the root rewrite (or the strict one the package needs): the provider package reports what else it cannot carry.
    const { schema, warnings: schemaWarnings } = strictRewrite ? declaredInputSchema(tool, strictRewrite) : rootedSchema(tool);
    warnings.push(...schemaWarnings);
    if (strictRewrite) strictSchemas.push(schema);
    const examples = tool.examples ?? [];
    const native = options.nativeExamples === true && examples.length > 0;
    const declaration: LanguageModelV4FunctionTool = {
      type: 'function',
      name: tool.name,
      description: native ? tool.description : describedWithExamples(tool),
      inputSchema: schema as LanguageModelV4FunctionTool['inputSchema'],
    };
    if (native) declaration.inputExamples = examples.map((example) => ({ input: { ...example } as JSONObject }));
    if (isStrictTool(tool, options.strict ?? false)) declaration.strict = true;
    return declaration;
  });
  warnings.push(...aiSDKStrictLimitWarnings(options.strictSchema, strictSchemas), ...grammarFallbackWarnings(source, 'ai-sdk'));
  return { tools, warnings };
}

function rootedSchema(tool: AnyTool): { schema: JsonSchemaObject; warnings: FormatWarning[] } {
  const { schema, warning } = withObjectRoot(tool.inputSchema, 'ai-sdk');
  return { schema, warnings: warning ? [{ ...warning, tool: tool.name }] : [] };
}

/** `auto`, `required`, `none` as they are; `{ tool }` → `{ type: 'tool', toolName }`. */
export function toAISDKToolChoice(choice: ToolChoice): LanguageModelV4ToolChoice {
  if (typeof choice === 'string') return { type: choice };
  return { type: 'tool', toolName: choice.tool };
}
