/**
 * OpenAI Responses native tool search run by the server: deferred function tools carry `defer_loading: true` and
 * `{ type: 'tool_search', execution: 'server' }` is declared beside them. The search comes back as `tool_search_call`
 * and `tool_search_output` items, kept as provider blocks and sent back as input items so the loaded tools stay loaded.
 * @module
 */
import type { ResponseInputItem, ResponseItem, Tool, ToolChoiceAllowed, ToolChoiceFunction, ToolChoiceOptions } from 'openai/resources/responses/responses';
import type { ModelToolSearch, ToolChoice } from '../../protocol/model-exchange.js';
import type { ProviderBlock } from '../../protocol/messages.js';

/** Marks the deferred function tools and appends the server-run search tool. */
export function withOpenAIResponsesToolSearch(tools: Tool[], search: ModelToolSearch): Tool[] {
  const deferred = new Set(search.deferred);
  const declared = tools.map((tool) => (tool.type === 'function' && deferred.has(tool.name) ? { ...tool, defer_loading: true } : tool));
  return [...declared, { type: 'tool_search', execution: 'server' }];
}

/** A search item of a response, as an input item that replays it (the fields the input item takes, nothing else). */
export function openAIResponsesSearchBlock(item: ResponseItem | { type: string }, before: number): ProviderBlock | undefined {
  const source = item as Record<string, unknown>;
  const pick = (keys: readonly string[]) =>
    Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, structuredClone(source[key])]));
  if (item.type === 'tool_search_call')
    return { format: 'openai-responses', before, block: pick(['type', 'id', 'call_id', 'arguments', 'execution', 'status']) };
  if (item.type === 'tool_search_output') return { format: 'openai-responses', before, block: pick(['type', 'id', 'call_id', 'execution', 'status', 'tools']) };
  return undefined;
}

/** The kept blocks back among a turn's input items (see `withProviderBlocks`). */
export function isOpenAIResponsesCallItem(item: ResponseInputItem): boolean {
  return 'type' in item && item.type === 'function_call';
}

/**
 * The tool choice with `allowedTools`: `allowed_tools` over the full, unchanged tool list (`auto` or `required`);
 * a forced tool or `none` is sent as it is, since it already says more than the allowed list.
 */
export function toOpenAIResponsesAllowedToolChoice(
  choice: ToolChoice,
  allowed: readonly string[],
): ToolChoiceOptions | ToolChoiceFunction | ToolChoiceAllowed | undefined {
  if (choice !== 'auto' && choice !== 'required') return undefined;
  return { type: 'allowed_tools', mode: choice, tools: allowed.map((name) => ({ type: 'function', name })) };
}
