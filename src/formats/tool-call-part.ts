/**
 * The one place a call's argument text is parsed. A call as a format's parser
 * or stream accumulator read it becomes the history part that every later
 * reader (the registry, the agent loop, the converters, the run record) uses
 * as it is: parsed `arguments`, the raw text for a verbatim replay, and, when
 * the text did not parse, the parse failure the registry tells the model about.
 * @module
 */
import { safeParseJson } from '../shared/safe-json.js';
import type { ToolCallRequest } from '../tools/types.js';
import type { ToolCallPart } from '../protocol/messages.js';

/**
 * A parsed call as a history part. `rawText` is the wire's argument text (kept
 * even when strict-mode parsing already restored `arguments`, which then stand).
 */
export function toolCallPart(call: ToolCallRequest, rawText: string | undefined = call.argumentsText): ToolCallPart {
  const part: ToolCallPart = { type: 'tool-call', id: call.id, name: call.name, arguments: call.arguments };
  if (call.caller !== undefined) part.caller = call.caller;
  if (rawText === undefined) return part;
  part.argumentsText = rawText;
  // Strict mode parsed the text already to restore its nulls; parsing it again would undo that.
  if (call.argumentsText === undefined && call.arguments !== undefined) return part;
  const parsed = safeParseJson(rawText);
  if (parsed.success) part.arguments = parsed.value;
  else {
    part.arguments = undefined;
    part.argumentsError = parsed.error;
  }
  return part;
}

/** A call whose arguments arrived as text (local models, scripted turns): parsed here, once. */
export function toolCallPartFromText(id: string, name: string, argumentsText: string): ToolCallPart {
  return toolCallPart({ id, name, argumentsText });
}
