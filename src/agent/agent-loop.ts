/**
 * The engine behind `runAgent`, `resumeAgent` and `streamAgent`: one loop over a serializable {@link RunState}. Each
 * iteration checks the guards, takes the model step (`model-step.ts`), sends the calls of the answer through the call
 * pipeline (`calls/`: prepare, decide, run), pauses for confirmations or runs the calls by side effect, and checks the
 * loop breaker. Every way out returns a typed result; nothing a model or tool does makes it throw.
 * @module
 */
import { trackConversation } from '../models/conversation-token-estimate.js';
import { toolCallsOf, type ModelResponse } from '../protocol/model-exchange.js';
import type { ToolCallPart } from '../protocol/messages.js';
import { schedulingEffect } from '../tools/call-rules.js';
import { blockedByStillRunningMessage } from '../tools/model-messages.js';
import type { StoppedCalls } from '../tools/stopped-calls.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ToolCallApproval } from '../tools/types.js';
import type { AnyTool } from '../tools/define-tool.js';
import { declinedMessage, expiredMessage, missingToolMessage, outcomeUnknownMessage } from './agent-messages.js';
import type { AgentResult, AgentStep, AgentStopReason, ToolCallOutcome } from './agent-result.js';
import { runResult, type RunEnding } from './run-result.js';
import { cacheUsageAttributes, type SpanHandle } from './agent-telemetry.js';
import { RunClock } from './run-clock.js';
import { duplicateOutcome, settledOutcome, toolCallEvent, toolResultEvent, unrunOutcome } from './calls/call-outcomes.js';
import { decideCall } from './calls/decide-call.js';
import { DurableCalls, idempotencyKeyFor } from './calls/durable-calls.js';
import { callKeyOf, overToolBudget, prepareAgain, prepareTurnCalls } from './calls/prepare-call.js';
import { keepStoppedCalls, runCall, stoppedCallsOf } from './calls/run-call.js';
import { confirmationsFor, toPendingConfirmation } from './confirmations.js';
import { checkForLoop } from './loop-breaker.js';
import { withRepeatedBlockNotice } from './repeated-block.js';
import { runCallOptions, type AppliedDecision, type LoopEnvironment } from './loop-environment.js';
import { cutOffCallId, ModelStep } from './model-step.js';
import { routingCall, stepTools } from './step-tools.js';
import { readChosenCategory, toolsForCategory } from './route-tools.js';
import type { RunEvent } from './run-event.js';
import type { PendingTurn, RunState, TurnCall } from './run-state.js';
import { scheduleByEffect, type ScheduledJob } from './schedule-by-effect.js';

type LoopStop = { stop: AgentStopReason; rejectWith?: unknown };

export class AgentLoop {
  readonly #state: RunState;
  readonly #env: LoopEnvironment;
  /** Arguments validated in this process, by call key (they may hold values JSON would not keep). */
  readonly #prepared = new Map<string, unknown>();
  /** The prepare step's signatures of this turn's calls whose outcome keeps the prepared arguments, for the loop breaker. */
  readonly #signatures = new Map<string, string>();
  /** Calls of this run stopped while their tool kept running: they hold their slot past their turn, until they end. */
  readonly #stoppedCalls: StoppedCalls;
  readonly #modelStep: ModelStep;
  readonly #durable: DurableCalls;
  #span: SpanHandle | undefined;
  /** Set when the loop runs: the run's time and signal. */
  #clock: RunClock | undefined;

  constructor(state: RunState, env: LoopEnvironment) {
    this.#state = state;
    this.#env = env;
    this.#stoppedCalls = stoppedCallsOf(state.runId, env.limits.stoppedCallGraceMs);
    // The run appends to its messages (or replaces a whole one), never edits one in place: token estimates count each message once.
    trackConversation(state.messages);
    this.#modelStep = new ModelStep({
      state,
      env,
      span: () => this.#span!,
      runSignal: () => this.#clock!.signal,
      emit: (event) => this.#emit(event),
      spent: () => this.#clock!.spent(),
      interruption: (cut) => this.#clock!.interruption(cut),
    });
    this.#durable = new DurableCalls({
      runId: state.runId,
      store: env.store,
      superseded: () => (state.supersededCalls ??= []),
      emit: (event) => this.#emit(event),
      policy: env.callPolicy,
    });
  }

  /** Runs (or, given the decisions on its pending turn, continues) the loop to its next result. */
  async run(decisions?: ReadonlyMap<string, AppliedDecision>): Promise<AgentResult> {
    const { model } = this.#env;
    const clock = (this.#clock = new RunClock(this.#state, this.#env.limits, this.#env.signal));
    this.#span = this.#env.telemetry.startRun({ runId: this.#state.runId, agentName: this.#env.agentName, provider: model.provider, model: model.id });
    this.#emit({
      type: 'run_started',
      modelId: model.id,
      tools: this.#env.registry.names(),
      limits: this.#env.limits,
      resumed: decisions !== undefined,
      ...(this.#env.recordedContext !== undefined ? { context: this.#env.recordedContext } : {}),
    });
    let result: AgentResult | undefined;
    try {
      const pending = this.#state.pendingTurn;
      if (pending && decisions) {
        this.#state.pendingTurn = undefined;
        const outcomes = await this.#executeTurn(pending, decisions);
        const stop = this.#afterTurn(outcomes);
        if (stop) return (result = await this.#stopped(stop.stop));
      }
      return (result = await this.#loop());
    } finally {
      clock.stop();
      this.#span.setAttributes(() => ({
        'gen_ai.usage.input_tokens': this.#state.usage.inputTokens,
        'gen_ai.usage.output_tokens': this.#state.usage.outputTokens,
        ...cacheUsageAttributes(this.#state.usage),
        'toolwright.run.status': result?.status ?? 'error',
      }));
      this.#span.end(result?.status === 'stopped' ? { type: result.stopReason.kind, message: result.stopReason.message } : undefined);
      this.#env.recorder.close();
    }
  }

  async #loop(): Promise<AgentResult> {
    const { limits } = this.#env;
    const state = this.#state;
    for (;;) {
      const interrupted = this.#clock!.interruption();
      if (interrupted) return this.#stopped(interrupted);
      if (state.iterations >= limits.maxIterations) {
        const message = `The run reached its limit of ${limits.maxIterations} model calls before the model finished.`;
        return this.#stopped({ kind: 'max_iterations', limit: limits.maxIterations, message });
      }
      if (!state.routed) {
        const routed = await this.#route();
        if (routed) return this.#stopped(routed.stop, routed.rejectWith);
      }

      const { registry, offered, narrowing } = stepTools(this.#env, state, this.#activeRegistry());
      const choice = this.#env.toolChoice;
      const toolChoice = typeof choice === 'function' ? choice({ iteration: state.iterations, tools: offered }) : (choice ?? 'auto');
      const called = await this.#modelStep.call('model', offered, toolChoice, narrowing);
      if ('stop' in called) return this.#stopped(called.stop, called.rejectWith);
      const { response, step } = called;
      state.iterations++;
      const unexpected = this.#modelStep.unexpectedStop(response, step);
      if (unexpected) {
        // Keep the transcript well formed: every call gets a result, none runs.
        if (unexpected.unrun.length > 0)
          this.#appendResults(
            step,
            unexpected.unrun.map((outcome) => this.#record(outcome)),
          );
        return this.#stopped(unexpected.stop);
      }
      const calls = toolCallsOf(response);
      if (calls.length === 0) {
        const output = this.#env.output;
        const answer = output ? this.#modelStep.finalAnswer(output, response, step) : { output: undefined };
        if (answer === 'repair') continue;
        if ('stop' in answer) return this.#stopped(answer.stop);
        return this.#finish({ status: 'completed', text: step.text, finishReason: response.stopReason, output: answer.output });
      }

      const turn = await this.#prepareTurn(step.index, calls, registry, response);
      const overBudget = overToolBudget(turn, limits.maxToolCalls, state.usage.toolCalls);
      if (overBudget) {
        this.#appendResults(
          step,
          overBudget.unrun.map((outcome) => this.#record(outcome)),
        );
        return this.#stopped(overBudget.stop);
      }
      if (turn.calls.some((call) => call.kind === 'confirm')) return this.#pause(turn);
      const stop = await this.#runTurn(turn);
      if (stop) return this.#stopped(stop.stop);
    }
  }

  /**
   * Runs a turn with no call waiting for a person. A stored run is saved with it first, before any call is claimed: a
   * take-over after a crash continues this turn, with these calls, instead of asking the model again (which could answer
   * with other calls).
   */
  async #runTurn(turn: PendingTurn): Promise<LoopStop | undefined> {
    const state = this.#state;
    if (this.#env.persisted) {
      state.pendingTurn = turn;
      this.#clock!.updateWallTime();
      await (await this.#env.store()).saveRun({ runId: state.runId, status: 'running', state });
    }
    const outcomes = await this.#executeTurn(turn, new Map());
    state.pendingTurn = undefined;
    return this.#afterTurn(outcomes);
  }

  /** The routing call; returns a stop when it could not be made. */
  async #route(): Promise<LoopStop | undefined> {
    const state = this.#state;
    state.routed = true;
    const all = this.#env.registry.list();
    const routing = routingCall(this.#env);
    if (!routing) return undefined;
    const { categories, selector } = routing;
    const called = await this.#modelStep.call('routing', routing.tools, { tool: selector.name }, routing.narrowing);
    if ('stop' in called) return called;
    const chosen = readChosenCategory(called.response, selector);
    const known = chosen !== undefined && categories.names.includes(chosen);
    if (known) state.routedTools = { category: chosen, toolNames: toolsForCategory(all, chosen, categories.members) };
    const tools = known ? state.routedTools!.toolNames : this.#env.registry.names();
    const event: RunEvent = { type: 'routing', step: called.step.index, categories: categories.names, category: known ? chosen : undefined, tools };
    if (!known) event.note = 'The routing answer named no known category; every tool is offered.';
    this.#emit(event);
    return undefined;
  }

  #activeRegistry(): ToolRegistry {
    const routed = this.#state.routedTools;
    return routed ? this.#env.registry.subset(routed.toolNames.filter((name) => this.#env.registry.has(name))) : this.#env.registry;
  }

  /** The prepare and decide steps of the pipeline for each call of a model turn, recorded in order; nothing runs yet. */
  async #prepareTurn(step: number, requests: readonly ToolCallPart[], registry: ToolRegistry, response: ModelResponse): Promise<PendingTurn> {
    const { limits, callPolicy } = this.#env;
    const prepared = prepareTurnCalls(step, requests, {
      registry,
      // A provider may ignore `parallelToolCalls: false` (or have no such field): the loop holds it whatever came back.
      maxToolCallsPerTurn: this.#state.settings.parallelToolCalls === false ? 1 : limits.maxToolCallsPerTurn,
      cutOffCallId: cutOffCallId(response),
      preparedBefore: this.#modelStep.preparedBefore,
    });
    const calls: TurnCall[] = [];
    const signatures = this.#signatures;
    signatures.clear();
    // An earlier turn's arguments are never read again (a resumed turn prepares its calls anew).
    this.#prepared.clear();
    for (const [index, item] of prepared.calls.entries()) {
      const callKey = callKeyOf(step, index);
      this.#emit(toolCallEvent(step, callKey, requests[index]!, this.#env.registry.get(requests[index]!.name)?.effect));
      if (item.settled) {
        if (item.signature !== undefined) signatures.set(callKey, item.signature);
        calls.push(item.settled);
        continue;
      }
      // Rewritten arguments are validated against every tool of the run, as the model's were against the offered ones.
      const decided = await decideCall({ policy: callPolicy, registry: this.#env.registry, step, call: item.valid! });
      for (const event of decided.events) this.#emit(event);
      if (decided.call.kind !== 'invalid') this.#prepared.set(callKey, decided.arguments);
      // A rewritten call runs (and is counted) with other arguments than the ones signed.
      if (item.signature !== undefined && decided.call.policyNote === undefined) signatures.set(callKey, item.signature);
      calls.push(withRepeatedBlockNotice(decided.call, this.#state, item.signature, limits, 'run'));
    }
    if (prepared.turnLimit) {
      const { limit, requested } = prepared.turnLimit;
      this.#state.steps[step]!.turnLimit = { limit, requested };
      const notRun = calls.filter((call) => call.notRun === 'turn_limit').map((call) => call.callKey);
      this.#emit({ type: 'turn_limited', step, limit, requested, notRun });
    }
    return { step, calls };
  }

  /** Saves the run with its pending turn and returns the calls awaiting decisions. */
  async #pause(turn: PendingTurn): Promise<AgentResult> {
    const state = this.#state;
    const store = await this.#env.store();
    const confirmations = confirmationsFor(turn, {
      runId: state.runId,
      secret: await store.getSecret(),
      createdAt: this.#env.now(),
      ttlMs: this.#env.limits.confirmationTtlMs,
      redactor: this.#env.redactor,
    });
    state.pendingTurn = turn;
    const pending = confirmations.map(toPendingConfirmation);
    this.#emit({ type: 'confirmation_requested', step: turn.step, pending: pending.map(({ token: _token, ...rest }) => rest) });
    this.#clock!.updateWallTime();
    await store.saveRun({ runId: state.runId, status: 'awaiting_confirmation', state }, confirmations);
    return this.#finish({ status: 'awaiting_confirmation', pending }, false);
  }

  /** Runs a turn's calls by effect, appends their results in the model's order, and returns the outcomes. */
  async #executeTurn(turn: PendingTurn, decisions: ReadonlyMap<string, AppliedDecision>): Promise<ToolCallOutcome[]> {
    const step = this.#state.steps[turn.step]!;
    // Duplicates get their original's outcome once it is known, below.
    const originals = turn.calls.filter((call) => call.duplicateOf === undefined);
    const jobs = originals.map((call) => this.#job(turn.step, call, decisions));
    const scheduled = await scheduleByEffect(jobs, this.#env.limits.maxParallelReads);
    const byKey = new Map(scheduled.map((outcome) => [outcome.callKey, outcome]));
    const outcomes = turn.calls.map((call) => {
      const ran = byKey.get(call.callKey);
      if (ran) return ran;
      const original = call.duplicateOf === undefined ? undefined : byKey.get(call.duplicateOf);
      const shares = this.#env.registry.get(call.toolName)?.effect === 'read';
      return this.#record(duplicateOutcome(call, original, shares));
    });
    this.#appendResults(step, outcomes);
    return outcomes;
  }

  /** A call answered without running it, as a job that records its outcome. */
  #settle(outcome: ToolCallOutcome): ScheduledJob<ToolCallOutcome> {
    return { effect: 'none', run: async () => this.#record(outcome) };
  }

  /** One call of a turn as a job scheduled by its effect: settled, declined or expired, failed validation again, or run. */
  #job(step: number, call: TurnCall, decisions: ReadonlyMap<string, AppliedDecision>): ScheduledJob<ToolCallOutcome> {
    if (call.kind === 'invalid') return this.#settle(settledOutcome(call));
    const decision = decisions.get(call.callKey);
    if (call.kind === 'confirm' && decision?.decision !== 'approve') {
      if (!decision || decision.decision === 'expired') return this.#settle(unrunOutcome(call, 'expired', expiredMessage(call.toolName)));
      return this.#settle(unrunOutcome(call, 'declined', declinedMessage(call.toolName, decision.reason)));
    }
    const registry = this.#env.registry;
    const tool = registry.get(call.toolName);
    if (!tool) return this.#settle(unrunOutcome(call, 'failed', missingToolMessage(call.toolName)));
    let args = this.#prepared.get(call.callKey);
    if (args === undefined) {
      const again = prepareAgain(registry, call);
      if ('settled' in again) return this.#settle(settledOutcome(again.settled));
      args = again.arguments;
    }
    // Only a call a person approved carries the approval to its tool (an imported MCP tool answers its server's confirmation with it).
    const approval: ToolCallApproval | undefined = call.kind === 'confirm' ? { approvedBy: 'person', summary: call.summary ?? call.toolName } : undefined;
    return { effect: schedulingEffect(tool), run: () => this.#executeCall(step, call, tool, args, approval) };
  }

  /** The run step of the pipeline for one call: claimed first in a stored run, then run, recorded and (stored) finished. */
  async #executeCall(step: number, call: TurnCall, tool: AnyTool, args: unknown, approval: ToolCallApproval | undefined): Promise<ToolCallOutcome> {
    const blocker = this.#stoppedCalls.blockerFor(schedulingEffect(tool));
    if (blocker !== undefined) return this.#record(unrunOutcome(call, 'not_run', blockedByStillRunningMessage(tool.name, blocker)));
    let storeKey = call.callKey;
    if (this.#env.persisted) {
      const { storeKey: key, existing } = await this.#durable.claim(step, call, tool, args);
      storeKey = key;
      // The same call, asked again: its stored outcome stands, answering this request's call id.
      if (existing?.status === 'done' && existing.outcome) return this.#durable.reuse(call, tool, existing.outcome);
      // Begun by a process that died: only a tool that dedupes on the idempotency key may safely be started again.
      if (existing && tool.effect === 'write' && !tool.acceptsIdempotencyKey)
        return this.#record(unrunOutcome(call, 'outcome_unknown', outcomeUnknownMessage(call.toolName)));
    }
    const span = this.#span!.startTool({ toolName: tool.name, callId: call.callId, description: tool.description });
    const idempotencyKey = idempotencyKeyFor(this.#state.runId, storeKey);
    const options = runCallOptions(this.#env, this.#clock!.signal, { step, callKey: call.callKey, callId: call.callId, tool, idempotencyKey, approval });
    const { registry, callPolicy: policy } = this.#env;
    const ran = await runCall({ registry, policy, step, call, tool, arguments: args, stoppedCalls: this.#stoppedCalls, options });
    if (ran.stillWorking) keepStoppedCalls(this.#state.runId, this.#stoppedCalls, ran.stillWorking);
    const { execution } = ran;
    span.end({ isError: execution.result.isError, ...(execution.failure ? { errorType: execution.failure.code } : {}) });
    this.#state.usage.toolCalls++;
    this.#emit(ran.event);
    if (this.#env.persisted) await this.#durable.finish(storeKey, ran.outcome, ran.screened?.trust);
    return ran.outcome;
  }

  /** Records an outcome's `tool_result` event and returns the outcome. */
  #record(outcome: ToolCallOutcome): ToolCallOutcome {
    this.#emit(toolResultEvent(outcome));
    return outcome;
  }

  #appendResults(step: AgentStep, outcomes: readonly ToolCallOutcome[]): void {
    step.toolCalls = [...outcomes];
    this.#state.messages.push({
      role: 'tool',
      results: outcomes.map((outcome) => ({ callId: outcome.callId, toolName: outcome.toolName, result: outcome.result })),
    });
  }

  /** After a turn: an abort or the loop breaker may end the run. */
  #afterTurn(outcomes: readonly ToolCallOutcome[]): LoopStop | undefined {
    const interrupted = this.#clock!.interruption(outcomes.some((outcome) => outcome.failureCode === 'aborted') ? 'tool_calls' : undefined);
    if (interrupted) return { stop: interrupted };
    const loop = checkForLoop(this.#state, outcomes, this.#env.limits, 'run', this.#signatures);
    this.#signatures.clear();
    return loop ? { stop: loop } : undefined;
  }

  /** Stops the run; with `rejectWith` (a developer's error), the record and the store still get the stop, then the run rejects. */
  async #stopped(stopReason: AgentStopReason, rejectWith?: unknown): Promise<AgentResult> {
    const result = await this.#finish({ status: 'stopped', stopReason });
    if (rejectWith !== undefined) throw rejectWith;
    return result;
  }

  /** Builds the result, records the stop, and (for stored runs) stores the final state. */
  async #finish(outcome: RunEnding, store = true): Promise<AgentResult> {
    const state = this.#state;
    this.#clock!.updateWallTime();
    const stopEvent: RunEvent = { type: 'stop', status: outcome.status, usage: { ...state.usage }, costUsd: state.costUsd };
    if (outcome.status === 'stopped') stopEvent.stopReason = outcome.stopReason;
    if (outcome.status === 'completed' && outcome.output !== undefined) stopEvent.output = outcome.output;
    this.#emit(stopEvent);
    if (store && this.#env.persisted && outcome.status !== 'awaiting_confirmation') {
      await (await this.#env.store()).saveRun({ runId: state.runId, status: outcome.status, state });
    }
    return runResult(state, outcome, (toolName) => this.#env.registry.get(toolName)?.effect === 'read');
  }

  #emit(event: RunEvent): void {
    this.#env.recorder.write(event);
    const listener = this.#env.onEvent;
    if (!listener) return;
    try {
      listener({ ...event, runId: this.#state.runId });
    } catch {
      // A failing listener must not end the run; the record has the event.
    }
  }
}
