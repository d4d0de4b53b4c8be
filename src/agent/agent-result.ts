/**
 * What a run returns: a union on `status`, always with the transcript, the
 * steps, the usage and cost, the run id and where its record was written.
 * @module
 */
import type { StopReason as ModelStopReason, TokenUsage } from '../protocol/model-exchange.js';
import type { Message } from '../protocol/messages.js';
import type { ToolFailureCode } from '../tools/tool-registry.js';
import type { ToolResult } from '../tools/types.js';
import type { ValidationIssue } from '../tools/validation-issues.js';
import type { JsonParseFailure } from '../shared/safe-json.js';
import type { BudgetStop } from './budget.js';

/** Totals over the run, routing included. */
export interface AgentUsage {
  inputTokens: number;
  outputTokens: number;
  /** Model calls made, the routing call included. */
  modelCalls: number;
  /** Tool calls run (validation failures and declined calls are not counted). */
  toolCalls: number;
  /** Active wall time in milliseconds (waiting for a confirmation is not counted). */
  wallTimeMs: number;
  /** Of `inputTokens`, those the provider reported read from its prompt cache; absent until a response reports some. */
  cacheReadTokens?: number;
  /** Of `inputTokens`, those the provider reported written to its prompt cache; absent until a response reports some. */
  cacheWriteTokens?: number;
}

/** How one tool call ended. */
/**
 * `blocked`: a policy (`guardToolCall`) refused it; `declined`/`expired`: a person refused it or nobody decided in time;
 * `not_run`: a budget or the per-turn cap was used up, the response was cut off while the call was written, or a stopped call it must not
 * overlap was still running;
 * `duplicate`: an identical call (same tool, same canonical arguments) earlier in the same response stands for it;
 * `outcome_unknown`: its process died while it ran, and its tool does not accept an idempotency key, so it was not started again; or, a write,
 * it was stopped (timeout, abort) and its tool was still running `stoppedCallGraceMs` later.
 */
export type ToolCallStatus = 'succeeded' | 'failed' | 'blocked' | 'declined' | 'expired' | 'not_run' | 'duplicate' | 'outcome_unknown';

/** One tool call of a step, as it ended. */
export interface ToolCallOutcome {
  /** The run-unique key of the call: `<step>.<index>`. */
  callKey: string;
  /** The provider's call id. */
  callId: string;
  toolName: string;
  /** The validated arguments, or the raw ones when validation failed. */
  arguments: unknown;
  status: ToolCallStatus;
  /** What the model was sent. */
  result: ToolResult;
  /** For failures: the registry's stable failure code. */
  failureCode?: ToolFailureCode;
  durationMs: number;
  /** True when the result was cut to the tool's size budget. */
  truncated: boolean;
  /** For `duplicate`: the call id of the identical call it repeats. */
  duplicateOf?: string;
  /** In `supersededCalls`: the call id of the call that took its key. */
  supersededBy?: string;
}

/** One model call and the tool calls it asked for. */
export interface AgentStep {
  /** Zero-based; the routing call, when there is one, is step 0. */
  index: number;
  kind: 'routing' | 'model';
  /** The model id the provider reported. */
  modelId: string;
  /** The assistant's text in this step. */
  text: string;
  finishReason: ModelStopReason;
  usage: TokenUsage;
  /** The input tokens estimated before the call (what the budget checked). */
  estimatedInputTokens: number;
  costUsd: number;
  toolCalls: ToolCallOutcome[];
  /** Set when the response asked for more distinct calls than `maxToolCallsPerTurn`: the cap, and how many distinct calls it asked for. */
  turnLimit?: {
    limit: number;
    requested: number;
  }; /** The breaker's estimate of the input's cost in USD before the call (cache reads and writes at their rates), when the model has a price. */
  estimatedInputCostUsd?: number;
}

/** A call waiting for a person's decision. */
export interface PendingConfirmation {
  /** Short id for `toolwright approvals approve <id>`. */
  approvalId: string;
  runId: string;
  callKey: string;
  callId: string;
  toolName: string;
  arguments: unknown;
  /** A one-line description for a person (the tool's `summarize`, else name and arguments). */
  summary: string;
  /** Pass it back in a decision; bound to this run, call, tool and arguments, single use. */
  token: string;
  /** ISO time after which the token is refused and the call counts as declined. */
  expiresAt: string;
}

/** Why a run stopped before the model finished. */
export type AgentStopReason =
  | { kind: 'max_iterations'; limit: number; message: string }
  | BudgetStop
  | {
      kind: 'loop_detected';
      /** `repeated_failure`: the same call kept failing; `repeated_call`: the same call kept being made. */
      pattern: 'repeated_failure' | 'repeated_call';
      toolName: string;
      arguments: unknown;
      count: number;
      limit: number;
      /** The last result text the model saw for that call. */
      lastResult: string;
      message: string;
    }
  | UnexpectedModelStop
  | OutputInvalidStop
  | { kind: 'aborted'; message: string }
  | { kind: 'model_error'; message: string; /** The thrown value's `code` or `name`. */ errorCode: string };

/**
 * The model's answer ended for a reason other than finishing or asking for tools:
 * `model_output_truncated` (`max_tokens`: the output cap or the context window, with no call to run),
 * `content_filtered` (the provider's filter), `model_refused` (the model declined),
 * `model_stop_unexpected` (any other reason, such as Anthropic's `pause_turn`).
 */
export interface UnexpectedModelStop {
  kind: 'model_output_truncated' | 'content_filtered' | 'model_refused' | 'model_stop_unexpected';
  /** The neutral finish reason of the answer. */
  finishReason: ModelStopReason;
  /** The provider's own value (`length`, `refusal`, `pause_turn`, `incomplete: max_output_tokens`…), when it sent one. */
  providerStopReason?: string;
  /** The answer's text as far as it went (for a refusal, the refusal). */
  text: string;
  message: string;
}

/**
 * With `output`: the model's final answer failed the output schema twice (the first failure got one repair turn,
 * whose message listed the problems). `issues` are the last answer's; `jsonError` is set when it was not JSON at all.
 */
export interface OutputInvalidStop {
  kind: 'output_invalid';
  /** The output's name. */
  output: string;
  issues: ValidationIssue[];
  jsonError?: JsonParseFailure;
  /** The last answer's text. */
  text: string;
  message: string;
}

interface AgentResultBase {
  runId: string;
  /** The transcript: every message sent and received, tool results included. */
  messages: Message[];
  steps: AgentStep[];
  usage: AgentUsage;
  /** Priced from the price table; 0 for a model without a price. */
  costUsd: number;
  /** The JSONL record of the run, or `undefined` when recording is off. */
  recordPath: string | undefined;
  /**
   * Present when some write of the run may or may not have taken effect: its process died while running it, and its tool
   * does not accept an idempotency key, so it was not started again (status `outcome_unknown`; the model was told too).
   * Check those effects before relying on the result.
   */
  outcomeUnknown?: ToolCallOutcome[];
  /**
   * Present when a take-over asked the model again for a turn whose calls a dead process had begun, and the model asked
   * for different calls: each call the dead process began under a key that a different call (another tool, or other
   * arguments) now holds. It is not in `steps` or the transcript. A finished one has its stored outcome (a `succeeded`
   * write took effect); one still running when its process died is `outcome_unknown` (its arguments are not stored), and a
   * write among those is in `outcomeUnknown` too. `supersededBy` names the call that replaced it, which ran on its own.
   */
  supersededCalls?: ToolCallOutcome[];
}

export interface CompletedAgentResult<Output = unknown> extends AgentResultBase {
  status: 'completed';
  /** The final assistant text (with `output`, the answer's JSON text). */
  text: string;
  /** The model's reason for its last answer. */
  finishReason: ModelStopReason;
  /** With `output`: the final answer, validated against its schema (for a Zod schema, Zod's parsed value); `undefined` without. */
  output: Output;
}

export interface AwaitingConfirmationResult extends AgentResultBase {
  status: 'awaiting_confirmation';
  /** Every call of the turn that needs a decision; the turn runs once all are decided (see `resumeAgent`). */
  pending: PendingConfirmation[];
}

export interface StoppedAgentResult extends AgentResultBase {
  status: 'stopped';
  stopReason: AgentStopReason;
}

/** `Output`: the type of `output` on a completed result (see `runAgent`'s `output` option). */
export type AgentResult<Output = unknown> = CompletedAgentResult<Output> | AwaitingConfirmationResult | StoppedAgentResult;
