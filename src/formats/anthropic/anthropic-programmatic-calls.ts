/**
 * Anthropic programmatic tool calling: tools that allow calls from code are declared with
 * `allowed_callers: ['code_execution_20250825']` beside the code execution tool; the `tool_use` blocks that code makes
 * carry a `caller` naming the `server_tool_use` block that ran it. What Anthropic ran on its side (`server_tool_use`,
 * `*_tool_result` blocks) and the container it ran in are kept as the turn's provider items, replayed exactly as received
 * (the API rejects a continuation without them).
 * @module
 */
import type { ContentBlockParam, Tool as AnthropicTool, ToolUnion, ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { Message as NeutralMessage, ProviderTurnItems } from '../../protocol/messages.js';
import { toolAllowsCaller, type AnyTool } from '../../tools/define-tool.js';
import type { ProgrammaticCaller } from '../../tools/types.js';

/** The code execution tool version programmatic calls go through (Anthropic's programmatic tool calling page names it). */
export const ANTHROPIC_CODE_EXECUTION_TYPE = 'code_execution_20250825';

/** The `caller` of a `tool_use` block, when code made the call; `undefined` for a direct call. */
export function anthropicCaller(block: { caller?: { type: string; tool_id?: string } | null }): ProgrammaticCaller | undefined {
  const caller = block.caller;
  if (caller == null || caller.type === 'direct' || typeof caller.tool_id !== 'string') return undefined;
  return { type: 'programmatic', id: caller.tool_id, runner: caller.type };
}

/** The `caller` to replay on a `tool_use` block, as Anthropic sent it. */
export function anthropicCallerParam(caller: ProgrammaticCaller | undefined): Pick<ToolUseBlockParam, 'caller'> {
  if (caller === undefined) return {};
  return { caller: { type: caller.runner, tool_id: caller.id } as NonNullable<ToolUseBlockParam['caller']> };
}

/**
 * The declarations with `allowed_callers` set on each tool that allows programmatic calls, and the code execution tool
 * appended when any does; unchanged when none does.
 */
export function withAnthropicProgrammaticCalls(tools: readonly AnyTool[], declared: AnthropicTool[]): ToolUnion[] {
  if (!tools.some((tool) => toolAllowsCaller(tool, 'programmatic'))) return declared;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const marked = declared.map((declaration): ToolUnion => {
    const tool = byName.get(declaration.name);
    if (tool === undefined || !toolAllowsCaller(tool, 'programmatic')) return declaration;
    const callers: NonNullable<AnthropicTool['allowed_callers']> = toolAllowsCaller(tool, 'direct')
      ? ['direct', ANTHROPIC_CODE_EXECUTION_TYPE]
      : [ANTHROPIC_CODE_EXECUTION_TYPE];
    return { ...declaration, allowed_callers: callers };
  });
  return [...marked, { type: ANTHROPIC_CODE_EXECUTION_TYPE, name: 'code_execution' }];
}

/** Whether a content block is something Anthropic ran on its side (code execution, its results, other server tools). */
export function isAnthropicServerBlock(block: { type: string }): boolean {
  return block.type === 'server_tool_use' || block.type.endsWith('_tool_result') || block.type === 'container_upload';
}

/**
 * Collects a response's server blocks and container as provider items. `before(blockIndex)` gives the index of the
 * neutral content part the block came before.
 */
export function anthropicProviderItems(
  blocks: readonly { block: unknown; before: number }[],
  container: { id: string } | null | undefined,
): ProviderTurnItems | undefined {
  if (blocks.length === 0 && container == null) return undefined;
  const items: ProviderTurnItems = { provider: 'anthropic', items: blocks.map(({ block, before }) => ({ before, item: block })) };
  if (container != null) items.container = container.id;
  return items;
}

/** The blocks of a turn with its provider items put back where they were; other providers' items are not sent. */
export function replayAnthropicItems(items: ProviderTurnItems | undefined, partBlocks: readonly ContentBlockParam[][]): ContentBlockParam[] {
  const replayed = items?.provider === 'anthropic' ? items.items : [];
  const blocks: ContentBlockParam[] = [];
  partBlocks.forEach((forPart, partIndex) => {
    for (const { before, item } of replayed) if (before === partIndex) blocks.push(item as ContentBlockParam);
    blocks.push(...forPart);
  });
  for (const { before, item } of replayed) if (before >= partBlocks.length) blocks.push(item as ContentBlockParam);
  return blocks;
}

/** The container the last Anthropic turn ran code in, which the next request must name to go on with that code. */
export function anthropicContainer(messages: readonly NeutralMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === 'assistant' && message.providerItems?.provider === 'anthropic' && message.providerItems.container !== undefined) {
      return message.providerItems.container;
    }
  }
  return undefined;
}
