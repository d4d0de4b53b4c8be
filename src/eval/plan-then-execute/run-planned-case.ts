/**
 * One case under the `plan-then-execute` strategy: the planner fixes the
 * calls from the user's request and the tool signatures, the plan runs under
 * the user task's policy with holes filled by the quarantined extractor, and
 * the result has the agent loop's shape, so the case is recorded and scored
 * like any other. The built-in simulators plan and extract from the task's
 * reference (`scripted-plan.ts`); a real model plans and extracts through
 * structured output (`model-planner.ts`).
 * @module
 */
import type { CompletedAgentResult, StoppedAgentResult } from '../../agent/agent-result.js';
import type { RunEvent } from '../../agent/run-event.js';
import type { Model } from '../../models/types.js';
import type { Policy } from '../../policy/types.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { AnyEvalSuite, InjectionTask, UserTask } from '../suite-types.js';
import type { ExecutionPlan } from '../../agent/plan-then-execute/execution-plan.js';
import { executePlan, type Extractor } from '../../agent/plan-then-execute/execute-plan.js';
import { modelExtractor, planWithModel, type PlannerUsage } from '../../agent/plan-then-execute/model-planner.js';
import { scriptedPlanner } from './scripted-plan.js';
import { simulatorObeys } from '../simulated-models.js';

export interface RunPlannedCaseOptions {
  runId: string;
  suite: AnyEvalSuite;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the state type is the suite's own.
  userTask: UserTask<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the state type is the suite's own.
  injectionTask: InjectionTask<any> | undefined;
  pre: unknown;
  model: Model;
  registry: ToolRegistry;
  policy: Policy | undefined;
  seed: number | undefined;
  temperature: number | undefined;
  confirmations: 'deny' | 'approve';
  onEvent: (event: RunEvent) => void;
  signal?: AbortSignal;
}

export interface PlannedCaseResult {
  result: CompletedAgentResult | StoppedAgentResult;
  confirmations: { requested: number; approved: number; denied: number };
}

export async function runPlannedCase(options: RunPlannedCaseOptions): Promise<PlannedCaseResult> {
  const started = performance.now();
  const usage: PlannerUsage = { modelCalls: 0, inputTokens: 0, outputTokens: 0 };
  const tools = options.registry.list();
  let plan: ExecutionPlan;
  let extract: Extractor;
  let scripted: { readonly extractions: number } | undefined;
  const confirmations = { requested: 0, approved: 0, denied: 0 };
  const base = { runId: options.runId, messages: [], steps: [], costUsd: 0, recordPath: undefined };
  const totals = (toolCalls: number) => ({
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    modelCalls: usage.modelCalls + (scripted ? 1 + scripted.extractions : 0),
    toolCalls,
    wallTimeMs: Math.round(performance.now() - started),
  });
  try {
    if (options.model.provider === 'sim') {
      if (options.model.id === 'sim:idle') {
        plan = { calls: [], holes: [], answer: 'I am not able to help with that.' };
        extract = () => Promise.reject(new Error('no holes'));
        scripted = { extractions: 0 };
      } else {
        const planner = scriptedPlanner({
          userTask: options.userTask,
          injectionTask: options.injectionTask,
          pre: options.pre,
          gullible: simulatorObeys(options.model.id, options.userTask.id),
        });
        plan = planner.plan;
        extract = planner.extractor;
        scripted = planner;
      }
    } else {
      const settings = {
        model: options.model,
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      };
      plan = await planWithModel(settings, { system: options.suite.systemPrompt, prompt: options.userTask.prompt, tools }, usage);
      extract = modelExtractor(settings, usage);
    }
  } catch (error) {
    const message = `The planner gave no usable plan: ${error instanceof Error ? error.message : String(error)}`;
    return {
      result: { ...base, status: 'stopped', stopReason: { kind: 'model_error', message, errorCode: 'plan_unusable' }, usage: totals(0) },
      confirmations,
    };
  }
  const session = options.policy?.startRun({
    runId: options.runId,
    trustedTexts: [options.suite.systemPrompt, options.userTask.prompt],
    systemTexts: [options.suite.systemPrompt],
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });
  const run = await executePlan({
    plan,
    registry: options.registry,
    session,
    extract,
    confirm: () => options.confirmations === 'approve',
    onEvent: options.onEvent,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return {
    result: { ...base, status: 'completed', text: run.answer, finishReason: 'end_turn', output: undefined, usage: totals(run.toolCalls) },
    confirmations: run.confirmations,
  };
}
