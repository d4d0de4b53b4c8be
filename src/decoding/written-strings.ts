/**
 * The run-time memory behind `uniqueItems` over strings: per array being written, the item strings it holds (decoded,
 * so `"a"` and `"\u0061"` are one), and the rule that an item string may not close equal to one of them. Objects that
 * keep their undeclared keys distinct (`ObjectAlternative.distinctKeys`) use it the same way, a key for an item. The automaton
 * cannot hold an unbounded set of strings in its states, so the matcher keeps this beside its state history and applies
 * it after any mask taken from the automaton's caches (shared by every matcher, so they never see a set).
 *
 * Which array an item (or object a key) belongs to is syntax: the innermost `[` or `{` still open outside strings, the same for every
 * configuration of a state. So the memory scans the bytes for nesting and string bounds, keeps one set per nesting
 * depth (emptied when a container opens there), and asks the automaton only whether a closing quote ends such an
 * item (`trackedItem`) and where a repeated one leads (`duplicateClose`: other anyOf branches may still take it).
 * @module
 */
import { DecodingLimitError } from './decoding-errors.js';
import { DEAD, UNKNOWN, type JsonAutomaton } from './json-automaton.js';
import type { Vocabulary } from './vocabulary.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Per vocabulary: text token ids by the quotes they hold, `atLeast[k]` those with k quotes or more (k ≤ 4), with the
 * text a token writes into the string it closes first, decoded (null where it closes none, undefined where it must be
 * walked: it cannot be decoded alone, or it may open and close another string after). A token
 * can repeat an item only by closing a string: with a non-empty set from 1 quote (inside the item: the text before its
 * first quote) or 2 (`"a"` after `,`: the text between its first two quotes), with none held from 3 (close, open,
 * close) or 4. So most tokens are told apart from their text alone, and only the few others are walked.
 */
interface QuoteTokens {
  readonly atLeast: readonly Int32Array[];
  /** Per token of `atLeast[1]`: the text before its first quote that a backslash does not escape, read inside a string. */
  readonly closingText: readonly ClosedText[];
  /**
   * Per token of `atLeast[2]`: the text of the string its first quote opens, read outside a string (walked where a
   * bracket or brace before that quote changes the container).
   */
  readonly itemText: readonly ClosedText[];
}

/** What a token writes into the first string it closes: null when it closes none, undefined when it must be walked. */
type ClosedText = string | null | undefined;

const quoteTokensOf = new WeakMap<Vocabulary, QuoteTokens>();

function quoteTokens(vocabulary: Vocabulary): QuoteTokens {
  let known = quoteTokensOf.get(vocabulary);
  if (known === undefined) {
    const lists: number[][] = [[], [], [], [], []];
    const closingText: ClosedText[] = [];
    const itemText: ClosedText[] = [];
    const bytes = vocabulary.tokenBytesFlat;
    for (let id = 0; id < vocabulary.size; id++) {
      if (!vocabulary.isTextToken(id)) continue;
      const from = vocabulary.tokenOffsets[id]!;
      const to = vocabulary.tokenOffsets[id + 1]!;
      let count = 0;
      for (let offset = from; offset < to && count < 4; offset++) if (bytes[offset] === QUOTE) count++;
      if (count === 0) continue;
      for (let k = 1; k <= count; k++) lists[k]!.push(id);
      closingText.push(closedText(bytes, from, to));
      if (count < 2) continue;
      // outside a string the first quote opens one (a backslash before it is no JSON)
      const open = bytes.indexOf(QUOTE, from);
      let structural = false;
      for (let offset = from; offset < open; offset++) structural ||= CONTAINER_BYTE[bytes[offset]!] === 1;
      itemText.push(structural ? undefined : closedText(bytes, open + 1, to));
    }
    known = { atLeast: lists.map((list) => Int32Array.from(list)), closingText, itemText };
    quoteTokensOf.set(vocabulary, known);
  }
  return known;
}

const CONTAINER_BYTE = new Uint8Array(256);
for (const byte of [0x5b, 0x5d, 0x7b, 0x7d]) CONTAINER_BYTE[byte] = 1;

/** What `bytes[from, to)`, read inside a string, writes into it before closing it (see `ClosedText`). */
function closedText(bytes: Uint8Array, from: number, to: number): ClosedText {
  const close = closingQuote(bytes, from, to);
  if (close < 0) return null;
  let quotesAfter = 0;
  for (let offset = close + 1; offset < to; offset++) if (bytes[offset] === QUOTE) quotesAfter++;
  return quotesAfter >= 2 ? undefined : decodeContent(bytes, from, close);
}

/** The first quote of `bytes[from, to)` that a backslash does not escape (read inside a string), or -1. */
function closingQuote(bytes: Uint8Array, from: number, to: number): number {
  for (let offset = from; offset < to; offset++) {
    if (bytes[offset] === BACKSLASH) offset++;
    else if (bytes[offset] === QUOTE) return offset;
  }
  return -1;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The value of JSON string content bytes (escapes decoded), or undefined where they are not whole (a cut escape or character). */
function decodeContent(bytes: Uint8Array, start: number, end: number): string | undefined {
  try {
    return JSON.parse(`"${UTF8.decode(bytes.subarray(start, end))}"`) as string;
  } catch {
    return undefined;
  }
}

export class WrittenStrings {
  private readonly automaton: JsonAutomaton;
  private readonly vocabulary: Vocabulary;
  /** Every byte accepted so far, then (past `length`) the token being tried. */
  private text = new Uint8Array(1024);
  private length = 0;
  /** Per step of the matcher: `length` after it. */
  private stepEnds = new Int32Array(256);
  /** Containers open outside strings. */
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Where the content of the string being written starts in `text`. */
  private contentStart = 0;
  /** Per depth: the item strings of the container open there (empty until its first item). */
  private readonly sets: Set<string>[] = [];
  private rememberedBytes = 0;
  /** Items a trial closed, by depth (a trial never changes `sets`). */
  private readonly pendingDepth: number[] = [];
  private readonly pendingValue: string[] = [];
  /** While trying: the least depth a container opened at (its set and those above start empty). */
  private freshFrom = Infinity;
  /** `filterMask`'s scratch: what the items held that begin like the item being written still need. */
  private readonly rests = new Set<string>();

  constructor(automaton: JsonAutomaton, vocabulary: Vocabulary) {
    this.automaton = automaton;
    this.vocabulary = vocabulary;
  }

  /**
   * Steps `state` through `bytes[from, to)` and remembers the items they close; DEAD (and nothing remembered) when
   * the automaton refuses a byte or an item would repeat one of its array.
   * @throws DecodingLimitError (`uniqueItemsMaxStringBytes`) when the items remembered pass the limit.
   */
  accept(state: number, bytes: Uint8Array, from: number, to: number): number {
    const start = this.length;
    this.place(bytes, from, to);
    if (this.walk(state, start, start + to - from, false) === DEAD) return DEAD;
    this.length = start + to - from;
    return this.walk(state, start, this.length, true);
  }

  /** Records that the matcher's step `step` is done (after `accept`, or an end-of-sequence token that adds no bytes). */
  endStep(step: number): void {
    if (step >= this.stepEnds.length) {
      const bigger = new Int32Array(Math.max(step + 1, this.stepEnds.length * 2));
      bigger.set(this.stepEnds);
      this.stepEnds = bigger;
    }
    this.stepEnds[step] = this.length;
  }

  /** Back to the memory after step `step` (0: nothing written): the bytes kept are scanned again from the start state. */
  rollback(step: number): void {
    const keep = step === 0 ? 0 : this.stepEnds[step]!;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.rememberedBytes = 0;
    for (const set of this.sets) set.clear();
    this.length = keep;
    if (keep > 0) this.walk(this.automaton.start, 0, keep, true);
  }

  /**
   * Clears in `mask` (the automaton's mask for `state`) every token that would close an item string equal to an
   * earlier item of its array. Only tokens with enough quotes to do so are tried, and only while they are allowed.
   */
  filterMask(state: number, mask: Uint32Array): void {
    const tokens = quoteTokens(this.vocabulary);
    const held = this.sets[this.depth];
    const holds = held !== undefined && held.size > 0;
    if (!this.inString) {
      // between items: a token whose first string is not held repeats nothing unless it holds two more
      if (holds) this.tryTokens(state, mask, tokens.atLeast[2]!, tokens.itemText, held);
      else this.tryTokens(state, mask, tokens.atLeast[4]!);
      return;
    }
    if (holds && this.automaton.trackedItem[state] === 1) {
      // inside an item: its close repeats an item only where the item so far and the token's text before its quote make one
      const prefix = this.escaped ? undefined : decodeContent(this.text, this.contentStart, this.length);
      if (prefix === undefined) return this.tryTokens(state, mask, tokens.atLeast[1]!);
      const rests = this.rests;
      rests.clear();
      for (const value of held) if (value.startsWith(prefix)) rests.add(value.slice(prefix.length));
      if (rests.size > 0) {
        return this.tryTokens(state, mask, tokens.atLeast[1]!, tokens.closingText, rests);
      }
    }
    this.tryTokens(state, mask, tokens.atLeast[3]!);
  }

  /**
   * Walks each allowed token of `candidates` and clears the ones that fail; with `texts` (by position in the list),
   * only those that must be walked or close a string with one of `values`.
   */
  private tryTokens(state: number, mask: Uint32Array, candidates: Int32Array, texts?: readonly ClosedText[], values?: Set<string>): void {
    const bytes = this.vocabulary.tokenBytesFlat;
    const offsets = this.vocabulary.tokenOffsets;
    let shortest = Infinity;
    let longest = -1;
    for (const value of values ?? []) {
      shortest = Math.min(shortest, value.length);
      longest = Math.max(longest, value.length);
    }
    for (let index = 0; index < candidates.length; index++) {
      const id = candidates[index]!;
      if ((mask[id >>> 5]! & (1 << (id & 31))) === 0) continue;
      if (texts !== undefined) {
        const text = texts[index];
        // a length outside the values' is the cheap common answer: no repeat
        if (text === null || (text !== undefined && (text.length < shortest || text.length > longest || !values!.has(text)))) continue;
      }
      const from = offsets[id]!;
      const to = offsets[id + 1]!;
      this.place(bytes, from, to);
      if (this.walk(state, this.length, this.length + to - from, false) === DEAD) mask[id >>> 5]! &= ~(1 << (id & 31));
    }
  }

  /** Copies `bytes[from, to)` to `text` past `length` (a trial's bytes, or an accepted token's before it is kept). */
  private place(bytes: Uint8Array, from: number, to: number): void {
    const needed = this.length + to - from;
    if (needed > this.text.length) {
      const bigger = new Uint8Array(Math.max(needed, this.text.length * 2));
      bigger.set(this.text.subarray(0, this.length));
      this.text = bigger;
    }
    this.text.set(bytes.subarray(from, to), this.length);
  }

  /**
   * Steps `state` through `text[from, to)`, scanning nesting and strings. `commit`: the scan and the items closed are
   * kept (the caller knows the bytes pass); otherwise nothing changes and the items closed are checked against each
   * other too. Transitions not computed yet are computed (as `accept` would).
   */
  private walk(state: number, from: number, to: number, commit: boolean): number {
    const automaton = this.automaton;
    const text = this.text;
    let { depth, inString, escaped, contentStart } = this;
    this.pendingDepth.length = 0;
    this.pendingValue.length = 0;
    this.freshFrom = Infinity;
    let at = state;
    for (let offset = from; offset < to; offset++) {
      const byte = text[offset]!;
      let next = UNKNOWN;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) {
          inString = false;
          if (automaton.trackedItem[at] === 1) {
            const value = decodeContent(text, contentStart, offset)!;
            if (this.holds(depth, value)) next = automaton.duplicateClose(at);
            else if (commit) this.remember(depth, value, offset - contentStart);
            else {
              this.pendingDepth.push(depth);
              this.pendingValue.push(value);
            }
          }
        }
      } else if (byte === QUOTE) {
        inString = true;
        contentStart = offset + 1;
      } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
        depth++;
        if (commit) this.sets[depth]?.clear();
        else this.forget(depth);
      } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) depth--;
      if (next === UNKNOWN) next = automaton.trans[at * 256 + byte]!;
      at = next !== UNKNOWN ? next : automaton.transition(at, byte);
      if (at === DEAD) return DEAD;
    }
    if (commit) {
      this.depth = depth;
      this.inString = inString;
      this.escaped = escaped;
      this.contentStart = contentStart;
    }
    return at;
  }

  /** True when `value` is an item already held by the container at `depth` (in a trial: or closed by it). */
  private holds(depth: number, value: string): boolean {
    if (depth < this.freshFrom && this.sets[depth]?.has(value) === true) return true;
    for (let index = 0; index < this.pendingDepth.length; index++) if (this.pendingDepth[index] === depth && this.pendingValue[index] === value) return true;
    return false;
  }

  /** A trial opened a container at `depth`: what sets and items closed say of that depth and above no longer holds. */
  private forget(depth: number): void {
    this.freshFrom = Math.min(this.freshFrom, depth);
    for (let index = this.pendingDepth.length - 1; index >= 0; index--) {
      if (this.pendingDepth[index]! >= depth) {
        this.pendingDepth.splice(index, 1);
        this.pendingValue.splice(index, 1);
      }
    }
  }

  private remember(depth: number, value: string, bytes: number): void {
    this.rememberedBytes += bytes;
    if (this.rememberedBytes > this.automaton.rememberedBytesLimit) {
      throw new DecodingLimitError('uniqueItemsMaxStringBytes', this.automaton.rememberedBytesLimit);
    }
    let set = this.sets[depth];
    if (set === undefined) {
      set = new Set();
      while (this.sets.length < depth) this.sets.push(new Set());
      this.sets[depth] = set;
    }
    set.add(value);
  }
}
