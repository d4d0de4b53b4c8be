/**
 * The prepare step of the call pipeline (`docs/agent.md`, "One call, three steps"): each call of a model turn is looked
 * up, its arguments checked against the registry's limits and validated, and then the turn guards apply, as a pure
 * function of the turn: the last call of a response cut at its output limit is not run; an identical call in the same
 * response (same tool, canonical arguments) is not run again — a write never, a read unless a write came between;
 * distinct calls past `maxToolCallsPerTurn` are not run. What is left goes to the decide step.
 * @module
 */
import type { ToolCallPart } from '../../protocol/messages.js';
import { safeParseJson } from '../../shared/safe-json.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { PreparedCall, ToolRegistry } from '../../tools/tool-registry.js';
import type { ToolCallRequest } from '../../tools/types.js';
import { duplicateCallMessage, toolBudgetMessage, truncatedCallMessage, turnLimitMessage } from '../agent-messages.js';
import type { AgentStopReason, ToolCallOutcome } from '../agent-result.js';
import { budgetStop } from '../budget.js';
import { callSignature } from '../loop-breaker.js';
import type { PendingTurn, TurnCall } from '../run-state.js';
import { settledOutcome, unrunOutcome } from './call-outcomes.js';

/** What identifies a call of a turn, before anything is decided about it. */
export type TurnCallBase = Pick<TurnCall, 'callKey' | 'callId' | 'toolName' | 'request'>;

/** A call that resolved and validated, for the decide step. */
export interface ValidCall extends TurnCallBase {
  tool: AnyTool;
  /** The validated arguments (they may hold values JSON would not keep). */
  arguments: unknown;
}

/**
 * A call of a turn after the prepare step: settled (answered without running it) or valid (to decide). `signature` is the
 * loop breaker's `callSignature` of the validated arguments, when they were valid: computed once here, reused by a caller
 * whose outcome keeps these arguments (not a rewritten call's).
 */
export type PreparedTurnCall = ({ settled: TurnCall; valid?: undefined } | { valid: ValidCall; settled?: undefined }) & { signature?: string };

export interface PreparedTurn {
  calls: PreparedTurnCall[];
  /** Set when calls were past `maxToolCallsPerTurn`: the cap and how many distinct calls the response made. */
  turnLimit?: { limit: number; requested: number };
}

export interface TurnPrepareOptions {
  registry: ToolRegistry;
  maxToolCallsPerTurn: number;
  /** The id of the response's last call when the response was cut at its output limit right after it. */
  cutOffCallId?: string | undefined;
  /** A preparation made earlier for a part (arguments over the limits, refused when the response arrived). */
  preparedBefore?: (part: ToolCallPart) => PreparedCall | undefined;
}

/** The call key of the call at `index` of the response of `step`: unique in the run, unlike provider call ids. */
export function callKeyOf(step: number, index: number): string {
  return `${step}.${index}`;
}

/** Prepares every call of one model turn; runs nothing and asks no one. */
export function prepareTurnCalls(step: number, requests: readonly ToolCallPart[], options: TurnPrepareOptions): PreparedTurn {
  const calls: PreparedTurnCall[] = [];
  const originals = new Map<string, { callKey: string; callId: string; writesBefore: number }>();
  let writes = 0;
  let distinct = 0;
  const overLimit: TurnCall[] = [];
  for (const [index, request] of requests.entries()) {
    const base: TurnCallBase = { callKey: callKeyOf(step, index), callId: request.id, toolName: request.name, request: jsonSafeRequest(request) };
    if (index === requests.length - 1 && request.id === options.cutOffCallId) {
      const text = truncatedCallMessage(request.name);
      calls.push({ settled: { ...base, kind: 'invalid', notRun: 'truncated', invalidResult: { content: [{ type: 'text', text }], isError: true } } });
      continue;
    }
    const prepared = options.preparedBefore?.(request) ?? options.registry.prepare(request);
    const signature = prepared.success ? signatureOf(prepared.tool.name, prepared.arguments) : undefined;
    const original = signature === undefined ? undefined : originals.get(signature);
    // A read after a write may see another state, so only reads with no write between them share a result.
    if (prepared.success && original && (prepared.tool.effect === 'write' || original.writesBefore === writes)) {
      const notice = duplicateCallMessage(request.name, original.callId);
      const settled: TurnCall = { ...base, kind: 'invalid', duplicateOf: original.callKey, arguments: toJson(prepared.arguments) };
      calls.push({ settled: { ...settled, invalidResult: { content: [{ type: 'text', text: notice }], isError: false } }, signature: signature! });
      continue;
    }
    if (++distinct > options.maxToolCallsPerTurn) {
      // The notice needs the response's total, known after the loop.
      const settled: TurnCall = { ...base, kind: 'invalid', notRun: 'turn_limit' };
      overLimit.push(settled);
      calls.push({ settled });
      continue;
    }
    if (!prepared.success) {
      const invalidResult = { content: [{ type: 'text' as const, text: prepared.failure.message }], isError: true };
      calls.push({ settled: { ...base, kind: 'invalid', invalidResult, failureCode: prepared.failure.code } });
      continue;
    }
    if (signature !== undefined) originals.set(signature, { callKey: base.callKey, callId: request.id, writesBefore: writes });
    if (prepared.tool.effect === 'write') writes++;
    calls.push({ valid: { ...base, tool: prepared.tool, arguments: prepared.arguments }, ...(signature !== undefined ? { signature } : {}) });
  }
  if (overLimit.length === 0) return { calls };
  const limit = options.maxToolCallsPerTurn;
  for (const call of overLimit) call.invalidResult = { content: [{ type: 'text', text: turnLimitMessage(call.toolName, distinct, limit) }], isError: true };
  return { calls, turnLimit: { limit, requested: distinct } };
}

/**
 * The last turn guard, once a turn is decided: a `maxToolCalls` budget its runnable calls would pass stops the run,
 * and every call of the turn is answered as not run (an invalid one with its own result).
 */
export function overToolBudget(
  turn: PendingTurn,
  maxToolCalls: number | undefined,
  spent: number,
): { unrun: ToolCallOutcome[]; stop: AgentStopReason } | undefined {
  const runnable = turn.calls.filter((call) => call.kind !== 'invalid').length;
  if (maxToolCalls === undefined || spent + runnable <= maxToolCalls) return undefined;
  const unrun = turn.calls.map((call) =>
    call.kind === 'invalid' ? settledOutcome(call) : unrunOutcome(call, 'not_run', toolBudgetMessage(call.toolName, maxToolCalls)),
  );
  return { unrun, stop: budgetStop('toolCalls', maxToolCalls, spent, runnable) };
}

/**
 * A call of a resumed run's pending turn, validated again against the tools of this process (a call the policy rewrote
 * with its rewritten arguments): the arguments to run with, or the call settled as invalid.
 */
export function prepareAgain(registry: ToolRegistry, call: TurnCall): { arguments: unknown } | { settled: TurnCall } {
  const request = call.policyNote !== undefined ? { id: call.request.id, name: call.request.name, arguments: call.arguments } : call.request;
  const prepared = registry.prepare(request);
  if (prepared.success) return { arguments: prepared.arguments };
  const invalidResult = { content: [{ type: 'text' as const, text: prepared.failure.message }], isError: true };
  return { settled: { ...call, kind: 'invalid', invalidResult, failureCode: prepared.failure.code } };
}

/** The call as the pending turn keeps it, parse outcome included, so that a resumed run does not parse the text again. */
export function jsonSafeRequest(request: ToolCallRequest): ToolCallRequest {
  const copy: ToolCallRequest = { id: request.id, name: request.name };
  if (request.arguments !== undefined) copy.arguments = toJson(request.arguments);
  if (request.argumentsText !== undefined) copy.argumentsText = request.argumentsText;
  if (request.argumentsError !== undefined) copy.argumentsError = request.argumentsError;
  if (request.caller !== undefined) copy.caller = { ...request.caller };
  return copy;
}

/** A JSON copy of a value: what the store would give back. */
export function toJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  if (text === undefined) return undefined;
  const parsed = safeParseJson(text);
  return parsed.success ? parsed.value : value;
}

/** The loop breaker's signature, or `undefined` for arguments canonical JSON cannot write (such a call is never deduplicated). */
function signatureOf(toolName: string, args: unknown): string | undefined {
  try {
    return callSignature(toolName, args);
  } catch {
    return undefined;
  }
}
