/**
 * What a run returns: a union on `status`, always with the transcript, the
 * steps, the usage and cost, the run id and where its record was written.
 * @module
 */
import type { Message, StopReason as ModelStopReason, TokenUsage } from '../models/types.js';
import type { ToolFailureCode } from '../tools/tool-registry.js';
import type { ToolResult } from '../tools/types.js';
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
}

/** How one tool call ended. */
/** `blocked`: a policy (`guardToolCall`) refused it; `declined`/`expired`: a person refused it or nobody decided in time; `not_run`: a budget was used up; `outcome_unknown`: its process died while it ran. */
export type ToolCallStatus = 'succeeded' | 'failed' | 'blocked' | 'declined' | 'expired' | 'not_run' | 'outcome_unknown';

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
  | { kind: 'aborted'; message: string }
  | { kind: 'model_error'; message: string; /** The thrown value's `code` or `name`. */ errorCode: string };

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
}

export interface CompletedAgentResult extends AgentResultBase {
  status: 'completed';
  /** The final assistant text. */
  text: string;
  /** The model's reason for its last answer. */
  finishReason: ModelStopReason;
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

export type AgentResult = CompletedAgentResult | AwaitingConfirmationResult | StoppedAgentResult;
