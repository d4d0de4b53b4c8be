/**
 * Folds streamed `ChatCompletionChunk`s into tool calls: deltas are matched by
 * `index`, the id and name arrive first, argument pieces are concatenated.
 * @module
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ToolCallRequest } from '../../tools/types.js';
import { argumentsReader, type ParseToolCallOptions } from '../call-arguments.js';
import { PartialJsonPreview } from '../partial-json.js';
import type { PartialToolCall } from '../partial-tool-call.js';

export interface OpenAIChatToolCallStreamOptions extends ParseToolCallOptions {
  /** Which choice to follow when the request asked for several (`n` > 1). Default 0. */
  choiceIndex?: number;
}

export class OpenAIChatToolCallStream {
  readonly #calls = new Map<number, PartialToolCall>();
  readonly #previews = new Map<number, PartialJsonPreview>();
  readonly #options: OpenAIChatToolCallStreamOptions;
  #text = '';
  #finishReason: string | null = null;

  constructor(options: OpenAIChatToolCallStreamOptions = {}) {
    this.#options = options;
  }

  /** Adds one chunk; chunks for other choices are ignored. */
  push(chunk: ChatCompletionChunk): void {
    const choiceIndex = this.#options.choiceIndex ?? 0;
    for (const choice of chunk.choices) {
      if (choice.index !== choiceIndex) continue;
      if (typeof choice.delta.content === 'string') this.#text += choice.delta.content;
      for (const delta of choice.delta.tool_calls ?? []) {
        let call = this.#calls.get(delta.index);
        if (!call) {
          call = { index: delta.index, id: '', name: '', argumentsText: '', partialArguments: undefined, done: false };
          this.#calls.set(delta.index, call);
          this.#previews.set(delta.index, new PartialJsonPreview());
        }
        // Compatible servers repeat the id and name in every delta; the first one counts.
        if (delta.id && !call.id) call.id = delta.id;
        if (delta.function?.name && !call.name) call.name = delta.function.name;
        if (delta.function?.arguments) {
          call.argumentsText += delta.function.arguments;
          call.partialArguments = this.#previews.get(delta.index)!.value(call.argumentsText);
        }
      }
      // after this chunk's deltas, which may carry the end of the arguments
      if (choice.finish_reason) {
        this.#finishReason = choice.finish_reason;
        for (const call of this.#calls.values()) {
          call.done = true;
          call.partialArguments = this.#previews.get(call.index)!.value(call.argumentsText, true);
        }
      }
    }
  }

  /** The calls so far, in index order (copies). */
  get partialCalls(): PartialToolCall[] {
    return [...this.#calls.values()].sort((a, b) => a.index - b.index).map((call) => ({ ...call }));
  }

  /** The assistant text received so far (`delta.content`). */
  get text(): string {
    return this.#text;
  }

  /** The choice's `finish_reason` once it arrives (`"tool_calls"`, `"stop"`, `"length"`…). */
  get finishReason(): string | null {
    return this.#finishReason;
  }

  /**
   * The calls as the registry takes them. A call whose id never arrived (some
   * compatible servers) gets `call_<index>`, so its result can still be matched.
   */
  toolCalls(): ToolCallRequest[] {
    const read = argumentsReader(this.#options);
    return this.partialCalls.map((call) => read(call.id || `call_${call.index}`, call.name, call.argumentsText));
  }
}
