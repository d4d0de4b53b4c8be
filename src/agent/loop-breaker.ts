/**
 * The loop breaker: counts calls and failures per tool and canonical
 * arguments, so a model repeating the same failing call (or the same call
 * over and over, across turns or within one response) is stopped instead of
 * spinning until the iteration limit.
 * Counts live in the run state, so they survive a pause for confirmation.
 * @module
 */
import { sha256Digest } from '../shared/sha256.js';
import { resultText } from '../formats/content-as-text.js';
import type { ResolvedLimits } from './agent-limits.js';
import type { AgentStopReason, ToolCallOutcome } from './agent-result.js';
import { canonicalJson } from '../shared/canonical-json.js';
import type { RunState } from './run-state.js';
import type { CallScopeName } from './agent-messages.js';

/**
 * The identity of a call for repetition: the tool and a hash of its canonical
 * arguments. A hash, because signatures are keys of the stored run state, where
 * arguments in clear would carry secrets past redaction.
 */
export function callSignature(toolName: string, args: unknown): string {
  return `${toolName} ${sha256Digest(canonicalJson(args), 'base64url')}`;
}

/**
 * Counts a turn's outcomes into the state; returns the stop reason when a limit is reached. `scope` names what the stop
 * ends in the model-facing message: a run, or an MCP session. `knownSignatures` holds, by call key, signatures the
 * caller already computed for the same arguments (the prepare step's), so as not to hash twice.
 */
export function checkForLoop(
  state: Pick<RunState, 'failureCounts' | 'callCounts'>,
  outcomes: readonly ToolCallOutcome[],
  limits: Pick<ResolvedLimits, 'maxRepeatedFailures' | 'maxIdenticalCalls'>,
  scope: CallScopeName = 'run',
  knownSignatures?: ReadonlyMap<string, string>,
): Extract<AgentStopReason, { kind: 'loop_detected' }> | undefined {
  let stop: Extract<AgentStopReason, { kind: 'loop_detected' }> | undefined;
  const { maxRepeatedFailures, maxIdenticalCalls } = limits;
  // Off: nothing is counted, so the counts do not grow over a session that lasts days.
  if (maxRepeatedFailures === false && maxIdenticalCalls === false) return undefined;
  for (const outcome of outcomes) {
    // Declined, expired and unrun calls are the user's or the budget's doing, not the model's loop; a call blocked again and again is,
    // and so is a call repeated within one response (a duplicate counts as a call, not as a failure).
    if (outcome.status !== 'succeeded' && outcome.status !== 'failed' && outcome.status !== 'blocked' && outcome.status !== 'duplicate') continue;
    const signature = knownSignatures?.get(outcome.callKey) ?? callSignature(outcome.toolName, outcome.arguments);
    const calls = (state.callCounts[signature] = (Object.prototype.hasOwnProperty.call(state.callCounts, signature) ? state.callCounts[signature]! : 0) + 1);
    let failures = 0;
    if (outcome.status === 'failed' || outcome.status === 'blocked') {
      failures = state.failureCounts[signature] =
        (Object.prototype.hasOwnProperty.call(state.failureCounts, signature) ? state.failureCounts[signature]! : 0) + 1;
    }
    if (stop) continue;
    const lastResult = resultText(outcome.result.content);
    // A blocked call stops the run one repeat later than a failing one: the block at the limit told the model (repeated-block.ts).
    if (maxRepeatedFailures !== false && failures >= failureLimitFor(outcome.status, maxRepeatedFailures)) {
      const told = outcome.status === 'blocked' ? ', the last after the model was told it would stay blocked' : '';
      stop = {
        kind: 'loop_detected',
        pattern: 'repeated_failure',
        toolName: outcome.toolName,
        arguments: outcome.arguments,
        count: failures,
        limit: maxRepeatedFailures,
        lastResult,
        message: `${outcome.toolName} failed ${failures} times with the same arguments (limit ${maxRepeatedFailures}${told}); the ${scope} was stopped instead of letting the model retry it again.`,
      };
    } else if (maxIdenticalCalls !== false && calls >= maxIdenticalCalls) {
      stop = {
        kind: 'loop_detected',
        pattern: 'repeated_call',
        toolName: outcome.toolName,
        arguments: outcome.arguments,
        count: calls,
        limit: maxIdenticalCalls,
        lastResult,
        message: `${outcome.toolName} was called ${calls} times with the same arguments (limit ${maxIdenticalCalls}); the ${scope} was stopped as a loop.`,
      };
    }
  }
  return stop;
}

/**
 * How many identical failures stop the run for an outcome: one more than `maxRepeatedFailures` for a blocked call (the block
 * at the limit told the model the call will stay blocked, repeated-block.ts), `maxRepeatedFailures` for a call that ran and failed.
 */
export function failureLimitFor(status: string, maxRepeatedFailures: number): number {
  return status === 'blocked' ? maxRepeatedFailures + 1 : maxRepeatedFailures;
}
