/**
 * The agent runtime: a guarded tool-calling loop with budgets, a loop breaker,
 * effect-aware scheduling, durable confirmations, routing, a JSONL record and
 * OpenTelemetry spans.
 * Internal barrel, not a package entry point (see package.json `exports`): what users can import is
 * chosen name by name in src/index.ts or a subpath entry. Use named exports, not wildcards.
 * @module
 */
export { runAgent, newRunId } from './run-agent.js';
export type { AgentRuntimeOptions, ContextRequirement, RunAgentOptions } from './run-agent.js';
export { resumeAgentStream, streamAgent } from './streaming/stream-agent.js';
export type { AgentStream } from './streaming/stream-agent.js';
export type { AgentDeltaEvent, AgentStreamEvent, StreamedRunEvent } from './streaming/stream-event.js';
export type { ToolProgressReport } from './loop-environment.js';
export { redactAgentStream } from './streaming/stream-redaction.js';
export type { RedactStreamOptions } from './streaming/stream-redaction.js';
export { toEventStreamResponse } from './streaming/stream-response.js';
export type { EventStreamResponseOptions } from './streaming/stream-response.js';
export type { ToolChoicePolicy } from './loop-environment.js';
export { DEFAULT_LEASE_MS, resumeAgent, decideConfirmation, listPendingConfirmations } from './resume-agent.js';
export type { ConfirmationDecision, DecideOptions, ResumeAgentOptions } from './resume-agent.js';
export { DEFAULT_LIMITS, resolveLimits } from './agent-limits.js';
export type { AgentLimits, ResolvedLimits } from './agent-limits.js';
export type {
  AgentResult,
  AgentStep,
  AgentStopReason,
  AgentUsage,
  AwaitingConfirmationResult,
  CompletedAgentResult,
  OutputInvalidStop,
  PendingConfirmation,
  StoppedAgentResult,
  ToolCallOutcome,
  ToolCallStatus,
  UnexpectedModelStop,
} from './agent-result.js';
export type { BudgetLimit, BudgetStop } from './budget.js';
export { DEFAULT_PRICES, costOf, findPrice } from './price-table.js';
export type { ModelPrice, PriceTable } from './price-table.js';
export {
  ConfirmationRefusedError,
  InvalidRunIdError,
  RunLeasedError,
  RunNotFoundError,
  RunNotResumableError,
  RunStoreError,
  RunStoreUnavailableError,
} from './agent-errors.js';
export type { ConfirmationRefusal } from './agent-errors.js';
export { createConfirmationToken, readConfirmationToken, verifyConfirmationToken } from './confirmation-token.js';
export type { ConfirmationBinding, ConfirmationClaims } from './confirmation-token.js';
export { canonicalJson } from '../shared/canonical-json.js';
export { createMemoryRunStore, processRunStore } from './memory-run-store.js';
export { openSqliteRunStore } from './sqlite-run-store.js';
export { planThenExecute } from './plan-then-execute/plan-then-execute.js';
export type { PlanThenExecuteOptions, PlanThenExecuteResult, PlanThenExecuteUsage, PlannedCallOutcome } from './plan-then-execute/plan-then-execute.js';
export { planSchemaFor, DEFAULT_MAX_PLANNED_CALLS, HOLE_KINDS, HOLE_KIND_SCHEMAS } from './plan-then-execute/execution-plan.js';
export type { ExecutionPlan, HoleKind, PlanHole, PlannedCall } from './plan-then-execute/execution-plan.js';
export type { ExtractionRequest, PlanConfirmation, PlanConfirmer } from './plan-then-execute/execute-plan.js';
export type { SqliteRunStoreOptions } from './sqlite-run-store.js';
export type {
  ClaimOptions,
  ClaimResult,
  Decision,
  RunLease,
  RunStatus,
  RunStore,
  StoredCall,
  StoredConfirmation,
  StoredOutcome,
  StoredRun,
  CallClaim,
} from './run-store.js';
export type { LeaseFence } from './run-store.js';
export type { PendingTurn, RunState, TurnCall } from './run-state.js';
export { DEFAULT_ROUTING_THRESHOLD, SELECT_CATEGORY_TOOL } from './route-tools.js';
export type { RoutingCategory, RoutingOptions } from './route-tools.js';
export { DEFAULT_TOOL_SEARCH_RESULTS, TOOL_SEARCH_TOOL } from './tool-search.js';
export type { ToolSearchOptions } from './tool-search.js';
export { RunRecorder, readRunRecord, parseRunSummary, MAX_SUMMARY_BYTES } from './run-recorder.js';
export type { RunRecordSummary } from './run-recorder.js';
export type { RecordedError, RunEvent, RunRecordLine } from './run-event.js';
export { DEFAULT_REDACTION_PATTERNS, REDACTED, createRedactor, restoreRedacted, runRedactor } from './redact.js';
export type { RedactedOriginal, Redactor, RedactorOptions } from './redact.js';
export { sealRunStore } from './sealed-run-store.js';
export { defaultRunsDir, defaultStatePath, toolwrightHome } from './toolwright-home.js';
export type { ToolCallCheck, ToolCallGuard, ToolCallVerdict } from './calls/call-policy.js';
export { createToolGuards } from './tool-guards.js';
export type {
  GuardDecision,
  GuardedCall,
  GuardedRunOptions,
  GuardUsage,
  ToolGuardLimits,
  ToolGuards,
  ToolGuardsOptions,
  ToolGuardsStop,
} from './tool-guards.js';
export type { CallPlan } from './budget.js';
