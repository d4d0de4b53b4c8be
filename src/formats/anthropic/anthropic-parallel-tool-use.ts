/**
 * `parallelToolCalls: false` for Anthropic Messages: the flag lives inside
 * `tool_choice` (`disable_parallel_tool_use`), so a request that chose nothing
 * gets `auto` with it, which is what the API assumes when `tool_choice` is absent.
 * @module
 */
import type { ToolChoice as AnthropicToolChoice } from '@anthropic-ai/sdk/resources/messages';

/** The tool choice with parallel tool use turned off; `none` is kept as it is (it allows no call, and the API types no flag on it). */
export function withoutParallelToolUse(choice: AnthropicToolChoice | undefined): AnthropicToolChoice {
  const chosen = choice ?? { type: 'auto' };
  return chosen.type === 'none' ? chosen : { ...chosen, disable_parallel_tool_use: true };
}
