/**
 * Deterministic automata over Unicode code points: a regex compiles to one through a
 * Thompson NFA and the subset construction; several intersect by the product
 * construction. Dead states are trimmed, so every state can still reach acceptance.
 * @module
 */
import { ANY_CHAR, type CodePointSet } from './code-point-set.js';
import { RegexUnsupportedError, type ParsedPattern, type RegexNode } from './parse-regex.js';

/** NFA budget: a regex that needs more states is refused rather than compiled slowly. */
const MAX_NFA_STATES = 100_000;
/** DFA budget for one pattern or one intersection. */
export const MAX_DFA_STATES = 20_000;

/**
 * The state budgets alone do not bound the time: `^(.{0,100}){100}$` has 10,001 states, but each stands for a set of
 * up to 10,000 NFA states, and the subset construction spent 228 s on it. An {@link AutomatonWork} counts the steps
 * the constructions take (an NFA state visited in a closure, an edge split, a transition of a product, of a
 * minimization round, of a trim) and stops them past its budget with {@link AutomatonWorkLimitError}.
 */
export class AutomatonWork {
  #spent = 0;

  constructor(readonly budget: number) {}

  /** Steps spent so far, over every construction this meter was given to. */
  get spent(): number {
    return this.#spent;
  }

  spend(steps: number): void {
    this.#spent += steps;
    if (this.#spent > this.budget) throw new AutomatonWorkLimitError(this.budget);
  }
}

/** Building an automaton took more steps than its {@link AutomatonWork} allowed; nothing was kept. */
export class AutomatonWorkLimitError extends Error {
  /** What was being built, when the caller knows it (the pattern's source), for the message. */
  subject: string | undefined;

  constructor(readonly budget: number) {
    super(`building the automaton took more than ${budget} steps`);
  }
}

/** Meters nothing: constructions given no meter are bounded by the state budgets only. */
const UNMETERED = new AutomatonWork(Number.POSITIVE_INFINITY);

let nextDfaId = 0;

export class CodePointDfa {
  /** Process-unique id: masks of string positions are shared across grammars by it. */
  readonly id = nextDfaId++;
  /** Per state: transitions as flat `[lo, hi, target, …]`, sorted and disjoint. */
  readonly transitions: readonly Int32Array[];
  /** Per state: whether a string may end here. */
  readonly accepting: Uint8Array;
  /** Start state; -1 when the language is empty. */
  readonly start: number;

  constructor(transitions: readonly Int32Array[], accepting: Uint8Array, start: number) {
    this.transitions = transitions;
    this.accepting = accepting;
    this.start = start;
  }

  get stateCount(): number {
    return this.accepting.length;
  }

  /** Next state on `codePoint`, or -1. */
  step(state: number, codePoint: number): number {
    const ranges = this.transitions[state]!;
    let low = 0;
    let high = ranges.length / 3 - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (codePoint < ranges[middle * 3]!) high = middle - 1;
      else if (codePoint > ranges[middle * 3 + 1]!) low = middle + 1;
      else return ranges[middle * 3 + 2]!;
    }
    return -1;
  }

  /**
   * For code points `lo..hi` (a partly read UTF-8 sequence or `\u` escape): the single
   * target when the whole range goes to one state, -1 when no code point in it has a
   * transition, -2 when it is mixed (some code points go somewhere, others elsewhere or nowhere).
   */
  rangeTarget(state: number, lo: number, hi: number): number {
    const ranges = this.transitions[state]!;
    let target = -1;
    let covered = 0;
    for (let index = 0; index < ranges.length; index += 3) {
      const from = Math.max(lo, ranges[index]!);
      const to = Math.min(hi, ranges[index + 1]!);
      if (from > to) continue;
      if (target === -1) target = ranges[index + 2]!;
      else if (target !== ranges[index + 2]) return -2;
      covered += to - from + 1;
    }
    if (target === -1) return -1;
    return covered === hi - lo + 1 ? target : -2;
  }

  /** True when the automaton accepts exactly `text`. */
  matches(text: string): boolean {
    let state = this.start;
    if (state < 0) return false;
    for (const char of text) {
      state = this.step(state, char.codePointAt(0)!);
      if (state < 0) return false;
    }
    return this.accepting[state] === 1;
  }

  /** The automaton accepting every string. */
  static any(): CodePointDfa {
    return new CodePointDfa([Int32Array.of(ANY_CHAR[0]!, ANY_CHAR[1]!, 0, ANY_CHAR[2]!, ANY_CHAR[3]!, 0)], Uint8Array.of(1), 0);
  }

  /** Compiles a parsed regex with JSON Schema `pattern` semantics: unanchored unless `^`/`$` say otherwise. */
  static fromRegex(tree: RegexNode, work: AutomatonWork = UNMETERED): CodePointDfa {
    const nfa = new Nfa();
    const start = nfa.add();
    nfa.chars[start]!.push({ set: ANY_CHAR, to: start });
    const inner = nfa.add();
    nfa.epsilon[start]!.push(inner);
    const end = nfa.build(tree, inner);
    const final = nfa.add();
    nfa.epsilon[end]!.push(final);
    nfa.chars[final]!.push({ set: ANY_CHAR, to: final });
    work.spend(nfa.stateCount);
    return determinize(nfa, start, final, work);
  }

  /**
   * Compiles a pattern with leading lookaheads (`^(?=A)(?!B)R`): the language of `^R`, intersected with each positive
   * lookahead's (`^A`, the texts with a prefix in A) and with the complement of each negative one's.
   */
  static fromPattern(pattern: ParsedPattern, work: AutomatonWork = UNMETERED): CodePointDfa {
    let result = CodePointDfa.fromRegex(pattern.tree, work);
    for (const { negative, body } of pattern.lookaheads) {
      const prefixed = CodePointDfa.fromRegex(body, work);
      result = product(result, negative ? prefixed.complement(work) : prefixed, work);
    }
    return result;
  }

  /** The intersection of several automata (all must accept). */
  static intersect(automata: readonly CodePointDfa[], work: AutomatonWork = UNMETERED): CodePointDfa {
    let result = automata[0] ?? CodePointDfa.any();
    for (let index = 1; index < automata.length; index++) result = product(result, automata[index]!, work);
    return result;
  }

  /**
   * The union of several automata (any may accept), each step minimized; `maxStates` caps each step's product before
   * minimization (the union of the `time` formats' alternatives passes 40,000 states there, about half once minimized).
   */
  static union(automata: readonly CodePointDfa[], work: AutomatonWork = UNMETERED, maxStates = MAX_DFA_STATES): CodePointDfa {
    let result = automata[0] ?? new CodePointDfa([], new Uint8Array(0), -1);
    for (let index = 1; index < automata.length; index++) result = unionProduct(result, automata[index]!, work, maxStates);
    return result;
  }

  /** The strings this automaton rejects (every code point a JSON string can hold), minimized and trimmed. */
  complement(work: AutomatonWork = UNMETERED): CodePointDfa {
    if (this.start < 0) return CodePointDfa.any();
    const sink = this.stateCount;
    const transitions: Int32Array[] = [];
    const accepting: number[] = [];
    for (let state = 0; state < sink; state++) {
      transitions.push(fillGaps(this.transitions[state]!, sink));
      accepting.push(1 - this.accepting[state]!);
    }
    transitions.push(fillGaps(new Int32Array(0), sink));
    accepting.push(1);
    work.spend(sink + 1);
    const trimmed = trim(transitions, accepting, this.start, work);
    // a minimal automaton plus its sink, accepting flipped, is minimal: no state but the sink is dead, and the trim
    // drops at most the one state that accepts everything (the union of a time format's superset: 200–400 ms saved)
    return MINIMAL.has(this) ? markMinimal(trimmed) : minimize(trimmed, work);
  }

  /** Exactly the given strings (a trie, minimized); the empty language for none. */
  static literals(texts: readonly string[], work: AutomatonWork = UNMETERED): CodePointDfa {
    const children: Map<number, number>[] = [new Map()];
    const accepting: number[] = [0];
    for (const text of texts) {
      let node = 0;
      for (const char of text) {
        const codePoint = char.codePointAt(0)!;
        let child = children[node]!.get(codePoint);
        if (child === undefined) {
          child = children.length;
          children.push(new Map());
          accepting.push(0);
          children[node]!.set(codePoint, child);
        }
        node = child;
      }
      accepting[node] = 1;
    }
    const transitions = children.map((edges) =>
      Int32Array.from([...edges].sort((left, right) => left[0] - right[0]).flatMap(([codePoint, target]) => [codePoint, codePoint, target])),
    );
    return minimize(trim(transitions, accepting, 0, work), work);
  }
}

export interface CharEdge {
  set: CodePointSet;
  to: number;
}

/** A Thompson NFA; `^` and `$` are edges taken only at the start, or only at the end, of the text. */
export class Nfa {
  readonly epsilon: number[][] = [];
  readonly chars: CharEdge[][] = [];
  readonly startAssert: number[][] = [];
  readonly endAssert: number[][] = [];
  readonly #maxStates: number;

  constructor(maxStates = MAX_NFA_STATES) {
    this.#maxStates = maxStates;
  }

  get stateCount(): number {
    return this.epsilon.length;
  }

  add(): number {
    if (this.epsilon.length >= this.#maxStates) throw new RegexUnsupportedError(`a regex needing more than ${this.#maxStates} automaton states`);
    this.epsilon.push([]);
    this.chars.push([]);
    this.startAssert.push([]);
    this.endAssert.push([]);
    return this.epsilon.length - 1;
  }

  /**
   * The subset members reachable from `seeds` without reading a character. A member is `nfaState * 2 + endOnly`: past
   * a `$`, no character may follow; `^` edges are taken only `atStart`. `visited` keeps, per member, the mark of the
   * last closure that reached it, so a closure needs no Set of its own: each call passes a mark no earlier call used.
   * Returns the members sorted; the pushes are spent on `work`.
   */
  closure(seeds: Iterable<number>, atStart: boolean, visited: Uint32Array, mark: number, work: AutomatonWork = UNMETERED): Int32Array {
    const members: number[] = [];
    const stack = [...seeds];
    let pushed = stack.length;
    while (stack.length > 0) {
      const member = stack.pop()!;
      if (visited[member] === mark) continue;
      visited[member] = mark;
      members.push(member);
      const state = member >> 1;
      const endOnly = member & 1;
      for (const to of this.epsilon[state]!) stack.push(to * 2 + endOnly);
      for (const to of this.endAssert[state]!) stack.push(to * 2 + 1);
      if (atStart) for (const to of this.startAssert[state]!) stack.push(to * 2 + endOnly);
      pushed += this.epsilon[state]!.length + this.endAssert[state]!.length;
    }
    work.spend(pushed);
    return Int32Array.from(members).sort();
  }

  /** Adds `node` starting at state `from`; returns its end state. */
  build(node: RegexNode, from: number): number {
    switch (node.type) {
      case 'set': {
        const to = this.add();
        if (node.set.length > 0) this.chars[from]!.push({ set: node.set, to });
        return to;
      }
      case 'assert-start': {
        const to = this.add();
        this.startAssert[from]!.push(to);
        return to;
      }
      case 'assert-end': {
        const to = this.add();
        this.endAssert[from]!.push(to);
        return to;
      }
      case 'concat': {
        let at = from;
        for (const item of node.items) at = this.build(item, at);
        return at;
      }
      case 'alt': {
        const to = this.add();
        for (const item of node.items) {
          const branch = this.add();
          this.epsilon[from]!.push(branch);
          this.epsilon[this.build(item, branch)]!.push(to);
        }
        if (node.items.length === 0) this.epsilon[from]!.push(to);
        return to;
      }
      case 'repeat': {
        let at = from;
        for (let index = 0; index < node.min; index++) at = this.build(node.item, at);
        if (node.max === Infinity) {
          const loop = this.add();
          this.epsilon[at]!.push(loop);
          const back = this.build(node.item, loop);
          this.epsilon[back]!.push(loop);
          return loop;
        }
        const to = this.add();
        this.epsilon[at]!.push(to);
        for (let index = node.min; index < node.max; index++) {
          at = this.build(node.item, at);
          this.epsilon[at]!.push(to);
        }
        return to;
      }
    }
  }
}

/** Subset construction. Subset members are `nfaState * 2 + endOnly`: past a `$`, no character may follow. */
function determinize(nfa: Nfa, start: number, final: number, work: AutomatonWork): CodePointDfa {
  const index = new Map<string, number>();
  const subsets: number[][] = [];
  // the last closure that visited each member, so that a closure needs no Set of its own
  const visited = new Uint32Array(nfa.stateCount * 2);
  let stamp = 0;
  const closure = (seeds: Iterable<number>, atStart: boolean): number[] => Array.from(nfa.closure(seeds, atStart, visited, ++stamp, work));
  const intern = (subset: number[]): number => {
    const key = subset.join(',');
    let id = index.get(key);
    if (id === undefined) {
      id = subsets.length;
      if (id >= MAX_DFA_STATES) throw new RegexUnsupportedError(`a regex whose automaton exceeds ${MAX_DFA_STATES} states`);
      index.set(key, id);
      subsets.push(subset);
    }
    return id;
  };
  const startSubset = closure([start * 2], true);
  intern(startSubset);
  const transitions: Int32Array[] = [];
  const accepting: number[] = [];
  for (let id = 0; id < subsets.length; id++) {
    const subset = subsets[id]!;
    accepting.push(subset.some((member) => member >> 1 === final) ? 1 : 0);
    const edges: CharEdge[] = [];
    for (const member of subset) if ((member & 1) === 0) edges.push(...nfa.chars[member >> 1]!);
    work.spend(subset.length + edges.length);
    transitions.push(
      partitionEdges(
        edges,
        (targets) =>
          intern(
            closure(
              targets.map((to) => to * 2),
              false,
            ),
          ),
        work,
      ),
    );
  }
  return minimize(trim(transitions, accepting, 0, work), work);
}

/**
 * Splits overlapping edges into disjoint ranges; `resolve` maps the sorted target list of
 * each piece to a state. Adjacent pieces with the same state merge.
 */
export function partitionEdges(edges: readonly CharEdge[], resolve: (targets: number[]) => number, work: AutomatonWork = UNMETERED): Int32Array {
  if (edges.length === 0) return new Int32Array(0);
  const points = new Set<number>();
  for (const edge of edges) {
    for (let index = 0; index < edge.set.length; index += 2) {
      points.add(edge.set[index]!);
      points.add(edge.set[index + 1]! + 1);
    }
  }
  const bounds = [...points].sort((left, right) => left - right);
  const pieceTargets: Set<number>[] = bounds.map(() => new Set<number>());
  for (const edge of edges) {
    for (let index = 0; index < edge.set.length; index += 2) {
      let piece = lowerBound(bounds, edge.set[index]!);
      const first = piece;
      const end = edge.set[index + 1]! + 1;
      while (bounds[piece]! < end) pieceTargets[piece++]!.add(edge.to);
      work.spend(1 + piece - first);
    }
  }
  const out: number[] = [];
  const cache = new Map<string, number>();
  for (let piece = 0; piece < bounds.length - 1; piece++) {
    const targets = pieceTargets[piece]!;
    if (targets.size === 0) continue;
    const sorted = [...targets].sort((left, right) => left - right);
    const key = sorted.join(',');
    let state = cache.get(key);
    if (state === undefined) {
      state = resolve(sorted);
      cache.set(key, state);
    }
    const lo = bounds[piece]!;
    const hi = bounds[piece + 1]! - 1;
    const last = out.length - 3;
    if (last >= 0 && out[last + 2] === state && out[last + 1] === lo - 1) out[last + 1] = hi;
    else out.push(lo, hi, state);
  }
  return Int32Array.from(out);
}

function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The state pairs of a product of `left` and `right` (a side may be -1, out of its language), numbered as first met;
 * past `maxStates` pairs the product is refused, naming `what` it builds.
 */
function pairStates(right: CodePointDfa, maxStates: number, what: string): { pairs: number[]; intern: (a: number, b: number) => number } {
  const index = new Map<number, number>();
  const pairs: number[] = [];
  const width = right.stateCount + 1;
  const intern = (a: number, b: number): number => {
    const key = (a + 1) * width + b + 1;
    let id = index.get(key);
    if (id === undefined) {
      id = pairs.length / 2;
      if (id >= maxStates) throw new RegexUnsupportedError(`${what} of patterns whose automaton exceeds ${maxStates} states`);
      index.set(key, id);
      pairs.push(a, b);
    }
    return id;
  };
  return { pairs, intern };
}

function product(left: CodePointDfa, right: CodePointDfa, work: AutomatonWork): CodePointDfa {
  if (left.start < 0 || right.start < 0) return new CodePointDfa([], new Uint8Array(0), -1);
  const { pairs, intern } = pairStates(right, MAX_DFA_STATES, 'an intersection');
  intern(left.start, right.start);
  const transitions: Int32Array[] = [];
  const accepting: number[] = [];
  for (let id = 0; id < pairs.length / 2; id++) {
    const a = pairs[id * 2]!;
    const b = pairs[id * 2 + 1]!;
    accepting.push(left.accepting[a]! & right.accepting[b]!);
    const ra = left.transitions[a]!;
    const rb = right.transitions[b]!;
    work.spend(1 + (ra.length + rb.length) / 3);
    const out: number[] = [];
    let i = 0;
    let j = 0;
    while (i < ra.length && j < rb.length) {
      const lo = Math.max(ra[i]!, rb[j]!);
      const hi = Math.min(ra[i + 1]!, rb[j + 1]!);
      if (lo <= hi) out.push(lo, hi, intern(ra[i + 2]!, rb[j + 2]!));
      if (ra[i + 1]! < rb[j + 1]!) i += 3;
      else j += 3;
    }
    transitions.push(Int32Array.from(out));
  }
  return minimize(trim(transitions, accepting, 0, work), work);
}

/** The product of two automata where either may have left its language (-1): a pair accepts when either side does. */
function unionProduct(left: CodePointDfa, right: CodePointDfa, work: AutomatonWork, maxStates: number): CodePointDfa {
  if (left.start < 0) return right;
  if (right.start < 0) return left;
  const { pairs, intern } = pairStates(right, maxStates, 'a union');
  const none = new Int32Array(0);
  intern(left.start, right.start);
  const transitions: Int32Array[] = [];
  const accepting: number[] = [];
  for (let id = 0; id < pairs.length / 2; id++) {
    const a = pairs[id * 2]!;
    const b = pairs[id * 2 + 1]!;
    accepting.push((a >= 0 ? left.accepting[a]! : 0) | (b >= 0 ? right.accepting[b]! : 0));
    const ra = a >= 0 ? left.transitions[a]! : none;
    const rb = b >= 0 ? right.transitions[b]! : none;
    work.spend(1 + (ra.length + rb.length) / 3);
    const out: number[] = [];
    let i = 0;
    let j = 0;
    let at = 0;
    // sweep the code points where either side has a range: each piece ends where a range of either side starts or ends
    while (i < ra.length || j < rb.length) {
      const aLo = i < ra.length ? ra[i]! : Infinity;
      const bLo = j < rb.length ? rb[j]! : Infinity;
      at = Math.max(at, Math.min(aLo, bLo));
      const inA = at >= aLo;
      const inB = at >= bLo;
      const end = Math.min(inA ? ra[i + 1]! : aLo - 1, inB ? rb[j + 1]! : bLo - 1);
      const target = intern(inA ? ra[i + 2]! : -1, inB ? rb[j + 2]! : -1);
      const last = out.length - 3;
      if (last >= 0 && out[last + 2] === target && out[last + 1] === at - 1) out[last + 1] = end;
      else out.push(at, end, target);
      if (inA && end === ra[i + 1]) i += 3;
      if (inB && end === rb[j + 1]) j += 3;
      at = end + 1;
    }
    transitions.push(Int32Array.from(out));
  }
  return minimize(trim(transitions, accepting, 0, work), work);
}

/** `ranges` (sorted, disjoint) completed over ANY_CHAR: every code point without a transition goes to `sink`. */
function fillGaps(ranges: Int32Array, sink: number): Int32Array {
  const out: number[] = [];
  for (let part = 0; part < ANY_CHAR.length; part += 2) {
    let cursor = ANY_CHAR[part]!;
    const end = ANY_CHAR[part + 1]!;
    for (let index = 0; index < ranges.length && cursor <= end; index += 3) {
      const lo = Math.max(ranges[index]!, cursor);
      const hi = Math.min(ranges[index + 1]!, end);
      if (lo > hi) continue;
      if (lo > cursor) out.push(cursor, lo - 1, sink);
      out.push(lo, hi, ranges[index + 2]!);
      cursor = hi + 1;
    }
    if (cursor <= end) out.push(cursor, end, sink);
  }
  return Int32Array.from(out);
}

/** The automata {@link minimize} returned (and complements of them), which no construction needs to minimize again. */
const MINIMAL = new WeakSet<CodePointDfa>();

function markMinimal(dfa: CodePointDfa): CodePointDfa {
  MINIMAL.add(dfa);
  return dfa;
}

/** Moore partition refinement: merges states with the same future, so equal positions share one mask. */
function minimize(dfa: CodePointDfa, work: AutomatonWork = UNMETERED): CodePointDfa {
  const count = dfa.stateCount;
  if (count <= 1) return markMinimal(dfa);
  let classes = Int32Array.from(dfa.accepting);
  let classCount = new Set(classes).size;
  let transitionCount = 0;
  for (const ranges of dfa.transitions) transitionCount += ranges.length / 3;
  // each state's signature (its class, then its ranges merged by target class) is written into one buffer reused by
  // every round and told apart by an integer hash: a time format's product has 12,000 states and takes ten
  // rounds, and a string key per state and round was most of the time of building it
  const signatures = new Int32Array(count + transitionCount * 3);
  const starts = new Int32Array(count + 1);
  const sameHash = new Int32Array(count);
  const firstWithHash = new Map<number, number>();
  const equalSignatures = (left: number, right: number): boolean => {
    const length = starts[left + 1]! - starts[left]!;
    if (length !== starts[right + 1]! - starts[right]!) return false;
    for (let offset = 0; offset < length; offset++) if (signatures[starts[left]! + offset] !== signatures[starts[right]! + offset]) return false;
    return true;
  };
  for (;;) {
    // a round reads every transition; a chain of n states takes n rounds
    work.spend(count + transitionCount);
    firstWithHash.clear();
    const next = new Int32Array(count);
    let nextCount = 0;
    let end = 0;
    for (let state = 0; state < count; state++) {
      const ranges = dfa.transitions[state]!;
      const start = end;
      starts[state] = start;
      signatures[end++] = classes[state]!;
      for (let index = 0; index < ranges.length; index += 3) {
        const target = classes[ranges[index + 2]!]!;
        if (end - 3 > start && signatures[end - 1] === target && signatures[end - 2] === ranges[index]! - 1) signatures[end - 2] = ranges[index + 1]!;
        else {
          signatures[end++] = ranges[index]!;
          signatures[end++] = ranges[index + 1]!;
          signatures[end++] = target;
        }
      }
      starts[state + 1] = end;
      let hash = 0x811c9dc5;
      for (let offset = start; offset < end; offset++) hash = Math.imul(hash ^ signatures[offset]!, 0x01000193);
      // a small integer, which a Map keys without boxing it
      hash &= 0x3fffffff;
      let candidate = firstWithHash.get(hash) ?? -1;
      while (candidate >= 0 && !equalSignatures(candidate, state)) candidate = sameHash[candidate]!;
      if (candidate >= 0) next[state] = next[candidate]!;
      else {
        next[state] = nextCount++;
        sameHash[state] = firstWithHash.get(hash) ?? -1;
        firstWithHash.set(hash, state);
      }
    }
    const stable = nextCount === classCount;
    classes = next;
    classCount = nextCount;
    if (stable) break;
  }
  const transitions: Int32Array[] = new Array<Int32Array>(classCount);
  const accepting: number[] = new Array<number>(classCount).fill(0);
  for (let state = 0; state < count; state++) {
    const id = classes[state]!;
    if (transitions[id] !== undefined) continue;
    accepting[id] = dfa.accepting[state]!;
    const ranges = dfa.transitions[state]!;
    const out: number[] = [];
    for (let index = 0; index < ranges.length; index += 3) {
      const target = classes[ranges[index + 2]!]!;
      const last = out.length - 3;
      if (last >= 0 && out[last + 2] === target && out[last + 1] === ranges[index]! - 1) out[last + 1] = ranges[index + 1]!;
      else out.push(ranges[index]!, ranges[index + 1]!, target);
    }
    transitions[id] = Int32Array.from(out);
  }
  return markMinimal(trim(transitions, accepting, classes[dfa.start]!, work));
}

/** Drops states that cannot reach acceptance and renumbers the rest. */
function trim(transitions: readonly Int32Array[], accepting: readonly number[], start: number, work: AutomatonWork = UNMETERED): CodePointDfa {
  const count = accepting.length;
  let transitionCount = 0;
  for (const ranges of transitions) transitionCount += ranges.length / 3;
  work.spend(count + transitionCount);
  const reverse: number[][] = Array.from({ length: count }, () => []);
  for (let state = 0; state < count; state++) {
    const ranges = transitions[state]!;
    for (let index = 2; index < ranges.length; index += 3) reverse[ranges[index]!]!.push(state);
  }
  const live = new Uint8Array(count);
  const stack: number[] = [];
  for (let state = 0; state < count; state++) {
    if (accepting[state] === 1) {
      live[state] = 1;
      stack.push(state);
    }
  }
  while (stack.length > 0) {
    for (const from of reverse[stack.pop()!]!) {
      if (live[from] === 0) {
        live[from] = 1;
        stack.push(from);
      }
    }
  }
  if (live[start] === 0) return new CodePointDfa([], new Uint8Array(0), -1);
  const renumber = new Int32Array(count).fill(-1);
  const order: number[] = [];
  renumber[start] = 0;
  order.push(start);
  for (let next = 0; next < order.length; next++) {
    const ranges = transitions[order[next]!]!;
    for (let index = 2; index < ranges.length; index += 3) {
      const to = ranges[index]!;
      if (live[to] === 1 && renumber[to] === -1) {
        renumber[to] = order.length;
        order.push(to);
      }
    }
  }
  const newTransitions: Int32Array[] = [];
  const newAccepting = new Uint8Array(order.length);
  order.forEach((state, id) => {
    newAccepting[id] = accepting[state]!;
    const ranges = transitions[state]!;
    const out: number[] = [];
    for (let index = 0; index < ranges.length; index += 3) {
      const to = ranges[index + 2]!;
      if (live[to] === 1) out.push(ranges[index]!, ranges[index + 1]!, renumber[to]!);
    }
    newTransitions.push(Int32Array.from(out));
  });
  return new CodePointDfa(newTransitions, newAccepting, 0);
}
