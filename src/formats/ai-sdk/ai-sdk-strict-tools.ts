/**
 * Strict tools through the AI SDK's own OpenAI and Anthropic packages. Neither rewrites a strict tool's schema
 * (`@ai-sdk/openai` sends it as given with `strict: true`, which OpenAI refuses while an optional property is left out of
 * `required`), so toolwright rewrites it as it does on its own adapters: `toOpenAIStrictSchema` for `@ai-sdk/openai` (its
 * Chat and Responses models), with the nulls strict mode invites removed again from the calls, and
 * `toAnthropicStrictSchema` for `@ai-sdk/anthropic`. Any other package (`@ai-sdk/google`: `VALIDATED` function calling)
 * gets the tool's schema as declared and decides what `strict` means.
 * @module
 */
import type { FormatWarning, SchemaProvider } from '../../protocol/format-warning.js';
import type { ReasoningPart, TextPart, ToolCallPart } from '../../protocol/messages.js';
import type { JsonSchemaObject } from '../../tools/types.js';
import { argumentsReader } from '../call-arguments.js';
import { anthropicStrictLimitWarnings } from '../provider-schema/index.js';
import type { ToolSource } from '../tool-source.js';

/** The strict rewrite the model's package needs, by its `provider` id; `undefined` for a package that gets the schema as declared. */
export function aiSDKStrictSchemaProvider(provider: string): Extract<SchemaProvider, 'openai-strict' | 'anthropic-strict'> | undefined {
  if (provider === 'openai.chat' || provider === 'openai.responses') return 'openai-strict';
  if (provider.startsWith('anthropic.')) return 'anthropic-strict';
  return undefined;
}

/** Anthropic's per-request limits on strict schemas (already rewritten); none for the other rewrites. */
export function aiSDKStrictLimitWarnings(rewrite: SchemaProvider | undefined, strictSchemas: readonly JsonSchemaObject[]): FormatWarning[] {
  return rewrite === 'anthropic-strict' ? anthropicStrictLimitWarnings(strictSchemas) : [];
}

/**
 * For `@ai-sdk/openai` (`openai-strict`): each call of a strict tool gets its arguments back in the original schema's shape
 * (the nulls of optional properties removed), in place, so that anything keyed by the call part still finds it. The raw
 * `argumentsText` stays as the model wrote it, for the replay.
 */
export function restoreAISDKStrictNulls(
  content: readonly (TextPart | ToolCallPart | ReasoningPart)[],
  rewrite: SchemaProvider | undefined,
  tools: ToolSource | undefined,
  strictTools: boolean,
): void {
  if (rewrite !== 'openai-strict' || tools === undefined) return;
  const read = argumentsReader({ tools, strict: strictTools });
  for (const part of content) {
    if (part.type !== 'tool-call' || part.argumentsText === undefined || part.argumentsError !== undefined) continue;
    const restored = read(part.id, part.name, part.argumentsText);
    if (restored.arguments !== undefined) part.arguments = restored.arguments;
  }
}
