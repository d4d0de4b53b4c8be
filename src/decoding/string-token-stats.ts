/**
 * Per-vocabulary facts about tokens inside a JSON string, used to derive the mask of a
 * length-bounded string from its unbounded twin: how many code points each token
 * starts before it closes the string, and whether it closes it.
 * @module
 */
import { BoundedCache, OBJECT_OVERHEAD_BYTES } from './bounded-cache.js';
import type { StoredMask } from './stored-mask.js';
import { TokenTrie, type TokenTrieArrays } from './token-trie.js';

/** What a vocabulary index file stores of the statistics: the per-token facts, the three tries and the prepared length lists. */
export interface StringTokenStatsArrays {
  readonly consumed: Uint16Array;
  readonly closes: Uint8Array;
  readonly maxConsumed: number;
  readonly plainContent: Uint32Array;
  readonly plainContentCount: number;
  readonly remainder: TokenTrieArrays;
  readonly quoteTrie: TokenTrieArrays;
  readonly contentTrie: TokenTrieArrays;
  readonly longestFirst: Uint32Array;
  readonly longerThan: Int32Array;
  readonly closingShortestFirst: Uint32Array;
  readonly closingShorterThan: Int32Array;
  /** The dense budget masks back to back, `maskWords` words each. */
  readonly denseBudgets: Uint32Array;
}

/** The per-token facts. */
export type StringFacts = Pick<StringTokenStatsArrays, 'consumed' | 'closes' | 'maxConsumed' | 'plainContent' | 'plainContentCount'>;

/** The per-token arrays of the facts. */
export type TokenFacts = Pick<StringFacts, 'consumed' | 'closes' | 'plainContent'>;

/** The length lists `prepare()` builds, as an index file stores them. */
export type StringLengthLists = Pick<StringTokenStatsArrays, 'longestFirst' | 'longerThan' | 'closingShortestFirst' | 'closingShorterThan' | 'denseBudgets'>;

/** The tries of the statistics, by the name an index file stores them under. */
export type StringStatsTrieName = 'remainder' | 'quoteTrie' | 'contentTrie';

/**
 * The statistics as an index file gives them back: two counts at once, the per-token facts,
 * tries and length lists when first used. A part that cannot be read back (`undefined`) is built
 * from the vocabulary instead, as it would have been without a file.
 */
export interface StoredStringTokenStats {
  readonly maxConsumed: number;
  readonly plainContentCount: number;
  readFacts(): TokenFacts | undefined;
  readTrie(name: StringStatsTrieName): TokenTrieArrays | undefined;
  readLengthLists(): StringLengthLists | undefined;
}

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
  get consumed(): Uint16Array {
    return (this.facts ??= this.readFacts()).consumed;
  }
  /** Per token: 1 when it holds an unescaped `"` (closes the string). */
  get closes(): Uint8Array {
    return (this.facts ??= this.readFacts()).closes;
  }
  /** Largest `consumed` over text tokens: a budget of at least this never removes a token. */
  readonly maxConsumed: number;
  /**
   * Bitset of tokens that are plain string content from a character boundary: valid
   * UTF-8 (a trailing incomplete character allowed), no `"`, `\\` or control byte. In an
   * unconstrained string body every one of them is allowed (llguidance's "slicer").
   */
  get plainContent(): Uint32Array {
    return (this.facts ??= this.readFacts()).plainContent;
  }
  /** Number of tokens in `plainContent`. */
  readonly plainContentCount: number;
  /** The per-token facts, read from an index file when first used (undefined until then). */
  private facts: TokenFacts | undefined;
  private readonly vocabulary: TokenTable;
  private remainderTrie: TokenTrie | undefined;
  private quoteTrieCache: TokenTrie | undefined;
  private contentTrieCache: TokenTrie | undefined;
  /**
   * Masks of string positions over the content (non-closing) tokens, keyed by content
   * automaton and position; they do not depend on what follows the string, so every
   * grammar over this vocabulary shares them. Bounded: an evicted mask is walked again.
   */
  readonly contentMasks: BoundedCache<string, StoredMask>;
  /** Content-trie flags per loop class (one byte per content-trie node each, so few fit). */
  private readonly classFlags: BoundedCache<string, Uint8Array>;

  /** Per content-trie node: 1 when every byte below it is in the ASCII class `members` (cached by `key`). */
  contentClassFlags(key: string, members: Uint8Array): Uint8Array {
    let flags = this.classFlags.get(key);
    if (flags === undefined) {
      flags = this.contentTrie.descendantsWithin(members);
      this.classFlags.set(key, flags);
    }
    return flags;
  }
  private readonly spans = new Map<string, number>();
  private longestFirst: Uint32Array = new Uint32Array(0);
  private longerThan: Int32Array = new Int32Array(0);
  private closingShortestFirst: Uint32Array = new Uint32Array(0);
  private closingShorterThan: Int32Array = new Int32Array(1);
  private denseBudgets: Uint32Array[] = [];
  private prepared = false;
  /** The index file's parts not read yet, when the statistics came from one. */
  private readonly stored: StoredStringTokenStats | undefined;

  /**
   * @param cacheBytes estimated bytes for the shared content masks and loop-class flags together
   * @param stored what an index file built for this very vocabulary (`toArrays()`) gives back, used as it is
   */
  constructor(vocabulary: TokenTable, cacheBytes: number, stored?: StoredStringTokenStats) {
    this.vocabulary = vocabulary;
    this.contentMasks = new BoundedCache(cacheBytes / 2, (mask) => mask.data.byteLength + OBJECT_OVERHEAD_BYTES);
    this.classFlags = new BoundedCache(cacheBytes / 2, (flags) => flags.byteLength + OBJECT_OVERHEAD_BYTES);
    this.stored = stored;
    if (stored !== undefined) {
      this.maxConsumed = stored.maxConsumed;
      this.plainContentCount = stored.plainContentCount;
      return;
    }
    const facts = computeFacts(vocabulary);
    this.facts = facts;
    this.maxConsumed = facts.maxConsumed;
    this.plainContentCount = facts.plainContentCount;
  }

  private readFacts(): TokenFacts {
    return this.stored?.readFacts() ?? computeFacts(this.vocabulary);
  }

  /** Trie of the text tokens holding an unescaped `"`: the only ones whose fate depends on what follows a string. */
  get quoteTrie(): TokenTrie {
    this.quoteTrieCache ??= this.storedTrie('quoteTrie') ?? this.trieOf(this.closes, 1);
    return this.quoteTrieCache;
  }

  /** Trie of the text tokens without an unescaped `"`: they never leave a string. */
  get contentTrie(): TokenTrie {
    this.contentTrieCache ??= this.storedTrie('contentTrie') ?? this.trieOf(this.closes, 0);
    return this.contentTrieCache;
  }

  private storedTrie(name: StringStatsTrieName): TokenTrie | undefined {
    const arrays = this.stored?.readTrie(name);
    return arrays === undefined ? undefined : TokenTrie.fromArrays(arrays);
  }

  /** The trie of the text tokens whose `closes` is `value`. */
  private trieOf(closes: Uint8Array, value: number): TokenTrie {
    const ids: number[] = [];
    for (let id = 0; id < this.vocabulary.tokenCount; id++) if (this.vocabulary.isTextToken(id) && closes[id] === value) ids.push(id);
    return TokenTrie.build(this.vocabulary.tokenBytesFlat, this.vocabulary.tokenOffsets, ids, this.vocabulary.size);
  }

  /** Trie of the text tokens outside `plainContent`: all a string-body mask still has to walk. */
  get remainder(): TokenTrie {
    this.remainderTrie ??= this.storedTrie('remainder');
    if (this.remainderTrie === undefined) {
      const plainContent = this.plainContent;
      const ids: number[] = [];
      for (let id = 0; id < this.vocabulary.tokenCount; id++) {
        if (this.vocabulary.isTextToken(id) && (plainContent[id >>> 5]! & (1 << (id & 31))) === 0) ids.push(id);
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

  /** Whether `narrow(mask, budget, needed)` can clear any token. */
  narrows(budget: number, needed: number): boolean {
    return budget < this.maxConsumed || needed > 0;
  }

  /**
   * Clears from `mask` every token that starts more than `budget` code points, then every
   * token that closes the string after fewer than `needed`. Small budgets (which remove most
   * of the vocabulary) AND with a dense bitset; larger ones clear the few long tokens one by
   * one from a list sorted by length, as the closing need does, so neither case costs more
   * than one pass over the mask. The ids a list cleared that were set go to `cleared`:
   * returns how many, or -1 when a dense AND did the clearing or they outgrew `cleared`.
   */
  narrow(mask: Uint32Array, budget: number, needed: number, cleared: Uint32Array): number {
    this.prepare();
    let count = 0;
    if (budget < this.maxConsumed) {
      if (budget < this.denseBudgets.length) {
        andInto(mask, this.denseBudgets[budget]!);
        count = -1;
      } else count = clearListed(mask, this.longestFirst, this.longerThan[budget]!, cleared, count);
    }
    if (needed > 0) {
      const end = this.closingShorterThan[Math.min(needed, this.closingShorterThan.length - 1)]!;
      count = clearListed(mask, this.closingShortestFirst, end, cleared, count);
    }
    return count;
  }

  /** Builds the length lists and dense budget masks now (idempotent). */
  prepare(): void {
    if (this.prepared) return;
    this.prepared = true;
    const vocabulary = this.vocabulary;
    const stored = this.stored?.readLengthLists();
    if (stored !== undefined) {
      this.longestFirst = stored.longestFirst;
      this.longerThan = stored.longerThan;
      this.closingShortestFirst = stored.closingShortestFirst;
      this.closingShorterThan = stored.closingShorterThan;
      const words = vocabulary.maskWords;
      for (let at = 0; at + words <= stored.denseBudgets.length && words > 0; at += words) this.denseBudgets.push(stored.denseBudgets.subarray(at, at + words));
      return;
    }
    const buckets: number[][] = Array.from({ length: this.maxConsumed + 1 }, () => []);
    const closing: number[][] = Array.from({ length: this.maxConsumed + 2 }, () => []);
    const { consumed: consumedOf, closes } = this;
    for (let id = 0; id < vocabulary.tokenCount; id++) {
      if (!vocabulary.isTextToken(id)) continue;
      const consumed = Math.min(consumedOf[id]!, this.maxConsumed);
      buckets[consumed]!.push(id);
      if (closes[id] === 1) closing[consumed]!.push(id);
    }
    const longestFirst: number[] = [];
    const longerThan = new Int32Array(this.maxConsumed + 1);
    for (let consumed = this.maxConsumed; consumed >= 0; consumed--) {
      longerThan[consumed] = longestFirst.length;
      longestFirst.push(...buckets[consumed]!);
    }
    const closingShortestFirst: number[] = [];
    const closingShorterThan = new Int32Array(this.maxConsumed + 2);
    for (let consumed = 0; consumed <= this.maxConsumed + 1; consumed++) {
      closingShorterThan[consumed] = closingShortestFirst.length;
      closingShortestFirst.push(...(closing[consumed] ?? []));
    }
    // dense masks only where the list of tokens to clear would be longer than the mask itself
    const words = vocabulary.maskWords;
    const dense: Uint32Array[] = [];
    const within = new Uint32Array(words);
    for (let budget = 0; budget < this.maxConsumed && longerThan[budget]! > words; budget++) {
      for (const id of buckets[budget]!) within[id >>> 5]! |= 1 << (id & 31);
      dense.push(within.slice());
    }
    this.longestFirst = Uint32Array.from(longestFirst);
    this.longerThan = longerThan;
    this.closingShortestFirst = Uint32Array.from(closingShortestFirst);
    this.closingShorterThan = closingShorterThan;
    this.denseBudgets = dense;
  }

  /** The built index (tries and length lists built now if they were not), for storing it. */
  toArrays(): StringTokenStatsArrays {
    this.prepare();
    const words = this.vocabulary.maskWords;
    const denseBudgets = new Uint32Array(this.denseBudgets.length * words);
    this.denseBudgets.forEach((mask, index) => denseBudgets.set(mask, index * words));
    return {
      consumed: this.consumed,
      closes: this.closes,
      maxConsumed: this.maxConsumed,
      plainContent: this.plainContent,
      plainContentCount: this.plainContentCount,
      remainder: this.remainder.toArrays(),
      quoteTrie: this.quoteTrie.toArrays(),
      contentTrie: this.contentTrie.toArrays(),
      longestFirst: this.longestFirst,
      longerThan: this.longerThan,
      closingShortestFirst: this.closingShortestFirst,
      closingShorterThan: this.closingShorterThan,
      denseBudgets,
    };
  }

  /** Bytes held by the cached bitsets. */
  byteSize(): number {
    const facts = this.facts;
    let total = facts === undefined ? 0 : facts.consumed.byteLength + facts.closes.byteLength + facts.plainContent.byteLength;
    total += this.remainderTrie?.byteSize() ?? 0;
    total += (this.quoteTrieCache?.byteSize() ?? 0) + (this.contentTrieCache?.byteSize() ?? 0);
    for (const mask of this.contentMasks.values()) total += mask.data.byteLength;
    for (const flags of this.classFlags.values()) total += flags.byteLength;
    total += this.longestFirst.byteLength + this.longerThan.byteLength + this.closingShortestFirst.byteLength + this.closingShorterThan.byteLength;
    for (const mask of this.denseBudgets) total += mask.byteLength;
    return total;
  }
}

/** Per token: what it consumes of a string and whether it closes it; which tokens are plain content. */
function computeFacts(vocabulary: TokenTable): StringFacts {
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
  const plainContent = new Uint32Array(vocabulary.maskWords);
  let plainContentCount = 0;
  for (let id = 0; id < vocabulary.tokenCount; id++) {
    if (vocabulary.isTextToken(id) && isPlainContent(bytes, offsets[id]!, offsets[id + 1]!)) {
      plainContent[id >>> 5]! |= 1 << (id & 31);
      plainContentCount++;
    }
  }
  return { consumed, closes, maxConsumed, plainContent, plainContentCount };
}

/** `mask &= within`, word by word: a function of its own, so the JIT optimizes it alone whichever branch of `narrow` runs more. */
function andInto(mask: Uint32Array, within: Uint32Array): void {
  for (let word = 0; word < within.length; word++) mask[word]! &= within[word]!;
}

/** Clears `ids[0..end)` from `mask`, appending those that were set to `cleared` after its first `count` (-1: not recording, or full). */
function clearListed(mask: Uint32Array, ids: Uint32Array, end: number, cleared: Uint32Array, count: number): number {
  for (let index = 0; index < end; index++) {
    const id = ids[index]!;
    const bit = 1 << (id & 31);
    const word = mask[id >>> 5]!;
    if ((word & bit) === 0) continue;
    mask[id >>> 5] = word ^ bit;
    if (count < 0) continue;
    if (count < cleared.length) cleared[count++] = id;
    else count = -1;
  }
  return count;
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
