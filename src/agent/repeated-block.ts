/**
 * A blocked call the model repeats. The same call blocked `maxRepeatedFailures` times does not end the run (or an MCP
 * session's tool use): whether the user's task has other work left only the model knows, and the call cannot run whatever
 * it does, since the policy or guard that blocked it blocks it again. So the block that reaches the limit ends the turn with
 * a notice in its result (the call will stay blocked; go on with the rest of the task or finish), and the loop breaker
 * stops the run only if the model makes the same call once more after reading it (`failureLimitFor` in loop-breaker.ts).
 * @module
 */
import type { ResolvedLimits } from './agent-limits.js';
import type { CallScopeName } from './agent-messages.js';
import { callSignature } from './loop-breaker.js';
import type { RunState, TurnCall } from './run-state.js';

/** The text added to a blocked call's result when it is the block that reaches `maxRepeatedFailures`. */
export function repeatedBlockNotice(toolName: string, blocks: number, scope: CallScopeName): string {
  return (
    `This call to ${toolName} has now been blocked ${blocks} times with the same arguments, and it will stay blocked: do not make it again. ` +
    `Go on with the rest of the user's task using other calls, or finish and tell the user what could not be done. ` +
    `Making this same call once more ends the ${scope}.`
  );
}

/**
 * The call with the notice added to its result when it is blocked and the identical call (`knownSignature`, as the loop
 * breaker counts it; computed from the call when not given) was blocked or failed `maxRepeatedFailures - 1` times before,
 * unless `maxIdenticalCalls` stops the run at this call anyway; any other call as it is.
 */
export function withRepeatedBlockNotice(
  call: TurnCall,
  counts: Pick<RunState, 'failureCounts' | 'callCounts'>,
  knownSignature: string | undefined,
  limits: Pick<ResolvedLimits, 'maxRepeatedFailures' | 'maxIdenticalCalls'>,
  scope: CallScopeName,
): TurnCall {
  const max = limits.maxRepeatedFailures;
  if (call.blocked !== true || call.invalidResult === undefined || max === false) return call;
  const signature = knownSignature ?? callSignature(call.toolName, call.arguments);
  const countOf = (map: Record<string, number>) => (Object.prototype.hasOwnProperty.call(map, signature) ? map[signature]! : 0);
  if (countOf(counts.failureCounts) + 1 !== max) return call;
  // Where the identical-call limit ends the run at this very call, the notice would promise a turn that does not come.
  if (limits.maxIdenticalCalls !== false && countOf(counts.callCounts) + 1 >= limits.maxIdenticalCalls) return call;
  const notice = { type: 'text' as const, text: repeatedBlockNotice(call.toolName, max, scope) };
  return { ...call, invalidResult: { ...call.invalidResult, content: [...call.invalidResult.content, notice] } };
}
