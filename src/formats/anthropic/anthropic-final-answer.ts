/**
 * A run's final-answer schema on Anthropic Messages: a final tool whose input is
 * the answer. The model must call some tool (`tool_choice: any`), so it answers by
 * calling the final tool or asks for a real one; the final tool never runs. Its
 * call comes back as the answer's JSON text (and `response.output`), so the loop,
 * the transcript and a replayed history see an answer, not a call without a result.
 * @module
 */
import type { Tool as AnthropicTool, ToolChoice as AnthropicToolChoice } from '@anthropic-ai/sdk/resources/messages';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { ReasoningPart, TextPart, ToolCallPart } from '../../protocol/messages.js';
import type { ModelOutputFormat, ModelResponse, ToolChoice } from '../../protocol/model-exchange.js';
import { describeLimit, inspectJsonValue } from '../../shared/safe-json.js';
import { DEFAULT_ARGUMENT_LIMITS } from '../../tools/argument-limits.js';
import { declaredOutputSchema } from '../output-format.js';
import { toAnthropicToolChoice } from './to-anthropic-tool-choice.js';

/** The final tool's description when the output names none. */
export function finalAnswerDescription(format: ModelOutputFormat): string {
  return `${format.description ? `${format.description.trim().replace(/\.?$/, '.')} ` : ''}Call this tool to give your final answer, once you need no other tool; its input is the answer.`;
}

/** The final tool's declaration. */
export function toAnthropicFinalAnswerTool(format: ModelOutputFormat): { tool: AnthropicTool; warnings: FormatWarning[] } {
  const declared = declaredOutputSchema(format, 'anthropic');
  return {
    tool: { name: format.name, description: finalAnswerDescription(format), input_schema: declared.schema as AnthropicTool.InputSchema },
    warnings: declared.warnings,
  };
}

/**
 * The tool choice with a final tool declared, and whether to declare it: `auto` becomes `any` (the final tool alone:
 * that tool), so the model answers only through it; `none` forces the final tool; `required` and a named tool keep their
 * meaning (a real tool call is due) and leave the final tool out or unchosen.
 */
export function toAnthropicOutputToolChoice(
  choice: ToolChoice,
  format: ModelOutputFormat,
  realTools: number,
): { toolChoice: AnthropicToolChoice; declare: boolean } {
  if (choice === 'required') return { toolChoice: { type: 'any' }, declare: false };
  if (typeof choice === 'object') return { toolChoice: toAnthropicToolChoice(choice), declare: true };
  if (choice === 'none' || realTools === 0) return { toolChoice: { type: 'tool', name: format.name }, declare: true };
  return { toolChoice: { type: 'any' }, declare: true };
}

/**
 * The final tool's call becomes the answer's JSON text in place. Alone, it is the answer: `output` holds its input and
 * the stop reason is `end_turn`. Beside real calls it stays text and the calls run; the model answers again afterwards.
 */
export function foldFinalAnswer(response: ModelResponse, format: ModelOutputFormat | undefined): ModelResponse {
  if (format === undefined) return response;
  const final = response.content.find((part): part is ToolCallPart => part.type === 'tool-call' && part.name === format.name);
  if (!final) return response;
  // An input past the argument limits is not walked or written out again (the record and the transcript would have to).
  const exceeded = final.argumentsError === undefined ? inspectJsonValue(final.arguments ?? {}, DEFAULT_ARGUMENT_LIMITS).exceeded : undefined;
  const text = exceeded ? `(the final answer was not kept: ${describeLimit(exceeded)})` : answerText(final);
  const content = response.content.map((part): TextPart | ToolCallPart | ReasoningPart => (part === final ? { type: 'text', text } : part));
  const folded: ModelResponse = { ...response, content };
  if (content.some((part) => part.type === 'tool-call')) return folded;
  if (folded.stopReason === 'tool_calls') folded.stopReason = 'end_turn';
  if (final.argumentsError === undefined && !exceeded) folded.output = { value: final.arguments };
  return folded;
}

function answerText(part: ToolCallPart): string {
  if (part.argumentsText !== undefined) return part.argumentsText;
  return JSON.stringify(part.arguments ?? {});
}
