/**
 * Anthropic's native tool search: deferred tools carry `defer_loading: true` and the search tool
 * (`tool_search_tool_bm25_20251119` or `tool_search_tool_regex_20251119`) is declared beside them; the model's search
 * comes back in the same turn as a `server_tool_use` block and a `tool_search_tool_result` block of `tool_reference`s,
 * which are kept with the turn's provider items and sent back unchanged so the tools they loaded stay loaded.
 * @module
 */
import type { ToolSearchToolBm25_20251119, ToolSearchToolRegex20251119, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { ModelToolSearch } from '../../protocol/model-exchange.js';

/** Marks the deferred tools and appends the search tool; the others stay loaded. */
export function withAnthropicToolSearch(tools: ToolUnion[], search: ModelToolSearch): ToolUnion[] {
  const deferred = new Set(search.deferred);
  const declared = tools.map((tool) => ('name' in tool && deferred.has(tool.name) ? { ...tool, defer_loading: true } : tool));
  const searchTool: ToolSearchToolBm25_20251119 | ToolSearchToolRegex20251119 =
    search.anthropicSearch === 'regex'
      ? { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }
      : { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
  return [...declared, searchTool];
}

/**
 * The names the conversation's tool searches loaded: every `tool_reference` of a `tool_search_tool_result` block, which the
 * API expands into that tool's full declaration in the model's context.
 */
export function anthropicSearchLoadedTools(messages: readonly { content: unknown }[]): Set<string> {
  const loaded = new Set<string>();
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type?: string; content?: { tool_references?: { tool_name?: unknown }[] } }[]) {
      if (block.type !== 'tool_search_tool_result') continue;
      for (const reference of block.content?.tool_references ?? []) if (typeof reference.tool_name === 'string') loaded.add(reference.tool_name);
    }
  }
  return loaded;
}
