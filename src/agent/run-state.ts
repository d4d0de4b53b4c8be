/**
 * The serializable state of a run: everything needed to continue it in another
 * process, with the same model id and tools supplied again. It holds data only
 * (no functions), so a run survives a restart and a new version of the code.
 * @module
 */
import type { Message } from '../protocol/messages.js';
import type { PolicySnapshot } from '../policy/types.js';
import type { ToolFailureCode } from '../tools/tool-registry.js';
import type { ToolCallRequest, ToolResult } from '../tools/types.js';
import type { AgentLimits } from './agent-limits.js';
import type { AgentStep, AgentUsage, ToolCallOutcome } from './agent-result.js';

/** One call of a turn, resolved but not yet run. */
export interface TurnCall {
  /** `<step>.<index>`: unique in the run, unlike provider call ids. */
  callKey: string;
  callId: string;
  toolName: string;
  /** The call as the model sent it. */
  request: ToolCallRequest;
  /** `invalid`: it failed to resolve or validate (the result is ready); `run`: run it; `confirm`: run it once a person approves. */
  kind: 'invalid' | 'run' | 'confirm';
  /** The validated arguments (for `run`, `confirm` and blocked calls). */
  arguments?: unknown;
  /** For `invalid`: what the model is sent, and why. */
  invalidResult?: ToolResult;
  failureCode?: ToolFailureCode;
  /** For `invalid`: true when a policy blocked the call (it was valid). */
  blocked?: boolean;
  /** For `confirm`: the one-line summary shown to a person. */
  summary?: string;
  /** Set when the policy took values out of the arguments (`arguments` are then the rewritten ones): added to the call's result for the model. */
  policyNote?: string;
  /** Not run because an identical call of the same response (this callKey) stands for it; with `kind: 'invalid'`. */
  duplicateOf?: string;
  /** Not run, with `kind: 'invalid'`: past `maxToolCallsPerTurn`, or cut off with the response at its output limit. */
  notRun?: 'turn_limit' | 'truncated';
}

/** A turn waiting for confirmations. */
export interface PendingTurn {
  /** The step whose calls these are. */
  step: number;
  calls: TurnCall[];
}

export interface RunState {
  version: 1;
  runId: string;
  /** The id of the model the run started with. */
  modelId: string;
  messages: Message[];
  steps: AgentStep[];
  usage: AgentUsage;
  costUsd: number;
  /** Model calls in the loop so far (routing excluded), for `maxIterations`. */
  iterations: number;
  /** Whether routing was decided (run, skipped, or not needed). */
  routed: boolean;
  /** The tools routing chose; `undefined` when every tool is offered. */
  routedTools: { category: string; toolNames: string[] } | undefined;
  /** Failures per `tool + canonical arguments`, for the loop breaker. */
  failureCounts: Record<string, number>;
  /** Calls per `tool + canonical arguments`, for the loop breaker. */
  callCounts: Record<string, number>;
  /** The turn waiting for decisions, when the run is paused. */
  pendingTurn: PendingTurn | undefined;
  /** The limits the run was started with; a resume may override them. */
  limits: AgentLimits;
  /** Model settings reused on resume. */
  settings: { temperature?: number; seed?: number; cache?: 'auto'; cacheKey?: string; parallelToolCalls?: boolean };
  /** The caller's own data (the CLI keeps the model spec and tools module here). */
  meta: Record<string, unknown>;
  recordPath: string | undefined;
  /** The policy session's state (taint, call counts, isolation boundary), when the run has a policy. */
  policy?: PolicySnapshot;
  /** With `output`: repair turns asked for an invalid final answer (at most one per run). */
  outputRepairs?: number;
  /** Calls a dead process began under a key that a take-over gave to a different call (see `AgentResult.supersededCalls`). */
  supersededCalls?: ToolCallOutcome[];
  /** With toolwright's tool search: the tools its searches loaded, declared from the step after each search. */
  searchLoadedTools?: string[];
}
