/**
 * The plan-then-execute strategy as a run of its own, beside `runAgent`: a
 * privileged planner sees the system prompt, the user's request and the
 * tools' signatures, never a tool's output, and fixes the calls; a
 * quarantined extractor fills the plan's typed holes from the outputs each
 * hole names, under the hole's JSON Schema; the calls run in order under the
 * policy (told which arguments are holes), the tools' own confirmation rules
 * and the caller's confirmer. Text a tool returns can therefore change the
 * value of a hole, never which calls run or what a pinned argument says.
 *
 * What it does not do, unlike `runAgent`: no run store (a run cannot pause
 * on a confirmation and resume in another process; confirmations are
 * answered in-process by `confirm`), no budgets beyond the plan's call cap,
 * no record file (events go to `onEvent`), and no replanning: a call that
 * fails or is declined is reported and the plan carries on.
 * @module
 */
import { randomHex } from '../../shared/bytes.js';
import type { Model } from '../../models/types.js';
import type { Policy } from '../../policy/types.js';
import { InvalidArgumentError, MissingPeerError } from '../../shared/errors.js';
import type { AnyTool } from '../../tools/define-tool.js';
import { StoppedCalls } from '../../tools/stopped-calls.js';
import { ToolRegistry, silentLogger, type ToolLogger } from '../../tools/tool-registry.js';
import type { ToolResult } from '../../tools/types.js';
import { runRedactor } from '../redact.js';
import type { ToolCallGuard } from '../calls/call-policy.js';
import type { RunEvent } from '../run-event.js';
import { DEFAULT_MAX_PLANNED_CALLS, type ExecutionPlan } from './execution-plan.js';
import { executePlan, type PlanConfirmer } from './execute-plan.js';
import { modelExtractor, planWithModel, type ModelPlannerOptions, type PlannerUsage } from './model-planner.js';

export interface PlanThenExecuteOptions {
  /** The privileged planner: asked once, for the whole plan, under `PLAN_SCHEMA` (structured output; the token mask on a local model). */
  planner: Model;
  /** The quarantined extractor: asked once per hole, with only the outputs the hole names. Default: the planner's model, in a fresh conversation. */
  extractor?: Model;
  tools: ToolRegistry | readonly AnyTool[];
  /** The user's request. The planner reads it; it is also trusted text for the policy's provenance rules. */
  prompt: string;
  /** Instructions for the planner, before its own; trusted text for the policy. */
  system?: string;
  /** Checked at every call, told which arguments are holes (the only ones a tool's output can reach). */
  policy?: Policy;
  /**
   * The caller's hook, consulted after the policy for every planned call that validated, as `runAgent({ guardToolCall })`:
   * `block` keeps the call from running (its result says so), `confirm` asks `confirm` first. It is shown the user's request
   * as the conversation.
   */
  guardToolCall?: ToolCallGuard;
  /** Answers confirmations (the policy's, or a tool's own `confirm` rule). Default: every confirmation is declined. */
  confirm?: PlanConfirmer;
  /** The most calls a plan may make; a longer plan is refused before anything runs. Default 20. */
  maxCalls?: number;
  /**
   * How long a planned call that was stopped (its tool's `timeoutMs`, or `signal`) but whose tool ignores the stop may go
   * on before it counts as still running, in ms (the agent loop's `limits.stoppedCallGraceMs`). The next call waits for it
   * until then; past it a write is `outcome_unknown`, and the later calls it must not overlap are `not_run`. Default 5000.
   */
  stoppedCallGraceMs?: number;
  /** Extra patterns redacted from the summaries a person is shown (the built-in secret patterns and the tools' `secret` arguments always are). */
  redact?: readonly (RegExp | string)[];
  /** Where the tool registry logs, when `tools` is an array (default: silent). */
  logger?: ToolLogger;
  /** Receives the run's `tool_call`, `policy_decision` and `tool_result` events as they happen. */
  onEvent?: (event: RunEvent) => void;
  signal?: AbortSignal;
  seed?: number;
  temperature?: number;
}

/** One planned call as it ended. */
export interface PlannedCallOutcome {
  tool: string;
  /** The arguments it ran (or would have run) with, holes filled. */
  arguments: unknown;
  /**
   * `declined`: a person (or the default confirmer) said no; `blocked`: the policy refused it; `failed`: a hole could not be filled,
   * the arguments were invalid, or the tool failed; `outcome_unknown`: a write stopped (timeout, abort) whose tool was still
   * running `stoppedCallGraceMs` later; `not_run`: such a stopped call was still running, and this call must not run beside it.
   */
  status: 'succeeded' | 'failed' | 'blocked' | 'declined' | 'not_run' | 'outcome_unknown';
  result: ToolResult;
}

export interface PlanThenExecuteUsage {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  toolCalls: number;
  wallTimeMs: number;
}

export type PlanThenExecuteResult =
  | {
      status: 'completed';
      /** The plan's answer template with its holes filled (a hole that could not be filled reads `(unknown)`). */
      answer: string;
      plan: ExecutionPlan;
      calls: PlannedCallOutcome[];
      confirmations: { requested: number; approved: number; denied: number };
      usage: PlanThenExecuteUsage;
    }
  | {
      /** The planner gave no usable plan; nothing ran. */
      status: 'plan_rejected';
      /** What was wrong with the plan (or the planner's error), for a log or a retry. */
      message: string;
      usage: PlanThenExecuteUsage;
    };

/**
 * Plans with `planner`, then runs the plan with holes filled by `extractor`.
 * Throws `InvalidArgumentError` for bad options, and the abort reason when `signal` aborts; a planner that answers with an
 * unusable plan gives `status: 'plan_rejected'`.
 */
export async function planThenExecute(options: PlanThenExecuteOptions): Promise<PlanThenExecuteResult> {
  checkOptions(options);
  // Made before the planner is asked, so a grace period a timer cannot hold is refused before anything is spent.
  const stoppedCalls = new StoppedCalls(options.stoppedCallGraceMs);
  const started = performance.now();
  const registry = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools, { logger: options.logger ?? silentLogger });
  const redactor = runRedactor({ redact: options.redact, tools: registry });
  const usage: PlannerUsage = { modelCalls: 0, inputTokens: 0, outputTokens: 0 };
  const settings = (model: Model): ModelPlannerOptions => ({
    model,
    ...(options.maxCalls !== undefined ? { maxCalls: options.maxCalls } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const totals = (toolCalls: number): PlanThenExecuteUsage => ({ ...usage, toolCalls, wallTimeMs: Math.round(performance.now() - started) });
  const system = options.system ?? '';

  let plan: ExecutionPlan;
  try {
    plan = await planWithModel(settings(options.planner), { system, prompt: options.prompt, tools: registry.list() }, usage);
  } catch (error) {
    options.signal?.throwIfAborted();
    // A provider SDK that is not installed is the developer's to fix, not a bad plan: rejected as runAgent rejects, before any call ran.
    if (MissingPeerError.isInstance(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'plan_rejected', message: redactor.text(message), usage: totals(0) };
  }

  const session = options.policy?.startRun({
    trustedTexts: system ? [system, options.prompt] : [options.prompt],
    systemTexts: system ? [system] : [],
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });
  const calls: PlannedCallOutcome[] = [];
  const run = await executePlan({
    plan,
    registry,
    session,
    extract: modelExtractor(settings(options.extractor ?? options.planner), usage),
    confirm: options.confirm ?? (() => false),
    redactor,
    stoppedCalls,
    ...(options.guardToolCall ? { guardToolCall: options.guardToolCall } : {}),
    runId: `plan_${randomHex(5)}`,
    messages: [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user', content: options.prompt }],
    onEvent: (event) => {
      // executePlan ends a call only in these six ways (no expiry or duplicate: nothing is stored or resumed, and calls are planned).
      if (event.type === 'tool_result')
        calls.push({ tool: event.toolName, arguments: event.arguments, status: event.status as PlannedCallOutcome['status'], result: event.result });
      options.onEvent?.(event);
    },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { status: 'completed', answer: run.answer, plan, calls, confirmations: run.confirmations, usage: totals(run.toolCalls) };
}

function checkOptions(options: PlanThenExecuteOptions): void {
  const fail = (problem: string): never => {
    throw new InvalidArgumentError(`planThenExecute: ${problem}`);
  };
  if (typeof options !== 'object' || options === null) fail('pass an options object: { planner, tools, prompt }.');
  if (!isModel(options.planner)) fail('`planner` must be a model (createModel("openai:…"), a local model, …).');
  if (options.extractor !== undefined && !isModel(options.extractor)) fail('`extractor` must be a model, or left out to use the planner.');
  if (typeof options.prompt !== 'string' || options.prompt.trim() === '') fail("`prompt` must be the user's request, a non-empty string.");
  if (options.system !== undefined && typeof options.system !== 'string') fail('`system` must be a string.');
  if (!(options.tools instanceof ToolRegistry) && !Array.isArray(options.tools)) fail('`tools` must be an array of tools or a ToolRegistry.');
  if (options.maxCalls !== undefined && (!Number.isInteger(options.maxCalls) || options.maxCalls < 1 || options.maxCalls > 1000))
    fail(`\`maxCalls\` must be an integer from 1 to 1000 (default ${DEFAULT_MAX_PLANNED_CALLS}).`);
  if (options.confirm !== undefined && typeof options.confirm !== 'function') fail('`confirm` must be a function that returns true to run the call.');
  if (options.guardToolCall !== undefined && typeof options.guardToolCall !== 'function') fail('`guardToolCall` must be a function that returns a verdict.');
  options.signal?.throwIfAborted();
}

function isModel(value: unknown): value is Model {
  return typeof value === 'object' && value !== null && typeof (value as Model).generate === 'function';
}
