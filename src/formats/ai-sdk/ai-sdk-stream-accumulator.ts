/**
 * Folds the AI SDK's stream parts (`LanguageModelV4StreamPart`) into text
 * blocks and tool calls, in the order the model produced them:
 * `tool-input-start` opens a call, `tool-input-delta` pieces are concatenated
 * (and parsed as far as they go, for display), the `tool-call` part gives the
 * final JSON text. A provider that sends only `tool-call` is read the same way.
 * `stream-start` brings the warnings, `response-metadata` the model id,
 * `finish` the usage and finish reason; an `error` part is kept for the caller
 * to raise. Reasoning is reported as it streams and kept, with its provider
 * metadata, for the replay; provider-executed calls and results (a native tool
 * search) are kept in their place as provider items; sources and files are skipped.
 * @module
 */
import type { LanguageModelV4FinishReason, LanguageModelV4StreamPart, LanguageModelV4Usage, SharedV4Warning } from '@ai-sdk/provider';
import type { ProviderTurnItems, ReasoningPart, TextPart, ToolCallPart } from '../../protocol/messages.js';
import { isPlainObject } from '../../shared/own.js';
import { PartialJsonPreview } from '../partial-json.js';
import type { PartialToolCall } from '../partial-tool-call.js';
import { aiSDKReasoningPart } from './ai-sdk-reasoning.js';
import { aiSDKToolCallPart } from './map-ai-sdk-response.js';
import { aiSDKProviderItem, aiSDKProviderItems } from './ai-sdk-tool-search.js';

interface CallEntry extends PartialToolCall {
  /** The final `tool-call` part's input, once it arrived. */
  finalInput: unknown;
  hasFinal: boolean;
  /** `text` encoding: the deltas are not JSON, so only the final input counts. */
  textEncoded: boolean;
  providerMetadata: unknown;
  /** `partialArguments` as the deltas arrive, parsed again only when the text grew enough. */
  preview: PartialJsonPreview;
}

type Block =
  | { type: 'text'; id: string; text: string }
  | { type: 'call'; entry: CallEntry }
  | { type: 'provider-item'; item: Record<string, unknown> }
  | { type: 'reasoning'; id: string; text: string; providerMetadata: Record<string, unknown> | undefined };

/** What one stream part changed, for the caller's events. */
export type AISDKStreamChange =
  { type: 'text-delta'; text: string } | { type: 'reasoning-delta'; text: string } | { type: 'calls' } | { type: 'error'; error: unknown } | { type: 'none' };

export class AISDKStreamAccumulator {
  readonly #blocks: Block[] = [];
  readonly #texts = new Map<string, Block & { type: 'text' }>();
  readonly #reasonings = new Map<string, Block & { type: 'reasoning' }>();
  readonly #calls = new Map<string, CallEntry>();
  readonly #skippedCalls = new Set<string>();
  #warnings: SharedV4Warning[] = [];
  #modelId: string | undefined;
  #finish: { usage: LanguageModelV4Usage | undefined; finishReason: LanguageModelV4FinishReason | undefined } | undefined;

  /** Adds one part and says what changed. */
  push(part: LanguageModelV4StreamPart): AISDKStreamChange {
    if (!isPlainObject(part)) return { type: 'none' };
    const value = part as Record<string, unknown>;
    switch (value.type) {
      case 'stream-start':
        if (Array.isArray(value.warnings)) this.#warnings = value.warnings as SharedV4Warning[];
        return { type: 'none' };
      case 'response-metadata':
        if (typeof value.modelId === 'string') this.#modelId = value.modelId;
        return { type: 'none' };
      case 'text-start':
        this.#text(String(value.id));
        return { type: 'none' };
      case 'text-delta': {
        if (typeof value.delta !== 'string' || value.delta === '') return { type: 'none' };
        this.#text(String(value.id)).text += value.delta;
        return { type: 'text-delta', text: value.delta };
      }
      case 'reasoning-start':
      case 'reasoning-end':
        this.#reasoning(String(value.id), value.providerMetadata);
        return { type: 'none' };
      case 'reasoning-delta': {
        // Kept whole (with its provider metadata: a signature, encrypted content) to be replayed; its text is reported as it comes.
        const block = this.#reasoning(String(value.id), value.providerMetadata);
        if (typeof value.delta !== 'string' || value.delta === '') return { type: 'none' };
        block.text += value.delta;
        return { type: 'reasoning-delta', text: value.delta };
      }
      case 'tool-input-start': {
        const id = String(value.id);
        if (value.providerExecuted === true) {
          this.#skippedCalls.add(id);
          return { type: 'none' };
        }
        this.#call(id, value.toolName).textEncoded = value.inputEncoding === 'text';
        return { type: 'calls' };
      }
      case 'tool-input-delta': {
        const entry = this.#calls.get(String(value.id));
        if (entry === undefined || entry.hasFinal || entry.textEncoded || typeof value.delta !== 'string' || value.delta === '') return { type: 'none' };
        entry.argumentsText += value.delta;
        entry.partialArguments = entry.preview.value(entry.argumentsText) ?? entry.partialArguments;
        return { type: 'calls' };
      }
      case 'tool-input-end': {
        const entry = this.#calls.get(String(value.id));
        if (entry) {
          entry.done = true;
          if (!entry.hasFinal && !entry.textEncoded) entry.partialArguments = entry.preview.value(entry.argumentsText, true) ?? entry.partialArguments;
        }
        return { type: 'none' };
      }
      case 'tool-result':
      case 'tool-call': {
        const id = String(value.toolCallId);
        const item = aiSDKProviderItem(value);
        if (item !== undefined) this.#blocks.push({ type: 'provider-item', item });
        if (value.type === 'tool-result' || value.providerExecuted === true || this.#skippedCalls.has(id)) return { type: 'none' };
        const entry = this.#call(id, value.toolName);
        entry.finalInput = value.input;
        entry.hasFinal = true;
        entry.done = true;
        if (value.providerMetadata !== undefined) entry.providerMetadata = value.providerMetadata;
        // The final text may restate what the deltas sent, or be all there is (no deltas, or `text` encoding).
        if (typeof value.input === 'string' && value.input !== entry.argumentsText) {
          entry.argumentsText = value.input;
          entry.partialArguments = entry.preview.value(value.input, true);
        }
        return { type: 'calls' };
      }
      case 'finish':
        this.#finish = { usage: value.usage as LanguageModelV4Usage | undefined, finishReason: value.finishReason as LanguageModelV4FinishReason | undefined };
        return { type: 'none' };
      case 'error':
        return { type: 'error', error: value.error };
      default:
        return { type: 'none' };
    }
  }

  /** The calls so far, in order of appearance (copies). */
  get partialCalls(): PartialToolCall[] {
    return [...this.#calls.values()].map(({ index, id, name, argumentsText, partialArguments, done }) => ({
      index,
      id,
      name,
      argumentsText,
      partialArguments,
      done,
    }));
  }

  get warnings(): readonly SharedV4Warning[] {
    return this.#warnings;
  }

  get modelId(): string | undefined {
    return this.#modelId;
  }

  /** The `finish` part's usage and finish reason; `undefined` until it arrived. */
  get finish(): { usage: LanguageModelV4Usage | undefined; finishReason: LanguageModelV4FinishReason | undefined } | undefined {
    return this.#finish;
  }

  /**
   * The response content in order, each call parsed once (its final input, or
   * the text streamed so far when the stream ended before the `tool-call` part),
   * with each call's provider metadata.
   */
  content(): {
    content: (TextPart | ToolCallPart | ReasoningPart)[];
    calls: ToolCallPart[];
    callMetadata: Map<ToolCallPart, unknown>;
    /** What the provider ran (a native tool search), to be kept with the turn. */
    providerItems?: ProviderTurnItems;
  } {
    const content: (TextPart | ToolCallPart | ReasoningPart)[] = [];
    const calls: ToolCallPart[] = [];
    const callMetadata = new Map<ToolCallPart, unknown>();
    const items: ProviderTurnItems['items'] = [];
    for (const block of this.#blocks) {
      if (block.type === 'provider-item') {
        items.push({ before: content.length, item: block.item });
        continue;
      }
      if (block.type === 'reasoning') {
        const part = aiSDKReasoningPart({ type: 'reasoning', text: block.text, providerMetadata: block.providerMetadata });
        if (part !== undefined) content.push(part);
        continue;
      }
      if (block.type === 'text') {
        if (block.text === '') continue;
        const last = content.at(-1);
        if (last?.type === 'text') last.text += block.text;
        else content.push({ type: 'text', text: block.text });
        continue;
      }
      const entry = block.entry;
      const call = aiSDKToolCallPart(entry.id, entry.name, entry.hasFinal ? entry.finalInput : entry.argumentsText);
      content.push(call);
      calls.push(call);
      if (entry.providerMetadata !== undefined) callMetadata.set(call, entry.providerMetadata);
    }
    return { content, calls, callMetadata, providerItems: aiSDKProviderItems(items) };
  }

  #text(id: string): Block & { type: 'text' } {
    let block = this.#texts.get(id);
    if (block === undefined) {
      block = { type: 'text', id, text: '' };
      this.#texts.set(id, block);
      this.#blocks.push(block);
    }
    return block;
  }

  /** The reasoning block of `id` (opened on first sight), with `metadata` merged into its provider metadata, provider by provider. */
  #reasoning(id: string, metadata: unknown): Block & { type: 'reasoning' } {
    let block = this.#reasonings.get(id);
    if (block === undefined) {
      block = { type: 'reasoning', id, text: '', providerMetadata: undefined };
      this.#reasonings.set(id, block);
      this.#blocks.push(block);
    }
    if (isPlainObject(metadata)) {
      const merged: Record<string, unknown> = { ...block.providerMetadata };
      for (const [provider, entries] of Object.entries(metadata)) {
        const before = merged[provider];
        merged[provider] = isPlainObject(before) && isPlainObject(entries) ? { ...before, ...entries } : entries;
      }
      block.providerMetadata = merged;
    }
    return block;
  }

  #call(id: string, toolName: unknown): CallEntry {
    let entry = this.#calls.get(id);
    if (entry === undefined) {
      entry = {
        index: this.#calls.size,
        id,
        name: typeof toolName === 'string' ? toolName : '',
        argumentsText: '',
        partialArguments: undefined,
        done: false,
        finalInput: undefined,
        hasFinal: false,
        textEncoded: false,
        providerMetadata: undefined,
        preview: new PartialJsonPreview(),
      };
      this.#calls.set(id, entry);
      this.#blocks.push({ type: 'call', entry });
    }
    return entry;
  }
}
