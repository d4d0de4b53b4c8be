/**
 * A call's outcome and its `tool_result` event, for calls that did not run (invalid, blocked, duplicate, declined,
 * expired, not run) and for those that did: one shape for every caller of the pipeline, so the record reads the same.
 * @module
 */
import type { ToolCallRequest, ToolEffect, ToolResult } from '../../tools/types.js';
import type { ToolCallOutcome, ToolCallStatus } from '../agent-result.js';
import type { RecordedError, RunEvent } from '../run-event.js';
import type { TurnCall } from '../run-state.js';

/** The outcome of a call settled without running (its result was made when it was prepared or decided). */
export function settledOutcome(call: TurnCall): ToolCallOutcome {
  const result: ToolResult = call.invalidResult ?? { content: [{ type: 'text', text: 'The call could not be run.' }], isError: true };
  const outcome: ToolCallOutcome = {
    callKey: call.callKey,
    callId: call.callId,
    toolName: call.toolName,
    arguments: call.arguments ?? call.request.arguments ?? call.request.argumentsText,
    status: call.blocked ? 'blocked' : call.notRun ? 'not_run' : call.duplicateOf !== undefined ? 'duplicate' : 'failed',
    result,
    durationMs: 0,
    truncated: false,
  };
  if (call.failureCode) outcome.failureCode = call.failureCode;
  return outcome;
}

/** The outcome of a call that was not run, with the text the model reads instead of a result. */
export function unrunOutcome(call: TurnCall, status: ToolCallStatus, text: string): ToolCallOutcome {
  return {
    callKey: call.callKey,
    callId: call.callId,
    toolName: call.toolName,
    arguments: call.arguments ?? call.request.arguments ?? call.request.argumentsText,
    status,
    result: { content: [{ type: 'text', text }], isError: true },
    durationMs: 0,
    truncated: false,
  };
}

/**
 * A call repeating an earlier one of its response: a read (`sharesResult`) gets the original's result, anything else
 * the notice it was given when prepared.
 */
export function duplicateOutcome(call: TurnCall, original: ToolCallOutcome | undefined, sharesResult: boolean): ToolCallOutcome {
  const outcome: ToolCallOutcome = {
    ...settledOutcome(call),
    status: 'duplicate',
    ...(original !== undefined && sharesResult ? { result: original.result, truncated: original.truncated } : {}),
  };
  if (original) outcome.duplicateOf = original.callId;
  return outcome;
}

/** The `tool_call` event of a call as the model sent it, recorded before anything is decided about it. */
export function toolCallEvent(step: number, callKey: string, request: ToolCallRequest, effect?: ToolEffect): Extract<RunEvent, { type: 'tool_call' }> {
  return {
    type: 'tool_call',
    step,
    callKey,
    callId: request.id,
    toolName: request.name,
    arguments: request.arguments,
    ...(request.argumentsText !== undefined ? { argumentsText: request.argumentsText } : {}),
    ...(request.caller !== undefined ? { caller: request.caller } : {}),
    ...(effect !== undefined ? { effect } : {}),
  };
}

/** The `tool_result` event of an outcome; the step is the call key's first part. */
export function toolResultEvent(outcome: ToolCallOutcome): Extract<RunEvent, { type: 'tool_result' }> {
  const event: Extract<RunEvent, { type: 'tool_result' }> = {
    type: 'tool_result',
    step: Number(outcome.callKey.split('.')[0]),
    callKey: outcome.callKey,
    callId: outcome.callId,
    toolName: outcome.toolName,
    arguments: outcome.arguments,
    status: outcome.status,
    result: outcome.result,
    durationMs: outcome.durationMs,
    truncated: outcome.truncated,
  };
  if (outcome.failureCode) event.failure = { code: outcome.failureCode, retryable: false };
  return event;
}

export function recordError(error: unknown): RecordedError {
  if (error instanceof Error) {
    const recorded: RecordedError = { name: error.name, message: error.message };
    if (error.stack !== undefined) recorded.stack = error.stack;
    return recorded;
  }
  return { name: typeof error, message: String(error) };
}
