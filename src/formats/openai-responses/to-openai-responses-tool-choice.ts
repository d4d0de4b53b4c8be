/**
 * The neutral tool choice → Responses API `tool_choice`.
 * @module
 */
import type { ToolChoiceCustom, ToolChoiceFunction, ToolChoiceOptions } from 'openai/resources/responses/responses';
import type { ToolChoice } from '../../protocol/model-exchange.js';
import { toolLookup, type ToolSource } from '../tool-source.js';

/** `tools`, the request's tools, tell a named grammar tool (a `custom` tool on the wire) from a function. */
export function toOpenAIResponsesToolChoice(choice: ToolChoice, tools?: ToolSource): ToolChoiceOptions | ToolChoiceFunction | ToolChoiceCustom {
  if (typeof choice === 'string') return choice;
  return toolLookup(tools)(choice.tool)?.grammar ? { type: 'custom', name: choice.tool } : { type: 'function', name: choice.tool };
}
