/**
 * A {@link Model} over Anthropic Messages through the official
 * `@anthropic-ai/sdk`, loaded on first use.
 * @module
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsBase, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { AnthropicServerBlocks } from '../../formats/anthropic/anthropic-server-blocks.js';
import { anthropicContainer, anthropicProviderItems, withAnthropicProgrammaticCalls } from '../../formats/anthropic/anthropic-programmatic-calls.js';
import { addAnthropicCacheBreakpoints } from '../../formats/anthropic/anthropic-cache-control.js';
import { foldFinalAnswer, toAnthropicFinalAnswerTool, toAnthropicOutputToolChoice } from '../../formats/anthropic/anthropic-final-answer.js';
import { toAnthropicStrictFinalAnswerTool, withStrictLimitsRecounted } from '../../formats/anthropic/anthropic-strict-final-answer.js';
import { withEagerInputStreaming } from '../../formats/anthropic/anthropic-eager-input-streaming.js';
import { anthropicReasoningPart, applyAnthropicThinkingDelta } from '../../formats/anthropic/anthropic-reasoning.js';
import { AnthropicToolCallStream } from '../../formats/anthropic/anthropic-tool-call-stream.js';
import { convertToAnthropicMessages } from '../../formats/anthropic/convert-to-anthropic-messages.js';
import { anthropicUsage, mapAnthropicResponse, type AnthropicUsageLike } from '../../formats/anthropic/map-anthropic-response.js';
import { mapAnthropicStopReason } from '../../formats/anthropic/map-anthropic-stop-reason.js';
import { toAnthropicToolChoice } from '../../formats/anthropic/to-anthropic-tool-choice.js';
import { toAnthropicTools } from '../../formats/anthropic/to-anthropic-tools.js';
import { anthropicSearchLoadedTools, withAnthropicToolSearch } from '../../formats/anthropic/anthropic-tool-search.js';
import { shownToolDeclarations } from '../../formats/shown-tool-declarations.js';
import { anthropicPromptCache } from '../prompt-cache-rules.js';
import { declareOnlyAllowed } from '../../formats/allowed-tools.js';
import { toolCallPart } from '../../formats/tool-call-part.js';
import { ProviderResponseError } from '../provider-errors.js';
import { sdkClientOptions } from '../provider-settings.js';
import { classifySdkError } from '../retry/classify-sdk-error.js';
import { loadPeer } from '../../shared/load-peer.js';
import { withoutParallelToolUse } from '../../formats/anthropic/anthropic-parallel-tool-use.js';
import { SdkModel, type SdkClient, type SdkRequestBody } from '../sdk-model.js';
import { ToolCallEventTracker } from '../tool-call-events.js';
import { ANTHROPIC_DEFAULT_MAX_TOKENS } from './anthropic-defaults.js';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '../../protocol/model-exchange.js';
import type { ReasoningPart, TextPart, ToolCallPart } from '../../protocol/messages.js';

export class AnthropicModel extends SdkModel<Anthropic, MessageCreateParamsBase, Message, RawMessageStreamEvent> {
  readonly nativeToolSearch = true;
  readonly promptCache = anthropicPromptCache(this.settings.modelName);

  protected async loadClient(): Promise<SdkClient<Anthropic>> {
    const sdk = await loadPeer('@anthropic-ai/sdk', 'An Anthropic model (anthropic:…)', () => import('@anthropic-ai/sdk'));
    const client = new sdk.Anthropic(sdkClientOptions(this.settings));
    return { client, classify: (error: unknown) => classifySdkError(error, sdk) };
  }

  protected send(client: Anthropic, body: MessageCreateParamsBase, signal: AbortSignal): Promise<Message> {
    return client.messages.create({ ...body, stream: false }, { signal });
  }

  protected openStream(client: Anthropic, body: MessageCreateParamsBase, signal: AbortSignal): Promise<AsyncIterable<RawMessageStreamEvent>> {
    return client.messages.create({ ...body, stream: true }, { signal });
  }

  protected mapReply(message: Message, request: ModelRequest): ModelResponse {
    return foldFinalAnswer(mapAnthropicResponse(message), request.output);
  }

  protected async *foldStream(events: AsyncIterable<RawMessageStreamEvent>, request: ModelRequest): AsyncGenerator<ModelStreamEvent, ModelResponse> {
    const accumulator = new AnthropicToolCallStream();
    const tracker = new ToolCallEventTracker();
    // Block index → its text, so text and calls keep the order the model produced them in.
    const blocks = new Map<number, { type: 'text'; text: string } | { type: 'tool' } | { type: 'server' } | { type: 'reasoning'; part: ReasoningPart }>();
    const serverBlocks = new AnthropicServerBlocks();
    let modelId = this.settings.modelName;
    let usage: AnthropicUsageLike = {};
    let stopped = false;
    // The final-answer tool's call streams as the answer's text, as it will read in the response.
    const finalAnswerCalls = new Set<number>();
    const finalName = request.output?.name;
    for await (const event of events) {
      accumulator.push(event);
      serverBlocks.push(event);
      switch (event.type) {
        case 'message_start':
          modelId = event.message.model;
          usage = { ...event.message.usage };
          break;
        case 'content_block_start': {
          const reasoning = anthropicReasoningPart(event.content_block);
          blocks.set(
            event.index,
            reasoning
              ? { type: 'reasoning', part: reasoning }
              : event.content_block.type === 'text'
                ? { type: 'text', text: event.content_block.text }
                : serverBlocks.has(event.index)
                  ? { type: 'server' }
                  : { type: 'tool' },
          );
          if (event.content_block.type === 'text' && event.content_block.text !== '') yield { type: 'text-delta', text: event.content_block.text };
          break;
        }
        case 'content_block_delta': {
          const block = blocks.get(event.index);
          // The thinking block grows as it streams, to be replayed whole with this turn's tool results.
          if (block?.type === 'reasoning') applyAnthropicThinkingDelta(block.part.item as Record<string, unknown>, event.delta);
          if (event.delta.type === 'text_delta') {
            if (block?.type === 'text') block.text += event.delta.text;
            if (event.delta.text !== '') yield { type: 'text-delta', text: event.delta.text };
          } else if (event.delta.type === 'thinking_delta' && event.delta.thinking !== '') {
            // Extended thinking, streamed for a reader; the response keeps the whole block as a reasoning part.
            yield { type: 'reasoning-delta', text: event.delta.thinking };
          }
          break;
        }
        case 'message_delta':
          // message_delta carries cumulative counts; input counts appear there only on some versions.
          usage = { ...usage, ...definedOnly(event.usage) };
          break;
        case 'message_stop':
          stopped = true;
          break;
      }
      for (const change of tracker.changes(accumulator.partialCalls)) {
        if (change.type === 'tool-call-start' && change.name === finalName) finalAnswerCalls.add(change.index);
        else if (change.type === 'tool-call-delta' && finalAnswerCalls.has(change.index)) yield { type: 'text-delta', text: change.argumentsDelta };
        else yield change;
      }
    }
    if (!stopped || accumulator.stopReason === null) throw new ProviderResponseError(this.transport.context, 'the stream ended before message_stop arrived');
    const calls = accumulator.toolCalls().map((call) => toolCallPart(call));
    const partials = accumulator.partialCalls;
    const callParts = new Map(partials.map((partial, position) => [partial.index, calls[position]!]));
    const content: (TextPart | ToolCallPart | ReasoningPart)[] = [];
    const served: { block: unknown; before: number }[] = [];
    for (const [index, block] of [...blocks.entries()].sort(([a], [b]) => a - b)) {
      if (block.type === 'reasoning') content.push(block.part);
      else if (block.type === 'text') {
        if (block.text !== '') content.push({ type: 'text', text: block.text });
      } else if (block.type === 'server') {
        served.push({ block: serverBlocks.block(index), before: content.length });
      } else {
        const part = callParts.get(index);
        if (part) content.push(part);
      }
    }
    for (const change of tracker.ends(calls, partials)) if (!(change.type === 'tool-call-end' && change.call.name === finalName)) yield change;
    const response: ModelResponse = {
      content,
      stopReason: mapAnthropicStopReason(accumulator.stopReason, calls.length > 0),
      providerStopReason: accumulator.stopReason,
      usage: anthropicUsage(usage),
      modelId,
    };
    const providerItems = anthropicProviderItems(served, serverBlocks.container);
    if (providerItems !== undefined) response.providerItems = providerItems;
    return foldFinalAnswer(response, request.output);
  }

  protected promptParts(body: MessageCreateParamsBase): unknown[] {
    // A message's role once, then each content block: what the model reads of a message, not the JSON that wraps it.
    const blocks = body.messages.flatMap((message) => (typeof message.content === 'string' ? [message] : [{ role: message.role }, ...message.content]));
    return [shownToolDeclarations(body.tools, anthropicSearchLoadedTools(body.messages)), body.system, blocks];
  }

  protected requestBody(request: ModelRequest): SdkRequestBody<MessageCreateParamsBase> {
    const options = this.settings.options;
    const { system, messages, warnings } = convertToAnthropicMessages(request.messages);
    const body: MessageCreateParamsBase = {
      model: this.settings.modelName,
      messages,
      max_tokens: request.maxOutputTokens ?? options.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    };
    if (system !== undefined) body.system = system;
    const container = anthropicContainer(request.messages);
    if (container !== undefined) body.container = container;
    if (options.thinkingBudgetTokens !== undefined) body.thinking = { type: 'enabled', budget_tokens: options.thinkingBudgetTokens };
    const realTools = request.tools?.length ?? 0;
    if (request.tools !== undefined && realTools > 0) {
      const declared = toAnthropicTools(declareOnlyAllowed(request.tools, request.allowedTools, 'anthropic', warnings), {
        strict: options.strictTools ?? false,
      });
      const eager = options.eagerInputStreaming === true ? withEagerInputStreaming(declared.tools) : declared.tools;
      const tools = withAnthropicProgrammaticCalls(request.tools, eager);
      body.tools = request.toolSearch ? withAnthropicToolSearch(tools, request.toolSearch) : tools;
      warnings.push(...declared.warnings);
      if (request.toolChoice !== undefined) body.tool_choice = toAnthropicToolChoice(request.toolChoice);
    }
    if (request.output !== undefined) {
      const { toolChoice, declare } = toAnthropicOutputToolChoice(request.toolChoice ?? 'auto', request.output, realTools);
      if (declare) {
        const final = options.strictTools === true ? toAnthropicStrictFinalAnswerTool(request.output) : toAnthropicFinalAnswerTool(request.output);
        body.tools = [...(body.tools ?? []), final.tool];
        warnings.push(...final.warnings);
        if (final.tool.strict === true) warnings.splice(0, warnings.length, ...withStrictLimitsRecounted(warnings, body.tools));
      }
      body.tool_choice = toolChoice;
    }
    if (request.cache === 'auto') addAnthropicCacheBreakpoints(body);
    if (request.parallelToolCalls === false && body.tools !== undefined) body.tool_choice = withoutParallelToolUse(body.tool_choice);
    // This SDK version no longer types `temperature`; the API still reads it for the models that support it.
    if (request.temperature !== undefined) Object.assign(body, { temperature: request.temperature });
    if (request.seed !== undefined) {
      warnings.push({
        type: 'unsupported',
        provider: 'anthropic',
        feature: 'seed',
        path: '/seed',
        details: 'Anthropic Messages has no seed parameter; the request was sent without it',
      });
    }
    return { body, warnings };
  }
}

function definedOnly<T extends object>(value: T | null | undefined): Partial<T> {
  if (value == null) return {};
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== null && entry !== undefined)) as Partial<T>;
}
