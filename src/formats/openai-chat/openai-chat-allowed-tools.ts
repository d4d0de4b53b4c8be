/**
 * Chat Completions `tool_choice: { type: 'allowed_tools' }`: the model may call only the named tools while the full,
 * unchanged tool list is declared (so a cached prompt prefix survives a narrowing).
 * @module
 */
import type { ChatCompletionAllowedToolChoice } from 'openai/resources/chat/completions';
import type { ToolChoice } from '../../protocol/model-exchange.js';

/** `auto` and `required` become the allowed-tools choice of that mode; a forced tool or `none` (returns `undefined`) is sent as it is. */
export function toOpenAIChatAllowedToolChoice(choice: ToolChoice, allowed: readonly string[]): ChatCompletionAllowedToolChoice | undefined {
  if (choice !== 'auto' && choice !== 'required') return undefined;
  return { type: 'allowed_tools', allowed_tools: { mode: choice, tools: allowed.map((name) => ({ type: 'function', function: { name } })) } };
}
