/**
 * Per-vocabulary facts about tokens inside a JSON string, used to derive the mask of a
 * length-bounded string from its unbounded twin: how many code points each token
 * starts before it closes the string, and whether it closes it.
 * @module
 */
import { TokenTrie } from './token-trie.js';

/** The parts of a vocabulary the statistics read (kept structural to avoid an import cycle). */
export interface TokenTable {
  readonly size: number;
  readonly tokenCount: number;
  readonly maskWords: number;
  readonly tokenBytesFlat: Uint8Array;
  readonly tokenOffsets: Uint32Array;
  isTextToken(id: number): boolean;
}

export class StringTokenStats {
  /** Per token: code points it starts before the first unescaped `"` (continuation bytes and escape tails do not count). */
  readonly consumed: Uint16Array;
  /** Per token: 1 when it holds an unescaped `"` (closes the string). */
  readonly closes: Uint8Array;
  /** Largest `consumed` over text tokens: a budget of at least this never removes a token. */
  readonly maxConsumed: number;
  /**
   * Bitset of tokens that are plain string content from a character boundary: valid
   * UTF-8 (a trailing incomplete character allowed), no `"`, `\\` or control byte. In an
   * unconstrained string body every one of them is allowed (llguidance's "slicer").
   */
  readonly plainContent: Uint32Array;
  /** Number of tokens in `plainContent`. */
  readonly plainContentCount: number;
  private readonly vocabulary: TokenTable;
  private remainderTrie: TokenTrie | undefined;
  private readonly atMost = new Map<number, Uint32Array>();
  private readonly spans = new Map<string, number>();
  private readonly closesBefore = new Map<number, Uint32Array>();

  constructor(vocabulary: TokenTable) {
    this.vocabulary = vocabulary;
    const size = vocabulary.size;
    const consumed = new Uint16Array(size);
    const closes = new Uint8Array(size);
    const bytes = vocabulary.tokenBytesFlat;
    const offsets = vocabulary.tokenOffsets;
    let maxConsumed = 0;
    for (let id = 0; id < size; id++) {
      let count = 0;
      let escape = 0;
      for (let at = offsets[id]!; at < offsets[id + 1]!; at++) {
        const byte = bytes[at]!;
        if (escape === 1) {
          escape = byte === 0x75 ? 5 : 0;
          continue;
        }
        if (escape > 1) {
          escape = escape === 2 ? 0 : escape - 1;
          continue;
        }
        if (byte === 0x22) {
          closes[id] = 1;
          break;
        }
        if (byte === 0x5c) escape = 1;
        else if (byte >= 0x80 && byte <= 0xbf) continue;
        count++;
      }
      consumed[id] = Math.min(count, 0xffff);
      if (count > maxConsumed && vocabulary.isTextToken(id)) maxConsumed = count;
    }
    this.consumed = consumed;
    this.closes = closes;
    this.maxConsumed = maxConsumed;
    const plain = new Uint32Array(vocabulary.maskWords);
    let plainCount = 0;
    for (let id = 0; id < vocabulary.tokenCount; id++) {
      if (vocabulary.isTextToken(id) && isPlainContent(bytes, offsets[id]!, offsets[id + 1]!)) {
        plain[id >>> 5]! |= 1 << (id & 31);
        plainCount++;
      }
    }
    this.plainContent = plain;
    this.plainContentCount = plainCount;
  }

  /** Trie of the text tokens outside `plainContent`: all a string-body mask still has to walk. */
  get remainder(): TokenTrie {
    if (this.remainderTrie === undefined) {
      const ids: number[] = [];
      for (let id = 0; id < this.vocabulary.tokenCount; id++) {
        if (this.vocabulary.isTextToken(id) && (this.plainContent[id >>> 5]! & (1 << (id & 31))) === 0) ids.push(id);
      }
      this.remainderTrie = TokenTrie.build(this.vocabulary.tokenBytesFlat, this.vocabulary.tokenOffsets, ids, this.vocabulary.size);
    }
    return this.remainderTrie;
  }

  /**
   * Longest run of code points from `alphabet` (sorted inclusive ranges) that one token
   * can start, counting a trailing incomplete character: an upper bound on how far a
   * token can advance a string whose characters all come from `alphabet`.
   */
  tokenSpan(alphabet: readonly number[]): number {
    const key = alphabet.join(',');
    const cached = this.spans.get(key);
    if (cached !== undefined) return cached;
    const bytes = this.vocabulary.tokenBytesFlat;
    const offsets = this.vocabulary.tokenOffsets;
    const inAlphabet = (codePoint: number): boolean => {
      for (let index = 0; index < alphabet.length; index += 2) if (codePoint >= alphabet[index]! && codePoint <= alphabet[index + 1]!) return true;
      return false;
    };
    let best = 0;
    for (let id = 0; id < this.vocabulary.tokenCount; id++) {
      let run = 0;
      let at = offsets[id]!;
      const end = offsets[id + 1]!;
      while (at < end) {
        const byte = bytes[at]!;
        if (byte >= 0x80 && byte <= 0xbf) {
          at++;
          continue;
        }
        const length = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
        let codePoint = length === 1 ? byte : byte & (0xff >> (length + 1));
        let read = 1;
        while (read < length && at + read < end) codePoint = (codePoint << 6) | (bytes[at + read++]! & 0x3f);
        // an incomplete trailing character may still be one of the alphabet's
        if (read === length && !inAlphabet(codePoint)) break;
        run++;
        at += read;
      }
      if (run > best) best = run;
    }
    this.spans.set(key, best);
    return best;
  }

  /** Bitset of text tokens starting at most `budget` code points (cached per budget). */
  withinBudget(budget: number): Uint32Array {
    let mask = this.atMost.get(budget);
    if (mask === undefined) {
      mask = new Uint32Array(this.vocabulary.maskWords);
      for (let id = 0; id < this.vocabulary.size; id++) if (this.consumed[id]! <= budget) mask[id >>> 5]! |= 1 << (id & 31);
      this.atMost.set(budget, mask);
    }
    return mask;
  }

  /** Bitset of tokens that close the string after fewer than `needed` code points (cached). */
  closingShort(needed: number): Uint32Array {
    let mask = this.closesBefore.get(needed);
    if (mask === undefined) {
      mask = new Uint32Array(this.vocabulary.maskWords);
      for (let id = 0; id < this.vocabulary.size; id++) if (this.closes[id] === 1 && this.consumed[id]! < needed) mask[id >>> 5]! |= 1 << (id & 31);
      this.closesBefore.set(needed, mask);
    }
    return mask;
  }

  /** Bytes held by the cached bitsets. */
  byteSize(): number {
    let total = this.consumed.byteLength + this.closes.byteLength + this.plainContent.byteLength + (this.remainderTrie?.byteSize() ?? 0);
    for (const mask of this.atMost.values()) total += mask.byteLength;
    for (const mask of this.closesBefore.values()) total += mask.byteLength;
    return total;
  }
}

function isPlainContent(bytes: Uint8Array, start: number, end: number): boolean {
  let pending = 0;
  let secondLo = 0x80;
  let secondHi = 0xbf;
  for (let at = start; at < end; at++) {
    const byte = bytes[at]!;
    if (pending > 0) {
      if (byte < secondLo || byte > secondHi) return false;
      secondLo = 0x80;
      secondHi = 0xbf;
      pending--;
      continue;
    }
    if (byte < 0x20 || byte === 0x22 || byte === 0x5c) return false;
    if (byte < 0x80) continue;
    if (byte >= 0xc2 && byte <= 0xdf) pending = 1;
    else if (byte >= 0xe0 && byte <= 0xef) {
      pending = 2;
      if (byte === 0xe0) secondLo = 0xa0;
      if (byte === 0xed) secondHi = 0x9f;
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      pending = 3;
      if (byte === 0xf0) secondLo = 0x90;
      if (byte === 0xf4) secondHi = 0x8f;
    } else return false;
  }
  return true;
}
