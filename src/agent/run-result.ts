/**
 * A run's result, built from its state when the loop returns: the outcome (completed, awaiting confirmation, stopped)
 * with the transcript, steps, usage and cost, and the calls whose effect is unknown.
 * @module
 */
import type { ModelResponse } from '../protocol/model-exchange.js';
import type { AgentResult, AgentStopReason, PendingConfirmation } from './agent-result.js';
import type { RunState } from './run-state.js';

/** How a run ends, before the result adds what the state holds. */
export type RunEnding =
  | { status: 'completed'; text: string; finishReason: ModelResponse['stopReason']; output: unknown }
  | { status: 'awaiting_confirmation'; pending: PendingConfirmation[] }
  | { status: 'stopped'; stopReason: AgentStopReason };

/** `isRead` says whether a tool of the run only reads (a tool no longer here counts as one that may write). */
export function runResult(state: RunState, ending: RunEnding, isRead: (toolName: string) => boolean): AgentResult {
  const superseded = state.supersededCalls ?? [];
  // A superseded read left running changed nothing; a superseded write left running (or a tool no longer here) may have.
  const unknownSuperseded = superseded.filter((call) => call.status === 'outcome_unknown' && !isRead(call.toolName));
  const unknown = [...state.steps.flatMap((step) => step.toolCalls.filter((call) => call.status === 'outcome_unknown')), ...unknownSuperseded];
  return {
    ...ending,
    runId: state.runId,
    messages: state.messages,
    steps: state.steps,
    usage: { ...state.usage },
    costUsd: state.costUsd,
    recordPath: state.recordPath,
    ...(unknown.length > 0 ? { outcomeUnknown: unknown } : {}),
    ...(superseded.length > 0 ? { supersededCalls: superseded } : {}),
  };
}
