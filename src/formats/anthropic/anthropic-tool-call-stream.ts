/**
 * Folds Anthropic stream events into tool calls: `content_block_start` with a
 * `tool_use` block opens a call, `input_json_delta.partial_json` pieces are
 * concatenated, `content_block_stop` closes it. Text deltas are collected too.
 * @module
 */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ProgrammaticCaller, ToolCallRequest } from '../../tools/types.js';
import { PartialJsonPreview } from '../partial-json.js';
import type { PartialToolCall } from '../partial-tool-call.js';
import { anthropicCaller } from './anthropic-programmatic-calls.js';

interface Entry extends PartialToolCall {
  /** The `input` of the start block, used when no JSON delta follows. */
  initialInput: unknown;
  /** Set when the provider's code runner made the call. */
  caller?: ProgrammaticCaller | undefined;
}

export class AnthropicToolCallStream {
  readonly #calls = new Map<number, Entry>();
  readonly #previews = new Map<number, PartialJsonPreview>();
  #text = '';
  #stopReason: string | null = null;

  #preview(index: number): PartialJsonPreview {
    let preview = this.#previews.get(index);
    if (!preview) this.#previews.set(index, (preview = new PartialJsonPreview()));
    return preview;
  }

  /** Adds one event; events that do not concern tool use or text are ignored. */
  push(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'tool_use') {
          this.#calls.set(event.index, {
            index: event.index,
            id: block.id,
            name: block.name,
            argumentsText: '',
            partialArguments: block.input,
            done: false,
            initialInput: block.input,
            caller: anthropicCaller(block),
          });
        } else if (block.type === 'text') {
          this.#text += block.text;
        }
        return;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta.type === 'text_delta') {
          this.#text += delta.text;
          return;
        }
        if (delta.type !== 'input_json_delta') return;
        const call = this.#calls.get(event.index);
        if (!call) return;
        call.argumentsText += delta.partial_json;
        call.partialArguments = this.#preview(event.index).value(call.argumentsText) ?? call.partialArguments;
        return;
      }
      case 'content_block_stop': {
        const call = this.#calls.get(event.index);
        if (call) {
          call.done = true;
          call.partialArguments = this.#preview(event.index).value(call.argumentsText, true) ?? call.partialArguments;
        }
        return;
      }
      case 'message_delta':
        if (event.delta.stop_reason) this.#stopReason = event.delta.stop_reason;
        return;
      default:
        return;
    }
  }

  /** The calls so far, in block order (copies). */
  get partialCalls(): PartialToolCall[] {
    return [...this.#calls.values()].sort((a, b) => a.index - b.index).map(({ initialInput: _initial, caller: _caller, ...call }) => call);
  }

  /** The text received so far. */
  get text(): string {
    return this.#text;
  }

  /** The message's `stop_reason` once `message_delta` brings it (`"tool_use"`, `"end_turn"`…). */
  get stopReason(): string | null {
    return this.#stopReason;
  }

  /**
   * The calls as the registry takes them: the streamed JSON text (the registry
   * parses it and explains any break to the model), or the start block's input
   * when no JSON arrived (a tool called without arguments).
   */
  toolCalls(): ToolCallRequest[] {
    return [...this.#calls.values()]
      .sort((a, b) => a.index - b.index)
      .map((call) => ({
        ...(call.argumentsText.trim() === ''
          ? { id: call.id, name: call.name, arguments: call.initialInput }
          : { id: call.id, name: call.name, argumentsText: call.argumentsText }),
        ...(call.caller ? { caller: call.caller } : {}),
      }));
  }
}
