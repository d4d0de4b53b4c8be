/**
 * The engine behind `runAgent` and `resumeAgent`: one loop over a
 * serializable {@link RunState}. Each iteration checks the guards, calls the
 * model, resolves its calls, pauses for confirmations or runs the calls by
 * side effect, and checks the loop breaker. Every way out returns a typed
 * result; nothing a model or tool does makes it throw.
 * @module
 */
import { createHmac, randomBytes } from 'node:crypto';
import { trackConversation } from '../models/conversation-token-estimate.js';
import { estimateInputTokens } from '../models/estimate-tokens.js';
import type { Model } from '../models/types.js';
import { toolCallsOf, type ModelRequest, type ModelResponse, type StopReason, type ToolChoice } from '../protocol/model-exchange.js';
import type { AssistantMessage, ToolCallPart } from '../protocol/messages.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { OutputDefinition } from '../tools/define-output.js';
import { blockedByStillRunningMessage, invalidOutputMessage, outputNotJsonMessage, stillRunningMessage } from '../tools/model-messages.js';
import { StoppedCalls } from '../tools/stopped-calls.js';
import type { PreparedCall, ToolExecution, ToolRegistry } from '../tools/tool-registry.js';
import type { ToolCallApproval, ToolCallRequest, ToolResult } from '../tools/types.js';
import { describeForbiddenKey, describeLimit, inspectJsonValue, safeParseJson, type JsonParseFailure } from '../shared/safe-json.js';
import { DEFAULT_ARGUMENT_LIMITS } from '../tools/argument-limits.js';
import {
  declinedMessage,
  duplicateCallMessage,
  expiredMessage,
  missingToolMessage,
  outcomeUnknownMessage,
  toolBudgetMessage,
  truncatedCallMessage,
  turnLimitMessage,
} from './agent-messages.js';
import type { ResolvedLimits } from './agent-limits.js';
import type { AgentResult, AgentStep, AgentStopReason, PendingConfirmation, ToolCallOutcome, ToolCallStatus, UnexpectedModelStop } from './agent-result.js';
import type { AgentTelemetry, SpanHandle } from './agent-telemetry.js';
import type { Redactor } from './redact.js';
import { budgetStop, planModelCall, type Spent } from './budget.js';
import { canonicalJson } from '../shared/canonical-json.js';
import { createConfirmationToken } from './confirmation-token.js';
import { callSignature, checkForLoop } from './loop-breaker.js';
import { costOf, type ModelPrice } from './price-table.js';
import { readChosenCategory, routingCategories, selectCategoryTool, toolsForCategory, type RoutingOptions } from './route-tools.js';
import type { RecordedError, RunEvent } from './run-event.js';
import type { RunRecorder } from './run-recorder.js';
import type { PendingTurn, RunState, TurnCall } from './run-state.js';
import type { CallClaim, Decision, RunStore, StoredCall, StoredConfirmation, StoredOutcome } from './run-store.js';
import { RunStoreError } from './agent-errors.js';
import { scheduleByEffect, type ScheduledJob } from './schedule-by-effect.js';
import type { CallPolicy, ScreenedResult } from './call-policy.js';
import { prepareRewrittenCall } from './rewritten-call.js';
import { schedulingEffect } from '../tools/call-rules.js';
import { foldModelStream, type ModelDelta } from './streaming/fold-model-stream.js';
import { untilAborted } from '../shared/until-aborted.js';

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

type LoopStop = { stop: AgentStopReason };

/** The runs of this process with a stopped call whose tool is still running, kept only until it ends. */
const stoppedCallsByRun = new Map<string, StoppedCalls>();

export class AgentLoop {
  readonly #state: RunState;
  readonly #env: LoopEnvironment;
  /** Arguments validated in this process, by call key (they may hold values JSON would not keep). */
  readonly #prepared = new Map<string, unknown>();
  /** Calls of this run stopped while their tool kept running: they hold their slot past their turn, until they end. */
  readonly #stoppedCalls: StoppedCalls;
  /** Calls whose arguments broke the registry's limits, already answered; their arguments never reach the record or the transcript. */
  readonly #oversizedCalls = new WeakMap<ToolCallPart, PreparedCall>();
  #span: SpanHandle | undefined;
  #activeSince = 0;
  #wallAtStart = 0;
  #runSignal: AbortSignal | undefined;
  #deadline: AbortController | undefined;
  #digestKey: Uint8Array | undefined;

  constructor(state: RunState, env: LoopEnvironment) {
    this.#state = state;
    this.#env = env;
    this.#stoppedCalls = stoppedCallsByRun.get(state.runId) ?? new StoppedCalls(env.limits.stoppedCallGraceMs);
    // The run appends to its messages (or replaces a whole one), never edits one in place: token estimates count each message once.
    trackConversation(state.messages);
  }

  /** Runs (or, given the decisions on its pending turn, continues) the loop to its next result. */
  async run(decisions?: ReadonlyMap<string, AppliedDecision>): Promise<AgentResult> {
    const { model } = this.#env;
    this.#activeSince = performance.now();
    this.#wallAtStart = this.#state.usage.wallTimeMs;
    const timer = this.#armDeadline();
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
      if (timer) clearTimeout(timer);
      this.#span.setAttributes(() => ({
        'gen_ai.usage.input_tokens': this.#state.usage.inputTokens,
        'gen_ai.usage.output_tokens': this.#state.usage.outputTokens,
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
      const interrupted = this.#interruption();
      if (interrupted) return this.#stopped(interrupted);
      if (state.iterations >= limits.maxIterations) {
        return this.#stopped({
          kind: 'max_iterations',
          limit: limits.maxIterations,
          message: `The run reached its limit of ${limits.maxIterations} model calls before the model finished.`,
        });
      }
      if (!state.routed) {
        const routed = await this.#route();
        if (routed) return this.#stopped(routed.stop);
      }

      const registry = this.#activeRegistry();
      const offered = registry.list();
      const choice = this.#env.toolChoice;
      const toolChoice = typeof choice === 'function' ? choice({ iteration: state.iterations, tools: offered }) : (choice ?? 'auto');
      const called = await this.#callModel('model', offered, toolChoice);
      if ('stop' in called) return this.#stopped(called.stop);
      const { response, step } = called;
      state.iterations++;
      const unexpected = this.#unexpectedStop(response, step);
      if (unexpected) return this.#stopped(unexpected);
      const calls = toolCallsOf(response);
      if (calls.length === 0) {
        if (!this.#env.output) return this.#finish({ status: 'completed', text: step.text, finishReason: response.stopReason, output: undefined });
        const answer = this.#finalAnswer(this.#env.output, response, step);
        if (answer === 'repair') continue;
        return answer;
      }

      const turn = await this.#prepareTurn(step.index, calls, registry, cutOffCallId(response));
      const runnable = turn.calls.filter((call) => call.kind !== 'invalid').length;
      if (limits.maxToolCalls !== undefined && state.usage.toolCalls + runnable > limits.maxToolCalls) {
        const max = limits.maxToolCalls;
        this.#appendResults(
          step,
          turn.calls.map((call) =>
            call.kind === 'invalid' ? this.#invalidOutcome(call) : this.#unrunOutcome(call, 'not_run', toolBudgetMessage(call.toolName, max)),
          ),
        );
        return this.#stopped(budgetStop('toolCalls', max, state.usage.toolCalls, runnable));
      }
      if (turn.calls.some((call) => call.kind === 'confirm')) return this.#pause(turn);

      if (this.#env.persisted) await this.#saveTurn(turn);
      const outcomes = await this.#executeTurn(turn, new Map());
      state.pendingTurn = undefined;
      const stop = this.#afterTurn(outcomes);
      if (stop) return this.#stopped(stop.stop);
    }
  }

  /** The routing call; returns a stop when it could not be made. */
  async #route(): Promise<LoopStop | undefined> {
    const state = this.#state;
    state.routed = true;
    const all = this.#env.registry.list();
    const categories = routingCategories(all, this.#env.routing);
    if (!categories) return undefined;
    const selector = selectCategoryTool(categories.names, categories.descriptions);
    const called = await this.#callModel('routing', [selector], { tool: selector.name });
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

  /** Plans, makes and accounts one model call. */
  async #callModel(
    kind: 'routing' | 'model',
    tools: readonly AnyTool[],
    toolChoice: ToolChoice,
  ): Promise<{ response: ModelResponse; step: AgentStep } | LoopStop> {
    const { model, limits, price } = this.#env;
    const state = this.#state;
    const request: ModelRequest = { messages: state.messages, tools, toolChoice };
    const output = this.#env.output;
    if (kind === 'model' && output)
      request.output = { name: output.name, schema: output.schema, ...(output.description ? { description: output.description } : {}) };
    if (state.settings.temperature !== undefined) request.temperature = state.settings.temperature;
    if (state.settings.seed !== undefined) request.seed = state.settings.seed;
    let estimated: number;
    try {
      estimated = model.estimateInputTokens(request);
    } catch {
      estimated = estimateInputTokens(request);
    }
    const plan = planModelCall(limits, this.#spent(), estimated, price);
    if (!plan.ok) return { stop: plan.stop };
    if (plan.maxOutputTokens !== undefined) request.maxOutputTokens = plan.maxOutputTokens;

    const index = state.steps.length;
    this.#emit({
      type: 'model_request',
      step: index,
      messages: [...state.messages],
      tools: tools.map((tool) => tool.name),
      toolChoice,
      maxOutputTokens: request.maxOutputTokens,
      estimatedInputTokens: estimated,
    });
    const chat = this.#span!.startChat({
      provider: model.provider,
      model: model.id,
      maxOutputTokens: request.maxOutputTokens,
      temperature: request.temperature,
    });
    const started = performance.now();
    let response: ModelResponse;
    try {
      const sent: ModelRequest = { ...request, messages: [...state.messages], signal: this.#runSignal };
      const sink = this.#env.stream;
      const answer = sink
        ? foldModelStream(() => model.stream(sent), kind === 'model' ? (delta) => sink.modelDelta(index, delta) : undefined, this.#runSignal)
        : model.generate(sent);
      // A provider that ignores the signal must not hold the run past its deadline or the caller's abort.
      response = await untilAborted(answer, this.#runSignal);
    } catch (error) {
      // Provider errors can quote the API key; the stop reason, span and record get the redacted text.
      const recorded = this.#env.redactor(recordError(error)) as RecordedError;
      chat.end(undefined, { type: errorCode(error), message: recorded.message });
      this.#emit({ type: 'model_error', step: index, error: recorded, durationMs: performance.now() - started });
      const interrupted = this.#interruption('model_call');
      if (interrupted) return { stop: interrupted };
      return { stop: { kind: 'model_error', errorCode: errorCode(error), message: `The model call failed: ${recorded.message}` } };
    }
    chat.end(response);
    response = this.#withoutOverLimitArguments(response);
    const usage = { inputTokens: safeCount(response.usage?.inputTokens), outputTokens: safeCount(response.usage?.outputTokens) };
    const cost = costOf(usage, price);
    state.usage.inputTokens += usage.inputTokens;
    state.usage.outputTokens += usage.outputTokens;
    state.usage.modelCalls++;
    state.costUsd += cost;
    const { raw, ...rest } = response;
    this.#emit({ type: 'model_response', step: index, response: rest, raw, costUsd: cost, durationMs: performance.now() - started });

    const step: AgentStep = {
      index,
      kind,
      modelId: response.modelId,
      text: response.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''),
      finishReason: response.stopReason,
      usage,
      estimatedInputTokens: estimated,
      costUsd: cost,
      toolCalls: [],
    };
    state.steps.push(step);
    if (kind === 'model') {
      const assistant: AssistantMessage = { role: 'assistant', content: response.content };
      state.messages.push(assistant);
    }
    return { response, step };
  }

  /**
   * A final answer under `output`: validated, it completes the run. The first invalid one gets a repair turn (a user
   * message listing the problems, returned as `'repair'`); a second stops the run with `output_invalid`.
   */
  #finalAnswer(output: OutputDefinition, response: ModelResponse, step: AgentStep): Promise<AgentResult> | 'repair' {
    const state = this.#state;
    let checked: ReturnType<OutputDefinition['validate']> | undefined;
    let jsonError: JsonParseFailure | undefined;
    // The answer is hostile input like any call's arguments: the same bounds apply before anything walks it.
    if (response.output) {
      const { exceeded, forbiddenKey } = inspectJsonValue(response.output.value, DEFAULT_ARGUMENT_LIMITS);
      if (exceeded) jsonError = { message: describeLimit(exceeded), limit: exceeded };
      else if (forbiddenKey) jsonError = { message: describeForbiddenKey(forbiddenKey), forbiddenKey };
      else checked = output.validate(response.output.value);
    } else {
      const parsed = safeParseJson(step.text.trim(), DEFAULT_ARGUMENT_LIMITS);
      if (parsed.success) checked = output.validate(parsed.value);
      else jsonError = parsed.error;
    }
    if (checked?.success) return this.#finish({ status: 'completed', text: step.text, finishReason: response.stopReason, output: checked.data });
    const issues = checked && !checked.success ? checked.issues : [];
    const repair = (state.outputRepairs ?? 0) < 1;
    const event: RunEvent = { type: 'output_invalid', step: step.index, output: output.name, issues, repair };
    if (jsonError) event.jsonError = jsonError.message;
    this.#emit(event);
    if (repair) {
      state.outputRepairs = (state.outputRepairs ?? 0) + 1;
      const content = jsonError ? outputNotJsonMessage(output.name, jsonError, output.schema) : invalidOutputMessage(output.name, issues, output.schema);
      state.messages.push({ role: 'user', content });
      return 'repair';
    }
    const problem = jsonError ? `was not JSON (${jsonError.message})` : `had ${issues.length} problem${issues.length === 1 ? '' : 's'}`;
    return this.#stopped({
      kind: 'output_invalid',
      output: output.name,
      issues,
      ...(jsonError ? { jsonError } : {}),
      text: step.text,
      message: `The model's final answer did not match the output schema "${output.name}" after one repair turn: it ${problem}. See stopReason.issues; check that the schema is one the model can follow, or describe the answer in the prompt.`,
    });
  }

  /**
   * Arguments over the registry's limits (too deep, too long) would make the
   * record, the run store and token estimates throw or stall: such a call keeps
   * its id and name with empty arguments, and is answered with the limit's message.
   */
  #withoutOverLimitArguments(response: ModelResponse): ModelResponse {
    const registry = this.#env.registry;
    let refused = false;
    const content = response.content.map((part) => {
      if (part.type !== 'tool-call') return part;
      const failure = registry.checkArgumentLimits(part);
      if (!failure) return part;
      refused = true;
      const screened: ToolCallPart = { type: 'tool-call', id: part.id, name: part.name, arguments: {} };
      const tool = registry.get(part.name);
      // An unknown name is left to prepare(), whose message lists the tools.
      if (tool) this.#oversizedCalls.set(screened, { success: false, tool, failure });
      return screened;
    });
    if (!refused) return response;
    const screened: ModelResponse = { ...response, content };
    if (screened.raw !== undefined) screened.raw = '[withheld: a tool call in this response had arguments over the argument limits]';
    return screened;
  }

  /**
   * Resolves and validates each call without running it, and decides which need a person (the tool's rule, then the guard).
   * Within the response, an identical call (same tool, canonical arguments) is not run again: a write never, a read unless
   * a write comes between; distinct calls past `maxToolCallsPerTurn` and a call cut off with the response are not run either.
   */
  async #prepareTurn(step: number, requests: readonly ToolCallPart[], registry: ToolRegistry, cutOffCallId?: string): Promise<PendingTurn> {
    const calls: TurnCall[] = [];
    const originals = new Map<string, { callKey: string; callId: string; writesBefore: number }>();
    let writes = 0;
    let distinct = 0;
    for (const [index, request] of requests.entries()) {
      const base = { callKey: `${step}.${index}`, callId: request.id, toolName: request.name, request: jsonSafeRequest(request) };
      const prepared = this.#oversizedCalls.get(request) ?? registry.prepare(request);
      this.#emit({
        type: 'tool_call',
        step,
        callKey: base.callKey,
        callId: request.id,
        toolName: request.name,
        arguments: request.arguments,
        ...(request.argumentsText !== undefined ? { argumentsText: request.argumentsText } : {}),
      });
      if (index === requests.length - 1 && request.id === cutOffCallId) {
        calls.push({
          ...base,
          kind: 'invalid',
          notRun: 'truncated',
          invalidResult: { content: [{ type: 'text', text: truncatedCallMessage(request.name) }], isError: true },
        });
        continue;
      }
      const signature = prepared.success ? signatureOf(prepared.tool.name, prepared.arguments) : undefined;
      const original = signature === undefined ? undefined : originals.get(signature);
      // A read after a write may see another state, so only reads with no write between them share a result.
      if (prepared.success && original && (prepared.tool.effect === 'write' || original.writesBefore === writes)) {
        const notice = duplicateCallMessage(request.name, original.callId);
        calls.push({
          ...base,
          kind: 'invalid',
          duplicateOf: original.callKey,
          arguments: toJson(prepared.arguments),
          invalidResult: { content: [{ type: 'text', text: notice }], isError: false },
        });
        continue;
      }
      if (++distinct > this.#env.limits.maxToolCallsPerTurn) {
        // The notice needs the response's total, known after the loop.
        calls.push({ ...base, kind: 'invalid', notRun: 'turn_limit' });
        continue;
      }
      if (prepared.success) {
        if (signature !== undefined) originals.set(signature, { callKey: base.callKey, callId: request.id, writesBefore: writes });
        if (prepared.tool.effect === 'write') writes++;
      }
      if (!prepared.success) {
        calls.push({
          ...base,
          kind: 'invalid',
          invalidResult: { content: [{ type: 'text', text: prepared.failure.message }], isError: true },
          failureCode: prepared.failure.code,
        });
        continue;
      }
      const { decision, events } = await this.#env.callPolicy.decide({
        step,
        callKey: base.callKey,
        callId: request.id,
        tool: prepared.tool,
        arguments: prepared.arguments,
      });
      for (const event of events) this.#emit(event);
      if (decision.action === 'block') {
        calls.push({
          ...base,
          kind: 'invalid',
          blocked: true,
          arguments: toJson(prepared.arguments),
          invalidResult: { content: [{ type: 'text', text: decision.message }], isError: true },
        });
        continue;
      }
      let runArguments = prepared.arguments;
      const rewritten = decision.rewritten;
      if (rewritten) {
        const again = prepareRewrittenCall(this.#env.registry, request, rewritten);
        if (!again.ok) {
          const { ruleId, reason } = again;
          this.#emit({
            type: 'policy_decision',
            step,
            callKey: base.callKey,
            callId: request.id,
            toolName: request.name,
            action: 'block',
            ruleId,
            reason,
            flags: [],
          });
          calls.push({
            ...base,
            kind: 'invalid',
            blocked: true,
            arguments: toJson(prepared.arguments),
            invalidResult: { content: [{ type: 'text', text: again.message }], isError: true },
          });
          continue;
        }
        runArguments = again.arguments;
      }
      const policyNote = rewritten ? { policyNote: rewritten.note } : {};
      this.#prepared.set(base.callKey, runArguments);
      if (decision.action === 'run') calls.push({ ...base, kind: 'run', arguments: toJson(runArguments), ...policyNote });
      else calls.push({ ...base, kind: 'confirm', arguments: toJson(runArguments), summary: decision.summary, ...policyNote });
    }
    const overLimit = calls.filter((call) => call.notRun === 'turn_limit');
    if (overLimit.length > 0) {
      const limit = this.#env.limits.maxToolCallsPerTurn;
      for (const call of overLimit) call.invalidResult = { content: [{ type: 'text', text: turnLimitMessage(call.toolName, distinct, limit) }], isError: true };
      this.#state.steps[step]!.turnLimit = { limit, requested: distinct };
      this.#emit({ type: 'turn_limited', step, limit, requested: distinct, notRun: overLimit.map((call) => call.callKey) });
    }
    return { step, calls };
  }

  /** A finish reason that must not pass for a finished answer, as a stop; its tool calls, if any, are answered as not run. */
  #unexpectedStop(response: ModelResponse, step: AgentStep): AgentStopReason | undefined {
    const reason = response.stopReason;
    const requests = toolCallsOf(response);
    const calls = requests.length;
    if (reason === 'end_turn' || reason === 'tool_calls') return undefined;
    // Complete calls of a cut or oddly ended response still run (a cut last call is answered in #prepareTurn).
    if ((reason === 'max_tokens' || reason === 'other') && calls > 0) return undefined;
    if (calls === 0 && this.#env.acceptFinishReasons.includes(reason)) return undefined;
    const provider = response.providerStopReason;
    const said = provider !== undefined ? ` (the provider said "${provider.slice(0, 80)}")` : '';
    const stop: UnexpectedModelStop =
      reason === 'max_tokens'
        ? {
            kind: 'model_output_truncated',
            finishReason: reason,
            text: step.text,
            message: `The model's answer was cut off at its output token limit or context window${said}; it is incomplete, so the run did not count it as finished. Raise the output cap or shorten the conversation.`,
          }
        : reason === 'content_filter'
          ? { kind: 'content_filtered', finishReason: reason, text: step.text, message: `The provider's content filter stopped the model's answer${said}.` }
          : reason === 'refusal'
            ? {
                kind: 'model_refused',
                finishReason: reason,
                text: step.text,
                message: `The model refused to answer${said}${step.text ? `: ${step.text.slice(0, 200)}` : ''}.`,
              }
            : {
                kind: 'model_stop_unexpected',
                finishReason: reason,
                text: step.text,
                message: `The model stopped for an unexpected reason${said}, neither finishing its answer nor asking for a tool.`,
              };
    if (provider !== undefined) stop.providerStopReason = provider;
    this.#emit({
      type: 'unexpected_stop',
      step: step.index,
      finishReason: reason,
      ...(provider !== undefined ? { providerStopReason: provider } : {}),
      toolCalls: calls,
    });
    if (calls > 0) {
      // Keep the transcript well formed: every call gets a result, none runs.
      this.#appendResults(
        step,
        requests.map((request, index) =>
          this.#unrunOutcome(
            { callKey: `${step.index}.${index}`, callId: request.id, toolName: request.name, request: jsonSafeRequest(request), kind: 'invalid' },
            'not_run',
            `This call was not run: ${stop.message}`,
          ),
        ),
      );
    }
    return stop;
  }

  /** Saves the run with its pending turn and returns the calls awaiting decisions. */
  async #pause(turn: PendingTurn): Promise<AgentResult> {
    const state = this.#state;
    const store = await this.#env.store();
    const secret = await store.getSecret();
    const createdAt = this.#env.now();
    const expiresAt = createdAt + this.#env.limits.confirmationTtlMs;
    const confirmations: StoredConfirmation[] = turn.calls
      .filter((call) => call.kind === 'confirm')
      .map((call) => {
        // A confirmation holds the arguments as the person sees them; the token binds that view. The real values stay in the (sealed) pending turn.
        const shown = this.#env.redactor.toolArguments(call.toolName, call.arguments);
        return {
          approvalId: `apr_${randomBytes(5).toString('hex')}`,
          runId: state.runId,
          callKey: call.callKey,
          callId: call.callId,
          toolName: call.toolName,
          arguments: shown,
          summary: call.summary ?? call.toolName,
          token: createConfirmationToken(
            secret,
            { runId: state.runId, callKey: call.callKey, callId: call.callId, toolName: call.toolName, arguments: shown },
            expiresAt,
          ),
          expiresAt,
          createdAt,
        };
      });
    state.pendingTurn = turn;
    const pending = confirmations.map(toPending);
    this.#emit({ type: 'confirmation_requested', step: turn.step, pending: pending.map(({ token: _token, ...rest }) => rest) });
    this.#updateWallTime();
    await store.saveRun({ runId: state.runId, status: 'awaiting_confirmation', state }, confirmations);
    return this.#finish({ status: 'awaiting_confirmation', pending }, false);
  }

  /**
   * Saves a stored run with the turn whose calls are about to run, before any of them is claimed: a take-over after a
   * crash continues this turn, with these calls, instead of asking the model again (which could answer with other calls).
   */
  async #saveTurn(turn: PendingTurn): Promise<void> {
    const state = this.#state;
    state.pendingTurn = turn;
    this.#updateWallTime();
    await (await this.#env.store()).saveRun({ runId: state.runId, status: 'running', state });
  }

  /** Runs a turn's calls by effect, appends their results in the model's order, and returns the outcomes. */
  async #executeTurn(turn: PendingTurn, decisions: ReadonlyMap<string, AppliedDecision>): Promise<ToolCallOutcome[]> {
    const step = this.#state.steps[turn.step]!;
    const registry = this.#env.registry;
    // Duplicates get their original's outcome once it is known, below.
    const originals = turn.calls.filter((call) => call.duplicateOf === undefined);
    const jobs = originals.map((call): ScheduledJob<ToolCallOutcome> => {
      if (call.kind === 'invalid') return { effect: 'none', run: async () => this.#invalidOutcome(call) };
      if (call.kind === 'confirm') {
        const decision = decisions.get(call.callKey);
        if (!decision || decision.decision !== 'approve') {
          const expired = !decision || decision.decision === 'expired';
          const reason = decision && decision.decision === 'deny' ? decision.reason : undefined;
          return {
            effect: 'none',
            run: async () =>
              this.#unrunOutcome(call, expired ? 'expired' : 'declined', expired ? expiredMessage(call.toolName) : declinedMessage(call.toolName, reason)),
          };
        }
      }
      const tool = registry.get(call.toolName);
      let args = this.#prepared.get(call.callKey);
      if (tool && args === undefined) {
        // A resumed run: validate again against the tools of this process; a call the policy rewrote runs with the rewritten arguments.
        const request = call.policyNote !== undefined ? { id: call.request.id, name: call.request.name, arguments: call.arguments } : call.request;
        const prepared = registry.prepare(request);
        if (!prepared.success) {
          const invalid: TurnCall = {
            ...call,
            kind: 'invalid',
            invalidResult: { content: [{ type: 'text', text: prepared.failure.message }], isError: true },
            failureCode: prepared.failure.code,
          };
          return { effect: 'none', run: async () => this.#invalidOutcome(invalid) };
        }
        args = prepared.arguments;
      }
      if (!tool) return { effect: 'none', run: async () => this.#unrunOutcome(call, 'failed', missingToolMessage(call.toolName)) };
      // Only a call a person approved carries the approval to its tool (an imported MCP tool answers its server's confirmation with it).
      const approval: ToolCallApproval | undefined = call.kind === 'confirm' ? { approvedBy: 'person', summary: call.summary ?? call.toolName } : undefined;
      return { effect: schedulingEffect(tool), run: () => this.#executeCall(turn.step, call, tool, args, approval) };
    });
    const scheduled = await scheduleByEffect(jobs, this.#env.limits.maxParallelReads);
    const byKey = new Map(scheduled.map((outcome) => [outcome.callKey, outcome]));
    const outcomes = turn.calls.map(
      (call) => byKey.get(call.callKey) ?? this.#duplicateOutcome(call, call.duplicateOf === undefined ? undefined : byKey.get(call.duplicateOf)),
    );
    this.#appendResults(step, outcomes);
    return outcomes;
  }

  /** A call repeating an earlier one of its response: a read shares the original's result, anything else gets the notice. */
  #duplicateOutcome(call: TurnCall, original: ToolCallOutcome | undefined): ToolCallOutcome {
    const shared = original !== undefined && this.#env.registry.get(call.toolName)?.effect === 'read';
    const outcome: ToolCallOutcome = {
      ...this.#invalidOutcome(call, false),
      status: 'duplicate',
      ...(shared ? { result: original.result, truncated: original.truncated } : {}),
    };
    if (original) outcome.duplicateOf = original.callId;
    this.#emitResult(outcome);
    return outcome;
  }

  async #executeCall(step: number, call: TurnCall, tool: AnyTool, args: unknown, approval: ToolCallApproval | undefined): Promise<ToolCallOutcome> {
    const state = this.#state;
    const effect = schedulingEffect(tool);
    const blocker = this.#stoppedCalls.blockerFor(effect);
    if (blocker !== undefined) return this.#unrunOutcome(call, 'not_run', blockedByStillRunningMessage(tool.name, blocker));
    let storeKey = call.callKey;
    if (this.#env.persisted) {
      const store = await this.#env.store();
      const claimed = await this.#claimCall(store, step, call, tool, args);
      storeKey = claimed.storeKey;
      const existing = claimed.existing;
      // The same call, asked again: its stored outcome stands, answering this request's call id.
      if (existing?.status === 'done' && existing.outcome) return this.#reuseOutcome(call, tool, existing.outcome);
      // Begun by a process that died: only a tool that dedupes on the idempotency key may safely be started again.
      if (existing && tool.effect === 'write' && !tool.acceptsIdempotencyKey) {
        const outcome = this.#unrunOutcome(call, 'outcome_unknown', outcomeUnknownMessage(call.toolName));
        return outcome;
      }
    }
    const span = this.#span!.startTool({ toolName: tool.name, callId: call.callId, description: tool.description });
    let execution: ToolExecution;
    try {
      execution = await this.#env.registry.execute(call.callId, tool, args, {
        ...(this.#runSignal ? { signal: this.#runSignal } : {}),
        ...(tool.timeoutMs === undefined && this.#env.limits.toolTimeoutMs !== undefined ? { timeoutMs: this.#env.limits.toolTimeoutMs } : {}),
        idempotencyKey: idempotencyKeyFor(state.runId, storeKey),
        ...(approval ? { approval } : {}),
        context: this.#env.context,
        ...(this.#env.stream ? { onProgress: this.#progressListener(this.#env.stream, step, call, tool.name) } : {}),
      });
    } catch (error) {
      // The registry does not throw for tools; this is a broken registry or tool object, kept to this one call.
      execution = {
        callId: call.callId,
        toolName: tool.name,
        arguments: args,
        result: {
          content: [{ type: 'text', text: `The tool ${tool.name} failed with an internal error. Try a different approach, or ask the user.` }],
          isError: true,
        },
        durationMs: 0,
        failure: { code: 'internal_error', message: 'internal error', retryable: false, error },
        truncated: false,
      };
    }
    // The call's slot is held until its tool's work has ended, however the call stopped (scheduleByEffect waits for this job).
    const ended = await this.#stoppedCalls.awaitEnd(execution, effect);
    if (!ended) this.#keepForResumes(execution.workEnded!);
    const stillRunning = !ended && effect === 'write';
    if (stillRunning)
      execution = { ...execution, result: { content: [{ type: 'text', text: stillRunningMessage(tool.name, this.#stoppedCalls.graceMs) }], isError: true } };
    span.end({ isError: execution.result.isError, ...(execution.failure ? { errorType: execution.failure.code } : {}) });
    state.usage.toolCalls++;
    // The policy labels the result and may isolate it; the model and the record get what it returns.
    const screened: ScreenedResult | undefined = this.#env.callPolicy.screen(call.callId, tool, execution.result);
    if (screened) execution = { ...execution, result: screened.result };
    // After the screen: the note is the policy's own text, not the tool's, so isolation must not wrap it.
    if (call.policyNote !== undefined)
      execution = { ...execution, result: { ...execution.result, content: [...execution.result.content, { type: 'text', text: call.policyNote }] } };
    const outcome: ToolCallOutcome = {
      callKey: call.callKey,
      callId: call.callId,
      toolName: tool.name,
      arguments: toJson(args),
      status: stillRunning ? 'outcome_unknown' : execution.result.isError ? 'failed' : 'succeeded',
      result: execution.result,
      durationMs: execution.durationMs,
      truncated: execution.truncated,
    };
    if (execution.failure) outcome.failureCode = execution.failure.code;
    const event: RunEvent = {
      type: 'tool_result',
      step,
      callKey: call.callKey,
      callId: call.callId,
      toolName: tool.name,
      arguments: outcome.arguments,
      status: outcome.status,
      result: execution.result,
      durationMs: execution.durationMs,
      truncated: execution.truncated,
    };
    if (execution.failure) {
      event.failure = { code: execution.failure.code, retryable: execution.failure.retryable };
      if (execution.failure.error !== undefined) event.failure.error = recordError(execution.failure.error);
    }
    if (screened) {
      event.trust = screened.trust;
      event.isolated = screened.isolated;
    }
    this.#emit(event);
    if (this.#env.persisted) await (await this.#env.store()).finishCall(state.runId, storeKey, screened ? { ...outcome, trust: screened.trust } : outcome);
    return outcome;
  }

  /** A resume of this run in this process (a new loop) must see the call still running too, until it ends. */
  #keepForResumes(workEnded: Promise<void>): void {
    const runId = this.#state.runId;
    stoppedCallsByRun.set(runId, this.#stoppedCalls);
    void workEnded.then(() => {
      if (this.#stoppedCalls.blockerFor('write') === undefined && stoppedCallsByRun.get(runId) === this.#stoppedCalls) stoppedCallsByRun.delete(runId);
    });
  }

  /** A call's stored outcome, answering this request's call id; the run's policy learns from its result as if the call had run here. */
  #reuseOutcome(call: TurnCall, tool: AnyTool, stored: StoredOutcome): ToolCallOutcome {
    const outcome = withoutTrust(stored);
    // The policy's note was added after the screen when the call ran; the policy learns from the tool's result alone.
    const content = outcome.result.content;
    const last = content.at(-1);
    const noted = call.policyNote !== undefined && last?.type === 'text' && last.text === call.policyNote;
    const toolResult = noted ? { ...outcome.result, content: content.slice(0, -1) } : outcome.result;
    // A policy that could not take the result in withholds it, as it would a fresh one.
    const withheld = this.#env.callPolicy.restore(call.callId, tool, toolResult, stored.trust);
    return { ...outcome, ...(withheld ? { result: withheld } : {}), callKey: call.callKey, callId: call.callId };
  }

  #progressListener(sink: LoopStreamSink, step: number, call: TurnCall, toolName: string): (progress: number, total?: number, message?: string) => void {
    return (progress, total, message) => {
      // A tool may keep reporting after the run was aborted; a stopped stream gets nothing more.
      if (this.#runSignal?.aborted) return;
      const report: ToolProgressReport = { step, callKey: call.callKey, callId: call.callId, toolName, progress };
      if (total !== undefined) report.total = total;
      if (message !== undefined) report.message = message;
      try {
        sink.toolProgress(report);
      } catch {
        // Progress is for display; it never fails the call.
      }
    };
  }

  /**
   * Begins a call in the store. Its key is its position (`<step>.<index>`), and a take-over that asked the model again
   * may have got a different call at a position a dead process had begun one at: a stored call is this call only if
   * its claim has the same tool and digest of canonical arguments. Otherwise the earlier call is recorded as superseded
   * and this one is begun under `<callKey>~<digest>`, a key of its own in every process (its idempotency key too).
   */
  async #claimCall(
    store: RunStore,
    step: number,
    call: TurnCall,
    tool: AnyTool,
    args: unknown,
  ): Promise<{ storeKey: string; existing: StoredCall | undefined }> {
    const runId = this.#state.runId;
    this.#digestKey ??= await store.getSecret();
    const digest = callDigest(this.#digestKey, tool.name, args);
    const claim: CallClaim = { toolName: tool.name, callId: call.callId, ...(digest !== undefined ? { digest } : {}) };
    const existing = await store.beginCall(runId, call.callKey, claim);
    if (!existing || sameCall(existing.claim, claim)) return { storeKey: call.callKey, existing };
    const storeKey = `${call.callKey}~${digest ?? `tool-${tool.name}`}`;
    this.#supersede(step, call, existing, storeKey);
    const own = await store.beginCall(runId, storeKey, claim);
    if (own && !sameCall(own.claim, claim)) {
      throw new RunStoreError(
        `The run store holds another call under key "${storeKey}" of run "${runId}", which names this call's digest; the store's data was altered or mixed with another store's. The run cannot continue safely.`,
      );
    }
    return { storeKey, existing: own };
  }

  /** Keeps a call that a different call replaced at its key in the run (once, however often a take-over finds it), and records it. */
  #supersede(step: number, call: TurnCall, earlier: StoredCall, storeKey: string): void {
    const claim = earlier.claim!;
    const superseded = (this.#state.supersededCalls ??= []);
    if (superseded.some((item) => item.callKey === call.callKey && item.callId === claim.callId && item.toolName === claim.toolName)) return;
    const outcome: ToolCallOutcome =
      earlier.status === 'done' && earlier.outcome
        ? { ...withoutTrust(earlier.outcome), callKey: call.callKey, supersededBy: call.callId }
        : {
            callKey: call.callKey,
            callId: claim.callId,
            toolName: claim.toolName,
            arguments: undefined,
            status: 'outcome_unknown',
            result: { content: [{ type: 'text', text: supersededUnknownText(claim.toolName) }], isError: true },
            durationMs: 0,
            truncated: false,
            supersededBy: call.callId,
          };
    superseded.push(outcome);
    this.#emit({
      type: 'call_superseded',
      step,
      callKey: call.callKey,
      callId: claim.callId,
      toolName: claim.toolName,
      status: outcome.status,
      supersededBy: { callId: call.callId, toolName: call.toolName, storeKey },
    });
  }

  #invalidOutcome(call: TurnCall, emit = true): ToolCallOutcome {
    const result: ToolResult = call.invalidResult ?? { content: [{ type: 'text', text: 'The call could not be run.' }], isError: true };
    const outcome: ToolCallOutcome = {
      callKey: call.callKey,
      callId: call.callId,
      toolName: call.toolName,
      arguments: call.arguments ?? call.request.arguments ?? call.request.argumentsText,
      status: call.blocked ? 'blocked' : call.notRun ? 'not_run' : call.duplicateOf !== undefined ? 'duplicate' : 'failed',
      result,
      durationMs: 0,
      truncated: false,
    };
    if (call.failureCode) outcome.failureCode = call.failureCode;
    if (emit) this.#emitResult(outcome);
    return outcome;
  }

  #unrunOutcome(call: TurnCall, status: ToolCallStatus, text: string): ToolCallOutcome {
    const outcome: ToolCallOutcome = {
      callKey: call.callKey,
      callId: call.callId,
      toolName: call.toolName,
      arguments: call.arguments ?? call.request.arguments ?? call.request.argumentsText,
      status,
      result: { content: [{ type: 'text', text }], isError: true },
      durationMs: 0,
      truncated: false,
    };
    this.#emitResult(outcome);
    return outcome;
  }

  #emitResult(outcome: ToolCallOutcome): void {
    const event: RunEvent = {
      type: 'tool_result',
      step: Number(outcome.callKey.split('.')[0]),
      callKey: outcome.callKey,
      callId: outcome.callId,
      toolName: outcome.toolName,
      arguments: outcome.arguments,
      status: outcome.status,
      result: outcome.result,
      durationMs: outcome.durationMs,
      truncated: outcome.truncated,
    };
    if (outcome.failureCode) event.failure = { code: outcome.failureCode, retryable: false };
    this.#emit(event);
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
    const interrupted = this.#interruption(outcomes.some((outcome) => outcome.failureCode === 'aborted') ? 'tool_calls' : undefined);
    if (interrupted) return { stop: interrupted };
    const loop = checkForLoop(this.#state, outcomes, this.#env.limits);
    return loop ? { stop: loop } : undefined;
  }

  /** An abort by the caller, or the wall-time deadline, as a stop reason; `cut` says what was in flight when it came. */
  #interruption(cut?: 'model_call' | 'tool_calls'): AgentStopReason | undefined {
    const { limits } = this.#env;
    if (this.#deadline?.signal.aborted && limits.maxWallTimeMs !== undefined) {
      this.#updateWallTime();
      const stop = budgetStop('wallTimeMs', limits.maxWallTimeMs, this.#state.usage.wallTimeMs, 0);
      if (!cut) return stop;
      const what = cut === 'model_call' ? 'The model call in flight was cut off at the deadline.' : 'Tool calls still running were aborted at the deadline.';
      return { ...stop, interrupted: cut, message: `${stop.message} ${what}` };
    }
    if (this.#env.signal?.aborted) {
      const reason: unknown = this.#env.signal.reason;
      return { kind: 'aborted', message: `The run was aborted${reason instanceof Error && reason.message ? `: ${reason.message}` : ''}.` };
    }
    return undefined;
  }

  /** Sets up the run's signal: the caller's, plus a deadline for the wall-time budget. */
  #armDeadline(): NodeJS.Timeout | undefined {
    const { limits, signal } = this.#env;
    let timer: NodeJS.Timeout | undefined;
    if (limits.maxWallTimeMs !== undefined) {
      this.#deadline = new AbortController();
      const left = limits.maxWallTimeMs - this.#state.usage.wallTimeMs;
      if (left <= 0) this.#deadline.abort(new Error('wall-time budget used up'));
      else {
        const deadline = this.#deadline;
        timer = setTimeout(() => deadline.abort(new Error('wall-time budget used up')), left);
        timer.unref?.();
      }
    }
    const signals = [signal, this.#deadline?.signal].filter((item): item is AbortSignal => item !== undefined);
    this.#runSignal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
    return timer;
  }

  #updateWallTime(): void {
    this.#state.usage.wallTimeMs = Math.round(this.#wallAtStart + (performance.now() - this.#activeSince));
  }

  #spent(): Spent {
    this.#updateWallTime();
    const { usage, costUsd } = this.#state;
    return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costUsd, toolCalls: usage.toolCalls, wallTimeMs: usage.wallTimeMs };
  }

  async #stopped(stopReason: AgentStopReason): Promise<AgentResult> {
    return this.#finish({ status: 'stopped', stopReason });
  }

  /** Builds the result, records the stop, and (for stored runs) stores the final state. */
  async #finish(
    outcome:
      | { status: 'completed'; text: string; finishReason: ModelResponse['stopReason']; output: unknown }
      | { status: 'awaiting_confirmation'; pending: PendingConfirmation[] }
      | { status: 'stopped'; stopReason: AgentStopReason },
    store = true,
  ): Promise<AgentResult> {
    const state = this.#state;
    this.#updateWallTime();
    const stopEvent: RunEvent = { type: 'stop', status: outcome.status, usage: { ...state.usage }, costUsd: state.costUsd };
    if (outcome.status === 'stopped') stopEvent.stopReason = outcome.stopReason;
    if (outcome.status === 'completed' && outcome.output !== undefined) stopEvent.output = outcome.output;
    this.#emit(stopEvent);
    if (store && this.#env.persisted && outcome.status !== 'awaiting_confirmation') {
      await (await this.#env.store()).saveRun({ runId: state.runId, status: outcome.status, state });
    }
    const superseded = state.supersededCalls ?? [];
    // A superseded read left running changed nothing; a superseded write left running (or a tool no longer here) may have.
    const unknownSuperseded = superseded.filter((call) => call.status === 'outcome_unknown' && this.#env.registry.get(call.toolName)?.effect !== 'read');
    const unknown = [...state.steps.flatMap((step) => step.toolCalls.filter((call) => call.status === 'outcome_unknown')), ...unknownSuperseded];
    return {
      ...outcome,
      runId: state.runId,
      messages: state.messages,
      steps: state.steps,
      usage: { ...state.usage },
      costUsd: state.costUsd,
      recordPath: state.recordPath,
      ...(unknown.length > 0 ? { outcomeUnknown: unknown } : {}),
      ...(superseded.length > 0 ? { supersededCalls: superseded } : {}),
    };
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

function toPending(item: StoredConfirmation): PendingConfirmation {
  return {
    approvalId: item.approvalId,
    runId: item.runId,
    callKey: item.callKey,
    callId: item.callId,
    toolName: item.toolName,
    arguments: item.arguments,
    summary: item.summary,
    token: item.token,
    expiresAt: new Date(item.expiresAt).toISOString(),
  };
}

export { toPending as toPendingConfirmation };

/** The call as the pending turn keeps it, parse outcome included, so that a resumed run does not parse the text again. */
function jsonSafeRequest(request: ToolCallRequest): ToolCallRequest {
  const copy: ToolCallRequest = { id: request.id, name: request.name };
  if (request.arguments !== undefined) copy.arguments = toJson(request.arguments);
  if (request.argumentsText !== undefined) copy.argumentsText = request.argumentsText;
  if (request.argumentsError !== undefined) copy.argumentsError = request.argumentsError;
  return copy;
}

/** A JSON copy of a value: what the store would give back. */
function toJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  if (text === undefined) return undefined;
  const parsed = safeParseJson(text);
  return parsed.success ? parsed.value : value;
}

function safeCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string') return name;
  }
  return '_OTHER';
}

/** The id of a response's last tool call when the response was cut at its output limit right after it (so it may be incomplete). */
function cutOffCallId(response: ModelResponse): string | undefined {
  if (response.stopReason !== 'max_tokens') return undefined;
  // Text after the last call means the call was finished before the cut.
  if (response.content.at(-1)?.type === 'text') return undefined;
  return toolCallsOf(response).at(-1)?.id;
}

/** The loop breaker's signature, or `undefined` for arguments canonical JSON cannot write (such a call is never deduplicated). */
function signatureOf(toolName: string, args: unknown): string | undefined {
  try {
    return callSignature(toolName, args);
  } catch {
    return undefined;
  }
}

/**
 * The identity of a call at its key, for telling a replayed call from a different one: HMAC-SHA256 of the tool name
 * and canonical arguments, keyed by the store's secret, so the store holds no argument value (nor a plain hash that
 * a short secret could be guessed back from). `undefined` for arguments canonical JSON cannot write.
 */
function callDigest(key: Uint8Array, toolName: string, args: unknown): string | undefined {
  let canonical: string;
  try {
    canonical = canonicalJson(args);
  } catch {
    return undefined;
  }
  return createHmac('sha256', key)
    .update('toolwright call digest v1\u0000')
    .update(JSON.stringify([toolName, canonical]))
    .digest('base64url');
}

/** A stored outcome as the caller and the model see it: the trust label stays in the store. */
function withoutTrust(stored: StoredOutcome): ToolCallOutcome {
  const { trust: _trust, ...outcome } = stored;
  return outcome;
}

/** Whether a stored claim is this call's; a claim from before digests (or arguments with none) is trusted on its tool name alone. */
function sameCall(stored: CallClaim | undefined, claim: CallClaim): boolean {
  if (!stored) return true;
  if (stored.toolName !== claim.toolName) return false;
  return stored.digest === undefined || claim.digest === undefined || stored.digest === claim.digest;
}

function supersededUnknownText(toolName: string): string {
  return `The run's process died while this call to ${toolName} was running; the run was taken over and the model, asked again, made a different call in its place. Whether this call took effect is unknown.`;
}

/** Stable for one call of one run, in every process that runs it: what a tool dedupes on. */
export function idempotencyKeyFor(runId: string, callKey: string): string {
  return `${runId}:${callKey}`;
}

export function recordError(error: unknown): RecordedError {
  if (error instanceof Error) {
    const recorded: RecordedError = { name: error.name, message: error.message };
    if (error.stack !== undefined) recorded.stack = error.stack;
    return recorded;
  }
  return { name: typeof error, message: String(error) };
}
