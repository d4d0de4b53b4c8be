/**
 * The AI SDK's `doGenerate` result → a neutral {@link ModelResponse}: text and
 * client-executed tool calls in the model's order (each call parsed once, in
 * `toolCallPart`), usage, the unified finish reason mapped to a
 * {@link StopReason} with the provider's raw value kept, and the AI SDK's
 * warnings as FormatWarnings. Reasoning parts are kept with their provider
 * metadata, for the replay; provider-executed calls and results (a native tool
 * search) are kept as the turn's provider items, to be sent back; sources and
 * files have no place in the neutral response and are left out. Read
 * defensively: a wrapped model is someone else's code.
 * @module
 */
import type { LanguageModelV4FinishReason, LanguageModelV4GenerateResult, LanguageModelV4Usage, SharedV4Warning } from '@ai-sdk/provider';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { ReasoningPart, TextPart, ToolCallPart } from '../../protocol/messages.js';
import type { ModelResponse, StopReason, TokenUsage } from '../../protocol/model-exchange.js';
import { isPlainObject } from '../../shared/own.js';
import { withCacheTokens } from '../cache-usage.js';
import { toolCallPart } from '../tool-call-part.js';
import { aiSDKReasoningPart } from './ai-sdk-reasoning.js';
import { aiSDKProviderItem, aiSDKProviderItems } from './ai-sdk-tool-search.js';

/** What a response needs besides the result: the model id to report when the provider names none, and a usage estimate when it gives none. */
export interface AISDKResponseContext {
  modelId: string;
  estimateUsage: (content: readonly (TextPart | ToolCallPart | ReasoningPart)[]) => TokenUsage;
}

/**
 * The unified finish reason → {@link StopReason}: `stop` → `end_turn` (or
 * `tool_calls` when the response holds calls, since they must run either
 * way), `length` → `max_tokens`, `content-filter` → `content_filter`
 * (`refusal` when the provider's raw value says so), anything else → `other`
 * unless there are calls.
 */
export function mapAISDKFinishReason(finishReason: Partial<LanguageModelV4FinishReason> | string | undefined, hasToolCalls: boolean): StopReason {
  const { unified, raw } = typeof finishReason === 'string' ? { unified: finishReason, raw: undefined } : (finishReason ?? {});
  switch (unified) {
    case 'tool-calls':
      return 'tool_calls';
    case 'stop':
      return hasToolCalls ? 'tool_calls' : 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'content-filter':
      return raw === 'refusal' ? 'refusal' : 'content_filter';
    default:
      return hasToolCalls ? 'tool_calls' : 'other';
  }
}

/** The provider's own stop value when it sent one, else the unified one. */
export function aiSDKProviderStopReason(finishReason: Partial<LanguageModelV4FinishReason> | string | undefined): string | undefined {
  if (typeof finishReason === 'string') return finishReason;
  const value = finishReason?.raw ?? finishReason?.unified;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Total input and output tokens, and the cache reads and writes of `inputTokens` where given; a total the provider did not give
 * comes from `fallback` (the model's estimate).
 */
export function aiSDKUsage(usage: LanguageModelV4Usage | undefined, fallback: () => TokenUsage): TokenUsage {
  const inputTokens = count(usage?.inputTokens);
  const outputTokens = count(usage?.outputTokens);
  const details: unknown = usage?.inputTokens;
  const cacheRead = isPlainObject(details) ? details.cacheRead : undefined;
  const cacheWrite = isPlainObject(details) ? details.cacheWrite : undefined;
  if (inputTokens !== undefined && outputTokens !== undefined)
    return withAISDKReasoningTokens(withCacheTokens({ inputTokens, outputTokens }, cacheRead, cacheWrite), usage);
  const estimate = fallback();
  return withCacheTokens({ inputTokens: inputTokens ?? estimate.inputTokens, outputTokens: outputTokens ?? estimate.outputTokens }, cacheRead, cacheWrite);
}

/** `outputTokens.reasoning` is part of `outputTokens.total`: named apart for the record, never added again. */
function withAISDKReasoningTokens(mapped: TokenUsage, usage: LanguageModelV4Usage | undefined): TokenUsage {
  const output: unknown = usage?.outputTokens;
  const reasoning = isPlainObject(output) ? output.reasoning : undefined;
  return typeof reasoning === 'number' && Number.isFinite(reasoning) && reasoning > 0 ? { ...mapped, reasoningTokens: reasoning } : mapped;
}

function count(tokens: unknown): number | undefined {
  // AI SDK 4 and earlier gave a plain number; V3 and V4 an object with `total`.
  const total = isPlainObject(tokens) ? tokens.total : tokens;
  return typeof total === 'number' && Number.isFinite(total) && total >= 0 ? total : undefined;
}

/** The AI SDK's warnings for a call, as FormatWarnings. */
export function mapAISDKWarnings(warnings: readonly SharedV4Warning[] | undefined): FormatWarning[] {
  if (!Array.isArray(warnings)) return [];
  return warnings.flatMap((warning: unknown): FormatWarning[] => {
    if (!isPlainObject(warning)) return [];
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const reported = (type: FormatWarning['type'], feature: unknown, details: string): FormatWarning[] => [
      { type, provider: 'ai-sdk', feature: text(feature) ?? 'unknown', path: '', details },
    ];
    switch (warning.type) {
      case 'unsupported':
        return reported('unsupported', warning.feature, text(warning.details) ?? 'the provider does not support it');
      case 'compatibility':
        return reported('rewritten', warning.feature, text(warning.details) ?? 'used in a compatibility mode');
      case 'deprecated':
        return reported('rewritten', warning.setting, `deprecated: ${text(warning.message) ?? ''}`);
      default:
        return reported('rewritten', 'other', text(warning.message) ?? JSON.stringify(warning));
    }
  });
}

/** A client-executed call as a history part; its JSON input text is parsed here, once. */
export function aiSDKToolCallPart(toolCallId: unknown, toolName: unknown, input: unknown): ToolCallPart {
  const id = typeof toolCallId === 'string' ? toolCallId : '';
  const name = typeof toolName === 'string' ? toolName : '';
  // The specification says `input` is JSON text; an object from an older or hand-written model is taken as the value.
  if (typeof input === 'string') return toolCallPart({ id, name, argumentsText: input });
  return toolCallPart({ id, name, arguments: input ?? {} }, JSON.stringify(input ?? {}));
}

/** A generate result as a neutral response, with the calls' provider metadata for a later replay. */
export function mapAISDKGenerateResult(
  result: LanguageModelV4GenerateResult,
  context: AISDKResponseContext,
): { response: ModelResponse; callMetadata: Map<ToolCallPart, unknown> } {
  const content: (TextPart | ToolCallPart | ReasoningPart)[] = [];
  const callMetadata = new Map<ToolCallPart, unknown>();
  const providerItems: { before: number; item: unknown }[] = [];
  for (const part of Array.isArray(result.content) ? (result.content as unknown[]) : []) {
    if (!isPlainObject(part)) continue;
    const reasoning = aiSDKReasoningPart(part);
    if (reasoning !== undefined) content.push(reasoning);
    else if (part.type === 'text' && typeof part.text === 'string') {
      if (part.text === '') continue;
      const last = content.at(-1);
      // Providers may split one answer into several text parts; the history keeps one.
      if (last?.type === 'text') last.text += part.text;
      else content.push({ type: 'text', text: part.text });
    } else if (part.type === 'tool-call' && part.providerExecuted !== true) {
      const call = aiSDKToolCallPart(part.toolCallId, part.toolName, part.input);
      content.push(call);
      if (part.providerMetadata !== undefined) callMetadata.set(call, part.providerMetadata);
    } else {
      const item = aiSDKProviderItem(part);
      if (item !== undefined) providerItems.push({ before: content.length, item });
    }
  }
  const hasCalls = content.some((part) => part.type === 'tool-call');
  const response: ModelResponse = {
    content,
    stopReason: mapAISDKFinishReason(result.finishReason, hasCalls),
    usage: aiSDKUsage(result.usage, () => context.estimateUsage(content)),
    modelId: typeof result.response?.modelId === 'string' ? result.response.modelId : context.modelId,
    raw: result.response?.body ?? result.content,
  };
  const providerStopReason = aiSDKProviderStopReason(result.finishReason);
  if (providerStopReason !== undefined) response.providerStopReason = providerStopReason;
  const kept = aiSDKProviderItems(providerItems);
  if (kept !== undefined) response.providerItems = kept;
  return { response, callMetadata };
}
