/**
 * How the agent loop reads a streamed model call: each piece goes to a
 * listener as it arrives, and the `end` event's response is the call's answer,
 * handled exactly like `generate`'s. A stream that ends without an `end` event
 * fails the call like a provider error would.
 * @module
 */
import type { ModelResponse, ModelStreamEvent } from '../../protocol/model-exchange.js';

/** A streamed piece other than the final response. */
export type ModelDelta = Exclude<ModelStreamEvent, { type: 'end' }>;

/**
 * Reads `open()`'s stream to its `end` event. Once `signal` fires no further piece is handed on and the provider's
 * stream is closed at its next event (the loop does not wait for that: it races the call against the signal). When
 * `onDelta` returns a promise, the stream is read on only once it settles: a reader that is behind holds the provider's
 * stream back instead of letting its pieces pile up.
 */
export async function foldModelStream(
  open: () => AsyncIterable<ModelStreamEvent>,
  onDelta: ((delta: ModelDelta) => void | Promise<void>) | undefined,
  signal: AbortSignal | undefined,
): Promise<ModelResponse> {
  for await (const event of open()) {
    if (signal?.aborted) break;
    if (event.type === 'end') return event.response;
    if (onDelta) {
      try {
        const readerBehind = onDelta(event);
        if (readerBehind) await readerBehind;
      } catch {
        // A listener's failure is not the model's; the call goes on.
      }
    }
  }
  signal?.throwIfAborted();
  const error = new Error('The model stream ended without its final response event; the provider connection may have closed early. Try the run again.');
  error.name = 'IncompleteModelStream';
  throw error;
}
