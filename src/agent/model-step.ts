/**
 * The agent loop's model step: one model call planned against the budgets, made (streamed for `streamAgent`) under the
 * run's signal, and accounted; calls whose arguments break the registry's limits screened out of the response; a finish
 * reason that must not pass for a finished answer turned into a stop; and a final answer under `output` validated, with
 * one repair turn.
 * @module
 */
import { withCacheTokens } from '../formats/cache-usage.js';
import { estimateInputTokens } from '../models/estimate-tokens.js';
import { toolCallsOf, type ModelRequest, type ModelResponse, type TokenUsage, type ToolChoice } from '../protocol/model-exchange.js';
import type { AssistantMessage, ToolCallPart } from '../protocol/messages.js';
import { MissingPeerError } from '../shared/errors.js';
import { describeForbiddenKey, describeLimit, inspectJsonValue, safeParseJson, type JsonParseFailure } from '../shared/safe-json.js';
import { untilAborted } from '../shared/until-aborted.js';
import { DEFAULT_ARGUMENT_LIMITS } from '../tools/argument-limits.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { OutputDefinition } from '../tools/define-output.js';
import { invalidOutputMessage, outputNotJsonMessage } from '../tools/model-messages.js';
import type { PreparedCall } from '../tools/tool-registry.js';
import type { AgentStep, AgentStopReason, ToolCallOutcome, UnexpectedModelStop } from './agent-result.js';
import type { SpanHandle } from './agent-telemetry.js';
import { estimateInputCost, planModelCall, type CacheExpectation, type Spent } from './budget.js';
import { recordError, unrunOutcome } from './calls/call-outcomes.js';
import { callKeyOf, jsonSafeRequest } from './calls/prepare-call.js';
import { foldModelStream } from './streaming/fold-model-stream.js';
import type { LoopEnvironment } from './loop-environment.js';
import { costOf } from './price-table.js';
import type { RecordedError, RunEvent } from './run-event.js';
import type { RunState } from './run-state.js';

/** How a step narrows its tools without changing the declared list: the provider's deferred search, or the tools allowed now. */
export type StepNarrowing = Pick<ModelRequest, 'toolSearch' | 'allowedTools'>;

/** What the model step reads of the loop running it. */
export interface ModelStepHost {
  state: RunState;
  env: LoopEnvironment;
  span: () => SpanHandle;
  runSignal: () => AbortSignal | undefined;
  emit: (event: RunEvent) => void;
  spent: () => Spent;
  /** An abort or the deadline, as a stop reason naming the model call it cut. */
  interruption: (cut: 'model_call') => AgentStopReason | undefined;
}

export type ModelStepResult =
  | { response: ModelResponse; step: AgentStep }
  | {
      stop: AgentStopReason;
      /** A developer's error, not the model's (a provider SDK that is not installed): the run records its stop, then rejects with it. */
      rejectWith?: unknown;
    };

/** A final answer, checked: the run completes with `output`, gets a repair turn, or stops. */
export type FinalAnswer = { output: unknown } | 'repair' | { stop: AgentStopReason };

export class ModelStep {
  readonly #host: ModelStepHost;
  /** Calls whose arguments broke the registry's limits, already answered; their arguments never reach the record or the transcript. */
  readonly #oversizedCalls = new WeakMap<ToolCallPart, PreparedCall>();
  /** With caching on: what the previous call of this process sent (its tools and its estimate), the prefix the next may read. */
  #previousPrompt: { tools: string; estimatedInputTokens: number } | undefined;

  constructor(host: ModelStepHost) {
    this.#host = host;
  }

  /** The preparation made when the response arrived, for a call whose arguments were over the limits. */
  readonly preparedBefore = (part: ToolCallPart): PreparedCall | undefined => this.#oversizedCalls.get(part);

  /** Plans, makes and accounts one model call. */
  async call(kind: 'routing' | 'model', tools: readonly AnyTool[], toolChoice: ToolChoice, narrowing?: StepNarrowing): Promise<ModelStepResult> {
    const { state, env } = this.#host;
    const request = this.#request(kind, tools, toolChoice);
    if (narrowing) Object.assign(request, narrowing);
    let estimated: number;
    try {
      estimated = env.model.estimateInputTokens(request);
    } catch {
      estimated = estimateInputTokens(request);
    }
    const cache = this.#cacheExpectation(request, estimated);
    const plan = planModelCall(env.limits, this.#host.spent(), estimated, env.price, cache);
    if (!plan.ok) return { stop: plan.stop };
    const estimatedInputCostUsd = env.price ? estimateInputCost(estimated, env.price, cache) : undefined;
    if (plan.maxOutputTokens !== undefined) request.maxOutputTokens = plan.maxOutputTokens;

    const index = state.steps.length;
    this.#host.emit({
      type: 'model_request',
      step: index,
      messages: [...state.messages],
      tools: tools.map((tool) => tool.name),
      toolChoice,
      maxOutputTokens: request.maxOutputTokens,
      estimatedInputTokens: estimated,
      ...(estimatedInputCostUsd !== undefined ? { estimatedInputCostUsd } : {}),
    });
    const started = performance.now();
    const answered = await this.#send(kind, index, request);
    if ('stop' in answered) return answered;
    const response = this.#withoutOverLimitArguments(answered.response);
    const step = this.#account(kind, index, response, estimated, started);
    if (estimatedInputCostUsd !== undefined) step.estimatedInputCostUsd = estimatedInputCostUsd;
    return { response, step };
  }

  /**
   * With `cache: 'auto'`, the breaker expects this call to read from the cache everything the previous call sent, when both
   * offered the same tools in the same order: the loop only appends messages, so that call's whole prompt (cached up to its
   * last message) is a prefix of this one. Otherwise (the first call, other tools) it expects no read. Where the model states
   * its provider's rules (`Model.promptCache`), a prompt under the minimum is neither read nor written, a hit counts in the
   * provider's steps, and a provider that bills no writes bills the rest at the input rate.
   */
  #cacheExpectation(request: ModelRequest, estimated: number): CacheExpectation | undefined {
    if (request.cache !== 'auto') {
      this.#previousPrompt = undefined;
      return undefined;
    }
    const tools = JSON.stringify((request.tools ?? []).map((tool) => tool.name));
    const previous = this.#previousPrompt;
    this.#previousPrompt = { tools, estimatedInputTokens: estimated };
    const readable = previous !== undefined && previous.tools === tools ? previous.estimatedInputTokens : 0;
    const rules = this.#host.env.model.promptCache;
    if (rules === undefined) return { expectedReadTokens: readable };
    const { minimumTokens, readIncrementTokens: step } = rules;
    const read = readable < minimumTokens ? 0 : step === undefined ? readable : minimumTokens + Math.floor((readable - minimumTokens) / step) * step;
    const written = rules.billsWrites && estimated >= minimumTokens ? estimated - read : 0;
    return { expectedReadTokens: read, expectedWriteTokens: written };
  }

  #request(kind: 'routing' | 'model', tools: readonly AnyTool[], toolChoice: ToolChoice): ModelRequest {
    const { state, env } = this.#host;
    const request: ModelRequest = { messages: state.messages, tools, toolChoice };
    const output = env.output;
    if (kind === 'model' && output)
      request.output = { name: output.name, schema: output.schema, ...(output.description ? { description: output.description } : {}) };
    if (state.settings.temperature !== undefined) request.temperature = state.settings.temperature;
    if (state.settings.seed !== undefined) request.seed = state.settings.seed;
    if (state.settings.cache === 'auto') request.cache = 'auto';
    if (state.settings.cacheKey !== undefined) request.cacheKey = state.settings.cacheKey;
    if (state.settings.parallelToolCalls !== undefined) request.parallelToolCalls = state.settings.parallelToolCalls;
    return request;
  }

  async #send(
    kind: 'routing' | 'model',
    index: number,
    request: ModelRequest,
  ): Promise<{ response: ModelResponse } | { stop: AgentStopReason; rejectWith?: unknown }> {
    const { state, env } = this.#host;
    const model = env.model;
    const signal = this.#host.runSignal();
    const chat = this.#host.span().startChat({
      provider: model.provider,
      model: model.id,
      maxOutputTokens: request.maxOutputTokens,
      temperature: request.temperature,
    });
    const started = performance.now();
    try {
      const sent: ModelRequest = { ...request, messages: [...state.messages], signal };
      const sink = env.stream;
      const answer = sink
        ? foldModelStream(() => model.stream(sent), kind === 'model' ? (delta) => sink.modelDelta(index, delta) : undefined, signal)
        : model.generate(sent);
      // A provider that ignores the signal must not hold the run past its deadline or the caller's abort.
      const response = await untilAborted(answer, signal);
      chat.end(response);
      return { response };
    } catch (error) {
      // Provider errors can quote the API key; the stop reason, span and record get the redacted text.
      const recorded = env.redactor(recordError(error)) as RecordedError;
      chat.end(undefined, { type: errorCode(error), message: recorded.message });
      this.#host.emit({ type: 'model_error', step: index, error: recorded, durationMs: performance.now() - started });
      const interrupted = this.#host.interruption('model_call');
      if (interrupted) return { stop: interrupted };
      const stop: AgentStopReason = { kind: 'model_error', errorCode: errorCode(error), message: `The model call failed: ${recorded.message}` };
      // A provider SDK that is not installed is the developer's to fix before any run can work, not a model failure: the run rejects (docs/agent.md).
      return MissingPeerError.isInstance(error) ? { stop, rejectWith: error } : { stop };
    }
  }

  #account(kind: 'routing' | 'model', index: number, response: ModelResponse, estimated: number, started: number): AgentStep {
    const { state, env } = this.#host;
    const reported = response.usage;
    const counted = { inputTokens: safeCount(reported?.inputTokens), outputTokens: safeCount(reported?.outputTokens) };
    const cached = reported?.cacheReadTokens !== undefined || reported?.cacheWriteTokens !== undefined;
    const usage: TokenUsage = cached ? withCacheTokens(counted, reported.cacheReadTokens, reported.cacheWriteTokens) : counted;
    const cost = costOf(usage, env.price);
    state.usage.inputTokens += usage.inputTokens;
    state.usage.outputTokens += usage.outputTokens;
    if (usage.cacheReadTokens !== undefined) state.usage.cacheReadTokens = (state.usage.cacheReadTokens ?? 0) + usage.cacheReadTokens;
    if (usage.cacheWriteTokens !== undefined) state.usage.cacheWriteTokens = (state.usage.cacheWriteTokens ?? 0) + usage.cacheWriteTokens;
    state.usage.modelCalls++;
    state.costUsd += cost;
    const { raw, ...rest } = response;
    this.#host.emit({ type: 'model_response', step: index, response: rest, raw, costUsd: cost, durationMs: performance.now() - started });
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
      if (response.providerItems !== undefined) assistant.providerItems = response.providerItems;
      state.messages.push(assistant);
    }
    return step;
  }

  /**
   * A final answer under `output`: validated, it completes the run. The first invalid one gets a repair turn (a user
   * message listing the problems, returned as `'repair'`); a second stops the run with `output_invalid`.
   */
  finalAnswer(output: OutputDefinition, response: ModelResponse, step: AgentStep): FinalAnswer {
    const { state } = this.#host;
    const { checked, jsonError } = checkAnswer(output, response, step);
    if (checked?.success) return { output: checked.data };
    const issues = checked && !checked.success ? checked.issues : [];
    const repair = (state.outputRepairs ?? 0) < 1;
    const event: RunEvent = { type: 'output_invalid', step: step.index, output: output.name, issues, repair };
    if (jsonError) event.jsonError = jsonError.message;
    this.#host.emit(event);
    if (repair) {
      state.outputRepairs = (state.outputRepairs ?? 0) + 1;
      const content = jsonError ? outputNotJsonMessage(output.name, jsonError, output.schema) : invalidOutputMessage(output.name, issues, output.schema);
      state.messages.push({ role: 'user', content });
      return 'repair';
    }
    const problem = jsonError ? `was not JSON (${jsonError.message})` : `had ${issues.length} problem${issues.length === 1 ? '' : 's'}`;
    return {
      stop: {
        kind: 'output_invalid',
        output: output.name,
        issues,
        ...(jsonError ? { jsonError } : {}),
        text: step.text,
        message: `The model's final answer did not match the output schema "${output.name}" after one repair turn: it ${problem}. See stopReason.issues; check that the schema is one the model can follow, or describe the answer in the prompt.`,
      },
    };
  }

  /**
   * Arguments over the registry's limits (too deep, too long) would make the
   * record, the run store and token estimates throw or stall: such a call keeps
   * its id and name with empty arguments, and is answered with the limit's message.
   */
  #withoutOverLimitArguments(response: ModelResponse): ModelResponse {
    const registry = this.#host.env.registry;
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
   * A finish reason that must not pass for a finished answer, as a stop; its tool calls, if any, are answered as not
   * run (`unrun`, for the loop to record and append, so the transcript stays well formed).
   */
  unexpectedStop(response: ModelResponse, step: AgentStep): { stop: UnexpectedModelStop; unrun: ToolCallOutcome[] } | undefined {
    const reason = response.stopReason;
    const requests = toolCallsOf(response);
    const calls = requests.length;
    if (reason === 'end_turn' || reason === 'tool_calls') return undefined;
    // Complete calls of a cut or oddly ended response still run (a cut last call is answered by the prepare step).
    if ((reason === 'max_tokens' || reason === 'other') && calls > 0) return undefined;
    if (calls === 0 && this.#host.env.acceptFinishReasons.includes(reason)) return undefined;
    const stop = unexpectedStopReason(response, step);
    const provider = response.providerStopReason;
    this.#host.emit({
      type: 'unexpected_stop',
      step: step.index,
      finishReason: reason,
      ...(provider !== undefined ? { providerStopReason: provider } : {}),
      toolCalls: calls,
    });
    const unrun = requests.map((request, index) =>
      unrunOutcome(
        { callKey: callKeyOf(step.index, index), callId: request.id, toolName: request.name, request: jsonSafeRequest(request), kind: 'invalid' },
        'not_run',
        `This call was not run: ${stop.message}`,
      ),
    );
    return { stop, unrun };
  }
}

function unexpectedStopReason(response: ModelResponse, step: AgentStep): UnexpectedModelStop {
  const reason = response.stopReason;
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
  return stop;
}

/** The answer checked against the output schema; the answer is hostile input like any call's arguments: the same bounds apply before anything walks it. */
function checkAnswer(
  output: OutputDefinition,
  response: ModelResponse,
  step: AgentStep,
): { checked?: ReturnType<OutputDefinition['validate']>; jsonError?: JsonParseFailure } {
  if (response.output) {
    const { exceeded, forbiddenKey } = inspectJsonValue(response.output.value, DEFAULT_ARGUMENT_LIMITS);
    if (exceeded) return { jsonError: { message: describeLimit(exceeded), limit: exceeded } };
    if (forbiddenKey) return { jsonError: { message: describeForbiddenKey(forbiddenKey), forbiddenKey } };
    return { checked: output.validate(response.output.value) };
  }
  const parsed = safeParseJson(step.text.trim(), DEFAULT_ARGUMENT_LIMITS);
  return parsed.success ? { checked: output.validate(parsed.value) } : { jsonError: parsed.error };
}

/** The id of a response's last tool call when the response was cut at its output limit right after it (so it may be incomplete). */
export function cutOffCallId(response: ModelResponse): string | undefined {
  if (response.stopReason !== 'max_tokens') return undefined;
  // Text after the last call means the call was finished before the cut.
  if (response.content.at(-1)?.type === 'text') return undefined;
  return toolCallsOf(response).at(-1)?.id;
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
