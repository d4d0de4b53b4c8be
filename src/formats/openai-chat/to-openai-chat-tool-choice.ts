/**
 * The neutral tool choice → Chat Completions `tool_choice`.
 * @module
 */
import type { ChatCompletionToolChoiceOption } from 'openai/resources/chat/completions';
import type { ToolChoice } from '../../protocol/model-exchange.js';

export function toOpenAIChatToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.tool } };
}
