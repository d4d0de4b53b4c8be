/**
 * The neutral tool choice → Anthropic `tool_choice`.
 * @module
 */
import type { ToolChoice as AnthropicToolChoice } from '@anthropic-ai/sdk/resources/messages';
import type { ToolChoice } from '../../protocol/model-exchange.js';

/** `auto` → `auto`, `required` → `any`, `none` → `none`, `{ tool }` → `{ type: 'tool', name }`. */
export function toAnthropicToolChoice(choice: ToolChoice): AnthropicToolChoice {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'required') return { type: 'any' };
  if (choice === 'none') return { type: 'none' };
  return { type: 'tool', name: choice.tool };
}
