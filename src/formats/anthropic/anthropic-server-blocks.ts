/**
 * Folds the server blocks of an Anthropic stream (`server_tool_use`, whose input streams as `input_json_delta` like a
 * `tool_use`, and the `*_tool_result` blocks, sent whole in `content_block_start`) back into the blocks a plain
 * response holds, and reads the container the code ran in, so that a streamed turn replays as a plain one does.
 * @module
 */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { safeParseJson } from '../../shared/safe-json.js';
import { isAnthropicServerBlock } from './anthropic-programmatic-calls.js';

interface StreamedBlock {
  block: Record<string, unknown>;
  inputText: string;
}

export class AnthropicServerBlocks {
  readonly #blocks = new Map<number, StreamedBlock>();
  #container: { id: string } | undefined;

  push(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        if (event.message.container != null) this.#container = event.message.container;
        return;
      case 'message_delta':
        if (event.delta.container != null) this.#container = event.delta.container;
        return;
      case 'content_block_start':
        if (isAnthropicServerBlock(event.content_block)) this.#blocks.set(event.index, { block: { ...event.content_block }, inputText: '' });
        return;
      case 'content_block_delta': {
        const streamed = this.#blocks.get(event.index);
        if (streamed !== undefined && event.delta.type === 'input_json_delta') streamed.inputText += event.delta.partial_json;
        return;
      }
      case 'content_block_stop': {
        const streamed = this.#blocks.get(event.index);
        if (streamed === undefined || streamed.inputText.trim() === '') return;
        // Anthropic's own code input; should it arrive broken, the start block's input stays, as for a call without deltas.
        const parsed = safeParseJson(streamed.inputText);
        if (parsed.success) streamed.block.input = parsed.value;
        return;
      }
      default:
        return;
    }
  }

  /** Whether the block at this stream index is a server block. */
  has(index: number): boolean {
    return this.#blocks.has(index);
  }

  /** The server block at this stream index, as a plain response would hold it. */
  block(index: number): unknown {
    return this.#blocks.get(index)?.block;
  }

  /** The container the response's code ran in, when it ran any. */
  get container(): { id: string } | undefined {
    return this.#container;
  }
}
