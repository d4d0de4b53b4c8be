/**
 * The neutral tool choice → Responses API `tool_choice`.
 * @module
 */
import type { ToolChoiceFunction, ToolChoiceOptions } from 'openai/resources/responses/responses';
import type { ToolChoice } from '../../protocol/model-exchange.js';

export function toOpenAIResponsesToolChoice(choice: ToolChoice): ToolChoiceOptions | ToolChoiceFunction {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.tool };
}
