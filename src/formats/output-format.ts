/**
 * A run's final-answer schema on the wire, shared by the provider folders: the
 * schema as a provider receives it (OpenAI's strict rewrite, with its warnings),
 * and the answer read back (the strict rewrite's nulls restored to "absent").
 * @module
 */
import type { FormatWarning, SchemaProvider } from '../protocol/format-warning.js';
import type { ModelOutputFormat, ModelResponse } from '../protocol/model-exchange.js';
import { isPlainObject } from '../shared/own.js';
import { safeParseJson } from '../shared/safe-json.js';
import type { JsonSchemaObject } from '../tools/types.js';
import { declaredSchema, type DeclaredSchema } from './declared-schema.js';
import { nullRestorePlan } from './provider-schema/index.js';

/** The output schema for `provider`; each warning names the output in `tool`. */
export function declaredOutputSchema(format: ModelOutputFormat, provider: SchemaProvider): DeclaredSchema {
  return declaredSchema(format.schema, provider, format.name, false);
}

/** A final answer declared for OpenAI's Structured Outputs, as both OpenAI APIs take it. */
export interface OpenAIStructuredOutput {
  name: string;
  description?: string;
  schema: JsonSchemaObject;
  strict: true;
}

/**
 * The final answer's declaration for Chat's `response_format.json_schema` and Responses' `text.format`: the answer is
 * decoded under the strict rewrite of the schema; the agent validates the original.
 */
export function openAIStructuredOutput(format: ModelOutputFormat): { declaration: OpenAIStructuredOutput; warnings: FormatWarning[] } {
  const declared = declaredOutputSchema(format, 'openai-strict');
  const { name, description } = format;
  return { declaration: { name, ...(description !== undefined ? { description } : {}), schema: declared.schema, strict: true }, warnings: declared.warnings };
}

/**
 * Sets `response.output` from the answer's text when the response calls no tool: the parsed value, with the nulls the
 * strict rewrite invites restored to "absent" when `strict`. Text that does not parse is left for the agent to report.
 */
export function withOutputValue(response: ModelResponse, format: ModelOutputFormat | undefined, strict: boolean): ModelResponse {
  if (format === undefined || response.stopReason === 'refusal') return response;
  if (response.content.some((part) => part.type === 'tool-call')) return response;
  const text = response.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const parsed = safeParseJson(text);
  if (!parsed.success) return response;
  const value = strict && isPlainObject(parsed.value) ? nullRestorePlan(format.schema).restore(parsed.value) : parsed.value;
  return { ...response, output: { value } };
}
