/**
 * What `minLength`/`maxLength` mean for a string alternative's content DFA: whether a
 * string can still close at an allowed length, and the facts that decide when the byte
 * automaton may give a length-bounded string position the mask of its unbounded twin
 * (docs/decoding.md, "Length abstraction").
 * @module
 */
import type { CodePointDfa } from '../shared/regex/code-point-dfa.js';
import { normalizeSet } from '../shared/regex/code-point-set.js';
import type { StringAlternative } from './grammar-ir.js';

/** `count` of a string whose length no longer matters (the mask abstraction's stand-in). */
export const FREE = -1;

/** Facts about a string alternative's automaton that decide when length-bounded states may share a mask. */
export interface LengthAnalysis {
  /** From every state, completions exist at every length from the shortest one up. */
  readonly upward: boolean;
  /** Longest shortest-completion over the states. */
  readonly maxDistance: number;
  /** No reachable (state, count) within maxLength is ever dead for lack of room. */
  readonly roomy: boolean;
  /** Most code points of this string's alphabet a single token can carry (vocabulary-specific). */
  readonly tokenSpan: number;
}

export function isCounted(alternative: StringAlternative): boolean {
  return alternative.minLength > 0 || alternative.maxLength !== Infinity;
}

/** Code points counted after one more; unbounded strings stop counting once `minLength` is met. */
export function nextCount(alternative: StringAlternative, count: number): number {
  if (count === FREE || !isCounted(alternative)) return count === FREE ? FREE : 0;
  return alternative.maxLength === Infinity ? Math.min(count + 1, alternative.minLength) : count + 1;
}

/** Length facts per string alternative of one automaton, each computed once. */
export class StringLengths {
  private readonly analyses = new Map<number, LengthAnalysis>();
  private readonly finishCache = new Map<string, boolean>();

  /** `tokenSpan(alphabet)`: most code points from `alphabet` one token of the vocabulary can start, in a row. */
  constructor(private readonly tokenSpan: (alphabet: readonly number[]) => number) {}

  analysis(alternative: StringAlternative): LengthAnalysis {
    let analysis = this.analyses.get(alternative.id);
    if (analysis !== undefined) return analysis;
    const dfa = alternative.dfa;
    const { reverse, alphabet } = reverseEdges(dfa);
    const toAccept = distancesToAccepting(dfa, reverse);
    const padded = paddableStates(dfa, toAccept);
    let upward = true;
    let maxDistance = 0;
    for (let state = 0; state < dfa.stateCount; state++) {
      if (padded[state] === 0) upward = false;
      maxDistance = Math.max(maxDistance, toAccept[state]!);
    }
    const roomy = upward && (alternative.maxLength === Infinity || alwaysRoomy(dfa, toAccept, alternative.maxLength));
    const tokenSpan = roomy || !upward ? 0 : this.tokenSpan(normalizeSet(alphabet));
    analysis = { upward, maxDistance, roomy, tokenSpan };
    this.analyses.set(alternative.id, analysis);
    return analysis;
  }

  /** Can a string in DFA `state` with `count` code points still close at an allowed length? */
  canFinish(alternative: StringAlternative, state: number, count: number): boolean {
    const key = `${alternative.id}:${state}:${count}`;
    const cached = this.finishCache.get(key);
    if (cached !== undefined) return cached;
    const dfa = alternative.dfa;
    const need = Math.max(0, alternative.minLength - count);
    const limit = alternative.maxLength === Infinity ? need + dfa.stateCount + 1 : alternative.maxLength - count;
    let result = false;
    let frontier = new Set([state]);
    for (let length = 0; length <= limit && frontier.size > 0; length++) {
      if (length >= need) {
        for (const at of frontier) {
          if (dfa.accepting[at] === 1) {
            result = true;
            break;
          }
        }
        if (result) break;
      }
      frontier = successors(dfa, frontier);
    }
    this.finishCache.set(key, result);
    return result;
  }
}

/** Per state, the states with an edge into it; and every range bound of the DFA's alphabet. */
function reverseEdges(dfa: CodePointDfa): { reverse: number[][]; alphabet: number[] } {
  const reverse: number[][] = Array.from({ length: dfa.stateCount }, () => []);
  const alphabet: number[] = [];
  for (let state = 0; state < dfa.stateCount; state++) {
    const ranges = dfa.transitions[state]!;
    for (let index = 0; index < ranges.length; index += 3) {
      reverse[ranges[index + 2]!]!.push(state);
      alphabet.push(ranges[index]!, ranges[index + 1]!);
    }
  }
  return { reverse, alphabet };
}

/** Per state, the fewest code points to an accepting state (-1: none reachable). */
function distancesToAccepting(dfa: CodePointDfa, reverse: readonly number[][]): Int32Array {
  const distance = new Int32Array(dfa.stateCount).fill(-1);
  const queue: number[] = [];
  for (let state = 0; state < dfa.stateCount; state++) {
    if (dfa.accepting[state] === 1) {
      distance[state] = 0;
      queue.push(state);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    for (const from of reverse[queue[head]!]!) {
      if (distance[from] === -1) {
        distance[from] = distance[queue[head]!]! + 1;
        queue.push(from);
      }
    }
  }
  return distance;
}

/**
 * padded[q]: completions from q exist at every length from toAccept[q] up (least fixpoint,
 * seeded by accepting states that loop on themselves).
 */
function paddableStates(dfa: CodePointDfa, toAccept: Int32Array): Uint8Array {
  const padded = new Uint8Array(dfa.stateCount);
  for (let changed = true; changed;) {
    changed = false;
    for (let state = 0; state < dfa.stateCount; state++) {
      if (padded[state] === 1) continue;
      const wanted = Math.max(0, toAccept[state]! - 1);
      const ranges = dfa.transitions[state]!;
      for (let index = 2; index < ranges.length; index += 3) {
        const target = ranges[index]!;
        const loops = target === state && dfa.accepting[state] === 1;
        if (loops || (padded[target] === 1 && toAccept[target] === wanted && (toAccept[state]! > 0 || toAccept[target] === 0))) {
          padded[state] = 1;
          changed = true;
          break;
        }
      }
    }
  }
  return padded;
}

/**
 * The (state, count) cells `alwaysRoomy` may visit before its frontier repeats itself. Not a `DecodingLimits` budget: past it no schema is refused; the
 * check answers "not always roomy", the conservative answer, which may cost matching time but never a wrong mask.
 */
const ROOMY_CHECK_MAX_CELLS = 2_000_000;

/** Every (state, count) reachable within `maxLength` still has room to finish (false when too costly to check). */
function alwaysRoomy(dfa: CodePointDfa, toAccept: Int32Array, maxLength: number): boolean {
  let frontier = new Set([dfa.start]);
  let cells = 0;
  for (let used = 0; used <= maxLength && frontier.size > 0; used++) {
    cells += frontier.size;
    if (cells > ROOMY_CHECK_MAX_CELLS) return false;
    for (const state of frontier) if (used + toAccept[state]! > maxLength) return false;
    const next = successors(dfa, frontier);
    // the states one code point further are the same: so at every later count up to maxLength, where room is least
    // (a `maxLength: 5000` string under a pattern with loops gets there within a few hundred code points)
    if (next.size === frontier.size && [...next].every((state) => frontier.has(state))) {
      for (const state of frontier) if (toAccept[state]! > 0) return false;
      return true;
    }
    frontier = next;
  }
  return true;
}

/** The states one code point away from `states`. */
function successors(dfa: CodePointDfa, states: ReadonlySet<number>): Set<number> {
  const next = new Set<number>();
  for (const state of states) {
    const ranges = dfa.transitions[state]!;
    for (let index = 2; index < ranges.length; index += 3) next.add(ranges[index]!);
  }
  return next;
}
