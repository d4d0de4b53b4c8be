/**
 * For object items that can run out of values (`ObjectAlternative.closedItem`): the text tokens the matcher's memory
 * (`written-strings.ts`) must walk to find those that take such an item to where only its `}` can follow as an item
 * held. Their values are endless strings, so only a closing quote (a value ends) or an opening brace (an object with no
 * key possible) gets there; where no array holds an item yet, only a token that closes one item and opens the next.
 * @module
 */
import { CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, QUOTE } from '../shared/json-bytes.js';
import type { Vocabulary } from './vocabulary.js';

export interface ClosedItemTokens {
  /** Tokens with a quote or an opening brace. */
  readonly reaching: Int32Array;
  /** Tokens with a `}` or `]` and an opening brace after it. */
  readonly closingThenOpening: Int32Array;
}

const closedItemTokensOf = new WeakMap<Vocabulary, ClosedItemTokens>();

export function closedItemTokens(vocabulary: Vocabulary): ClosedItemTokens {
  let known = closedItemTokensOf.get(vocabulary);
  if (known === undefined) {
    const bytes = vocabulary.tokenBytesFlat;
    const reaching: number[] = [];
    const closingThenOpening: number[] = [];
    for (let id = 0; id < vocabulary.size; id++) {
      if (!vocabulary.isTextToken(id)) continue;
      let reaches = false;
      let closed = false;
      let reopened = false;
      for (let offset = vocabulary.tokenOffsets[id]!; offset < vocabulary.tokenOffsets[id + 1]!; offset++) {
        const byte = bytes[offset]!;
        if (byte === QUOTE || byte === OPEN_BRACE) reaches = true;
        if (byte === OPEN_BRACE && closed) reopened = true;
        if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) closed = true;
      }
      if (reaches) reaching.push(id);
      if (reopened) closingThenOpening.push(id);
    }
    known = { reaching: Int32Array.from(reaching), closingThenOpening: Int32Array.from(closingThenOpening) };
    closedItemTokensOf.set(vocabulary, known);
  }
  return known;
}
