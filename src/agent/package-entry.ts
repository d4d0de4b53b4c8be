/**
 * The package entry `toolwright/agent`: the agent's parts beyond starting and resuming a run
 * (those, with their options and results, are in the root entry): approving from elsewhere,
 * toolwright's guards inside another loop, plan-then-execute, serving a stream as server-sent
 * events, the run's events and record, budgets and prices, routing, and the run state.
 * Any new export added here becomes public API and changes the count pinned in
 * test/architecture/entry-counts.test.ts. Use named exports, not wildcards.
 * @module
 */
// Approving a paused run from another process (docs/agent.md, "Confirmations").
export { decideConfirmation, listPendingConfirmations } from './index.js';
export type { DecideOptions } from './index.js';
// The per-call guards for another loop (docs/interop.md).
export { createToolGuards } from './index.js';
export type {
  GuardDecision,
  GuardedCall,
  GuardedRunOptions,
  GuardUsage,
  ToolCallCheck,
  ToolCallGuard,
  ToolCallVerdict,
  ToolGuardLimits,
  ToolGuards,
  ToolGuardsOptions,
  ToolGuardsStop,
} from './index.js';
// Plan-then-execute: a planner that never reads tool output, holes filled by a quarantined extractor.
export { HOLE_KINDS, HOLE_KIND_SCHEMAS, planSchemaFor, planThenExecute } from './index.js';
export type {
  ExecutionPlan,
  ExtractionRequest,
  HoleKind,
  PlanConfirmation,
  PlanConfirmer,
  PlanHole,
  PlannedCall,
  PlannedCallOutcome,
  PlanThenExecuteOptions,
  PlanThenExecuteResult,
  PlanThenExecuteUsage,
} from './index.js';
// Streaming: the events between the run's own, and a stream served as server-sent events.
export { toEventStreamResponse } from './index.js';
export type { AgentDeltaEvent, EventStreamResponseOptions, RedactStreamOptions, StreamedRunEvent, ToolProgressReport } from './index.js';
// The run's events and its record.
export { defaultRunsDir, defaultStatePath, readRunRecord } from './index.js';
export type { RecordedError, RunEvent, RunRecordLine, ToolCallOutcome, ToolCallStatus } from './index.js';
// Limits, budgets and prices.
export { DEFAULT_LIMITS, DEFAULT_PRICES } from './index.js';
export type { BudgetLimit, BudgetStop, CallPlan, ModelPrice, OutputInvalidStop, PriceTable, ResolvedLimits, UnexpectedModelStop } from './index.js';
// Routing many tools, the run's options beyond the model and tools, and the serializable run state.
export type { AgentRuntimeOptions, ContextRequirement, PendingTurn, RoutingCategory, RoutingOptions, RunState, ToolChoicePolicy, TurnCall } from './index.js';
// Tool search (`runAgent({ toolSearch })`).
export { DEFAULT_TOOL_SEARCH_RESULTS, TOOL_SEARCH_TOOL } from './index.js';
export type { ToolSearchOptions } from './index.js';
