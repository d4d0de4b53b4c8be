/**
 * Which tokens of digits only the matcher's memory (`written-strings.ts`) walks inside a number item under a range
 * (`held-ranges.ts`), where a prefix of any length can be dead: on Llama 3, whose every string of one to three digits is
 * a token, walking them all took some 1,100 walks a mask.
 *
 * Such a token fails only where a prefix it writes is dead (it closes no item, so nothing else of the memory can refuse
 * it), and a prefix is dead only where each kind of item that writes it is: under each of the ranges, every completion
 * held (`rangeReachesOnlyHeld`); for items under no range, where `mayReachOnlyHeld` allows it. The tokens are read as a
 * trie of their texts. A node whose prefix, and every longer one its tokens write, keeps more completions than the
 * values held under every range (`rangeKeepsRoom`: one test for the tokens below it) is left out; a node whose own prefix
 * may be dead under some range has every token below it walked; otherwise the tokens that end there are left out and
 * its children are read. Every token left out writes no prefix that can be dead.
 * @module
 */
import { DIGIT_ZERO, MINUS_SIGN } from '../shared/json-bytes.js';
import { PendingNumbers, type HeldNumbers } from './held-integers.js';
import { rangeKeepsRoom, rangeReachesOnlyHeld } from './held-ranges.js';
import type { NumberConstraint } from './number-language.js';
import { digitTokens } from './quote-tokens.js';
import type { Vocabulary } from './vocabulary.js';

/**
 * The tokens of digits only, `ids` sorted by text, as a trie: per node (0 the root), its tokens `ids[from, to)` (those
 * whose text is the node's first, up to `exactEnd`), the longest token below it, and its children by digit (−1: none).
 */
interface DigitTrie {
  readonly ids: Int32Array;
  /** Per token of `ids`, its length. */
  readonly lengths: Uint8Array;
  readonly from: Int32Array;
  readonly exactEnd: Int32Array;
  readonly to: Int32Array;
  readonly longest: Int32Array;
  readonly children: Int32Array;
}

const triesOf = new WeakMap<Vocabulary, DigitTrie>();

function digitTrie(vocabulary: Vocabulary): DigitTrie {
  let known = triesOf.get(vocabulary);
  if (known !== undefined) return known;
  const bytes = vocabulary.tokenBytesFlat;
  const offsets = vocabulary.tokenOffsets;
  const textOf = (id: number): Uint8Array => bytes.subarray(offsets[id]!, offsets[id + 1]!);
  const ids = Int32Array.from(digitTokens(vocabulary).pure).sort((left, right) => Buffer.compare(textOf(left), textOf(right)));
  const from: number[] = [];
  const exactEnd: number[] = [];
  const to: number[] = [];
  const longest: number[] = [];
  const children: number[] = [];
  // the tokens sorted, a node's tokens are a run: those that end at it, then each child's in digit order
  const build = (start: number, end: number, depth: number): number => {
    const node = from.length;
    from.push(start);
    to.push(end);
    exactEnd.push(start);
    longest.push(depth);
    children.push(...new Array<number>(10).fill(-1));
    let at = start;
    while (at < end && textOf(ids[at]!).length === depth) at++;
    exactEnd[node] = at;
    while (at < end) {
      const digit = textOf(ids[at]!)[depth]! - DIGIT_ZERO;
      let next = at;
      while (next < end && textOf(ids[next]!)[depth]! - DIGIT_ZERO === digit) next++;
      const child = build(at, next, depth + 1);
      children[node * 10 + digit] = child;
      longest[node] = Math.max(longest[node]!, longest[child]!);
      at = next;
    }
    return node;
  };
  build(0, ids.length, 0);
  known = {
    ids,
    lengths: Uint8Array.from(ids, (id) => textOf(id).length),
    from: Int32Array.from(from),
    exactEnd: Int32Array.from(exactEnd),
    to: Int32Array.from(to),
    longest: Int32Array.from(longest),
    children: Int32Array.from(children),
  };
  triesOf.set(vocabulary, known);
  return known;
}

/** No trial's items: the walks of a token of digits close none. */
const NONE_PENDING = new PendingNumbers();

/** Per memory: the tokens of digits only one mask walks under ranges (`ids[0, count)`), chosen without allocating. */
export class RangeDigitWalks {
  private readonly trie: DigitTrie;
  /** The tokens chosen for the mask being filtered. */
  readonly ids: Int32Array;
  count = 0;
  /** The number written so far, then the digits of the node being read. */
  private prefix = new Uint8Array(32);
  private prefixLength = 0;
  private ranges: readonly NumberConstraint[] = [];
  private held: HeldNumbers | undefined;
  private mask: Uint32Array | undefined;

  constructor(vocabulary: Vocabulary) {
    this.trie = digitTrie(vocabulary);
    this.ids = new Int32Array(this.trie.ids.length);
  }

  /**
   * Starts a mask (`mask`, the automaton's, whose tokens not allowed need no walk): the number item written so far is
   * `raw[start, end)` (start −1: none yet), its array holding `held`.
   */
  begin(mask: Uint32Array, raw: Uint8Array, start: number, end: number, held: HeldNumbers): void {
    this.count = 0;
    this.mask = mask;
    this.held = held;
    this.prefixLength = start < 0 ? 0 : end - start;
    // the longest token and a number's digits fit: a remembered number has at most 17 bytes, others are never read
    if (this.prefix.length < this.prefixLength + this.trie.longest[0]!) this.prefix = new Uint8Array(2 * (this.prefixLength + this.trie.longest[0]!));
    // byte by byte: a `subarray` view would be allocated per mask
    for (let at = 0; at < this.prefixLength; at++) this.prefix[at] = raw[start + at]!;
  }

  /**
   * Chooses among the tokens that begin with `digit`, where every item the number can still be written as is under one
   * of `ranges` (each checked) or under none and then never dead; undefined `ranges`: every one of those tokens.
   */
  add(digit: number, ranges: readonly NumberConstraint[] | undefined): void {
    const child = this.trie.children[digit]!;
    if (child < 0) return;
    if (ranges === undefined) return this.walkAll(child);
    this.ranges = ranges;
    this.prefix[this.prefixLength] = DIGIT_ZERO + digit;
    this.read(child, this.prefixLength + 1);
  }

  /** The node `node`, whose prefix is `prefix[0, end)`: left out, walked whole, or its children read. */
  private read(node: number, end: number): void {
    const trie = this.trie;
    const limit = this.held!.sorted.length;
    // `0` and `-0` alone: no digit follows a leading zero, so only the node's own prefix counts
    const leadingZero = this.prefix[end - 1] === DIGIT_ZERO && (end === 1 || (end === 2 && this.prefix[0] === MINUS_SIGN));
    if (leadingZero) {
      if (this.mayBeDead(end)) this.walkAll(node);
      return;
    }
    const depth = end - this.prefixLength;
    if (this.keepsRoom(end, trie.longest[node]! - depth, limit)) return;
    // the longest tokens may not be allowed (past a bound, as under a prefix near one): those that are decide
    const longest = this.longestAllowed(node);
    if (longest < trie.longest[node]! && (longest < depth || this.keepsRoom(end, longest - depth, limit))) return;
    if (this.mayBeDead(end)) return this.walkAll(node);
    for (let digit = 0; digit < 10; digit++) {
      const child = trie.children[node * 10 + digit]!;
      if (child < 0) continue;
      this.prefix[end] = DIGIT_ZERO + digit;
      this.read(child, end + 1);
    }
  }

  /** Under every range, the prefix `prefix[0, end)` and those up to `more` digits longer keep more than `limit` completions. */
  private keepsRoom(end: number, more: number, limit: number): boolean {
    for (let index = 0; index < this.ranges.length; index++) if (!rangeKeepsRoom(this.prefix, 0, end, this.ranges[index]!, more, limit)) return false;
    return true;
  }

  /**
   * Under some range, every completion of the prefix `prefix[0, end)` is held (or it has none). Where under none, the
   * prefix is not dead: whichever of the ranges still write it, the test fails for each.
   */
  private mayBeDead(end: number): boolean {
    for (let index = 0; index < this.ranges.length; index++) {
      if (rangeReachesOnlyHeld(this.prefix, 0, end, this.ranges[index]!, this.held, NONE_PENDING, 0)) return true;
    }
    return false;
  }

  /** The longest token of `node` the mask being filtered allows (0: none). */
  private longestAllowed(node: number): number {
    const { ids, lengths, from, to, longest } = this.trie;
    const mask = this.mask!;
    let found = 0;
    for (let index = from[node]!; index < to[node]! && found < longest[node]!; index++) {
      if ((mask[ids[index]! >>> 5]! & (1 << (ids[index]! & 31))) !== 0) found = Math.max(found, lengths[index]!);
    }
    return found;
  }

  /** Walks the tokens of `node`: all of them. */
  private walkAll(node: number): void {
    const { ids, from, to } = this.trie;
    for (let index = from[node]!; index < to[node]!; index++) this.ids[this.count++] = ids[index]!;
  }
}
