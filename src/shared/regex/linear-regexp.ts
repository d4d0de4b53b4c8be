/**
 * `RegExp.prototype.test` in time linear in the text, for JSON Schema `pattern`s:
 * the pattern compiles to a Thompson NFA, and a deterministic automaton is built
 * from it lazily, one (state, code point) transition at a time, while texts are
 * tested. A backtracking engine can take exponential time on `^(a+)+$`; this one
 * reads each code point once, whatever the pattern.
 *
 * Both compiling and testing are bounded: the NFA has at most
 * {@link MAX_PATTERN_NFA_STATES} states (so one step costs at most that much), and
 * the cache of built automaton states is flushed when it grows past
 * {@link MAX_CACHE_CELLS}, so a pattern whose full DFA would be exponential, such as
 * `(a|b)*a(a|b){20}`, costs memory bounded by the cap and time linear in the text.
 *
 * Semantics are those of `new RegExp(source, 'u').test(text)` (search, not full
 * match; `^` and `$` anchor at the ends of the text only, as without the `m` flag)
 * on every pattern {@link parsePattern} accepts, leading lookaheads included; anything
 * else is refused with a {@link RegexUnsupportedError}, never approximated.
 * @module
 */
import { Nfa } from './code-point-dfa.js';
import { ANY_UTF16_CHAR, MAX_CODE_POINT, setHas } from './code-point-set.js';
import { parsePattern, RegexUnsupportedError, type RegexNode } from './parse-regex.js';

/** The NFA budget of one pattern: the worst-case cost of reading one code point. */
export const MAX_PATTERN_NFA_STATES = 10_000;
/**
 * Uncached work one test may do, counted in NFA states visited while building transitions. Only a
 * pattern whose automaton keeps growing (such as `(a|b)*a(a|b){20}$`) on a long text gets near it;
 * past it the text is reported as not matching, so that one test stays bounded in time whatever
 * the pattern and the text. A pattern with leading lookaheads splits it evenly among its parts.
 */
export const MAX_UNCACHED_WORK = 300_000;
/** Cached automaton size (subset members plus transitions) past which the cache is dropped and rebuilt as needed. */
export const MAX_CACHE_CELLS = 1 << 17;

/** What Ajv's `code.regExp` option must return: an object with `test`. */
export interface LinearRegExp {
  readonly source: string;
  readonly flags: string;
  test(text: string): boolean;
  /** `/source/flags`: Ajv keys compiled patterns by this string, so it must differ for different sources. */
  toString(): string;
}

/** Compiles `source` as `new RegExp(source, flags)` would, with flags `u` only; throws {@link RegexUnsupportedError} for what it cannot run in linear time. */
export function compileLinearRegExp(source: string, flags = 'u'): LazyDfaRegExp {
  if (flags !== 'u') throw new RegexUnsupportedError(`the flags "${flags}" (only "u", as JSON Schema patterns use, is supported)`);
  const { tree, lookaheads } = parsePattern(source, { loneSurrogates: true });
  // `^(?=A)(?!B)R` runs as one automaton per part over the same text: the `^` pins the lookaheads to offset 0, so the
  // text matches when `^R` does, `^A` matches a prefix of it and `^B` does not. The parts share one NFA, so one state
  // budget, and split one test's work budget.
  const nfa = new Nfa(MAX_PATTERN_NFA_STATES);
  const workBudget = Math.floor(MAX_UNCACHED_WORK / (lookaheads.length + 1));
  const parts = lookaheads.map(({ negative, body }) => ({ negative, automaton: new LazyDfaRegExp(source, flags, body, { nfa, workBudget, lookaheads: [] }) }));
  return new LazyDfaRegExp(source, flags, tree, { nfa, workBudget, lookaheads: parts });
}

/** How a pattern's parts are built: within one NFA, each with its share of a test's work budget. */
interface LazyDfaPart {
  /** Shared by a pattern's parts, so that their states count against one {@link MAX_PATTERN_NFA_STATES}. */
  readonly nfa: Nfa;
  /** Uncached work this part may do per test. */
  readonly workBudget: number;
  /** The pattern's leading lookaheads (`^`-anchored automata), tested before it. */
  readonly lookaheads: readonly { readonly negative: boolean; readonly automaton: LazyDfaRegExp }[];
}

const ACCEPTED = 1;
const ACCEPTS_AT_END = 2;
const UNKNOWN = -2;
const DEAD = -1;
const ASCII = 128;

export class LazyDfaRegExp implements LinearRegExp {
  readonly source: string;
  readonly flags: string;
  readonly #nfa: Nfa;
  readonly #final: number;
  readonly #startSubset: Int32Array;
  readonly #workBudget: number;
  readonly #lookaheads: LazyDfaPart['lookaheads'];
  /** Per NFA member (`state * 2 + endOnly`): the last closure that visited it, to skip repeats without a Set. */
  readonly #visited: Uint32Array;
  #visitStamp = 0;

  /** Code points split into classes that every NFA edge treats alike: class `i` is `[bounds[i], bounds[i + 1])`. */
  readonly #bounds: Int32Array;
  readonly #asciiClass: Int32Array;

  #ids = new Map<string, number>();
  #subsets: Int32Array[] = [];
  #flags: number[] = [];
  /** Per state, per class: the next state, {@link DEAD}, or {@link UNKNOWN} until first needed. */
  #next: Int32Array[] = [];
  #cells = 0;
  #start = -1;
  #flushes = 0;
  #budgetExhaustions = 0;

  constructor(source: string, flags: string, tree: RegexNode, part: LazyDfaPart) {
    this.source = source;
    this.flags = flags;
    this.#workBudget = part.workBudget;
    this.#lookaheads = part.lookaheads;
    const nfa = part.nfa;
    const start = nfa.add();
    // A pattern anchored at the start needs no scan: without the loop, a failed prefix empties the state set and ends the test early.
    if (!anchoredAtStart(tree)) nfa.chars[start]!.push({ set: ANY_UTF16_CHAR, to: start });
    const end = nfa.build(tree, start);
    const final = nfa.add();
    nfa.epsilon[end]!.push(final);
    this.#nfa = nfa;
    this.#final = final;
    // the states of parts built later are never reached from this part's
    this.#visited = new Uint32Array(nfa.stateCount * 2);
    this.#startSubset = this.#closure([start * 2], true);
    const points = new Set<number>([0]);
    for (const edges of nfa.chars) {
      for (const edge of edges) {
        for (let index = 0; index < edge.set.length; index += 2) {
          points.add(edge.set[index]!);
          if (edge.set[index + 1]! < MAX_CODE_POINT) points.add(edge.set[index + 1]! + 1);
        }
      }
    }
    this.#bounds = Int32Array.from([...points].sort((left, right) => left - right));
    this.#asciiClass = new Int32Array(ASCII);
    for (let codePoint = 0; codePoint < ASCII; codePoint++) this.#asciiClass[codePoint] = this.#classOf(codePoint);
  }

  #classOf(codePoint: number): number {
    const bounds = this.#bounds;
    let low = 0;
    let high = bounds.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (bounds[middle]! <= codePoint) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** How many times the automaton cache outgrew {@link MAX_CACHE_CELLS} and was dropped. */
  get cacheFlushes(): number {
    return this.#lookaheads.reduce((sum, { automaton }) => sum + automaton.cacheFlushes, this.#flushes);
  }

  /** How many tests ran past {@link MAX_UNCACHED_WORK} (a part past its share) and answered "no match". */
  get budgetExhaustions(): number {
    return this.#budgetExhaustions;
  }

  toString(): string {
    return `/${this.source}/${this.flags}`;
  }

  test(text: string): boolean {
    if (this.#lookaheads.length > 0 && !this.#lookaheadsHold(text)) return false;
    if (this.#start < 0) this.#start = this.#intern(this.#startSubset);
    let state = this.#start;
    if ((this.#flags[state]! & ACCEPTED) !== 0) return true;
    const length = text.length;
    let work = 0;
    for (let index = 0; index < length; index++) {
      let codePoint = text.charCodeAt(index);
      if (codePoint >= 0xd800 && codePoint <= 0xdbff && index + 1 < length) {
        const low = text.charCodeAt(index + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          codePoint = 0x10000 + ((codePoint - 0xd800) << 10) + (low - 0xdc00);
          index++;
        }
      }
      const codeClass = codePoint < ASCII ? this.#asciiClass[codePoint]! : this.#classOf(codePoint);
      let next = this.#next[state]![codeClass]!;
      if (next === UNKNOWN) {
        work += this.#subsets[state]!.length;
        if (work > this.#workBudget) {
          this.#budgetExhaustions++;
          return false;
        }
        next = this.#computeStep(state, codeClass);
      }
      if (next === DEAD) return false;
      state = next;
      if ((this.#flags[state]! & ACCEPTED) !== 0) return true;
    }
    return (this.#flags[state]! & ACCEPTS_AT_END) !== 0;
  }

  /** Whether each positive lookahead matches at offset 0 and no negative one does; a lookahead out of work fails the test. */
  #lookaheadsHold(text: string): boolean {
    for (const { negative, automaton } of this.#lookaheads) {
      const exhaustions = automaton.budgetExhaustions;
      const matched = automaton.test(text);
      if (automaton.budgetExhaustions !== exhaustions) {
        this.#budgetExhaustions++;
        return false;
      }
      if (matched === negative) return false;
    }
    return true;
  }

  #computeStep(state: number, codeClass: number): number {
    const subset = this.#subsets[state]!;
    const representative = this.#bounds[codeClass]!;
    const targets: number[] = [];
    for (const member of subset) {
      if ((member & 1) !== 0) continue;
      for (const edge of this.#nfa.chars[member >> 1]!) if (setHas(edge.set, representative)) targets.push(edge.to * 2);
    }
    let flushed = false;
    if (this.#cells > MAX_CACHE_CELLS) {
      this.#flush();
      flushed = true;
    }
    const next = targets.length === 0 ? DEAD : this.#intern(this.#closure(targets, false));
    // After a flush the state ids of this test are gone; the transition is simply not cached.
    if (!flushed) this.#next[state]![codeClass] = next;
    return next;
  }

  #flush(): void {
    this.#flushes++;
    this.#ids = new Map();
    this.#subsets = [];
    this.#flags = [];
    this.#next = [];
    this.#cells = 0;
    this.#start = -1;
  }

  #intern(subset: Int32Array): number {
    const key = subset.join(',');
    let id = this.#ids.get(key);
    if (id !== undefined) return id;
    id = this.#subsets.length;
    this.#ids.set(key, id);
    this.#subsets.push(subset);
    let flags = 0;
    for (const member of subset) {
      if (member >> 1 !== this.#final) continue;
      flags |= ACCEPTS_AT_END;
      if ((member & 1) === 0) flags |= ACCEPTED;
    }
    this.#flags.push(flags);
    this.#next.push(new Int32Array(this.#bounds.length).fill(UNKNOWN));
    this.#cells += subset.length + this.#bounds.length + key.length / 4;
    return id;
  }

  /** Members reachable without reading a character; past a `$` (endOnly = 1) no character may follow. */
  #closure(seeds: readonly number[], atStart: boolean): Int32Array {
    const visited = this.#visited;
    const stamp = ++this.#visitStamp;
    if (stamp === 0xffffffff) {
      visited.fill(0);
      this.#visitStamp = 1;
    }
    return this.#nfa.closure(seeds, atStart, visited, this.#visitStamp);
  }
}

/** True when every match must begin with `^`, so no match can start later in the text. */
function anchoredAtStart(node: RegexNode): boolean {
  switch (node.type) {
    case 'assert-start':
      return true;
    case 'concat':
      return node.items.length > 0 && anchoredAtStart(node.items[0]!);
    case 'alt':
      return node.items.length > 0 && node.items.every(anchoredAtStart);
    default:
      return false;
  }
}
