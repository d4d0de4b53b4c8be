/**
 * A schema compiled against one vocabulary: the lazily built byte automaton plus a
 * cache of token masks per automaton state. Shared by every matcher made from it.
 * @module
 */
import { BACKSLASH, QUOTE } from '../shared/json-bytes.js';
import { DecodingLimitError } from './decoding-errors.js';
import { DEAD, UNKNOWN, type JsonAutomaton } from './json-automaton.js';
import type { RelaxedKeyword } from './lower-json-schema.js';
import { GrammarMatcher, type MatcherHost, type MatcherOptions } from './grammar-matcher.js';
import { LookAheadFrontier } from './look-ahead-frontier.js';
import {
  bitsetOf,
  UNCOUNTED,
  listLimit,
  patchLimit,
  loadMask,
  narrowAllowedList,
  storeAllowedList,
  storeBitset,
  storeMask,
  storePatched,
  type StoredMask,
} from './stored-mask.js';
import type { StringTokenStats } from './string-token-stats.js';
import type { TokenTrie } from './token-trie.js';
import type { Vocabulary } from './vocabulary.js';

/**
 * Compile-time work budget for precomputing pattern positions' content masks: a count of
 * work units, not a deadline, so a schema precomputes the same masks on every machine.
 * A trie node visited is one unit, an automaton transition computed on the way is
 * `TRANSITION_WORK` units. Sized so that the costliest repo schema spends about what the
 * former 12 ms deadline allowed on the development machine (docs/decoding.md).
 */
export const PRECOMPUTE_WORK_BUDGET = 24_000;
/** Work units of one computed automaton transition (a rough estimate of its cost in node visits). */
const TRANSITION_WORK = 16;
/**
 * Compile-time work budget (same units) for the masks of the states a generation reaches
 * first: breadth-first by tokens from the start state, so that the first tokens of a first
 * generation copy masks instead of walking the trie. 5,000 units for vocabularies up to
 * Qwen3's size: on the repo's tool schemas the first three tokens of each first generation
 * then walk nothing on Qwen3 and Llama 3, the first two on Gemma 3, and the 193 third-party
 * tools compile in about 1.3× the time they take with no look-ahead at all (docs/decoding.md).
 * The rest of the look-ahead runs on demand, from where a generation is
 * (`GrammarMatcher.lookAhead`, which the local provider calls while the model computes the
 * next token); `precomputeWork` asks for more at compile (600,000 was the default before, at
 * 3–8× the compile time of the 193 tools). Larger vocabularies get proportionally less,
 * since each mask costs more there.
 */
export const REACHABLE_WORK_BUDGET = 5_000;
const REACHABLE_BUDGET_VOCABULARY = 151_669;

/** The compile-time look-ahead's default budget for a vocabulary of `size` tokens. */
export function reachableWorkBudget(size: number): number {
  return size <= REACHABLE_BUDGET_VOCABULARY ? REACHABLE_WORK_BUDGET : Math.floor((REACHABLE_WORK_BUDGET * REACHABLE_BUDGET_VOCABULARY) / size);
}
/**
 * Work units of a transition computed by the look-ahead: profiling the first generations of
 * the repo's tool schemas put a computed transition at 50–100 node visits, so the look-ahead
 * weighs it more than the pattern precompute's older estimate does.
 */
const REACHABLE_TRANSITION_WORK = 64;
/** A plain content byte: in an unconstrained string body every plain-content token leads where this byte does. */
const PLAIN_BYTE = 0x61;
/**
 * Bytes one grammar may hold in the masks of length-bounded string positions it derived from
 * their twins (mostly short id lists; a bitset where neither list is short). Past it, a
 * position's mask is derived again at each visit, as before these were kept.
 */
export const DERIVED_MASK_BYTES = 16 * 1024 * 1024;

/** Counters for the benchmark and for capacity planning. */
export interface GrammarStats {
  /** Automaton states created so far. */
  readonly states: number;
  /** Distinct parser configurations created so far. */
  readonly configurations: number;
  /** Token masks computed by walking the vocabulary trie. */
  readonly maskWalks: number;
  /** Trie nodes visited by those walks. */
  readonly nodesVisited: number;
  /** Bytes held by cached masks and the transition table. */
  readonly bytes: number;
}

export class CompiledGrammar implements MatcherHost {
  /** The vocabulary masks are computed for. */
  readonly vocabulary: Vocabulary;
  /** Keywords dropped because of `lenient` (empty otherwise). */
  readonly relaxed: readonly RelaxedKeyword[];
  /** @internal */
  readonly automaton: JsonAutomaton;
  /** @internal */
  readonly stats: StringTokenStats;
  private readonly masks: (StoredMask | undefined)[] = [];
  /** Per length-bounded string position: its mask, derived once from its twin's (see `writeMask`). */
  private readonly derivedMasks: (StoredMask | undefined)[] = [];
  private derivedBytes = 0;
  /** The look-ahead's mask buffer for the positions it derives (allocated at its first). */
  private lookAheadMask: Uint32Array | undefined;
  /** @internal Bytes `derivedMasks` may hold (`DERIVED_MASK_BYTES`; 0 derives every visit, for tests and the bench). */
  derivedMaskBudget = DERIVED_MASK_BYTES;
  /** Per automaton state: the content trie's loop-class flags for it (null: none; undefined: not looked up). */
  private loopFlagIndex = new Int32Array(64).fill(-2);
  /** Flag tables referenced by `loopFlagIndex` (one monomorphic array keeps the hot loop fast). */
  private readonly loopFlagTables: Uint8Array[] = [];
  private readonly loopFlagTableOf = new Map<string, number>();
  /** Token ids a full-trie walk collected, while they fit a list (`collected` of them; -1 when not collecting). */
  private readonly collectedIds: Uint32Array;
  private readonly idLimit: number;
  private collected = -1;
  private readonly scratch: Uint32Array;
  private readonly walkStack: Int32Array;
  private readonly layout: (value: unknown) => string | undefined;
  private readonly acceptsValue: (value: unknown) => boolean;
  private walks = 0;
  private visited = 0;
  /** Automaton transitions the walks had to compute (each costs far more than a node visit). */
  private transitionsComputed = 0;
  /** @internal Automaton states whose shared content masks the pattern precompute computed, in order (determinism tests). */
  readonly precomputedStates: number[] = [];
  /**
   * Work units the pattern precompute may still spend. It runs in the look-aheads a matcher
   * asks for (between model calls) once they have nothing nearer to do, not at compile: it was
   * half of a first compile in a fresh process, paid before the first token even where no
   * pattern is ever reached.
   */
  private patternWorkLeft = PRECOMPUTE_WORK_BUDGET;
  /** Whether the pattern loop classes' flags over the content trie are computed (the pattern precompute does it first). */
  private loopClassesPrepared = false;
  /** Per mask base the look-ahead passed: the states one token leads to (found by the walk that computed its mask). */
  private readonly successorsNear: (Int32Array | undefined)[] = [];
  /** Per mask base: the states only a token ending inside an escape or a multi-byte character leads to (looked at last). */
  private readonly successorsLater: (Int32Array | undefined)[] = [];
  /** Per mask base: 1 once a look-ahead through it finished, so nothing reachable from it is left to look at. */
  private closed = new Uint8Array(0);
  /** While the look-ahead walks a state: record the states its tokens end in. */
  private recording = false;
  private recordStamp = 0;
  /** Per state: `recordStamp` once found by a plain token of the state being recorded, its negation once found only by a later one. */
  private foundMark = new Int32Array(64);
  private readonly foundNear: number[] = [];
  private readonly foundLater: number[] = [];

  /** @internal Use `compileJsonSchema`. */
  constructor(
    vocabulary: Vocabulary,
    automaton: JsonAutomaton,
    relaxed: readonly RelaxedKeyword[],
    layout: (value: unknown) => string | undefined,
    accepts: (value: unknown) => boolean,
    reachableWork = REACHABLE_WORK_BUDGET,
  ) {
    this.vocabulary = vocabulary;
    this.automaton = automaton;
    this.relaxed = relaxed;
    this.layout = layout;
    this.acceptsValue = accepts;
    this.stats = vocabulary.stringStats;
    this.scratch = new Uint32Array(vocabulary.maskWords);
    this.idLimit = listLimit(vocabulary.maskWords);
    this.collectedIds = new Uint32Array(this.idLimit);
    this.walkStack = new Int32Array(vocabulary.trie.maxDepth + 2);
    // compile's small budget goes to walks alone: a position's derivation waits for the look-ahead a generation pumps
    if (reachableWork > 0 && automaton.start >= 0) this.lookAheadFrom(new LookAheadFrontier(automaton.start, automaton.stateCount), reachableWork, false);
  }

  /**
   * Looks ahead from `frontier`'s origin: computes the masks of the states reachable from it,
   * nearest first (by tokens), until `workBudget` units are spent, and records each state's
   * successors so that a later look-ahead from elsewhere passes through it without walking.
   * A walk's token ends name the next states, so the exploration costs nothing beyond the
   * walks a generation would do anyway; the twins of a length-bounded string share one mask
   * and are expanded once, from the state that holds it. States reached by a token
   * that ends on a backslash or a non-ASCII byte (the inside of an escape or of a multi-byte
   * character, rare in tool arguments) wait until the others are done, so the budget goes to
   * the keys and values a generation reaches first. Deterministic: a count of work, not a
   * deadline; the state that crosses the budget completes. Resumable: a second call with the
   * same frontier goes on where the first stopped. Returns whether anything is left.
   * Once nothing reachable is left, what remains of `workBudget` goes to the pattern
   * precompute (`precomputeContentMasks`, within its own budget), which used to run at compile.
   * @internal Use `compileJsonSchema`'s `precomputeWork` or `GrammarMatcher.lookAhead`.
   */
  lookAhead(frontier: LookAheadFrontier, workBudget: number): boolean {
    const visitedBefore = this.visited;
    const transitionsBefore = this.transitionsComputed;
    const more = this.lookAheadFrom(frontier, workBudget, true);
    if (more || this.patternWorkLeft <= 0) return more;
    const left = workBudget - (this.visited - visitedBefore + (this.transitionsComputed - transitionsBefore) * REACHABLE_TRANSITION_WORK);
    if (left <= 0) return true;
    try {
      const { spent, complete } = this.precomputeContentMasks(Math.min(this.patternWorkLeft, left));
      this.patternWorkLeft = complete ? 0 : this.patternWorkLeft - spent;
    } catch (error) {
      // as in the look-ahead proper: a state budget reached here is the matcher's to report, when a generation really gets there
      if (!(error instanceof DecodingLimitError)) throw error;
      this.collected = -1;
      this.patternWorkLeft = 0;
    }
    return this.patternWorkLeft > 0;
  }

  /**
   * The look-ahead proper, without the pattern precompute: what compile runs within `precomputeWork`. With
   * `deriveBounded`, the length-bounded positions it reaches get their derived masks kept too (`deriveAhead`).
   */
  private lookAheadFrom(frontier: LookAheadFrontier, workBudget: number, deriveBounded: boolean): boolean {
    const automaton = this.automaton;
    if (!frontier.finished && frontier.at === 0 && this.isClosed(automaton.maskBase[frontier.origin]!)) frontier.finished = true;
    if (frontier.finished) return false;
    const visitedBefore = this.visited;
    const transitionsBefore = this.transitionsComputed;
    let traversed = 0;
    const spent = (): number => this.visited - visitedBefore + (this.transitionsComputed - transitionsBefore) * REACHABLE_TRANSITION_WORK + traversed;
    try {
      while (spent() < workBudget) {
        if (frontier.at === frontier.order.length) {
          if (frontier.later.length === 0) {
            frontier.finished = true;
            if (!frontier.cut) this.close(frontier.order);
            return false;
          }
          for (let index = 0; index < frontier.later.length; index++) frontier.enqueue(frontier.later[index]!, frontier.laterTokensTo[index]!);
          frontier.later = [];
          frontier.laterTokensTo = [];
        }
        const tokens = frontier.tokensTo[frontier.at]!;
        const state = frontier.order[frontier.at++]!;
        const base = automaton.maskBase[state]!;
        if (frontier.expand(base)) {
          const near = this.successorsNear[base] ?? this.findSuccessors(base);
          const later = this.successorsLater[base]!;
          // passing through a state already looked at costs its edges, so a long look-ahead over a large grammar stays bounded too
          traversed += 1 + near.length + later.length;
          if (tokens + 1 > frontier.maxTokens) {
            if (near.length + later.length > 0) frontier.cut = true;
          } else {
            for (let index = 0; index < near.length; index++) frontier.enqueue(near[index]!, tokens + 1);
            for (let index = 0; index < later.length; index++) frontier.enqueueLater(later[index]!, tokens + 1);
          }
        }
        if (deriveBounded && state !== base) traversed += this.deriveAhead(state);
      }
    } catch (error) {
      // a state budget reached while looking ahead is the matcher's to report, when a generation really gets there
      if (!(error instanceof DecodingLimitError)) throw error;
      this.collected = -1;
      frontier.finished = true;
      return false;
    } finally {
      this.recording = false;
    }
    return true;
  }

  /**
   * Marks the mask bases of a finished look-ahead closed: every state reachable from them was
   * looked at, and successors once recorded never change, so a later look-ahead from any of
   * them has nothing to do (a generation that moves on pumps nothing once its grammar is done).
   */
  private close(states: readonly number[]): void {
    const maskBase = this.automaton.maskBase;
    for (const state of states) {
      const base = maskBase[state]!;
      if (base >= this.closed.length) {
        const bigger = new Uint8Array(Math.max(base + 1, this.closed.length * 2, 64));
        bigger.set(this.closed);
        this.closed = bigger;
      }
      this.closed[base] = 1;
    }
  }

  private isClosed(base: number): boolean {
    return base < this.closed.length && this.closed[base] === 1;
  }

  /**
   * Records the states one token leads to from `base`: the walk that computes its mask names
   * them at its token ends (a mask the matcher computed first is walked once more, for them
   * alone). An unconstrained string body follows one plain byte instead of its plain-content
   * tokens, a patterned string position its printable ASCII bytes except those it loops on
   * (content tokens come from the shared content mask, not a walk).
   */
  private findSuccessors(base: number): Int32Array {
    const automaton = this.automaton;
    this.recording = true;
    this.recordStamp++;
    this.foundNear.length = 0;
    this.foundLater.length = 0;
    if (this.masks[base] === undefined) this.computeMask(base);
    else if (automaton.plainString[base] === 1) this.walk(this.stats.remainder, base, this.scratch);
    else if (automaton.contentKey[base] !== undefined) this.walk(this.stats.quoteTrie, base, this.scratch);
    else this.walk(this.vocabulary.trie, base, this.scratch);
    if (automaton.plainString[base] === 1) this.recordAfterByte(base, PLAIN_BYTE);
    else if (automaton.contentKey[base] !== undefined) {
      const loop = automaton.loopClass[base]?.members;
      for (let byte = 0x20; byte < 0x7f; byte++) if (byte !== QUOTE && byte !== BACKSLASH && loop?.[byte] !== 1) this.recordAfterByte(base, byte);
    }
    this.recording = false;
    const near = Int32Array.from(this.foundNear);
    const stamp = this.recordStamp;
    this.successorsNear[base] = near;
    this.successorsLater[base] = Int32Array.from(this.foundLater.filter((state) => this.foundMark[state] !== stamp));
    return near;
  }

  private recordAfterByte(state: number, byte: number): void {
    let next = this.automaton.trans[state * 256 + byte]!;
    if (next === UNKNOWN) {
      next = this.automaton.transition(state, byte);
      this.transitionsComputed++;
    }
    if (next >= 0) this.recordSuccessor(next, false);
  }

  /** Notes that a token leads to `state` from the state being looked at (`later`: only through an escape or a multi-byte character). */
  private recordSuccessor(state: number, later: boolean): void {
    if (state >= this.foundMark.length) {
      const bigger = new Int32Array(Math.max(state + 1, this.foundMark.length * 2));
      bigger.set(this.foundMark);
      this.foundMark = bigger;
    }
    const stamp = this.recordStamp;
    const mark = this.foundMark[state]!;
    if (mark === stamp) return;
    if (later) {
      if (mark === -stamp) return;
      this.foundMark[state] = -stamp;
      this.foundLater.push(state);
    } else {
      this.foundMark[state] = stamp;
      this.foundNear.push(state);
    }
  }

  /**
   * Computes, until `workBudget` units of work are spent, the shared content masks
   * of the patterned strings' positions (XGrammar precomputes every state at compile time;
   * this does it only for the walks that cost most, and only once per vocabulary: other
   * grammars reuse them). The walk that crosses the budget completes; positions already
   * cached cost nothing. Records the states whose masks it computed in `precomputedStates`;
   * returns the work spent and whether every position's mask is now cached.
   */
  private precomputeContentMasks(workBudget: number): { spent: number; complete: boolean } {
    const visitedBefore = this.visited;
    const transitionsBefore = this.transitionsComputed;
    const spent = (): number => this.visited - visitedBefore + (this.transitionsComputed - transitionsBefore) * TRANSITION_WORK;
    // a few ms per new character class, once per vocabulary: paid in the first look-ahead (between model calls), not in a first mask
    if (!this.loopClassesPrepared) {
      this.loopClassesPrepared = true;
      for (const loop of this.automaton.patternLoopClasses()) this.stats.contentClassFlags(loop.key, loop.members);
    }
    for (const state of this.automaton.patternPositions((key) => this.stats.contentMasks.has(key))) {
      if (spent() >= workBudget) return { spent: spent(), complete: false };
      const key = this.automaton.contentKey[state];
      if (key === undefined || this.stats.contentMasks.has(key)) continue;
      const out = this.scratch;
      out.fill(0);
      const count = this.walk(this.stats.contentTrie, state, out, true);
      this.stats.contentMasks.set(key, storeMask(out, count, this.vocabulary.textTokens, this.vocabulary.textTokenCount));
      this.precomputedStates.push(state);
    }
    return { spent: spent(), complete: true };
  }

  /** A new matcher at the start of the document. */
  matcher(options?: MatcherOptions): GrammarMatcher {
    return new GrammarMatcher(this, options);
  }

  /**
   * The text of `value` in this grammar's layout (compact JSON, properties in schema
   * order, plain-decimal numbers), or `undefined` when the schema, as enforced, rejects it.
   * Useful for few-shot examples that the mask will reproduce token for token.
   */
  format(value: unknown): string | undefined {
    return this.layout(value);
  }

  /** Whether the schema, as the engine enforces it, accepts `value`. */
  accepts(value: unknown): boolean {
    return this.acceptsValue(value);
  }

  /** Current counters. */
  statistics(): GrammarStats {
    let bytes = this.automaton.trans.byteLength;
    for (const mask of this.masks) if (mask !== undefined) bytes += mask.data.byteLength;
    bytes += this.derivedBytes;
    return { states: this.automaton.stateCount, configurations: this.automaton.configurationCount, maskWalks: this.walks, nodesVisited: this.visited, bytes };
  }

  /** @internal Writes the mask of `state` (without end-of-sequence ids) into `mask`. */
  writeMask(state: number, mask: Uint32Array): void {
    const automaton = this.automaton;
    const base = automaton.maskBase[state]!;
    const textTokens = this.vocabulary.textTokens;
    if (base === state) {
      loadMask(this.masks[state] ?? this.computeMask(state), mask, textTokens);
      return;
    }
    const derived = this.derivedMasks[state];
    if (derived !== undefined) {
      loadMask(derived, mask, textTokens);
      return;
    }
    const twin = this.masks[base] ?? this.computeMask(base);
    loadMask(twin, mask, textTokens);
    const budget = automaton.kRem[state]!;
    const needed = automaton.rNeed[state]!;
    if (!this.stats.narrows(budget, needed)) return;
    const cleared = this.stats.narrow(mask, budget, needed, this.collectedIds);
    if (this.derivedBytes < this.derivedMaskBudget) this.keepDerived(state, twin, mask, cleared);
  }

  /**
   * Keeps the mask just derived for a length-bounded position: deriving it is a dense AND over
   * the whole mask or up to thousands of cleared ids (5–40 µs, the slow tail of warm
   * generations), while writing it back is a copy plus at most `listLimit` ids. Kept in the
   * form that costs least to make now, without another pass over the mask where possible:
   * the twin's short id list filtered, the twin's bitset with the `cleared` ids (the first
   * of `collectedIds`, -1 when not listed) flipped while they are at most `patchLimit`, or a bitset.
   */
  private keepDerived(state: number, twin: StoredMask, mask: Uint32Array, cleared: number): void {
    const vocabulary = this.vocabulary;
    const twinBits = bitsetOf(twin);
    let stored = narrowAllowedList(twin, mask);
    if (stored === undefined)
      stored =
        twinBits !== undefined && cleared >= 0 && cleared <= patchLimit(vocabulary.maskWords)
          ? storePatched(twinBits, this.collectedIds, cleared, twin.count - cleared)
          : storeBitset(mask, UNCOUNTED, vocabulary.maskWords);
    this.derivedMasks[state] = stored;
    this.derivedBytes += stored.data.byteLength;
  }

  /**
   * Derives and keeps, ahead of its first visit, the mask of the length-bounded position
   * `state` (a twin of its mask base), so that the visit copies it: a first derivation is a
   * dense AND or a list filter run once, through code the JIT has not warmed (30–150 µs, the
   * slow tail of a first generation with the look-ahead pumped). Returns its work units: the
   * mask's words: more than its cost in node visits, so a look-ahead chunk never takes longer than before.
   */
  private deriveAhead(state: number): number {
    if (this.derivedMasks[state] !== undefined || this.derivedBytes >= this.derivedMaskBudget) return 0;
    if (!this.stats.narrows(this.automaton.kRem[state]!, this.automaton.rNeed[state]!)) return 0;
    this.lookAheadMask ??= new Uint32Array(this.vocabulary.maskWords);
    this.writeMask(state, this.lookAheadMask);
    return this.vocabulary.maskWords;
  }

  /** @internal Length-bounded positions whose derived mask is kept (tests). */
  get derivedMaskCount(): number {
    let count = 0;
    for (const mask of this.derivedMasks) if (mask !== undefined) count++;
    return count;
  }

  /**
   * The mask of `state`. In an unconstrained string body: the vocabulary's plain-content
   * tokens plus a walk of the (much smaller) remainder trie. At another string position:
   * the content tokens' mask shared by every grammar (computed once per vocabulary) plus
   * a walk of the tokens holding a quote. Elsewhere: a walk of the whole trie.
   */
  private computeMask(state: number): StoredMask {
    const out = this.scratch;
    const automaton = this.automaton;
    let count: number;
    const contentKey = automaton.contentKey[state];
    if (automaton.plainString[state] === 1) {
      out.set(this.stats.plainContent);
      count = this.stats.plainContentCount + this.walk(this.stats.remainder, state, out);
      this.walks++;
      // most of a string body's tokens come here: a copy, even where a list of the rejected ids would be smaller (Gemma 3's ~1k ids took 3.5 µs)
      const stored = storeBitset(out, count, this.vocabulary.maskWords);
      this.masks[state] = stored;
      return stored;
    } else if (contentKey !== undefined) {
      let content = this.stats.contentMasks.get(contentKey);
      if (content === undefined) {
        out.fill(0);
        const contentCount = this.walk(this.stats.contentTrie, state, out, true);
        content = storeMask(out, contentCount, this.vocabulary.textTokens, this.vocabulary.textTokenCount);
        this.stats.contentMasks.set(contentKey, content);
      }
      loadMask(content, out, this.vocabulary.textTokens);
      count = content.count + this.walk(this.stats.quoteTrie, state, out);
    } else {
      out.fill(0);
      this.collected = 0;
      count = this.walk(this.vocabulary.trie, state, out, false, true);
    }
    this.walks++;
    // a structural state allows few tokens: keep the ids the walk collected instead of scanning the bitset
    const stored =
      this.collected >= 0 && count === this.collected && count <= this.idLimit
        ? storeAllowedList(this.collectedIds, count)
        : storeMask(out, count, this.vocabulary.textTokens, this.vocabulary.textTokenCount);
    this.collected = -1;
    this.masks[state] = stored;
    return stored;
  }

  /**
   * One pass over the trie's nodes in DFS order, reading the automaton's transition
   * table and skipping a whole subtree at the first dead byte. Adds allowed tokens to
   * `out` and returns how many. With `loops` (content-trie walks only), a subtree whose
   * bytes all keep a string in the same looping state is added as one slice of tokens
   * without visiting it.
   */
  private walk(trie: TokenTrie, state: number, out: Uint32Array, loops = false, collect = false): number {
    const automaton = this.automaton;
    const nodeByte = trie.nodeByte;
    const nodeDepth = trie.nodeDepth;
    const nodeEnd = trie.nodeEnd;
    const nodeToken = trie.nodeToken;
    const nextSame = trie.nextSameBytes;
    const tokenOrder = loops ? trie.tokenOrder : undefined;
    const tokenStart = loops ? trie.tokenStart : undefined;
    let loopIndex = this.loopFlagIndex;
    const loopTables = this.loopFlagTables;
    const stack = this.walkStack;
    let trans = automaton.trans;
    const recordSuccessors = this.recording;
    let count = 0;
    let visited = 0;
    stack[0] = state;
    const total = trie.nodeCount;
    let node = 0;
    while (node < total) {
      visited++;
      const depth = nodeDepth[node]!;
      const from = stack[depth - 1]!;
      const byte = nodeByte[node]!;
      let to = trans[from * 256 + byte]!;
      if (to === UNKNOWN) {
        to = automaton.transition(from, byte);
        trans = automaton.trans;
        this.transitionsComputed++;
      }
      if (to === DEAD) {
        node = nodeEnd[node]!;
        continue;
      }
      if (loops) {
        let index = to < loopIndex.length ? loopIndex[to]! : -2;
        if (index === -2) {
          index = this.loopFlagsOf(to);
          loopIndex = this.loopFlagIndex;
        }
        if (index >= 0 && loopTables[index]![node] === 1) {
          // every token below stays in this looping state: take the whole slice
          const end = tokenStart![nodeEnd[node]!]!;
          for (let at = tokenStart![node]!; at < end; at++) {
            const token = tokenOrder![at]!;
            out[token >>> 5]! |= 1 << (token & 31);
          }
          count += end - tokenStart![node]!;
          if (recordSuccessors) this.recordSuccessor(to, false);
          node = nodeEnd[node]!;
          continue;
        }
      }
      stack[depth] = to;
      let token = nodeToken[node]!;
      // a state already found at this stamp needs no second look at its stacks (inDeclaredOrder walks them)
      if (recordSuccessors && token >= 0 && this.foundMark[to] !== this.recordStamp)
        this.recordSuccessor(to, byte >= 0x80 || byte === BACKSLASH || !this.automaton.inDeclaredOrder(to));
      while (token >= 0) {
        out[token >>> 5]! |= 1 << (token & 31);
        if (collect && count < this.idLimit) this.collectedIds[count] = token;
        count++;
        token = nextSame[token]!;
      }
      node++;
    }
    this.visited += visited;
    if (collect) this.collected = Math.min(count, this.idLimit + 1);
    return count;
  }

  /** Index of the content-trie loop flags of automaton state `state` (-1: it does not loop), recorded in `loopFlagIndex`. */
  private loopFlagsOf(state: number): number {
    if (state >= this.loopFlagIndex.length) {
      const bigger = new Int32Array(Math.max(state + 1, this.loopFlagIndex.length * 2)).fill(-2);
      bigger.set(this.loopFlagIndex);
      this.loopFlagIndex = bigger;
    }
    const loop = this.automaton.loopClass[state];
    let index = -1;
    if (loop !== undefined) {
      index = this.loopFlagTableOf.get(loop.key) ?? -1;
      if (index < 0) {
        index = this.loopFlagTables.length;
        this.loopFlagTables.push(this.stats.contentClassFlags(loop.key, loop.members));
        this.loopFlagTableOf.set(loop.key, index);
      }
    }
    this.loopFlagIndex[state] = index;
    return index;
  }
}
