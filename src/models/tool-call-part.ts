import { safeParseJson } from '../shared/safe-json.js';
import type { ToolCallRequest } from '../tools/types.js';
import type { ToolCallPart } from './types.js';

/**
 * A parsed call as a history part: the wire's raw argument text kept for replay
 * (even when strict-mode parsing already restored `arguments`), arguments
 * parsed where they parse.
 */
export function toolCallPart(call: ToolCallRequest, rawText: string | undefined = call.argumentsText): ToolCallPart {
  if (rawText === undefined) return { type: 'tool-call', id: call.id, name: call.name, arguments: call.arguments };
  let args = call.arguments;
  if (call.argumentsText !== undefined || args === undefined) {
    const parsed = safeParseJson(rawText);
    args = parsed.success ? parsed.value : undefined;
  }
  return { type: 'tool-call', id: call.id, name: call.name, arguments: args, argumentsText: rawText };
}
