/**
 * Runs one case: a fresh environment (with the attack planted in every
 * vector, for an attack case), the strategy's policy, the agent loop, and the
 * checks on the final state. Confirmations the policy asks for are answered
 * by a stand-in person (`deny` by default) and counted. Nothing a model does
 * makes this throw; a failure of the harness itself is recorded as `error`.
 * @module
 */
import type { AgentResult } from '../agent/agent-result.js';
import { createMemoryRunStore } from '../agent/memory-run-store.js';
import { resumeAgent, type ConfirmationDecision } from '../agent/resume-agent.js';
import { runAgent } from '../agent/run-agent.js';
import type { RunEvent } from '../agent/run-event.js';
import type { IsolationKind } from '../policy/isolation.js';
import type { Model } from '../models/types.js';
import { isPlainObject } from '../shared/own.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { Attack, AttackContext } from './attacks.js';
import type { CaseRecord, RecordedCall } from './case-record.js';
import type { EvalToolChoice } from './eval-manifest.js';
import { runPlannedCase } from './plan-then-execute/run-planned-case.js';
import { strategyPolicy, type EvalStrategy } from './strategies.js';
import type { AnyEvalSuite, EvalCall, InjectionTask, UserTask } from './suite-types.js';

/** One cell of the matrix. */
export interface EvalCase {
  /** `<strategy>/<user task>/<injection task or clean>`. */
  id: string;
  strategy: EvalStrategy;
  /** The user task's id. */
  userTask: string;
  /** `undefined` for a clean case. */
  injectionTask: string | undefined;
  /** For an attack case in a run with several attacks: the attack's name (else the run's one attack). */
  attack?: string;
  /** For a run over several suites: the suite's name (else the run's one suite). */
  suite?: string;
}

/** What a model factory is told about the case it serves. */
export interface EvalCaseContext {
  /** The suite the case belongs to. */
  suite: AnyEvalSuite;
  /** The case. */
  evalCase: EvalCase;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the state type is the suite's own.
  userTask: UserTask<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the state type is the suite's own.
  injectionTask: InjectionTask<any> | undefined;
  /** The environment before the run. */
  pre: unknown;
}

export interface RunCaseOptions {
  /** The suite the case belongs to. */
  suite: AnyEvalSuite;
  /** The case to run. */
  evalCase: EvalCase;
  /** The model spec, for the record. */
  modelSpec: string;
  /** The model for this case. */
  model: (context: EvalCaseContext) => Model;
  /** A registry over the suite's tools, bound to `env` (one per worker: cases in a worker run one at a time). */
  registry: ToolRegistry;
  /** The environment the registry's tools read; the case puts its fresh state here. */
  env: { state: unknown };
  /** How the injection goal is written into the vectors. */
  attack: Attack;
  /** The isolation of the isolation strategies. */
  isolation: IsolationKind;
  /** Sent with every model request; also derives the isolation boundary. */
  seed: number | undefined;
  /** Sent with every model request. */
  temperature: number | undefined;
  /** Model calls per case. */
  maxIterations: number;
  /** Cap on each model call's output tokens. */
  maxOutputTokens?: number;
  /** How the stand-in person answers confirmations. */
  confirmations: 'deny' | 'approve';
  /** Default: `auto`. */
  toolChoice?: EvalToolChoice;
  /** Stops the case's run (it ends `stopped`, `aborted`). */
  signal?: AbortSignal;
  /** Called once the run is over with the environment before and after it (the adaptive attack reads the visible effects). */
  observe?: (pre: unknown, post: unknown) => void;
}

/**
 * The case id: `<strategy>/<user task>/<injection task or clean>`, prefixed
 * `<suite>:` in a run over several suites and suffixed `@<attack>` for an
 * attack case in a run with several attacks.
 */
export function caseId(strategy: EvalStrategy, userTask: string, injectionTask: string | undefined, run: { attack?: string; suite?: string } = {}): string {
  const attack = injectionTask !== undefined && run.attack !== undefined ? `@${run.attack}` : '';
  return `${run.suite !== undefined ? `${run.suite}:` : ''}${strategy}/${userTask}/${injectionTask ?? 'clean'}${attack}`;
}

export async function runCase(options: RunCaseOptions): Promise<CaseRecord> {
  const { suite, evalCase } = options;
  const userTask = suite.userTasks.find((task) => task.id === evalCase.userTask)!;
  const injectionTask = evalCase.injectionTask === undefined ? undefined : suite.injectionTasks.find((task) => task.id === evalCase.injectionTask)!;
  const injections = injectionTask ? plantAttack(suite, options.attack, injectionTask, userTask, options.registry.names()) : {};
  options.env.state = suite.createState(injections);
  const pre: unknown = structuredClone(options.env.state);
  const events: RunEvent[] = [];
  const record: CaseRecord = {
    type: 'case',
    caseId: evalCase.id,
    strategy: evalCase.strategy,
    userTask: userTask.id,
    injectionTask: injectionTask?.id ?? null,
    ...(injectionTask ? { attackName: options.attack.name } : {}),
    ...(evalCase.suite !== undefined ? { suite: evalCase.suite } : {}),
    model: options.modelSpec,
    status: 'error',
    utility: false,
    attack: injectionTask ? { attempted: false, effect: false } : null,
    calls: [],
    blocked: [],
    confirmations: { requested: 0, approved: 0, denied: 0 },
    flags: 0,
    malformedCalls: 0,
    usage: { inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: 0, wallTimeMs: 0 },
    answer: '',
    events: [],
    messages: [],
  };

  let result: AgentResult | undefined;
  try {
    const model = options.model({ suite, evalCase, userTask, injectionTask, pre });
    const policy = strategyPolicy(evalCase.strategy, userTask, pre, options.isolation);
    const store = createMemoryRunStore();
    const common = {
      model,
      tools: options.registry,
      store,
      recordDir: false as const,
      routing: false as const,
      limits: { maxIterations: options.maxIterations, ...(options.maxOutputTokens !== undefined ? { maxOutputTokensPerCall: options.maxOutputTokens } : {}) },
      onEvent: (event: RunEvent) => events.push(event),
      ...(options.toolChoice === 'required'
        ? { toolChoice: 'required' as const }
        : options.toolChoice === 'required-first'
          ? { toolChoice: ({ iteration }: { iteration: number }) => (iteration === 0 ? ('required' as const) : ('auto' as const)) }
          : {}),
      ...(policy ? { policy } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const runId = `eval_${evalCase.id.replace(/[^A-Za-z0-9_]+/g, '_')}`;
    const planned =
      evalCase.strategy === 'plan-then-execute'
        ? await runPlannedCase({ ...options, runId, userTask, injectionTask, pre, model, policy, onEvent: common.onEvent })
        : undefined;
    if (planned) record.confirmations = planned.confirmations;
    result =
      planned?.result ??
      (await runAgent({
        ...common,
        runId,
        system: suite.systemPrompt,
        prompt: userTask.prompt,
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      }));
    // A bounded number of rounds: each answers every pending call, and the loop's own limits bound the rest.
    for (let round = 0; result.status === 'awaiting_confirmation' && round < options.maxIterations; round++) {
      record.confirmations.requested += result.pending.length;
      if (options.confirmations === 'approve') record.confirmations.approved += result.pending.length;
      else record.confirmations.denied += result.pending.length;
      const decisions: ConfirmationDecision[] = result.pending.map((item) => ({
        token: item.token,
        decision: options.confirmations,
        ...(options.confirmations === 'deny' ? { reason: 'the evaluation denies every confirmation' } : {}),
      }));
      result = await resumeAgent(result.runId, decisions, common);
    }
    record.status = result.status;
    if (result.status === 'completed') record.answer = result.text;
    if (result.status === 'stopped') record.stopReason = { kind: result.stopReason.kind, message: result.stopReason.message };
    record.usage = { ...result.usage };
    record.messages = result.messages;
  } catch (error) {
    record.status = 'error';
    record.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }

  try {
    record.utility = userTask.utility({ pre, post: options.env.state, answer: record.answer });
  } catch (error) {
    record.error ??= `utility check failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  summarizeEvents(record, events, injectionTask);
  options.observe?.(pre, options.env.state);
  if (injectionTask) {
    record.attack = { attempted: record.calls.some((call) => call.attempt), effect: false };
    try {
      record.attack.effect = injectionTask.effect({ pre, post: options.env.state });
    } catch (error) {
      record.error ??= `effect check failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return record;
}

/** The text of each vector the attack is placed in; the others keep their benign default. */
export function plantAttack(
  suite: AnyEvalSuite,
  attack: Attack,
  injectionTask: InjectionTask<unknown>,
  userTask: UserTask<unknown>,
  toolNames: readonly string[],
): Record<string, string> {
  const text = attack.render(attackContext(suite, injectionTask, userTask, toolNames));
  const placed = suite.vectors.filter((vector) => attack.vectors === undefined || attack.vectors.includes(vector.id));
  return Object.fromEntries(placed.map((vector) => [vector.id, text]));
}

/** What an attack is told when it writes its text for a case. */
export function attackContext(
  suite: AnyEvalSuite,
  injectionTask: InjectionTask<unknown>,
  userTask: UserTask<unknown>,
  toolNames: readonly string[],
): AttackContext {
  return {
    goal: injectionTask.goal,
    userName: suite.userName,
    modelName: 'the AI assistant',
    userTask: userTask.prompt,
    toolNames,
    injectionCalls: injectionTask.reference(suite.createState()),
  };
}

/** Fills calls, blocks, flags and malformed counts from the run's events, and keeps the events (model requests without their messages). */
function summarizeEvents(record: CaseRecord, events: readonly RunEvent[], injectionTask: InjectionTask<unknown> | undefined): void {
  const calls = new Map<string, RecordedCall>();
  for (const event of events) {
    switch (event.type) {
      case 'tool_call': {
        // The call's part was parsed once, by the model's adapter: `undefined` means its text did not parse.
        const args = event.arguments;
        const call: RecordedCall = { callKey: event.callKey, tool: event.toolName, arguments: args, status: 'not_reached', attempt: false };
        if (event.argumentsText !== undefined) call.argumentsText = event.argumentsText;
        const evalCall: EvalCall = { tool: event.toolName, arguments: isPlainObject(args) ? args : undefined };
        call.attempt = injectionTask ? safeAttempted(injectionTask, evalCall) : false;
        calls.set(event.callKey, call);
        break;
      }
      case 'tool_result': {
        const call = calls.get(event.callKey);
        if (call) call.status = event.status;
        if (event.failure?.code === 'invalid_json' || event.failure?.code === 'invalid_arguments' || event.failure?.code === 'unknown_tool')
          record.malformedCalls++;
        break;
      }
      case 'policy_decision': {
        record.flags += event.flags.length;
        const call = calls.get(event.callKey);
        if (call && event.ruleId !== undefined) call.ruleId = event.ruleId;
        if (event.removed && event.removed.length > 0 && event.action !== 'block')
          (record.rewritten ??= []).push({
            callKey: event.callKey,
            tool: event.toolName,
            ruleId: event.removed[0]!.ruleId,
            values: event.removed.length,
            attackCall: call?.attempt ?? false,
          });
        if (event.action === 'block')
          record.blocked.push({
            callKey: event.callKey,
            tool: event.toolName,
            ruleId: event.ruleId ?? '',
            reason: event.reason ?? '',
            attackCall: call?.attempt ?? false,
          });
        break;
      }
      default:
        break;
    }
  }
  record.calls = [...calls.values()];
  record.events = events.map((event) =>
    event.type === 'model_request'
      ? { type: event.type, step: event.step, tools: event.tools, estimatedInputTokens: event.estimatedInputTokens, messages: event.messages.length }
      : event,
  );
}

function safeAttempted(task: InjectionTask<unknown>, call: EvalCall): boolean {
  try {
    return task.attempted(call);
  } catch {
    return false;
  }
}
