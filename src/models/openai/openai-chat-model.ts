/**
 * A {@link Model} over OpenAI Chat Completions through the official `openai`
 * SDK; also used for OpenAI-compatible servers (Ollama, vLLM, llama.cpp,
 * LM Studio). The SDK is loaded on first use, so importing toolwright does
 * not load it.
 * @module
 */
import { programmaticCallWarnings } from '../../formats/programmatic-call-warnings.js';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import type OpenAI from 'openai';
import { convertToOpenAIChatMessages } from '../../formats/openai-chat/convert-to-openai-chat-messages.js';
import { mapOpenAIChatFinishReason } from '../../formats/openai-chat/map-openai-chat-finish-reason.js';
import { mapOpenAIChatResponse } from '../../formats/openai-chat/map-openai-chat-response.js';
import { openAIChatUsage } from '../../formats/openai-chat/openai-chat-usage.js';
import { OpenAIChatToolCallStream } from '../../formats/openai-chat/openai-chat-tool-call-stream.js';
import { toOpenAIChatToolChoice } from '../../formats/openai-chat/to-openai-chat-tool-choice.js';
import { toOpenAIChatTools } from '../../formats/openai-chat/to-openai-chat-tools.js';
import { toOpenAIChatAllowedToolChoice } from '../../formats/openai-chat/openai-chat-allowed-tools.js';
import { toolSearchUnsupported } from '../../formats/allowed-tools.js';
import { openAIStructuredOutput, withOutputValue } from '../../formats/output-format.js';
import { toolCallPart } from '../../formats/tool-call-part.js';
import { estimateInputTokens, estimateTextTokens } from '../estimate-tokens.js';
import { ProviderResponseError } from '../provider-errors.js';
import { SdkModel, type SdkRequestBody } from '../sdk-model.js';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '../../protocol/model-exchange.js';
import type { TextPart, ToolCallPart } from '../../protocol/messages.js';
import { ToolCallEventTracker } from '../tool-call-events.js';
import { loadOpenAIClient, type OpenAIClient } from './load-openai-client.js';
import { OPENAI_PROMPT_CACHE } from '../prompt-cache-rules.js';

export class OpenAIChatModel extends SdkModel<OpenAI, ChatCompletionCreateParamsBase, ChatCompletion, ChatCompletionChunk> {
  readonly promptCache = this.settings.provider === 'openai' ? OPENAI_PROMPT_CACHE : undefined;
  protected loadClient(): Promise<OpenAIClient> {
    return loadOpenAIClient(this.settings);
  }

  protected send(client: OpenAI, body: ChatCompletionCreateParamsBase, signal: AbortSignal): Promise<ChatCompletion> {
    return client.chat.completions.create({ ...body, stream: false }, { signal });
  }

  protected openStream(client: OpenAI, body: ChatCompletionCreateParamsBase, signal: AbortSignal): Promise<AsyncIterable<ChatCompletionChunk>> {
    const streamUsage = this.settings.options.streamUsage ?? true;
    return client.chat.completions.create({ ...body, stream: true, ...(streamUsage ? { stream_options: { include_usage: true } } : {}) }, { signal });
  }

  protected mapReply(completion: ChatCompletion, request: ModelRequest): ModelResponse {
    const response = mapOpenAIChatResponse(completion, {
      tools: request.tools,
      strict: this.settings.options.strictTools ?? false,
      fallbackUsage: () => ({ inputTokens: estimateInputTokens(request), outputTokens: 0 }),
    });
    if (response === undefined) throw new ProviderResponseError(this.transport.context, 'the completion has no choices');
    return withOutputValue(response, request.output, true);
  }

  protected async *foldStream(chunks: AsyncIterable<ChatCompletionChunk>, request: ModelRequest): AsyncGenerator<ModelStreamEvent, ModelResponse> {
    const strict = this.settings.options.strictTools ?? false;
    const accumulator = new OpenAIChatToolCallStream({ ...(request.tools ? { tools: request.tools } : {}), strict });
    const tracker = new ToolCallEventTracker();
    let modelId = this.settings.modelName;
    let usage: ModelResponse['usage'] | undefined;
    for await (const chunk of chunks) {
      if (chunk.model) modelId = chunk.model;
      if (chunk.usage) usage = openAIChatUsage(chunk.usage);
      accumulator.push(chunk);
      const delta = chunk.choices.find((choice) => choice.index === 0)?.delta;
      if (typeof delta?.content === 'string' && delta.content !== '') yield { type: 'text-delta', text: delta.content };
      yield* tracker.changes(accumulator.partialCalls);
    }
    if (accumulator.finishReason === null) {
      throw new ProviderResponseError(this.transport.context, 'the stream ended before a finish_reason arrived');
    }
    const partials = accumulator.partialCalls;
    const calls = accumulator.toolCalls().map((call, index) => toolCallPart(call, partials[index]?.argumentsText));
    const content: (TextPart | ToolCallPart)[] = accumulator.text === '' ? [...calls] : [{ type: 'text', text: accumulator.text }, ...calls];
    yield* tracker.ends(calls, partials);
    const response: ModelResponse = {
      content,
      stopReason: mapOpenAIChatFinishReason(accumulator.finishReason, calls.length > 0),
      providerStopReason: accumulator.finishReason,
      usage: usage ?? { inputTokens: estimateInputTokens(request), outputTokens: estimateTextTokens(accumulator.text) },
      modelId,
    };
    return withOutputValue(response, request.output, true);
  }

  protected promptParts(body: ChatCompletionCreateParamsBase): unknown[] {
    return [body.tools, body.messages, body.response_format];
  }

  protected requestBody(request: ModelRequest): SdkRequestBody<ChatCompletionCreateParamsBase> {
    const options = this.settings.options;
    const { messages, warnings } = convertToOpenAIChatMessages(request.messages);
    const body: ChatCompletionCreateParamsBase = { model: this.settings.modelName, messages };
    if (request.tools !== undefined && request.tools.length > 0) {
      const declared = toOpenAIChatTools(request.tools, { strict: options.strictTools ?? false });
      body.tools = declared.tools;
      warnings.push(...declared.warnings, ...programmaticCallWarnings(request.tools, 'openai', 'OpenAI Chat Completions'));
      if (request.toolChoice !== undefined) body.tool_choice = toOpenAIChatToolChoice(request.toolChoice);
      const allowed = request.allowedTools && toOpenAIChatAllowedToolChoice(request.toolChoice ?? 'auto', request.allowedTools);
      if (allowed) body.tool_choice = allowed;
      if (request.toolSearch) toolSearchUnsupported('openai', warnings);
    }
    if (request.output !== undefined) {
      const output = openAIStructuredOutput(request.output);
      warnings.push(...output.warnings);
      body.response_format = { type: 'json_schema', json_schema: output.declaration };
    }
    const maxTokens = request.maxOutputTokens ?? options.maxOutputTokens;
    if (maxTokens !== undefined) body.max_completion_tokens = maxTokens;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.seed !== undefined) body.seed = request.seed;
    if (request.cache === 'auto' && request.cacheKey !== undefined) body.prompt_cache_key = request.cacheKey;
    if (request.parallelToolCalls === false && body.tools !== undefined) body.parallel_tool_calls = false;
    return { body, warnings };
  }
}
