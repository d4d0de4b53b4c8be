/**
 * Which tokens the matcher's memory (`written-strings.ts`) must walk where item strings or keys can run out: a token
 * fails there only where it closes a string equal to a held item (a quote), or reaches a prefix whose completions are
 * all held (`JsonAutomaton.withoutExhausted`). The second needs as many held items extending the prefix as it has
 * completions. A prefix a token reaches has at most the string so far's code points plus the token's bytes (one the
 * token opens: the token's bytes), so at least the fewest completions of any prefix that long
 * (`ItemCompletions.fewestUpTo`); and it is extended by at most the held items that begin like the string so far, or
 * in a string the token opens, by the items of a container at this depth or below plus the item the token closes (with
 * at most two quotes, one close at most). Where the completions pass the items, and no quote can close a held item, walking the token
 * could not clear its bit. Far from a language's end (a `maxLength` of 48, 30 characters in; 20 characters into the
 * 33 that every name of an enum shares) that leaves nearly every token unwalked.
 * @module
 */
import { BACKSLASH } from '../shared/json-bytes.js';
import type { FirstByteGroups } from './first-byte-groups.js';
import type { ItemCompletions } from './grammar-ir.js';
import type { HeldStrings } from './held-strings.js';
import type { UnitTokens } from './quote-tokens.js';
import type { Vocabulary } from './vocabulary.js';

/** Quote counts are kept up to here: a token with this many is always walked. */
const QUOTES_KEPT = 255;
/** `fewCandidates` lists at most this many tokens of fewer than three quotes; past it, the lists by first unit narrow more. */
const FEW_TOKENS = 2048;

/**
 * The fewest completions of any prefix of at most `length` code points (index), over every language that counts (the
 * last entry for every length past it): nonincreasing.
 */
export function fewestCompletions(languages: readonly ItemCompletions[]): Float64Array {
  const lengths = Math.max(1, ...languages.map((language) => language.fewestUpTo.length));
  const fewest = new Float64Array(lengths).fill(Infinity);
  for (const language of languages) {
    const own = language.fewestUpTo;
    for (let length = 0; length < lengths; length++) fewest[length] = Math.min(fewest[length]!, own[Math.min(length, own.length - 1)]!);
  }
  return fewest;
}

/** Per mask, from where the memory stands: which allowed tokens can fail on the memory (`mustWalk`). */
export class ExhaustionBound {
  private readonly fewest: Float64Array;
  private readonly quotes: Uint8Array;
  private readonly offsets: Uint32Array;
  private bounded = true;
  private inString = false;
  /** Code points the string being written may have before the token (0 outside a string). */
  private written = 0;
  /** The held items that begin like the string being written (a token without a quote stays in it). */
  private heldAlike = 0;
  /** The most items a container at this depth or below holds. */
  private heldAnywhere = 0;
  /** The fewest units a held item that begins like the string being written has past it (Infinity: none). */
  private shortestRest = Infinity;
  /** The string being written is no item or key that is remembered: a token without a quote changes nothing the memory sees. */
  private untracked = false;

  /** Tokens without a quote, with one or two, longest first, and those with three or more. */
  private readonly noQuote: Int32Array;
  private readonly noQuoteByFirst: FirstByteGroups;
  private readonly fewQuotes: Int32Array;
  private readonly manyQuotes: Int32Array;
  /**
   * In a string: the fewest bytes a token without a quote, and one with one or two, has where a prefix it reaches may
   * run out (a close that repeats a held item aside: `WrittenStrings.tryRests` finds those by their text).
   */
  private shortestNoQuote = Infinity;
  private shortestFewQuotes = Infinity;
  /** What `fewCandidates` found, first the count it returned. */
  readonly candidates: Int32Array;
  /** The ASCII units the held items beginning like the string being written have next (a bit each), and whether one has another. */
  private readonly nextAscii = new Uint32Array(4);
  private nextOther = true;
  private readonly tokenBytes: Uint8Array;

  constructor(languages: readonly ItemCompletions[], tokens: UnitTokens, manyQuotes: Int32Array, vocabulary: Vocabulary) {
    this.fewest = fewestCompletions(languages);
    this.quotes = tokens.quotes;
    this.noQuote = tokens.noQuoteLongestFirst;
    this.noQuoteByFirst = tokens.noQuoteByFirstByte;
    this.fewQuotes = tokens.fewQuotesLongestFirst;
    this.manyQuotes = manyQuotes;
    this.offsets = vocabulary.tokenOffsets;
    this.tokenBytes = vocabulary.tokenBytesFlat;
    this.candidates = new Int32Array(FEW_TOKENS + manyQuotes.length);
  }

  /**
   * Where the memory stands: `written` code points at most in the string being written (-1: outside one),
   * `heldAlike` held items beginning like it, `shortestRest` the fewest units such an item has past it, `held` the
   * items per container depth, `tracked` 1 where some configuration writes a remembered item or key. `bounded` off:
   * every token must be walked (tests compare the masks).
   */
  prepare(
    bounded: boolean,
    written: number,
    heldAlike: number,
    shortestRest: number,
    held: readonly (HeldStrings | undefined)[],
    depth: number,
    tracked: number,
  ): void {
    this.bounded = bounded;
    this.inString = written >= 0;
    this.written = Math.max(written, 0);
    this.heldAlike = this.inString ? heldAlike : 0;
    this.shortestRest = shortestRest;
    let heldAnywhere = 0;
    for (let at = Math.min(depth, held.length - 1); at >= 0; at--) heldAnywhere = Math.max(heldAnywhere, held[at]?.sorted.length ?? 0);
    this.heldAnywhere = heldAnywhere;
    this.untracked = this.inString && tracked === 0;
    // what `mustWalk` asks of a token by its bytes, a close that repeats an item aside: each holds from some length on
    const inItem = this.shortestRunningOut(this.written, this.heldAlike);
    this.shortestNoQuote = this.untracked ? Infinity : inItem;
    this.shortestFewQuotes = Math.min(inItem, this.shortestRunningOut(0, heldAnywhere + 1));
  }

  /**
   * Inside a string, after `prepare`: the units that the items `sorted[low, high)` (those beginning like the string's
   * `written` units) have next. A token without a quote whose first unit is none of them leaves every held item behind.
   */
  noteNextUnits(sorted: readonly string[] | undefined, low: number, high: number, written: number, atBoundary: boolean): void {
    this.nextAscii.fill(0);
    this.nextOther = !atBoundary;
    for (let item = low; item < high && !this.nextOther; item++) {
      const value = sorted![item]!;
      if (value.length <= written) continue;
      const unit = value.charCodeAt(written);
      if (unit >= 0x80) this.nextOther = true;
      else this.nextAscii[unit >>> 5] = this.nextAscii[unit >>> 5]! | (1 << (unit & 31));
    }
  }

  /**
   * Inside a string at a character boundary, where few tokens can fail on the memory: the allowed ones that `mustWalk`
   * holds for into `candidates` (their count): those of three quotes or more, and the others from the longest down to
   * where none can run out; -1 where more than `FEW_TOKENS` are that long. The caller also walks the tokens whose text
   * before their quote closes a held item (`tryRests`), instead of the lists by first unit.
   */
  fewCandidates(mask: Uint32Array): number {
    if (!this.bounded || !this.inString) return -1;
    const fewQuotes = this.longerThan(this.fewQuotes, this.shortestFewQuotes);
    let count = 0;
    if (this.nextOther) {
      const noQuote = this.longerThan(this.noQuote, this.shortestNoQuote);
      if (noQuote + fewQuotes > FEW_TOKENS) return -1;
      for (let index = 0; index < noQuote; index++) count = this.noteCandidate(mask, this.noQuote[index]!, count);
    } else {
      // every next unit ASCII: a token without a quote goes along a held item only from one of their bytes or a backslash
      let listed = 0;
      for (let word = 0; word < 4; word++) {
        // the backslash's bit set for the walk only (it is no next unit: an escape may write any)
        let bits = this.nextAscii[word]! | (word === BACKSLASH >>> 5 ? 1 << (BACKSLASH & 31) : 0);
        while (bits !== 0) {
          const low = bits & -bits;
          const byte = word * 32 + (31 - Math.clz32(low));
          bits ^= low;
          const end = this.noQuoteByFirst.starts[byte + 1]!;
          for (let index = this.noQuoteByFirst.starts[byte]!; index < end && this.bytesOf(this.noQuoteByFirst.ids[index]!) >= this.shortestNoQuote; index++) {
            if (++listed + fewQuotes > FEW_TOKENS) return -1;
            count = this.noteCandidate(mask, this.noQuoteByFirst.ids[index]!, count);
          }
        }
      }
    }
    for (let index = 0; index < fewQuotes; index++) count = this.noteCandidate(mask, this.fewQuotes[index]!, count);
    for (let index = 0; index < this.manyQuotes.length; index++) count = this.noteCandidate(mask, this.manyQuotes[index]!, count);
    return count;
  }

  /** Token `id` into `candidates` (at `count`) where it is allowed and `mustWalk` holds for it; the new count. */
  private noteCandidate(mask: Uint32Array, id: number, count: number): number {
    if ((mask[id >>> 5]! & (1 << (id & 31))) === 0 || !this.mustWalk(id)) return count;
    this.candidates[count] = id;
    return count + 1;
  }

  /** How many tokens of `longestFirst` have `bytes` or more (binary search: a count past `FEW_TOKENS` is common). */
  private longerThan(longestFirst: Int32Array, bytes: number): number {
    let low = 0;
    let high = longestFirst.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.bytesOf(longestFirst[middle]!) >= bytes) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * Whether token `id` (no quote) may write first a unit that some held item beginning like the string has next. At a
   * character boundary a first byte past ASCII begins a character past ASCII (a continuation byte there is refused), so
   * where every next unit is ASCII it goes along none (Thai, CJK and box-drawing tokens of 18 bytes or more, walked
   * near the end of a 48-character key).
   */
  private mayGoOnAlong(id: number): boolean {
    const first = this.tokenBytes[this.offsets[id]!]!;
    if (this.nextOther || first === BACKSLASH) return true;
    return first < 0x80 && (this.nextAscii[first >>> 5]! & (1 << (first & 31))) !== 0;
  }

  private bytesOf(id: number): number {
    return this.offsets[id + 1]! - this.offsets[id]!;
  }

  /** The fewest more code points after `written` that reach a prefix with no more completions than `held` (Infinity: none). */
  private shortestRunningOut(written: number, held: number): number {
    const last = this.fewest.length - 1;
    for (let more = 0; written + more <= last; more++) if (this.fewest[written + more]! <= held) return more;
    return written > last && this.fewest[last]! <= held ? 0 : Infinity;
  }

  /** Whether walking token `id` could clear its bit: a quote that may close a held item, or a prefix whose completions may all be held. */
  mustWalk(id: number): boolean {
    if (!this.bounded) return true;
    const quotes = this.quotes[id]!;
    const bytes = this.bytesOf(id);
    if (quotes === 0) {
      if (this.inString) return !this.untracked && this.runsOutWithin(this.written + bytes, this.heldAlike) && this.mayGoOnAlong(id);
      // outside a string only an array's next item counts (the whole language)
      return this.runsOutWithin(0, this.heldAnywhere);
    }
    if (quotes === QUOTES_KEPT) return true;
    // the first close ends the string being written: a repeat only where it can reach a held item's end (a unit per
    // byte, one more where a 4-byte character cut across tokens ends); a later one needs an opening quote before it
    const closesHeld = this.inString ? quotes > 2 || this.shortestRest <= bytes : quotes > 1;
    if (closesHeld) return true;
    if (this.inString && this.runsOutWithin(this.written + bytes, this.heldAlike)) return true;
    // a string the token opens: the items held, and the one it closes first (the only one it can close)
    return this.runsOutWithin(bytes, this.heldAnywhere + (this.inString ? 1 : 0));
  }

  /**
   * Whether some prefix of at most `length` code points may have no more completions than `held` (a boolean: a double
   * returned from a call V8 does not inline is allocated).
   */
  private runsOutWithin(length: number, held: number): boolean {
    return this.fewest[Math.min(length, this.fewest.length - 1)]! <= held;
  }
}
