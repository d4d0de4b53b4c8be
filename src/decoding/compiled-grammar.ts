/**
 * A schema compiled against one vocabulary: the lazily built byte automaton plus a
 * cache of token masks per automaton state. Shared by every matcher made from it.
 * @module
 */
import { DEAD, UNKNOWN, type JsonAutomaton } from './json-automaton.js';
import type { RelaxedKeyword } from './lower-json-schema.js';
import { GrammarMatcher, type MatcherHost } from './grammar-matcher.js';
import type { StringTokenStats } from './string-token-stats.js';
import type { TokenTrie } from './token-trie.js';
import type { Vocabulary } from './vocabulary.js';

/** How a cached mask is stored: whichever of the three is smallest (XGrammar's adaptive token mask). */
const enum Storage {
  Allowed = 0,
  Rejected = 1,
  Bitset = 2,
}

interface CachedMask {
  readonly storage: Storage;
  readonly data: Uint32Array;
  /** Tokens allowed. */
  readonly count: number;
}

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
  private readonly masks: (CachedMask | undefined)[] = [];
  private readonly scratch: Uint32Array;
  private readonly walkStack: Int32Array;
  private readonly layout: (value: unknown) => string | undefined;
  private readonly acceptsValue: (value: unknown) => boolean;
  private walks = 0;
  private visited = 0;

  /** @internal Use `compileJsonSchema`. */
  constructor(vocabulary: Vocabulary, automaton: JsonAutomaton, relaxed: readonly RelaxedKeyword[], layout: (value: unknown) => string | undefined, accepts: (value: unknown) => boolean) {
    this.vocabulary = vocabulary;
    this.automaton = automaton;
    this.relaxed = relaxed;
    this.layout = layout;
    this.acceptsValue = accepts;
    this.stats = vocabulary.stringStats;
    this.scratch = new Uint32Array(vocabulary.maskWords);
    this.walkStack = new Int32Array(vocabulary.trie.maxDepth + 2);
  }

  /** A new matcher at the start of the document. */
  matcher(): GrammarMatcher {
    return new GrammarMatcher(this);
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
    return { states: this.automaton.stateCount, configurations: this.automaton.configurationCount, maskWalks: this.walks, nodesVisited: this.visited, bytes };
  }

  /** @internal Writes the mask of `state` (without end-of-sequence ids) into `mask`. */
  writeMask(state: number, mask: Uint32Array): void {
    const automaton = this.automaton;
    const base = automaton.maskBase[state]!;
    const cached = this.masks[base] ?? this.computeMask(base);
    const words = this.vocabulary.maskWords;
    switch (cached.storage) {
      case Storage.Bitset:
        mask.set(cached.data);
        break;
      case Storage.Allowed: {
        mask.fill(0, 0, words);
        const data = cached.data;
        for (let index = 0; index < data.length; index++) {
          const id = data[index]!;
          mask[id >>> 5]! |= 1 << (id & 31);
        }
        break;
      }
      case Storage.Rejected: {
        mask.set(this.vocabulary.textTokens);
        const data = cached.data;
        for (let index = 0; index < data.length; index++) {
          const id = data[index]!;
          mask[id >>> 5]! &= ~(1 << (id & 31));
        }
        break;
      }
    }
    if (base !== state) {
      this.stats.applyBudget(mask, automaton.kRem[state]!);
      this.stats.applyClosingNeed(mask, automaton.rNeed[state]!);
    }
  }

  /**
   * The mask of `state`: in an unconstrained string body, the vocabulary's plain-content
   * tokens plus a walk of the (much smaller) remainder trie; elsewhere a walk of the
   * whole trie.
   */
  private computeMask(state: number): CachedMask {
    const out = this.scratch;
    let count: number;
    if (this.automaton.plainString[state] === 1) {
      out.set(this.stats.plainContent);
      count = this.stats.plainContentCount + this.walk(this.stats.remainder, state, out);
    } else {
      out.fill(0);
      count = this.walk(this.vocabulary.trie, state, out);
    }
    this.walks++;
    const words = this.vocabulary.maskWords;
    const rejected = this.vocabulary.textTokenCount - count;
    let cached: CachedMask;
    if (count <= words) {
      const data = new Uint32Array(count);
      let at = 0;
      for (let word = 0; word < words; word++) {
        let bits = out[word]!;
        while (bits !== 0) {
          const low = bits & -bits;
          data[at++] = word * 32 + (31 - Math.clz32(low));
          bits ^= low;
        }
      }
      cached = { storage: Storage.Allowed, data, count };
    } else if (rejected <= words) {
      const data = new Uint32Array(rejected);
      const universe = this.vocabulary.textTokens;
      let at = 0;
      for (let word = 0; word < words; word++) {
        let bits = universe[word]! & ~out[word]!;
        while (bits !== 0) {
          const low = bits & -bits;
          data[at++] = word * 32 + (31 - Math.clz32(low));
          bits ^= low;
        }
      }
      cached = { storage: Storage.Rejected, data, count };
    } else {
      cached = { storage: Storage.Bitset, data: out.slice(0, words), count };
    }
    this.masks[state] = cached;
    return cached;
  }

  /**
   * One pass over the trie's nodes in DFS order, reading the automaton's transition
   * table and skipping a whole subtree at the first dead byte. Adds allowed tokens to
   * `out` and returns how many.
   */
  private walk(trie: TokenTrie, state: number, out: Uint32Array): number {
    const automaton = this.automaton;
    const nodeByte = trie.nodeByte;
    const nodeDepth = trie.nodeDepth;
    const nodeEnd = trie.nodeEnd;
    const nodeToken = trie.nodeToken;
    const nextSame = trie.nextSameBytes;
    const stack = this.walkStack;
    let trans = automaton.trans;
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
      }
      if (to === DEAD) {
        node = nodeEnd[node]!;
        continue;
      }
      stack[depth] = to;
      let token = nodeToken[node]!;
      while (token >= 0) {
        out[token >>> 5]! |= 1 << (token & 31);
        count++;
        token = nextSame[token]!;
      }
      node++;
    }
    this.visited += visited;
    return count;
  }
}
