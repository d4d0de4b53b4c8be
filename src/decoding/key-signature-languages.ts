/**
 * Keys outside an object's declared names, split by the `patternProperties` they match.
 * One product automaton runs the declared-names automaton and every pattern's DFA side by
 * side; the set of patterns accepting at the closing quote (the key's signature) decides
 * the key's value schema. Only the product states a key can reach are built, so many
 * patterns that exclude each other (or share prefixes) give few states and few signatures,
 * whatever their number. Each signature becomes its own DFA with dead states trimmed, so
 * the key languages are disjoint and every state can still reach a key of that class.
 * @module
 */
import { ANY_CHAR } from '../shared/regex/code-point-set.js';
import { CodePointDfa, MAX_DFA_STATES, partitionEdges, type AutomatonWork, type CharEdge } from '../shared/regex/code-point-dfa.js';

/** The keys that match exactly the patterns `matched` (indexes into the patterns, ascending; empty: none matches). */
export interface KeySignatureLanguage {
  readonly matched: readonly number[];
  readonly dfa: CodePointDfa;
}

/** Why there are no languages: the product has more states than allowed, or its keys more signatures. */
export type KeySignatureOverflow = 'states' | 'signatures';

/**
 * Per signature (the set of patterns a key matches), the keys that are not in `excluded` and match exactly those
 * patterns; signatures no key has are absent. Past `maxStates` product states, or `maxSignatures` signatures, the
 * overflow instead (counts, so the outcome is the same on every machine); `work` is charged one step per component of
 * each product state built.
 */
export function keySignatureLanguages(
  excluded: CodePointDfa,
  patterns: readonly CodePointDfa[],
  options: { readonly maxSignatures: number; readonly maxStates?: number; readonly work?: AutomatonWork },
): KeySignatureLanguage[] | KeySignatureOverflow {
  const maxStates = options.maxStates ?? MAX_DFA_STATES;
  const components = [excluded, ...patterns];
  const stride = Math.max(...components.map((dfa) => dfa.stateCount)) + 1;
  const tuples: Int32Array[] = [];
  const index = new Map<string, number>();
  const intern = (tuple: Int32Array): number => {
    const key = tuple.join(',');
    let id = index.get(key);
    if (id === undefined) {
      id = tuples.length;
      index.set(key, id);
      tuples.push(tuple);
    }
    return id;
  };
  intern(Int32Array.from(components, (dfa) => dfa.start));
  const transitions: Int32Array[] = [];
  for (let id = 0; id < tuples.length; id++) {
    if (tuples.length > maxStates) return 'states';
    options.work?.spend(components.length);
    const tuple = tuples[id]!;
    // one edge over every character keeps characters no component takes (they lead to the all-sink tuple)
    const edges: CharEdge[] = [{ set: ANY_CHAR, to: -1 }];
    tuple.forEach((state, component) => {
      if (state < 0) return;
      const ranges = components[component]!.transitions[state]!;
      for (let at = 0; at < ranges.length; at += 3) edges.push({ set: [ranges[at]!, ranges[at + 1]!], to: component * stride + ranges[at + 2]! });
    });
    transitions.push(
      partitionEdges(edges, (targets) => {
        const next = new Int32Array(components.length).fill(-1);
        for (const target of targets) if (target >= 0) next[Math.floor(target / stride)] = target % stride;
        return intern(next);
      }),
    );
  }
  // per product state, its signature's number (-1: a declared name, no key class); signatures numbered as first met
  const signatureOf = new Int32Array(tuples.length).fill(-1);
  const signatures = new Map<string, number>();
  const matchedLists: number[][] = [];
  for (let id = 0; id < tuples.length; id++) {
    const tuple = tuples[id]!;
    if (tuple[0]! >= 0 && excluded.accepting[tuple[0]!] === 1) continue;
    const matched: number[] = [];
    for (let pattern = 0; pattern < patterns.length; pattern++) {
      const state = tuple[pattern + 1]!;
      if (state >= 0 && patterns[pattern]!.accepting[state] === 1) matched.push(pattern);
    }
    const key = matched.join(',');
    let signature = signatures.get(key);
    if (signature === undefined) {
      signature = matchedLists.length;
      if (signature >= options.maxSignatures) return 'signatures';
      signatures.set(key, signature);
      matchedLists.push(matched);
    }
    signatureOf[id] = signature;
  }
  const reverse = reversed(transitions);
  const result: KeySignatureLanguage[] = [];
  matchedLists.forEach((matched, signature) => {
    options.work?.spend(transitions.length);
    const dfa = trimmed(transitions, reverse, (id) => signatureOf[id] === signature);
    if (dfa.start >= 0) result.push({ matched, dfa });
  });
  return result;
}

/** Per state of `transitions`, the states with an edge into it (computed once for every signature's trim). */
function reversed(transitions: readonly Int32Array[]): number[][] {
  const reverse: number[][] = transitions.map(() => []);
  transitions.forEach((ranges, from) => {
    for (let at = 2; at < ranges.length; at += 3) reverse[ranges[at]!]!.push(from);
  });
  return reverse;
}

/** The automaton over `transitions` (start 0) accepting where `accepts` says, without states that cannot reach acceptance. */
function trimmed(transitions: readonly Int32Array[], reverse: readonly (readonly number[])[], accepts: (state: number) => boolean): CodePointDfa {
  const live = new Uint8Array(transitions.length);
  const queue: number[] = [];
  for (let state = 0; state < transitions.length; state++) {
    if (accepts(state)) {
      live[state] = 1;
      queue.push(state);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    for (const from of reverse[queue[head]!]!) {
      if (live[from] === 0) {
        live[from] = 1;
        queue.push(from);
      }
    }
  }
  if (live[0] === 0) return new CodePointDfa([], new Uint8Array(0), -1);
  const renumber = new Int32Array(transitions.length).fill(-1);
  let count = 0;
  for (let state = 0; state < transitions.length; state++) if (live[state] === 1) renumber[state] = count++;
  const kept: Int32Array[] = [];
  const accepting = new Uint8Array(count);
  for (let state = 0; state < transitions.length; state++) {
    if (live[state] === 0) continue;
    const ranges = transitions[state]!;
    const out: number[] = [];
    for (let at = 0; at < ranges.length; at += 3) {
      const target = renumber[ranges[at + 2]!]!;
      if (target < 0) continue;
      const last = out.length - 3;
      if (last >= 0 && out[last + 2] === target && out[last + 1] === ranges[at]! - 1) out[last + 1] = ranges[at + 1]!;
      else out.push(ranges[at]!, ranges[at + 1]!, target);
    }
    kept.push(Int32Array.from(out));
    accepting[renumber[state]!] = accepts(state) ? 1 : 0;
  }
  return new CodePointDfa(kept, accepting, 0);
}
