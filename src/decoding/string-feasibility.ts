/**
 * Whether a string alternative has any value at all: some accepting DFA state reachable at a length its
 * `minLength`/`maxLength` allow. Lowering drops the alternatives (and key languages) that have none.
 * @module
 */
import type { CodePointDfa } from '../shared/regex/code-point-dfa.js';
import type { StringAlternative } from './grammar-ir.js';

/**
 * Per DFA (shared by every schema through the grammar cache) and length range, whether
 * `stringFeasible` holds: a schema with many date-time properties asked it of the same
 * thousand-state DFA once per property.
 */
const feasibleLengths = new WeakMap<CodePointDfa, Map<string, boolean>>();

export function stringFeasible(alternative: StringAlternative): boolean {
  const { dfa, minLength, maxLength } = alternative;
  let known = feasibleLengths.get(dfa);
  if (known === undefined) feasibleLengths.set(dfa, (known = new Map()));
  const range = `${minLength},${maxLength}`;
  let feasible = known.get(range);
  if (feasible === undefined) known.set(range, (feasible = stringFeasibleAtLength(dfa, minLength, maxLength)));
  return feasible;
}

function stringFeasibleAtLength(dfa: CodePointDfa, minLength: number, maxLength: number): boolean {
  // breadth-first over lengths: is some accepting state reachable at a length in [min, max]?
  const limit = Math.min(maxLength, minLength + dfa.stateCount + 1);
  let frontier = new Set([dfa.start]);
  for (let length = 0; length <= limit; length++) {
    if (length >= minLength) for (const state of frontier) if (dfa.accepting[state] === 1) return true;
    const next = new Set<number>();
    for (const state of frontier) {
      const ranges = dfa.transitions[state]!;
      for (let index = 2; index < ranges.length; index += 3) next.add(ranges[index]!);
    }
    if (next.size === 0) return false;
    frontier = next;
  }
  return false;
}
