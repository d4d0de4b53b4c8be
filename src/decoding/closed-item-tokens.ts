/**
 * For object items that can run out of values (`ObjectAlternative.closedItem`): the text tokens the matcher's memory
 * (`written-strings.ts`) must walk to find those that take such an item to where only its `}` can follow as an item
 * held. Their values are endless strings, so only a closing quote (a value ends: the quote tokens of `quote-tokens.ts`)
 * or an opening brace (an item at the deepest level) gets there; where no array holds an item yet, only a token that
 * closes one item and opens the next.
 * @module
 */
import { CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE } from '../shared/json-bytes.js';
import type { JsonAutomaton } from './json-automaton.js';
import type { QuoteTokens } from './quote-tokens.js';
import type { Vocabulary } from './vocabulary.js';
import type { Scan } from './written-scan.js';

export interface ClosedItemTokens {
  /** Tokens with an opening brace. */
  readonly opening: Int32Array;
  /** Tokens with a `}` or `]` and an opening brace after it. */
  readonly closingThenOpening: Int32Array;
}

const closedItemTokensOf = new WeakMap<Vocabulary, ClosedItemTokens>();

export function closedItemTokens(vocabulary: Vocabulary): ClosedItemTokens {
  let known = closedItemTokensOf.get(vocabulary);
  if (known === undefined) {
    const bytes = vocabulary.tokenBytesFlat;
    const opening: number[] = [];
    const closingThenOpening: number[] = [];
    for (let id = 0; id < vocabulary.size; id++) {
      if (!vocabulary.isTextToken(id)) continue;
      let opens = false;
      let closed = false;
      let reopened = false;
      for (let offset = vocabulary.tokenOffsets[id]!; offset < vocabulary.tokenOffsets[id + 1]!; offset++) {
        const byte = bytes[offset]!;
        if (byte === OPEN_BRACE) opens = true;
        if (byte === OPEN_BRACE && closed) reopened = true;
        if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) closed = true;
      }
      if (opens) opening.push(id);
      if (reopened) closingThenOpening.push(id);
    }
    known = { opening: Int32Array.from(opening), closingThenOpening: Int32Array.from(closingThenOpening) };
    closedItemTokensOf.set(vocabulary, known);
  }
  return known;
}

/**
 * Where some array holds an item, the tokens with quotes to walk (beside those with a `{` outside a string): inside a
 * string whose close leaves such an item (`closingValue`), one quote; inside another (a key, or a value with keys
 * still to come), 3 (close, then a value opened and closed); outside one, 2 (a value opened and closed).
 */
export function reachingQuotes(quotes: QuoteTokens, automaton: JsonAutomaton, state: number, scan: Scan): Int32Array {
  return quotes.atLeast[scan.inString === 0 ? 2 : automaton.closingValue[state] === 1 ? 1 : 3]!;
}
