/**
 * Folds Responses API stream events into tool calls: a call opens with
 * `response.output_item.added`, grows with `response.function_call_arguments.delta`,
 * and is settled by `.done` and `response.output_item.done`, whose full text wins.
 * @module
 */
import type { ResponseFunctionCallArgumentsDoneEvent, ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { ToolCallRequest } from '../../tools/types.js';
import { argumentsReader, type ParseToolCallOptions } from '../call-arguments.js';
import { PartialJsonPreview } from '../partial-json.js';
import type { PartialToolCall } from '../partial-tool-call.js';
import { readOpenAIResponsesCustomToolCall } from './openai-responses-custom-tools.js';
import { GRAMMAR_INPUT_PROPERTY } from '../../tools/grammar-input.js';

/**
 * A Responses stream event as either `openai` major types it: 6.x declares `name` on
 * `response.function_call_arguments.done`, 7.x leaves it out, so it is optional here.
 */
export type OpenAIResponsesStreamEvent =
  Exclude<ResponseStreamEvent, { type: 'response.function_call_arguments.done' }> | (Omit<ResponseFunctionCallArgumentsDoneEvent, 'name'> & { name?: string });

export class OpenAIResponsesToolCallStream {
  /** Keyed by `output_index`; `#byItemId` maps the item id used by the delta events. */
  readonly #calls = new Map<number, PartialToolCall>();
  readonly #byItemId = new Map<string, PartialToolCall>();
  readonly #previews = new Map<PartialToolCall, PartialJsonPreview>();
  /** Calls to grammar tools (`custom_tool_call`): their text is the input itself, never JSON. */
  readonly #custom = new Set<PartialToolCall>();
  readonly #options: ParseToolCallOptions;
  #text = '';

  constructor(options: ParseToolCallOptions = {}) {
    this.#options = options;
  }

  /** Adds one event; events that do not concern function calls or output text are ignored. */
  push(event: OpenAIResponsesStreamEvent): void {
    switch (event.type) {
      case 'response.output_item.added':
      case 'response.output_item.done': {
        const item = event.item;
        if (item.type === 'custom_tool_call') {
          const call = this.#open(event.output_index, item.id);
          this.#custom.add(call);
          if (item.call_id) call.id = item.call_id;
          if (item.name) call.name = item.name;
          if (event.type === 'response.output_item.done') {
            this.#setInput(call, item.input);
            call.done = true;
          } else if (item.input && call.argumentsText === '') this.#setInput(call, item.input);
          return;
        }
        if (item.type !== 'function_call') return;
        const call = this.#open(event.output_index, item.id);
        if (item.call_id) call.id = item.call_id;
        if (item.name) call.name = item.name;
        if (event.type === 'response.output_item.done') {
          this.#setArguments(call, item.arguments, true);
          call.done = true;
        } else if (item.arguments && call.argumentsText === '') {
          this.#setArguments(call, item.arguments);
        }
        return;
      }
      case 'response.function_call_arguments.delta': {
        const call = this.#byItemId.get(event.item_id) ?? this.#open(event.output_index, event.item_id);
        this.#setArguments(call, call.argumentsText + event.delta);
        return;
      }
      case 'response.function_call_arguments.done': {
        const call = this.#byItemId.get(event.item_id) ?? this.#open(event.output_index, event.item_id);
        if (event.name && !call.name) call.name = event.name;
        this.#setArguments(call, event.arguments, true);
        call.done = true;
        return;
      }
      case 'response.custom_tool_call_input.delta': {
        const call = this.#byItemId.get(event.item_id) ?? this.#open(event.output_index, event.item_id);
        this.#custom.add(call);
        this.#setInput(call, call.argumentsText + event.delta);
        return;
      }
      case 'response.custom_tool_call_input.done': {
        const call = this.#byItemId.get(event.item_id) ?? this.#open(event.output_index, event.item_id);
        this.#custom.add(call);
        this.#setInput(call, event.input);
        call.done = true;
        return;
      }
      case 'response.output_text.delta':
        this.#text += event.delta;
        return;
      default:
        return;
    }
  }

  #open(outputIndex: number, itemId: string | undefined): PartialToolCall {
    let call = this.#calls.get(outputIndex);
    if (!call) {
      call = { index: outputIndex, id: '', name: '', argumentsText: '', partialArguments: undefined, done: false };
      this.#calls.set(outputIndex, call);
    }
    if (itemId) this.#byItemId.set(itemId, call);
    return call;
  }

  #setArguments(call: PartialToolCall, text: string, final = false): void {
    let preview = this.#previews.get(call);
    if (!preview) this.#previews.set(call, (preview = new PartialJsonPreview()));
    call.argumentsText = text;
    call.partialArguments = preview.value(text, final);
  }

  /** A custom call's text so far; shown parsed as the `{ input }` object the registry will validate. */
  #setInput(call: PartialToolCall, text: string): void {
    call.argumentsText = text;
    call.partialArguments = { [GRAMMAR_INPUT_PROPERTY]: text };
  }

  /** The calls so far, in output order (copies). */
  get partialCalls(): PartialToolCall[] {
    return [...this.#calls.values()].sort((a, b) => a.index - b.index).map((call) => ({ ...call }));
  }

  /** The output text received so far (`response.output_text.delta`). */
  get text(): string {
    return this.#text;
  }

  /** The calls as the registry takes them; a call whose `call_id` never arrived gets `call_<index>`. */
  toolCalls(): ToolCallRequest[] {
    const read = argumentsReader(this.#options);
    const custom = new Set([...this.#custom].map((call) => call.index));
    return this.partialCalls.map((call) =>
      custom.has(call.index)
        ? readOpenAIResponsesCustomToolCall({ call_id: call.id || `call_${call.index}`, name: call.name, input: call.argumentsText })
        : read(call.id || `call_${call.index}`, call.name, call.argumentsText),
    );
  }
}
