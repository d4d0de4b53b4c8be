/**
 * The run step of the call pipeline (`docs/agent.md`, "One call, three steps"): a decided call is executed by the
 * registry, holds its slot until its tool's work has ended (`StoppedCalls`, when the caller schedules by effect), is
 * screened by the policy (labelled, maybe isolated), gets the policy's note when its arguments were rewritten, and ends
 * as an outcome with its `tool_result` event. The caller schedules the calls (`scheduleByEffect`) and records the event.
 * @module
 */
import type { AnyTool } from '../../tools/define-tool.js';
import { schedulingEffect } from '../../tools/call-rules.js';
import { stillRunningMessage } from '../../tools/model-messages.js';
import { StoppedCalls } from '../../tools/stopped-calls.js';
import type { CallOptions, ToolExecution, ToolRegistry } from '../../tools/tool-registry.js';
import type { ToolCallOutcome } from '../agent-result.js';
import type { RunEvent } from '../run-event.js';
import type { CallPolicy, ScreenedResult } from './call-policy.js';
import { recordError } from './call-outcomes.js';
import { toJson } from './prepare-call.js';

export interface CallToRun {
  registry: ToolRegistry;
  /** Screens the result (`CallPolicy.screen`). */
  policy: CallPolicy;
  step: number;
  call: { callKey: string; callId: string; policyNote?: string | undefined };
  tool: AnyTool;
  /** The arguments the decide step settled on. */
  arguments: unknown;
  /** Signal, timeout, idempotency key, approval, context, progress: as the registry takes them. */
  options: CallOptions;
  /** The caller's stopped calls: a call keeps its slot until its tool's work ends. Absent: the call ends when it stops. */
  stoppedCalls?: StoppedCalls | undefined;
  /** The policy screens the result with this call's own context (`CallUnderCheck.context`); absent (the key itself): the seam's. */
  screenContext?: unknown;
}

export interface RanCall {
  outcome: ToolCallOutcome;
  event: Extract<RunEvent, { type: 'tool_result' }>;
  /** What the registry reported (the still-running text in place of a write's result), before the screen. */
  execution: ToolExecution;
  screened: ScreenedResult | undefined;
  /** Set when the tool's work outlived the grace period: it settles when the work ends. */
  stillWorking?: Promise<void>;
}

export async function runCall(toRun: CallToRun): Promise<RanCall> {
  const { registry, policy, step, call, tool, arguments: args, options, stoppedCalls } = toRun;
  let execution: ToolExecution;
  try {
    execution = await registry.execute(call.callId, tool, args, options);
  } catch (error) {
    // The registry does not throw for tools; this is a broken registry or tool object, kept to this one call.
    execution = brokenExecution(call.callId, tool, args, error);
  }
  let stillWorking: Promise<void> | undefined;
  let stillRunning = false;
  if (stoppedCalls) {
    const effect = schedulingEffect(tool);
    // The call's slot is held until its tool's work has ended, however the call stopped (scheduleByEffect waits for this job).
    const ended = await stoppedCalls.awaitEnd(execution, effect);
    if (!ended) stillWorking = execution.workEnded!;
    stillRunning = !ended && effect === 'write';
    if (stillRunning)
      execution = { ...execution, result: { content: [{ type: 'text', text: stillRunningMessage(tool.name, stoppedCalls.graceMs) }], isError: true } };
  }
  // The policy labels the result and may isolate it; the model and the record get what it returns.
  const screened = policy.screen(call.callId, tool, execution.result, 'screenContext' in toRun ? { context: toRun.screenContext } : {});
  let result = screened ? screened.result : execution.result;
  // After the screen: the note is the policy's own text, not the tool's, so isolation must not wrap it.
  if (call.policyNote !== undefined) result = { ...result, content: [...result.content, { type: 'text', text: call.policyNote }] };
  const outcome: ToolCallOutcome = {
    callKey: call.callKey,
    callId: call.callId,
    toolName: tool.name,
    arguments: toJson(args),
    status: stillRunning ? 'outcome_unknown' : result.isError ? 'failed' : 'succeeded',
    result,
    durationMs: execution.durationMs,
    truncated: execution.truncated,
  };
  if (execution.failure) outcome.failureCode = execution.failure.code;
  const event: RanCall['event'] = {
    type: 'tool_result',
    step,
    callKey: call.callKey,
    callId: call.callId,
    toolName: tool.name,
    arguments: outcome.arguments,
    status: outcome.status,
    result,
    durationMs: execution.durationMs,
    truncated: execution.truncated,
  };
  if (execution.failure) {
    event.failure = { code: execution.failure.code, retryable: execution.failure.retryable };
    if (execution.failure.error !== undefined) event.failure.error = recordError(execution.failure.error);
  }
  if (screened) {
    event.trust = screened.trust;
    event.isolated = screened.isolated;
  }
  return { outcome, event, execution, screened, ...(stillWorking ? { stillWorking } : {}) };
}

function brokenExecution(callId: string, tool: AnyTool, args: unknown, error: unknown): ToolExecution {
  return {
    callId,
    toolName: tool.name,
    arguments: args,
    result: {
      content: [{ type: 'text', text: `The tool ${tool.name} failed with an internal error. Try a different approach, or ask the user.` }],
      isError: true,
    },
    durationMs: 0,
    failure: { code: 'internal_error', message: 'internal error', retryable: false, error },
    truncated: false,
  };
}

/** The runs of this process with a stopped call whose tool is still running, kept only until it ends. */
const stoppedCallsByRun = new Map<string, StoppedCalls>();

/** A run's stopped calls: those a loop of this process left running (a resume must wait for them too), else none yet. */
export function stoppedCallsOf(runId: string, graceMs: number): StoppedCalls {
  return stoppedCallsByRun.get(runId) ?? new StoppedCalls(graceMs);
}

/** Keeps a run's stopped calls for a later loop of the same run in this process (a resume), until the still-running work ends. */
export function keepStoppedCalls(runId: string, stoppedCalls: StoppedCalls, workEnded: Promise<void>): void {
  stoppedCallsByRun.set(runId, stoppedCalls);
  void workEnded.then(() => {
    if (stoppedCalls.blockerFor('write') === undefined && stoppedCallsByRun.get(runId) === stoppedCalls) stoppedCallsByRun.delete(runId);
  });
}
