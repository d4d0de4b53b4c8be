/**
 * Turns the growing state of a format adapter's stream accumulator (its
 * `partialCalls`) into `tool-call-start` / `tool-call-delta` events: a call is
 * announced once its name is known, numbered in order of appearance, and each
 * event carries only the argument text added since the last one.
 * @module
 */
import type { PartialToolCall } from '../formats/partial-tool-call.js';
import type { ToolCallPart } from '../protocol/messages.js';
import type { ModelStreamEvent } from '../protocol/model-exchange.js';

export class ToolCallEventTracker {
  /** Wire index → event index. */
  readonly #numbers = new Map<number, number>();
  /** Wire index → argument characters already reported. */
  readonly #reported = new Map<number, number>();

  /** Events for whatever changed since the previous call. */
  *changes(calls: readonly PartialToolCall[]): Generator<ModelStreamEvent> {
    for (const call of calls) {
      let number = this.#numbers.get(call.index);
      if (number === undefined) {
        if (call.name === '') continue;
        number = this.#numbers.size;
        this.#numbers.set(call.index, number);
        this.#reported.set(call.index, 0);
        yield { type: 'tool-call-start', index: number, id: call.id || `call_${call.index}`, name: call.name };
      }
      const reported = this.#reported.get(call.index) ?? 0;
      // A `.done` event may restate the whole text; only a longer text is news. (Comparing the text with its own prefix here,
      // as this once did, was always true and walked the whole text per delta: seconds of blocked loop for a 100 kB input.)
      if (call.argumentsText.length > reported) {
        this.#reported.set(call.index, call.argumentsText.length);
        yield { type: 'tool-call-delta', index: number, argumentsDelta: call.argumentsText.slice(reported), partialArguments: call.partialArguments };
      }
    }
  }

  /** `tool-call-end` events for the finished calls, `calls[i]` belonging to `partials[i]`. */
  *ends(calls: readonly ToolCallPart[], partials: readonly PartialToolCall[]): Generator<ModelStreamEvent> {
    for (const [position, call] of calls.entries()) {
      const wireIndex = partials[position]?.index ?? position;
      let number = this.#numbers.get(wireIndex);
      if (number === undefined) {
        // Never announced (its name arrived only at the end): announce it now so every end has a start.
        number = this.#numbers.size;
        this.#numbers.set(wireIndex, number);
        yield { type: 'tool-call-start', index: number, id: call.id, name: call.name };
      }
      yield { type: 'tool-call-end', index: number, call };
    }
  }
}
