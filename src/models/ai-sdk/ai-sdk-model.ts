/**
 * A {@link Model} over any AI SDK language model (`LanguageModelV4`, or V3):
 * the provider package (`@ai-sdk/google`, `@ai-sdk/amazon-bedrock`,
 * `@ai-sdk/mistral`, `ollama-ai-provider`…) speaks its provider's wire format,
 * toolwright converts the neutral request and response around it
 * (`src/formats/ai-sdk/`) and adds what the other providers have: retries with
 * backoff and `retry-after`, an idle timeout, an abort that also ends a model
 * that ignores its signal, typed provider errors, and FormatWarnings.
 * Nothing of the AI SDK is imported at run time; the provider package is the
 * caller's.
 * @module
 */
import { programmaticCallWarnings } from '../../formats/programmatic-call-warnings.js';
import { addAISDKCacheOptions, merged } from '../../formats/ai-sdk/ai-sdk-cache-control.js';
import { aiSDKAllowedTools, aiSDKParallelToolCallsOff } from '../../formats/ai-sdk/ai-sdk-package-options.js';
import { aiSDKStrictSchemaProvider, restoreAISDKStrictNulls } from '../../formats/ai-sdk/ai-sdk-strict-tools.js';
import { aiSDKNativeToolSearch, withAISDKToolSearch } from '../../formats/ai-sdk/ai-sdk-tool-search.js';
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { AISDKLanguageModel, AISDKProviderOptions, AISDKSpecificationVersion } from '../../formats/ai-sdk/ai-sdk-types.js';
import { AISDKStreamAccumulator } from '../../formats/ai-sdk/ai-sdk-stream-accumulator.js';
import { convertToAISDKPrompt } from '../../formats/ai-sdk/convert-to-ai-sdk-prompt.js';
import {
  aiSDKProviderStopReason,
  aiSDKUsage,
  mapAISDKFinishReason,
  mapAISDKGenerateResult,
  mapAISDKWarnings,
} from '../../formats/ai-sdk/map-ai-sdk-response.js';
import { toAISDKFunctionTools, toAISDKToolChoice } from '../../formats/ai-sdk/to-ai-sdk-function-tools.js';
import { declareOnlyAllowed, toolSearchUnsupported } from '../../formats/allowed-tools.js';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { ReasoningPart, TextPart, ToolCallPart } from '../../protocol/messages.js';
import type { ModelRequest, ModelResponse, ModelStreamEvent, TokenUsage } from '../../protocol/model-exchange.js';
import { isPlainObject } from '../../shared/own.js';
import { estimateInputTokens, estimateTextTokens } from '../estimate-tokens.js';
import { DEFAULT_TIMEOUT_MS, retryOptions, type ModelOptions } from '../model-options.js';
import { ProviderResponseError, type ProviderErrorContext } from '../provider-errors.js';
import { ProviderTransport } from '../provider-transport.js';
import { ToolCallEventTracker } from '../tool-call-events.js';
import type { Model } from '../types.js';
import { withWarnings } from '../with-warnings.js';
import { AI_SDK_PARALLEL_TOOL_CALLS_WARNING } from '../../formats/ai-sdk/ai-sdk-parallel-tool-calls.js';
import { AISDKStreamPartError, classifyAISDKError, isAISDKResponseError } from './classify-ai-sdk-error.js';
import { untilAborted } from '../../shared/until-aborted.js';

type JsonResponseSchema = Extract<NonNullable<LanguageModelV4CallOptions['responseFormat']>, { type: 'json' }>['schema'];
/** How an AI SDK model is driven: the retry, timeout and output settings every toolwright provider takes, plus the AI SDK's provider options. */
export interface AISDKModelOptions extends Pick<
  ModelOptions,
  'timeoutMs' | 'maxRetries' | 'retry' | 'onRetry' | 'maxOutputTokens' | 'headers' | 'strictTools'
> {
  /** Provider-specific options sent with every call, keyed by provider (`{ google: { thinkingConfig: { thinkingBudget: 0 } } }`). */
  providerOptions?: AISDKProviderOptions;
}

/** How many calls' provider metadata a model keeps for replay in later requests (Gemini's thought signatures). */
const REMEMBERED_CALLS = 1024;

export class AISDKModel implements Model {
  /** `ai-sdk:<provider>:<modelId>`, e.g. `ai-sdk:google.generative-ai:gemini-2.5-flash`. */
  readonly id: string;
  readonly provider = 'ai-sdk';
  /** `@ai-sdk/anthropic`: Anthropic's own tool search, through the package's search tool and `deferLoading`. */
  readonly nativeToolSearch: boolean;
  readonly #model: LanguageModelV4;
  readonly #version: AISDKSpecificationVersion;
  readonly #options: AISDKModelOptions;
  readonly #transport: ProviderTransport;
  /** Call id → the provider metadata it came with, replayed as its provider options; oldest first. */
  readonly #callMetadata = new Map<string, AISDKProviderOptions>();

  constructor(model: AISDKLanguageModel, options: AISDKModelOptions = {}) {
    // V3 and V4 differ only in how files are written, which the prompt conversion handles.
    this.#model = model as LanguageModelV4;
    this.#version = model.specificationVersion;
    this.#options = options;
    this.id = `ai-sdk:${model.provider}:${model.modelId}`;
    this.nativeToolSearch = aiSDKNativeToolSearch(model.provider);
    const context: ProviderErrorContext = {
      providerName: `${model.provider} (through the AI SDK)`,
      modelId: model.modelId,
      baseURL: 'the URL its provider package is configured with',
      keyVariable: undefined,
    };
    this.#transport = new ProviderTransport(context, {
      retry: retryOptions(options),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      onRetry: options.onRetry,
    });
  }

  estimateInputTokens(request: ModelRequest): number {
    return estimateInputTokens(request);
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    const { callOptions, warnings } = this.#callOptions(request);
    let result: LanguageModelV4GenerateResult;
    try {
      result = await this.#transport.request(request.signal, classifyAISDKError, (scope) =>
        untilAborted(Promise.resolve(this.#model.doGenerate({ ...callOptions, abortSignal: scope.signal })), scope.signal),
      );
    } catch (error) {
      throw this.#unreadable(error);
    }
    if (!isPlainObject(result)) throw new ProviderResponseError(this.#transport.context, 'doGenerate returned no result object');
    const { response, callMetadata } = mapAISDKGenerateResult(result, {
      modelId: this.#model.modelId,
      estimateUsage: (content) => estimateUsage(request, content),
    });
    this.#restoreStrictNulls(response.content, request);
    this.#remember(callMetadata);
    return withWarnings(response, [...warnings, ...mapAISDKWarnings(result.warnings)]);
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const { callOptions, warnings } = this.#callOptions(request);
    const parts = this.#transport.stream<LanguageModelV4StreamPart>(request.signal, classifyAISDKError, async (scope) => {
      const result = await untilAborted(Promise.resolve(this.#model.doStream({ ...callOptions, abortSignal: scope.signal })), scope.signal);
      return readParts(result, scope.signal);
    });
    const accumulator = new AISDKStreamAccumulator();
    const tracker = new ToolCallEventTracker();
    try {
      for await (const part of parts) {
        const change = accumulator.push(part);
        if (change.type === 'text-delta') yield { type: 'text-delta', text: change.text };
        else if (change.type === 'reasoning-delta') yield { type: 'reasoning-delta', text: change.text };
        else if (change.type === 'calls') yield* tracker.changes(accumulator.partialCalls);
      }
    } catch (error) {
      throw this.#unreadable(error);
    }
    const finish = accumulator.finish;
    if (finish === undefined) throw new ProviderResponseError(this.#transport.context, 'the stream ended before its finish part arrived');
    // The provider package's word for a stream cut before the provider's own end: the answer may be incomplete, as a cut stream is for the other providers.
    if (finish.finishReason?.unified === 'interrupted') {
      throw new ProviderResponseError(
        this.#transport.context,
        'the stream ended before the provider said the answer was complete (finish reason "interrupted")',
      );
    }
    const { content, calls, callMetadata, providerItems } = accumulator.content();
    this.#restoreStrictNulls(content, request);
    this.#remember(callMetadata);
    yield* tracker.ends(calls, accumulator.partialCalls);
    const response: ModelResponse = {
      content,
      stopReason: mapAISDKFinishReason(finish.finishReason, calls.length > 0),
      usage: aiSDKUsage(finish.usage, () => estimateUsage(request, content)),
      modelId: accumulator.modelId ?? this.#model.modelId,
    };
    const providerStopReason = aiSDKProviderStopReason(finish.finishReason);
    if (providerStopReason !== undefined) response.providerStopReason = providerStopReason;
    if (providerItems !== undefined) response.providerItems = providerItems;
    yield { type: 'end', response: withWarnings(response, [...warnings, ...mapAISDKWarnings(accumulator.warnings)]) };
  }

  #callOptions(request: ModelRequest): { callOptions: LanguageModelV4CallOptions; warnings: FormatWarning[] } {
    const { prompt, warnings } = convertToAISDKPrompt(request.messages, {
      version: this.#version,
      callProviderOptions: (call: ToolCallPart) => this.#callMetadata.get(call.id),
    });
    const callOptions: LanguageModelV4CallOptions = { prompt };
    let allowedOption: ReturnType<typeof aiSDKAllowedTools>;
    if (request.tools !== undefined && request.tools.length > 0) {
      // Of the AI SDK's provider packages, only @ai-sdk/anthropic maps `inputExamples` (to `input_examples`); the others drop it.
      const nativeExamples = this.#model.provider.startsWith('anthropic');
      allowedOption = aiSDKAllowedTools(this.#model.provider, request.allowedTools, request.toolChoice);
      const offered = allowedOption ? request.tools : declareOnlyAllowed(request.tools, request.allowedTools, 'ai-sdk', warnings);
      const strictSchema = aiSDKStrictSchemaProvider(this.#model.provider);
      const declared = toAISDKFunctionTools(offered, { nativeExamples, strict: this.#options.strictTools ?? false, strictSchema });
      callOptions.tools = declared.tools;
      warnings.push(...declared.warnings, ...programmaticCallWarnings(request.tools, 'ai-sdk', 'An AI SDK model'));
      if (request.toolSearch && this.nativeToolSearch) callOptions.tools = withAISDKToolSearch(declared.tools, request.toolSearch);
      else if (request.toolSearch) toolSearchUnsupported('ai-sdk', warnings);
      if (request.toolChoice !== undefined) callOptions.toolChoice = toAISDKToolChoice(request.toolChoice);
    }
    const maxOutputTokens = request.maxOutputTokens ?? this.#options.maxOutputTokens;
    if (maxOutputTokens !== undefined) callOptions.maxOutputTokens = maxOutputTokens;
    if (request.temperature !== undefined) callOptions.temperature = request.temperature;
    if (request.seed !== undefined) callOptions.seed = request.seed;
    const parallelOff = request.parallelToolCalls === false && callOptions.tools !== undefined;
    const parallelOption = parallelOff ? aiSDKParallelToolCallsOff(this.#model.provider) : undefined;
    if (parallelOff && !parallelOption) warnings.push(AI_SDK_PARALLEL_TOOL_CALLS_WARNING);
    if (request.output !== undefined) {
      // The AI SDK's JSON mode: each provider package enforces the schema its own way (native structured output, a
      // forced tool, or only a hint); the loop validates the answer whichever it was.
      const { name, description, schema } = request.output;
      callOptions.responseFormat = { type: 'json', name, schema: schema as JsonResponseSchema, ...(description === undefined ? {} : { description }) };
    }
    if (this.#options.headers !== undefined) callOptions.headers = this.#options.headers;
    if (this.#options.providerOptions !== undefined) callOptions.providerOptions = this.#options.providerOptions;
    for (const added of [allowedOption, parallelOption]) if (added) callOptions.providerOptions = merged(callOptions.providerOptions, added);
    if (request.cache === 'auto') addAISDKCacheOptions(callOptions, request.cacheKey);
    return { callOptions, warnings };
  }

  /** The arguments of strict calls in their tool's own shape, where the package's strict rewrite invited nulls. */
  #restoreStrictNulls(content: ModelResponse['content'], request: ModelRequest): void {
    restoreAISDKStrictNulls(content, aiSDKStrictSchemaProvider(this.#model.provider), request.tools, this.#options.strictTools ?? false);
  }

  /** Keeps each call's provider metadata (bounded), so that the next request can replay it with the call. */
  #remember(callMetadata: ReadonlyMap<ToolCallPart, unknown>): void {
    for (const [call, metadata] of callMetadata) {
      if (!isPlainObject(metadata)) continue;
      this.#callMetadata.delete(call.id);
      this.#callMetadata.set(call.id, metadata as AISDKProviderOptions);
      if (this.#callMetadata.size > REMEMBERED_CALLS) this.#callMetadata.delete(this.#callMetadata.keys().next().value!);
    }
  }

  /** An AI SDK error saying the provider's answer did not parse becomes a typed response error; anything else stays as it is. */
  #unreadable(error: unknown): unknown {
    if (!isAISDKResponseError(error)) return error;
    return new ProviderResponseError(this.#transport.context, (error as Error).message, { cause: error });
  }
}

/** The usage other providers report when a server gives none: the request's estimate, and the output's text and arguments at the same rate. */
function estimateUsage(request: ModelRequest, content: readonly (TextPart | ToolCallPart | ReasoningPart)[]): TokenUsage {
  const output = content
    .map((part) => (part.type === 'text' ? part.text : part.type === 'reasoning' ? String(part.item.text ?? '') : `${part.name}${part.argumentsText ?? ''}`))
    .join('');
  return { inputTokens: estimateInputTokens(request), outputTokens: estimateTextTokens(output) };
}

/**
 * The stream's parts as an async iterable. An `error` part ends it with an
 * {@link AISDKStreamPartError}; an abort (the caller's or the idle timeout's)
 * cancels the reader, so a model that ignores its signal still stops.
 */
async function* readParts(result: unknown, signal: AbortSignal): AsyncGenerator<LanguageModelV4StreamPart> {
  const stream = isPlainObject(result) ? (result.stream as ReadableStream<LanguageModelV4StreamPart> | undefined) : undefined;
  if (typeof stream?.getReader !== 'function') throw new AISDKStreamPartError('doStream returned no readable stream');
  const reader = stream.getReader();
  const onAbort = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      if (isPlainObject(value) && value.type === 'error') throw new AISDKStreamPartError(value.error);
      yield value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (!finished) void reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
