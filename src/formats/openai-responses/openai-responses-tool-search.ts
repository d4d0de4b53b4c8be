/**
 * OpenAI Responses native tool search run by the server: deferred function tools carry `defer_loading: true` and
 * `{ type: 'tool_search', execution: 'server' }` is declared beside them. The search comes back as `tool_search_call`
 * and `tool_search_output` items, kept with the turn's provider items and sent back as input items so the loaded tools stay loaded.
 * @module
 */
import type { ResponseInputItem, ResponseItem, Tool, ToolChoiceAllowed, ToolChoiceFunction, ToolChoiceOptions } from 'openai/resources/responses/responses';
import type { ModelToolSearch, ToolChoice } from '../../protocol/model-exchange.js';
import type { Message, ToolCallPart } from '../../protocol/messages.js';
import { safeParseJson } from '../../shared/safe-json.js';

/** Marks the deferred function tools and appends the server-run search tool. */
export function withOpenAIResponsesToolSearch(tools: Tool[], search: ModelToolSearch): Tool[] {
  const deferred = new Set(search.deferred);
  const declared = tools.map((tool) => (tool.type === 'function' && deferred.has(tool.name) ? { ...tool, defer_loading: true } : tool));
  return [...declared, { type: 'tool_search', execution: 'server' }];
}

/**
 * A search item of a response (`tool_search_call`, `tool_search_output`) as the input item that replays it (the fields
 * the input item takes, nothing else), kept with the turn's provider items; `undefined` for any other item.
 */
export function openAIResponsesSearchItem(item: ResponseItem | { type: string }): unknown {
  const source = item as Record<string, unknown>;
  const pick = (keys: readonly string[]) =>
    Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, structuredClone(source[key])]));
  if (item.type === 'tool_search_call') return pick(['type', 'id', 'call_id', 'arguments', 'execution', 'status']);
  if (item.type === 'tool_search_output') return pick(['type', 'id', 'call_id', 'execution', 'status', 'tools']);
  return undefined;
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

/**
 * The client-executed search (`execution: 'client'`): the request tool named `clientSearchTool` (toolwright's own search)
 * is declared as `{ type: 'tool_search', execution: 'client', description, parameters }` instead of a function.
 */
export function withOpenAIResponsesClientToolSearch(tools: Tool[], search: ModelToolSearch & { clientSearchTool: string }): Tool[] {
  const deferred = new Set(search.deferred);
  return tools.map((tool): Tool => {
    if (tool.type !== 'function') return tool;
    if (tool.name === search.clientSearchTool)
      return { type: 'tool_search', execution: 'client', description: tool.description ?? null, parameters: tool.parameters };
    return deferred.has(tool.name) ? { ...tool, defer_loading: true } : tool;
  });
}

/** A client-executed `tool_search_call` of a response, as a call of the client's search tool (its arguments are already an object). */
export function clientToolSearchCall(item: { type: string }, clientSearchTool: string | undefined): ToolCallPart | undefined {
  if (clientSearchTool === undefined || item.type !== 'tool_search_call') return undefined;
  const call = item as { call_id?: string | null; execution?: string; arguments?: unknown };
  if (call.execution !== 'client' || typeof call.call_id !== 'string') return undefined;
  return { type: 'tool-call', id: call.call_id, name: clientSearchTool, arguments: call.arguments };
}

/**
 * The history's calls of the client's search tool and their results, sent back as `tool_search_call` and
 * `tool_search_output` items: the output lists the declarations (from `declared`) of the tools the search found, which
 * the result names in `structuredContent.tools`.
 */
export function clientToolSearchItems(
  input: ResponseInputItem[],
  messages: readonly Message[],
  clientSearchTool: string,
  declared: readonly Tool[],
): ResponseInputItem[] {
  const found = new Map<string, readonly string[]>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.results) {
      const names = (part.result.structuredContent as { tools?: unknown } | undefined)?.tools;
      if (part.toolName === clientSearchTool)
        found.set(part.callId, Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : []);
    }
  }
  const byName = new Map(declared.flatMap((tool) => (tool.type === 'function' ? [[tool.name, tool] as const] : [])));
  return input.map((item): ResponseInputItem => {
    if (!('type' in item)) return item;
    if (item.type === 'function_call' && item.name === clientSearchTool) {
      const parsed = safeParseJson(item.arguments);
      return { type: 'tool_search_call', call_id: item.call_id, execution: 'client', status: 'completed', arguments: parsed.success ? parsed.value : {} };
    }
    const names = item.type === 'function_call_output' && typeof item.call_id === 'string' ? found.get(item.call_id) : undefined;
    if (item.type === 'function_call_output' && names !== undefined) {
      const tools = names.flatMap((name) => (byName.has(name) ? [byName.get(name)!] : []));
      return { type: 'tool_search_output', call_id: item.call_id, execution: 'client', status: 'completed', tools };
    }
    return item;
  });
}
