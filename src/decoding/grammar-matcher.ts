/**
 * Per-generation state over a compiled grammar: fill the next token mask, accept
 * tokens, roll back, jump forward. Steady-state calls allocate nothing: the history
 * is a typed array grown by doubling, masks are written into the caller's buffer.
 * The exception is a grammar with `uniqueItems` over strings (or objects kept to distinct
 * keys), whose matcher keeps the item strings and keys written (`written-strings.ts`):
 * `accept` allocates each one as it closes (its masks allocate nothing).
 *
 * Budget: a mask from a cached automaton state costs a copy of `ceil(vocabSize/32)`
 * words (≈5–10 µs for 150k–260k tokens); the first visit of a state walks the token
 * trie once (≈1–3 ms), after which every matcher of the grammar reuses it.
 * @module
 */
import { InvalidArgumentError } from '../shared/errors.js';
import { DecodingLimitError } from './decoding-errors.js';
import { DEAD, UNKNOWN, type JsonAutomaton } from './json-automaton.js';
import { LookAheadFrontier } from './look-ahead-frontier.js';
import type { Vocabulary } from './vocabulary.js';
import { WrittenNumbers } from './written-numbers.js';
import { WrittenStrings } from './written-strings.js';

/** What a matcher needs from its compiled grammar. */
export interface MatcherHost {
  readonly vocabulary: Vocabulary;
  readonly automaton: JsonAutomaton;
  writeMask(state: number, mask: Uint32Array): void;
  lookAhead(frontier: LookAheadFrontier, workBudget: number): boolean;
}

/**
 * How many tokens ahead of the current state `lookAhead` goes. Nearest first, a tool schema's
 * neighbourhood is done well within it; the bound keeps a free-form value (additional
 * properties of any type, nested in ever new ways) from filling the automaton with states the
 * generation may never reach, while it pumps between tokens.
 */
export const LOOK_AHEAD_TOKENS = 8;

/** Options of `grammar.matcher()`. */
export interface MatcherOptions {
  /**
   * Work units of look-ahead (`lookAhead`) after every accepted token, inside `accept`: for a
   * caller with no idle time between tokens to spend it in, so the next masks are more often
   * copies. A count, not a deadline. Default 0 (none): the cost lands in `accept` itself.
   */
  lookAheadPerToken?: number;
}

/** History entry after an accepted end-of-sequence token. */
const TERMINATED = -3;
const ENCODER = new TextEncoder();

export class GrammarMatcher {
  private readonly host: MatcherHost;
  private history: Int32Array;
  private steps = 0;
  private failure: DecodingLimitError | undefined;
  private frontier: LookAheadFrontier | undefined;
  private readonly lookAheadPerToken: number;
  /**
   * The item strings of `uniqueItems` arrays of strings (and keys of `distinctKeys` objects, and object and array items
   * of `uniqueContainers` arrays) written so far; null when the grammar has none.
   */
  private readonly written: WrittenStrings | null;
  /** The number being written, where a decimal `multipleOf` is checked as it is written; null when the grammar has none. */
  private readonly numbers: WrittenNumbers | null;

  /** @internal Use `grammar.matcher()`. */
  constructor(host: MatcherHost, options: MatcherOptions = {}) {
    const perToken = options.lookAheadPerToken ?? 0;
    if (typeof perToken !== 'number' || !(perToken >= 0)) {
      throw new InvalidArgumentError(`lookAheadPerToken (${String(perToken)}) must be a number of work units, 0 or more.`);
    }
    this.lookAheadPerToken = perToken;
    this.host = host;
    this.history = new Int32Array(256);
    this.history[0] = host.automaton.start;
    this.written =
      host.automaton.tracksStrings || host.automaton.remembersContainers || host.automaton.remembersNumbers
        ? new WrittenStrings(host.automaton, host.vocabulary)
        : null;
    // the lowering never puts both memories in one grammar (each walks tokens without the other's rule)
    this.numbers = host.automaton.checksNumbers ? new WrittenNumbers(host.automaton, host.vocabulary) : null;
  }

  private get state(): number {
    return this.history[this.steps]!;
  }

  /** @internal Off: the memory walks every candidate token where items can run out (`WrittenStrings.boundedWalks`; tests compare the masks). */
  set boundedWalks(on: boolean) {
    if (this.written !== null) this.written.boundedWalks = on;
  }

  /** @internal Off: under ranges the memory walks every token of digits only (`WrittenStrings.skipsRangeDigits`; tests compare the masks). */
  set skipsRangeDigits(on: boolean) {
    if (this.written !== null) this.written.skipsRangeDigits = on;
  }

  /** @internal On: the memory walks every allowed token (`WrittenStrings.walksEveryToken`; tests compare the masks with the lists it walks). */
  set walksEveryToken(on: boolean) {
    if (this.written !== null) this.written.walksEveryToken = on;
  }

  /** @internal The automaton state (-3 once terminated), for tests and tools. */
  get automatonState(): number {
    return this.state;
  }

  /** Tokens (and strings) accepted so far; `rollback` can undo up to this many. */
  get stepCount(): number {
    return this.steps;
  }

  /**
   * Sets bit `i` of `mask` for every token `i` allowed next (end-of-sequence ids once
   * the value is complete) and clears the others. `mask` needs `ceil(vocabSize / 32)`
   * words and is owned by the caller. Returns true: the mask must be applied.
   */
  fillMask(mask: Uint32Array): boolean {
    this.throwIfFailed();
    const vocabulary = this.host.vocabulary;
    if (mask.length < vocabulary.maskWords) {
      throw new InvalidArgumentError(
        `fillMask needs a Uint32Array of at least ${vocabulary.maskWords} words (ceil(${vocabulary.size} / 32)); got ${mask.length}.`,
      );
    }
    const state = this.state;
    if (state === TERMINATED || state === DEAD) {
      mask.fill(0, 0, vocabulary.maskWords);
      return true;
    }
    try {
      this.host.writeMask(state, mask);
      // after every cache: the masks kept per state are shared by matchers holding different strings
      this.written?.filterMask(state, mask);
      this.numbers?.filterMask(state, mask);
    } catch (error) {
      this.record(error);
      throw error;
    }
    if (this.host.automaton.accepting[state] === 1) {
      // indexed: a for-of over the frozen id list allocated an iterator on every call
      const eos = vocabulary.eosTokenIds;
      for (let index = 0; index < eos.length; index++) mask[eos[index]! >>> 5]! |= 1 << (eos[index]! & 31);
    }
    return true;
  }

  /**
   * Computes ahead of time the masks of the states the generation can reach next, nearest
   * first (by tokens) from the current state and at most `maxTokens` tokens ahead (default
   * `LOOK_AHEAD_TOKENS`, 8), until `workUnits` are spent (a trie node visited
   * is 1 unit, an automaton transition computed 64, a state passed through 1 plus its
   * successors, a length-bounded string position's mask derived and kept the mask's words):
   * a count, not a deadline, so the same call does the same work on every machine. Call it
   * while the model computes the next token: a mask it computed is then a copy instead of a
   * trie walk or a narrowing. Resumable: a second call from the same state goes on where
   * the first stopped; after the generation moves, it starts from the new state (states
   * already looked at are passed through without walking). The state that crosses the budget
   * completes, so one call can exceed `workUnits` by one trie walk (0.05–3 ms). Masks are the
   * same with or without it. Returns true while anything reachable is left to look at.
   */
  lookAhead(workUnits: number, maxTokens: number = LOOK_AHEAD_TOKENS): boolean {
    this.throwIfFailed();
    if (typeof workUnits !== 'number' || !(workUnits >= 0)) {
      throw new InvalidArgumentError(`lookAhead(${String(workUnits)}) needs a number of work units, 0 or more (Infinity: everything reachable).`);
    }
    if (typeof maxTokens !== 'number' || !(maxTokens >= 1)) {
      throw new InvalidArgumentError(`lookAhead's maxTokens (${String(maxTokens)}) must be 1 or more (Infinity: no limit).`);
    }
    const state = this.state;
    if (state === TERMINATED || state === DEAD) return false;
    if (this.frontier?.origin !== state || this.frontier.maxTokens !== maxTokens) {
      this.frontier = new LookAheadFrontier(state, this.host.automaton.stateCount, maxTokens);
    }
    return this.host.lookAhead(this.frontier, workUnits);
  }

  /** Advances by one token; false (and no change) when the grammar does not allow it. */
  accept(tokenId: number): boolean {
    this.throwIfFailed();
    const state = this.state;
    if (state === TERMINATED || state === DEAD) return false;
    const vocabulary = this.host.vocabulary;
    const automaton = this.host.automaton;
    if (vocabulary.eosTokenIds.includes(tokenId)) {
      if (automaton.accepting[state] !== 1) return false;
      this.push(TERMINATED);
      return true;
    }
    if (!Number.isInteger(tokenId) || !vocabulary.isTextToken(tokenId)) return false;
    const bytes = vocabulary.tokenBytesFlat;
    const end = vocabulary.tokenOffsets[tokenId + 1]!;
    let at = state;
    if (this.written !== null || this.numbers !== null) at = this.acceptWritten(state, bytes, vocabulary.tokenOffsets[tokenId]!, end);
    else {
      for (let offset = vocabulary.tokenOffsets[tokenId]!; offset < end; offset++) {
        at = this.next(at, bytes[offset]!);
        if (at === DEAD) return false;
      }
    }
    if (at === DEAD) return false;
    this.push(at);
    if (this.lookAheadPerToken > 0) this.lookAhead(this.lookAheadPerToken);
    return true;
  }

  /** Advances by the UTF-8 bytes of `text` as one step (undone by `rollback(1)`); false and no change if not allowed. */
  acceptString(text: string): boolean {
    this.throwIfFailed();
    let at = this.state;
    if (at === TERMINATED || at === DEAD) return false;
    const bytes = ENCODER.encode(text);
    if (this.written !== null || this.numbers !== null) at = this.acceptWritten(at, bytes, 0, bytes.length);
    else {
      for (const byte of bytes) {
        at = this.next(at, byte);
        if (at === DEAD) return false;
      }
    }
    if (at === DEAD) return false;
    this.push(at);
    return true;
  }

  /** True when the value so far is complete, so an end-of-sequence token is allowed. */
  canTerminate(): boolean {
    const state = this.state;
    return state >= 0 && this.host.automaton.accepting[state] === 1;
  }

  /** True once an end-of-sequence token was accepted. */
  isTerminated(): boolean {
    return this.state === TERMINATED;
  }

  /** Undoes the last `count` accepted steps. */
  rollback(count: number): void {
    if (!Number.isInteger(count) || count < 0 || count > this.steps) {
      throw new InvalidArgumentError(`rollback(${count}) must be an integer between 0 and the ${this.steps} step(s) accepted so far.`);
    }
    this.steps -= count;
    if (count > 0) this.guard(() => this.written?.rollback(this.steps));
    this.numbers?.rollback(this.steps);
  }

  /** Back to the start of the document; also clears a budget error. */
  reset(): void {
    this.steps = 0;
    this.failure = undefined;
    this.written?.rollback(0);
    this.numbers?.rollback(0);
  }

  /**
   * Text the grammar already fixes from here (jump-forward decoding), e.g. `"name":"`
   * right after `{` when only one key can come first. Stops before a choice, before the
   * value could end, and before an incomplete UTF-8 character. Tokenize it yourself:
   * forcing non-canonical token splits can skew the model.
   */
  forcedText(): string {
    this.throwIfFailed();
    const automaton = this.host.automaton;
    const bytes: number[] = [];
    let at = this.state;
    while (at >= 0 && automaton.accepting[at] !== 1 && bytes.length < 4096) {
      const state = at;
      let forced = automaton.forcedByte[state]!;
      if (forced === UNKNOWN) {
        forced = this.guard(() => {
          let only = -1;
          for (let byte = 0; byte < 256; byte++) {
            if (this.next(state, byte) === DEAD) continue;
            if (only !== -1) return -1;
            only = byte;
          }
          return only;
        });
        automaton.forcedByte[state] = forced;
      }
      if (forced < 0) break;
      bytes.push(forced);
      at = this.next(at, forced);
    }
    let end = bytes.length;
    // drop a trailing incomplete UTF-8 sequence
    for (let back = 1; back <= Math.min(3, end); back++) {
      const byte = bytes[end - back]!;
      if (byte < 0x80) break;
      if (byte >= 0xc0) {
        const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
        if (back < length) end -= back;
        break;
      }
    }
    return new TextDecoder().decode(Uint8Array.from(bytes.slice(0, end)));
  }

  private next(state: number, byte: number): number {
    const cached = this.host.automaton.trans[state * 256 + byte]!;
    // the cold path lives in its own method: a closure here would allocate a context on every call
    return cached !== UNKNOWN ? cached : this.computeNext(state, byte);
  }

  private computeNext(state: number, byte: number): number {
    try {
      return this.host.automaton.transition(state, byte);
    } catch (error) {
      this.record(error);
      throw error;
    }
  }

  /** `accept` with a run-time memory (strings remembered, or numbers checked): the memory steps the automaton. */
  private acceptWritten(state: number, bytes: Uint8Array, from: number, to: number): number {
    try {
      return this.written !== null ? this.written.accept(state, bytes, from, to) : this.numbers!.accept(state, bytes, from, to);
    } catch (error) {
      this.record(error);
      throw error;
    }
  }

  private push(state: number): void {
    if (this.steps + 1 >= this.history.length) {
      const bigger = new Int32Array(this.history.length * 2);
      bigger.set(this.history);
      this.history = bigger;
    }
    this.history[++this.steps] = state;
    this.written?.endStep(this.steps);
    this.numbers?.endStep(this.steps);
  }

  private guard<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      this.record(error);
      throw error;
    }
  }

  private record(error: unknown): void {
    if (error instanceof DecodingLimitError) this.failure = error;
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}
