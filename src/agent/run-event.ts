/**
 * The events of a run: written one per line to the run's JSONL record, and
 * passed to `onEvent` as they happen (the CLI prints from them).
 * @module
 */
import type { ModelResponse, ToolChoice } from '../protocol/model-exchange.js';
import type { Message } from '../protocol/messages.js';
import type { PolicyFlag, RemovedValue, TrustLabel } from '../policy/types.js';
import type { ToolFailureCode } from '../tools/tool-registry.js';
import type { ProgrammaticCaller, ToolEffect, ToolResult } from '../tools/types.js';
import type { ValidationIssue } from '../tools/validation-issues.js';
import type { ResolvedLimits } from './agent-limits.js';
import type { AgentStopReason, AgentUsage, PendingConfirmation, ToolCallStatus } from './agent-result.js';
import type { Decision } from './run-store.js';

/** An internal error, for the record only (never shown to the model). */
export interface RecordedError {
  name: string;
  message: string;
  stack?: string;
}

export type RunEvent =
  | {
      type: 'run_started';
      /** A run's model; an MCP session's record names its client instead (`mcp-client:<name>`, docs/mcp.md). */
      modelId: string;
      tools: string[];
      /** A run's: every limit, defaults applied. An MCP session's: only the limits a session enforces (`false`: the check is off). */
      limits: Partial<ResolvedLimits>;
      resumed: boolean;
      /** What `recordContext` returned; absent unless the caller chose to record part of the run's context. */
      context?: unknown;
    }
  | { type: 'routing'; step: number; categories: string[]; category: string | undefined; tools: string[]; note?: string }
  | {
      type: 'model_request';
      step: number;
      messages: Message[];
      tools: string[];
      toolChoice: ToolChoice;
      maxOutputTokens: number | undefined;
      estimatedInputTokens: number;
      /** The breaker's estimate of the input's cost in USD (cache reads and writes at their rates), when the model has a price. */
      estimatedInputCostUsd?: number;
    }
  | { type: 'model_response'; step: number; response: Omit<ModelResponse, 'raw'>; raw: unknown; costUsd: number; durationMs: number }
  | { type: 'model_error'; step: number; error: RecordedError; durationMs: number }
  | {
      type: 'tool_call';
      step: number;
      callKey: string;
      callId: string;
      toolName: string;
      arguments: unknown;
      argumentsText?: string;
      /** Set when the provider's code runner made the call (programmatic tool calling). */
      caller?: ProgrammaticCaller;
      /** The tool's declared effect, when the run has a tool of that name (the console shows it on the call's card). */
      effect?: ToolEffect;
    }
  | {
      type: 'tool_result';
      step: number;
      callKey: string;
      callId: string;
      toolName: string;
      arguments: unknown;
      status: ToolCallStatus;
      result: ToolResult;
      durationMs: number;
      truncated: boolean;
      failure?: { code: ToolFailureCode; retryable: boolean; error?: RecordedError };
      /** With a policy: how the result was labelled, and whether the model was sent its isolated form (`result` is what the model was sent). */
      trust?: TrustLabel;
      isolated?: boolean;
    }
  | {
      /** A policy's decision on a call: every block and confirmation, and allowed calls that raised flags. */
      type: 'policy_decision';
      step: number;
      callKey: string;
      callId: string;
      toolName: string;
      action: 'allow' | 'block' | 'confirm';
      /** The rule behind a block or confirmation. */
      ruleId?: string;
      reason?: string;
      flags: PolicyFlag[];
      /** Values the policy took out of the arguments before the call ran or was offered (`valuesFrom({ action: 'remove' })`). */
      removed?: RemovedValue[];
    }
  | { type: 'turn_limited'; step: number; limit: number; requested: number; notRun: string[] }
  | {
      /** A take-over got a different call at a key a dead process had begun a call under: that earlier call, and the key the new one runs under. */
      type: 'call_superseded';
      step: number;
      callKey: string;
      callId: string;
      toolName: string;
      /** `outcome_unknown` when it was still running, else its stored status. */
      status: ToolCallStatus;
      supersededBy: { callId: string; toolName: string; storeKey: string };
    }
  | { type: 'unexpected_stop'; step: number; finishReason: ModelResponse['stopReason']; providerStopReason?: string; toolCalls: number }
  | {
      /** With `output`: the final answer failed its schema; `repair`: the model was asked once more (else the run stops with `output_invalid`). */
      type: 'output_invalid';
      step: number;
      output: string;
      issues: ValidationIssue[];
      jsonError?: string;
      repair: boolean;
    }
  | { type: 'confirmation_requested'; step: number; pending: Omit<PendingConfirmation, 'token'>[] }
  | { type: 'confirmation_decided'; callKey: string; callId: string; toolName: string; decision: Decision | 'expired'; reason?: string }
  | {
      type: 'stop';
      status: 'completed' | 'awaiting_confirmation' | 'stopped';
      stopReason?: AgentStopReason;
      /** With `output`, on a completed run: the validated final answer. */
      output?: unknown;
      usage: AgentUsage;
      costUsd: number;
    };

/** A record line: the event plus when and in which run. */
export type RunRecordLine = RunEvent & { time: string; runId: string };
