/**
 * Anthropic's native tool search: deferred tools carry `defer_loading: true` and the search tool
 * (`tool_search_tool_bm25_20251119` or `tool_search_tool_regex_20251119`) is declared beside them; the model's search
 * comes back in the same turn as a `server_tool_use` block and a `tool_search_tool_result` block of `tool_reference`s,
 * which are kept as provider blocks and sent back unchanged so the tools they loaded stay loaded.
 * @module
 */
import type {
  ContentBlock,
  RawMessageStreamEvent,
  ToolSearchToolBm25_20251119,
  ToolSearchToolRegex20251119,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages';
import type { ModelToolSearch } from '../../protocol/model-exchange.js';
import type { ProviderBlock } from '../../protocol/messages.js';
import { safeParseJson } from '../../shared/safe-json.js';

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

/** Whether a response block is part of a tool search (the search call or its result), kept for the replay. */
export function isAnthropicToolSearchBlock(block: Pick<ContentBlock, 'type'> & { name?: string }): boolean {
  if (block.type === 'tool_search_tool_result') return true;
  return block.type === 'server_tool_use' && typeof block.name === 'string' && block.name.startsWith('tool_search_tool_');
}

/** A kept search block, placed before the neutral part at `before`. */
export function anthropicProviderBlock(block: ContentBlock, before: number): ProviderBlock {
  return { format: 'anthropic', before, block: structuredClone(block) };
}

/** The search blocks of a streamed message, rebuilt from `content_block_start`, `input_json_delta` and `content_block_stop`. */
export class AnthropicToolSearchStream {
  readonly #blocks = new Map<number, { block: ContentBlock; inputJson: string }>();

  push(event: RawMessageStreamEvent): void {
    if (event.type === 'content_block_start' && isAnthropicToolSearchBlock(event.content_block)) {
      this.#blocks.set(event.index, { block: structuredClone(event.content_block), inputJson: '' });
    } else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
      const open = this.#blocks.get(event.index);
      if (open) open.inputJson += event.delta.partial_json;
    } else if (event.type === 'content_block_stop') {
      const open = this.#blocks.get(event.index);
      if (open && open.block.type === 'server_tool_use' && open.inputJson !== '') {
        const parsed = safeParseJson(open.inputJson);
        // Text that does not parse cannot be replayed as an input object; the start's input is kept then.
        if (parsed.success) open.block.input = parsed.value;
      }
    }
  }

  /** The kept block at a stream index, placed before the neutral part at `before`; `undefined` when that index was no search block. */
  blockAt(index: number, before: number): ProviderBlock | undefined {
    const open = this.#blocks.get(index);
    return open ? anthropicProviderBlock(open.block, before) : undefined;
  }
}
