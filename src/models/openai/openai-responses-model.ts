/**
 * A {@link Model} over the OpenAI Responses API through the official SDK.
 * Requests are sent with `store: false`: the whole history travels with each
 * request, as with the other providers, and nothing is kept server-side.
 * @module
 */
import type OpenAI from 'openai';
import type { Response, ResponseCreateParamsBase, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { convertToOpenAIResponsesInput } from '../../formats/openai-responses/convert-to-openai-responses-input.js';
import { mapOpenAIResponsesResponse } from '../../formats/openai-responses/map-openai-responses-response.js';
import { OpenAIResponsesToolCallStream } from '../../formats/openai-responses/openai-responses-tool-call-stream.js';
import { toOpenAIResponsesToolChoice } from '../../formats/openai-responses/to-openai-responses-tool-choice.js';
import { toOpenAIResponsesTools } from '../../formats/openai-responses/to-openai-responses-tools.js';
import { withResponsesProgrammaticCalls } from '../../formats/openai-responses/openai-responses-programmatic-calls.js';
import { withOpenAIResponsesNamespaces } from '../../formats/openai-responses/openai-responses-namespaces.js';
import {
  clientToolSearchItems,
  toOpenAIResponsesAllowedToolChoice,
  withOpenAIResponsesClientToolSearch,
  withOpenAIResponsesToolSearch,
} from '../../formats/openai-responses/openai-responses-tool-search.js';
import { openAIStructuredOutput, withOutputValue } from '../../formats/output-format.js';
import { estimateInputTokens } from '../estimate-tokens.js';
import { ProviderResponseError } from '../provider-errors.js';
import { SdkModel, type SdkRequestBody } from '../sdk-model.js';
import { ToolCallEventTracker } from '../tool-call-events.js';
import { toolCallsOf, type ModelRequest, type ModelResponse, type ModelStreamEvent } from '../../protocol/model-exchange.js';
import { loadOpenAIClient, type OpenAIClient } from './load-openai-client.js';
import { shownToolDeclarations } from '../../formats/shown-tool-declarations.js';
import { OPENAI_PROMPT_CACHE } from '../prompt-cache-rules.js';

export class OpenAIResponsesModel extends SdkModel<OpenAI, ResponseCreateParamsBase, Response, ResponseStreamEvent> {
  /** OpenAI's own Responses API searches; an OpenAI-compatible server may not, so it gets toolwright's search. */
  readonly nativeToolSearch = this.settings.provider === 'openai';
  readonly clientToolSearch = this.nativeToolSearch;
  readonly promptCache = this.settings.provider === 'openai' ? OPENAI_PROMPT_CACHE : undefined;

  protected loadClient(): Promise<OpenAIClient> {
    return loadOpenAIClient(this.settings);
  }

  protected send(client: OpenAI, body: ResponseCreateParamsBase, signal: AbortSignal): Promise<Response> {
    return client.responses.create({ ...body, stream: false }, { signal });
  }

  protected openStream(client: OpenAI, body: ResponseCreateParamsBase, signal: AbortSignal): Promise<AsyncIterable<ResponseStreamEvent>> {
    return client.responses.create({ ...body, stream: true }, { signal });
  }

  protected mapReply(response: Response, request: ModelRequest): ModelResponse {
    if (response.status === 'failed') throw this.#failed(response);
    const mapped = mapOpenAIResponsesResponse(response, {
      tools: request.tools,
      strict: this.settings.options.strictTools ?? false,
      clientSearchTool: request.toolSearch?.clientSearchTool,
      fallbackUsage: () => ({ inputTokens: estimateInputTokens(request), outputTokens: 0 }),
    });
    return withOutputValue(mapped, request.output, true);
  }

  protected async *foldStream(events: AsyncIterable<ResponseStreamEvent>, request: ModelRequest): AsyncGenerator<ModelStreamEvent, ModelResponse> {
    const strict = this.settings.options.strictTools ?? false;
    const accumulator = new OpenAIResponsesToolCallStream({ ...(request.tools ? { tools: request.tools } : {}), strict });
    const tracker = new ToolCallEventTracker();
    let final: Response | undefined;
    for await (const event of events) {
      accumulator.push(event);
      if (event.type === 'response.output_text.delta' && event.delta !== '') yield { type: 'text-delta', text: event.delta };
      // A reasoning model's summary of its reasoning, streamed for a reader; not kept in the response.
      else if (event.type === 'response.reasoning_summary_text.delta' && event.delta !== '') yield { type: 'reasoning-delta', text: event.delta };
      else if (event.type === 'response.completed' || event.type === 'response.incomplete') final = event.response;
      else if (event.type === 'response.failed') throw this.#failed(event.response);
      else if (event.type === 'error')
        throw new ProviderResponseError(this.transport.context, `the stream reported an error (${event.code ?? 'error'}: ${event.message})`);
      yield* tracker.changes(accumulator.partialCalls);
    }
    if (final === undefined) throw new ProviderResponseError(this.transport.context, 'the stream ended before response.completed arrived');
    const response = this.mapReply(final, request);
    yield* tracker.ends(toolCallsOf(response), accumulator.partialCalls);
    return response;
  }

  #failed(response: Response): ProviderResponseError {
    const error = response.error;
    return new ProviderResponseError(this.transport.context, `the response failed (${error ? `${error.code}: ${error.message}` : 'no reason given'})`);
  }

  protected promptParts(body: ResponseCreateParamsBase): unknown[] {
    // A search's `tool_search_output` item carries the declarations it loaded, so the input counts them.
    return [shownToolDeclarations(body.tools), body.instructions, body.input, body.text?.format];
  }

  protected requestBody(request: ModelRequest): SdkRequestBody<ResponseCreateParamsBase> {
    const options = this.settings.options;
    const { input, warnings } = convertToOpenAIResponsesInput(request.messages);
    const body: ResponseCreateParamsBase = { model: this.settings.modelName, input, store: false };
    // With store: false, reasoning items can only come back with their encrypted content (see openai-responses-reasoning.ts).
    if (options.includeEncryptedReasoning === true) body.include = ['reasoning.encrypted_content'];
    if (request.tools !== undefined && request.tools.length > 0) {
      const declared = toOpenAIResponsesTools(request.tools, { strict: options.strictTools ?? false });
      const search = request.toolSearch;
      const clientSearchTool = search?.clientSearchTool;
      const tools = withResponsesProgrammaticCalls(request.tools, declared.tools);
      body.tools = search ? withOpenAIResponsesToolSearch(tools, search) : tools;
      const namespaced = search && clientSearchTool === undefined && search.namespaces !== false && withOpenAIResponsesNamespaces(body.tools, request.tools);
      if (namespaced) {
        body.tools = namespaced.tools;
        warnings.push(...namespaced.warnings);
      }
      if (search && clientSearchTool !== undefined) {
        body.tools = withOpenAIResponsesClientToolSearch(tools, { ...search, clientSearchTool });
        body.input = clientToolSearchItems(input, request.messages, clientSearchTool, body.tools);
      }
      warnings.push(...declared.warnings);
      if (request.toolChoice !== undefined) body.tool_choice = toOpenAIResponsesToolChoice(request.toolChoice, request.tools);
      const allowed = request.allowedTools && toOpenAIResponsesAllowedToolChoice(request.toolChoice ?? 'auto', request.allowedTools);
      if (allowed) body.tool_choice = allowed;
    }
    if (request.output !== undefined) {
      const output = openAIStructuredOutput(request.output);
      warnings.push(...output.warnings);
      body.text = { format: { type: 'json_schema', ...output.declaration } };
    }
    const maxTokens = request.maxOutputTokens ?? options.maxOutputTokens;
    if (maxTokens !== undefined) body.max_output_tokens = maxTokens;
    if (request.cache === 'auto' && request.cacheKey !== undefined) body.prompt_cache_key = request.cacheKey;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.parallelToolCalls === false && body.tools !== undefined) body.parallel_tool_calls = false;
    if (request.seed !== undefined) {
      warnings.push({
        type: 'unsupported',
        provider: 'openai',
        feature: 'seed',
        path: '/seed',
        details: 'the Responses API has no seed parameter; the request was sent without it',
      });
    }
    return { body, warnings };
  }
}
