/**
 * Ending a tool call that a model will not end by itself. A weak model (or the
 * random test model) never chooses to close a string; once a call has used its
 * token budget, the mask is narrowed further toward the nearest end: close the
 * open string, close the innermost container, move to the next required member.
 * The grammar's own mask is always applied first, so this only ever picks among
 * tokens that keep the output valid.
 * @module
 */
import type { Vocabulary } from '../../decoding/vocabulary.js';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../../shared/json-bytes.js';

/** Tracks, over a valid JSON prefix, whether a string is open and which containers are. */
export class JsonPrefixTracker {
  #inString = false;
  #escaped = false;
  readonly #stack: number[] = [];

  reset(): void {
    this.#inString = false;
    this.#escaped = false;
    this.#stack.length = 0;
  }

  push(bytes: Uint8Array | readonly number[]): void {
    for (const byte of bytes) {
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (byte === BACKSLASH) this.#escaped = true;
        else if (byte === QUOTE) this.#inString = false;
      } else if (byte === QUOTE) this.#inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.#stack.push(byte);
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) this.#stack.pop();
    }
  }

  get inString(): boolean {
    return this.#inString;
  }

  /** `}` or `]` for the innermost open container, if any. */
  get closer(): number | undefined {
    const top = this.#stack.at(-1);
    return top === undefined ? undefined : top === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
  }
}

/** Token classes by their first bytes, as bitsets over the vocabulary. */
export class ClosingPreference {
  readonly #exactQuote: Uint32Array;
  readonly #startsWith = new Map<number, Uint32Array>();
  readonly #scratch: Uint32Array;

  constructor(vocabulary: Vocabulary) {
    const words = vocabulary.maskWords;
    this.#exactQuote = new Uint32Array(words);
    this.#scratch = new Uint32Array(words);
    for (const byte of [CLOSE_BRACE, CLOSE_BRACKET, COMMA, QUOTE]) this.#startsWith.set(byte, new Uint32Array(words));
    for (let id = 0; id < vocabulary.tokenCount; id++) {
      if (!vocabulary.isTextToken(id)) continue;
      const bytes = vocabulary.tokenBytes(id);
      if (bytes.length === 0) continue;
      const bit = 1 << (id & 31);
      if (bytes.length === 1 && bytes[0] === QUOTE) this.#exactQuote[id >>> 5]! |= bit;
      const set = this.#startsWith.get(bytes[0]!);
      if (set) set[id >>> 5]! |= bit;
    }
  }

  /** Narrows `mask` in place to the preferred closing tokens that it allows; leaves it as is when none are allowed. */
  narrow(mask: Uint32Array, tracker: JsonPrefixTracker): void {
    const order = tracker.inString
      ? [this.#exactQuote]
      : [tracker.closer, COMMA, QUOTE].map((byte) => (byte === undefined ? undefined : this.#startsWith.get(byte)));
    for (const preferred of order) {
      if (!preferred) continue;
      let any = 0;
      for (let word = 0; word < mask.length; word++) any |= this.#scratch[word] = mask[word]! & preferred[word]!;
      if (any !== 0) {
        mask.set(this.#scratch);
        return;
      }
    }
  }
}
