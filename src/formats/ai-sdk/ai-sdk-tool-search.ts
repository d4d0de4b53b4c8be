/**
 * Anthropic's native tool search through `@ai-sdk/anthropic`: the deferred function tools carry the package's
 * `providerOptions.anthropic.deferLoading: true` (sent as `defer_loading: true`) and the package's search tool
 * (`anthropic.tool_search_bm25_20251119` or `anthropic.tool_search_regex_20251119`) is declared after them, as toolwright's
 * own Anthropic adapter does. The search comes back as provider-executed parts (a `tool-call` the provider ran, its
 * `tool-result` of tool references); they are kept with the turn's provider items and sent back in their place, so the
 * tools they loaded stay loaded. Other packages have no native search through the AI SDK's model interface.
 * @module
 */
import type { LanguageModelV4FunctionTool, LanguageModelV4Message, LanguageModelV4ProviderTool } from '@ai-sdk/provider';
import type { ProviderTurnItems } from '../../protocol/messages.js';
import type { ModelToolSearch } from '../../protocol/model-exchange.js';
import { isPlainObject } from '../../shared/own.js';
import { safeParseJson } from '../../shared/safe-json.js';
import { merged } from './ai-sdk-cache-control.js';

type AssistantPart = Extract<LanguageModelV4Message, { role: 'assistant' }>['content'][number];

/** Whether the model's package searches tools natively (by its `provider` id): `@ai-sdk/anthropic` only. */
export function aiSDKNativeToolSearch(provider: string): boolean {
  return provider.startsWith('anthropic.');
}

/** Marks the deferred tools and appends the package's search tool; the others stay loaded. */
export function withAISDKToolSearch(
  tools: readonly LanguageModelV4FunctionTool[],
  search: ModelToolSearch,
): (LanguageModelV4FunctionTool | LanguageModelV4ProviderTool)[] {
  const deferred = new Set(search.deferred);
  const declared = tools.map((tool) =>
    deferred.has(tool.name) ? { ...tool, providerOptions: merged(tool.providerOptions, { anthropic: { deferLoading: true } }) } : tool,
  );
  const searchTool: LanguageModelV4ProviderTool =
    search.anthropicSearch === 'regex'
      ? { type: 'provider', id: 'anthropic.tool_search_regex_20251119', name: 'tool_search_tool_regex', args: {} }
      : { type: 'provider', id: 'anthropic.tool_search_bm25_20251119', name: 'tool_search_tool_bm25', args: {} };
  return [...declared, searchTool];
}

/** A provider-executed part of a response (a `tool-call` the provider ran, a `tool-result`), as a provider item to keep; else `undefined`. */
export function aiSDKProviderItem(part: Record<string, unknown>): Record<string, unknown> | undefined {
  if (part.type === 'tool-call' && part.providerExecuted === true) return { ...part };
  if (part.type === 'tool-result') return { ...part };
  return undefined;
}

/** The kept items of a turn, or `undefined` when it had none. */
export function aiSDKProviderItems(items: ProviderTurnItems['items']): ProviderTurnItems | undefined {
  return items.length === 0 ? undefined : { provider: 'ai-sdk', items };
}

/**
 * A kept item as the prompt part the package reads back, as the AI SDK itself replays one: the call with its input as
 * an object, the result as `json` (or `error-json`) output, each with its provider metadata as provider options.
 */
export function aiSDKProviderItemPromptPart(item: unknown): AssistantPart | undefined {
  if (!isPlainObject(item) || typeof item.toolCallId !== 'string' || typeof item.toolName !== 'string') return undefined;
  const providerOptions = isPlainObject(item.providerMetadata) ? { providerOptions: item.providerMetadata as Record<string, never> } : {};
  if (item.type === 'tool-call') {
    const parsed = typeof item.input === 'string' ? safeParseJson(item.input) : undefined;
    const input = parsed === undefined ? item.input : parsed.success ? parsed.value : {};
    return { type: 'tool-call', toolCallId: item.toolCallId, toolName: item.toolName, input, providerExecuted: true, ...providerOptions };
  }
  if (item.type === 'tool-result') {
    const value = (item.result ?? null) as never;
    const output = item.isError === true ? { type: 'error-json' as const, value } : { type: 'json' as const, value };
    return { type: 'tool-result', toolCallId: item.toolCallId, toolName: item.toolName, output, ...providerOptions };
  }
  return undefined;
}

/** The turn's kept items that go before the part at `partIndex` (all remaining ones at `partCount`), as prompt parts. */
export function aiSDKItemsBefore(items: ProviderTurnItems | undefined, partIndex: number, partCount: number): AssistantPart[] {
  if (items?.provider !== 'ai-sdk') return [];
  return items.items
    .filter(({ before }) => (partIndex >= partCount ? before >= partCount : before === partIndex))
    .map(({ item }) => aiSDKProviderItemPromptPart(item))
    .filter((part): part is AssistantPart => part !== undefined);
}
