/**
 * What the agent loop is given by `runAgent`, `resumeAgent` and `streamAgent`: the model, the tools, the limits, the
 * run's store, policy seam, record and telemetry, and, for a streamed run, where its pieces go.
 * @module
 */
import type { Model } from '../models/types.js';
import type { StopReason, ToolChoice } from '../protocol/model-exchange.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { OutputDefinition } from '../tools/define-output.js';
import type { CallOptions, ToolRegistry } from '../tools/tool-registry.js';
import type { ToolCallApproval } from '../tools/types.js';
import type { ResolvedLimits } from './agent-limits.js';
import type { AgentTelemetry } from './agent-telemetry.js';
import type { CallPolicy } from './calls/call-policy.js';
import type { ModelDelta } from './streaming/fold-model-stream.js';
import type { ModelPrice } from './price-table.js';
import type { Redactor } from './redact.js';
import type { RoutingOptions } from './route-tools.js';
import type { ResolvedToolSearch } from './tool-search.js';
import type { RunEvent } from './run-event.js';
import type { RunRecorder } from './run-recorder.js';
import type { Decision, RunStore } from './run-store.js';

/** A decision as the loop applies it to a pending call. */
export type AppliedDecision = { decision: Decision; reason?: string } | { decision: 'expired' };

export interface LoopEnvironment {
  model: Model;
  /** Every tool of the run (routing narrows it). */
  registry: ToolRegistry;
  limits: ResolvedLimits;
  price: ModelPrice | undefined;
  routing: RoutingOptions | false | undefined;
  /** Returns the run store, opening the default one on first use. */
  store: () => Promise<RunStore>;
  /** The one seam consulted about each valid call before it runs (policy, guard, the tool's own rule) and about each result. */
  callPolicy: CallPolicy;
  /** Whether this run is in the store, so that calls are marked there for exactly-once execution. */
  persisted: boolean;
  recorder: RunRecorder;
  /** The run's redactor (its tools' schemas included): for what a person or a log sees, and for confirmations before they are stored. */
  redactor: Redactor;
  telemetry: AgentTelemetry;
  agentName: string;
  signal: AbortSignal | undefined;
  onEvent: ((event: RunEvent & { runId: string }) => void) | undefined;
  now: () => number;
  /** The tool choice for each model call of the loop (routing calls force their own). */
  toolChoice: ToolChoicePolicy | undefined;
  /** Finish reasons besides `end_turn` that complete a run when the answer has no tool call (e.g. `max_tokens`). */
  acceptFinishReasons: readonly StopReason[];
  /** The caller's run context: handed to each tool as it is; never put in the state, the record or a model request. */
  context: unknown;
  /** What the caller's `recordContext` chose to record, written in `run_started`; absent: nothing of the context is recorded. */
  recordedContext?: unknown;
  /** The schema the final answer must follow (`runAgent({ output })`), or `undefined` for a text answer. */
  output?: OutputDefinition | undefined;
  /** Set by `streamAgent`: every model call is then made with `model.stream`, and its pieces and the tools' progress are handed over as they come. */
  stream?: LoopStreamSink;
  /** How the run searches its tools (`runAgent({ toolSearch })`); routing is then off. */
  toolSearch?: ResolvedToolSearch | undefined;
}

/** Where a streamed run's pieces go; the events of the record still go through `onEvent`. */
export interface LoopStreamSink {
  /**
   * A piece of the model call of `step` (a routing call is streamed too, but its pieces are not handed over). A promise
   * returned means the reader is behind: the model's stream is read on once it settles.
   */
  modelDelta(step: number, delta: ModelDelta): void | Promise<void>;
  /** A running tool's progress report (`ToolContext.reportProgress`). */
  toolProgress(report: ToolProgressReport): void;
}

/** One progress report of a running tool call. */
export interface ToolProgressReport {
  step: number;
  callKey: string;
  callId: string;
  toolName: string;
  progress: number;
  total?: number;
  message?: string;
}

/** A fixed tool choice, or one decided per model call from the iteration (zero-based) and the tools offered. */
export type ToolChoicePolicy = ToolChoice | ((context: { iteration: number; tools: readonly AnyTool[] }) => ToolChoice);

/**
 * The registry's options for one call of a run: the run's signal, its tool timeout where the tool has none, the call's
 * idempotency key and approval, the context, and progress when the run streams.
 */
export function runCallOptions(
  env: Pick<LoopEnvironment, 'limits' | 'stream' | 'context'>,
  runSignal: AbortSignal | undefined,
  call: Pick<ToolProgressReport, 'step' | 'callKey' | 'callId'> & { tool: AnyTool; idempotencyKey: string; approval: ToolCallApproval | undefined },
): CallOptions {
  const { limits, stream, context } = env;
  const { tool, idempotencyKey, approval, step, callKey, callId } = call;
  return {
    ...(runSignal ? { signal: runSignal } : {}),
    ...(tool.timeoutMs === undefined && limits.toolTimeoutMs !== undefined ? { timeoutMs: limits.toolTimeoutMs } : {}),
    idempotencyKey,
    ...(approval ? { approval } : {}),
    context,
    ...(stream ? { onProgress: progressReporter(stream, runSignal, { step, callKey, callId, toolName: tool.name }) } : {}),
  };
}

/** The progress listener a streamed run hands a tool: reports go to the sink until the run stops, and a failing sink never fails the call. */
export function progressReporter(
  sink: LoopStreamSink,
  runSignal: AbortSignal | undefined,
  call: Pick<ToolProgressReport, 'step' | 'callKey' | 'callId' | 'toolName'>,
): (progress: number, total?: number, message?: string) => void {
  return (progress, total, message) => {
    // A tool may keep reporting after the run was aborted; a stopped stream gets nothing more.
    if (runSignal?.aborted) return;
    const report: ToolProgressReport = { ...call, progress };
    if (total !== undefined) report.total = total;
    if (message !== undefined) report.message = message;
    try {
      sink.toolProgress(report);
    } catch {
      // Progress is for display; it never fails the call.
    }
  };
}
