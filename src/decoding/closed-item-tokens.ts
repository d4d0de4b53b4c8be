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
import { compareFrom } from './held-strings.js';
import type { QuoteTokens } from './quote-tokens.js';
import type { Vocabulary } from './vocabulary.js';
import { BOUNDARY, type Scan } from './written-scan.js';

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

/** `leafRestTokens`' answer, reused (one mask at a time). */
export const LEAF_RESTS = new Int32Array(4096);

/**
 * Inside a string whose close leaves an object item that can run out (`closingValue`), at a character boundary: into
 * `LEAF_RESTS`, the tokens that close it as a string some held item has inside it (`leaves`: the scan's string so far, then the
 * token's known text before its quote), found per such leaf (`firstRestText`) as `tryRests` finds a held item's rest;
 * the tokens whose text is not known alone are walked besides (`walkedInside`).
 * Returns how many; -1 where it does not apply (no leaves, not at a character boundary) or past `LEAF_RESTS`' room.
 */
export function leafRestTokens(quotes: QuoteTokens, leaves: readonly string[] | undefined, units: Uint16Array, scan: Scan): number {
  const out = LEAF_RESTS;
  if (leaves === undefined || scan.inString === 0 || scan.phase !== BOUNDARY) return -1;
  const from = scan.contentStart;
  const written = scan.unitsEnd - from;
  const texts = quotes.closingTexts;
  let count = 0;
  for (const leaf of leaves) {
    if (leaf.length < written || leaf.length - written > quotes.longestClosingText) continue;
    let same = true;
    for (let index = 0; same && index < written; index++) same = leaf.charCodeAt(index) === units[from + index];
    if (!same) continue;
    for (let at = firstRestText(quotes, leaf, written); at < texts.length && compareFrom(leaf, written, texts[at]!) === 0 && count < out.length; at++) {
      out[count++] = quotes.byClosingText[at]!;
    }
    if (count === out.length) return -1;
  }
  return count;
}

/**
 * The first of the quote tokens' texts before their quote (`closingTexts`, sorted) that is not before `value` from
 * code unit `written` on: the texts that are its whole rest (tokens that close it) follow there.
 */
export function firstRestText(quotes: QuoteTokens, value: string, written: number): number {
  const texts = quotes.closingTexts;
  let low = 0;
  let high = texts.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareFrom(value, written, texts[middle]!) > 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
