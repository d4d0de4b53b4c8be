/**
 * Whether a string language lets `uniqueItems` (or distinct object keys) be enforced by forbidding only the repeated
 * string's closing quote: from every prefix the automaton keeps, infinitely many completions must be left, so the
 * finitely many strings written before can never use them all up and a forbidden close never leaves a dead end.
 * @module
 */
import { nonSurrogateCount } from '../shared/regex/code-point-set.js';
import type { StringAlternative } from './grammar-ir.js';

/**
 * True when every live state of the string's content automaton (reachable, and able to reach an accepting state)
 * steps to another live state: then every prefix continues along an endless live path, which passes a cycle, and
 * pumping that cycle gives endless completions. A `maxLength` makes the language finite; with excluded names (object
 * keys) see `endlessKeys`.
 */
export function endlessStrings(alternative: StringAlternative): boolean {
  return alternative.exclude === null && endlessKeys(alternative);
}

/**
 * `endlessStrings` for an object's undeclared keys, whose declared names are excluded (`exclude`): the automaton then
 * keeps a prefix exactly when its DFA state is live, and an endless set of completions less finitely many names is
 * still endless.
 */
export function endlessKeys(alternative: StringAlternative): boolean {
  if (alternative.maxLength !== Infinity) return false;
  const { transitions, accepting, start } = alternative.dfa;
  const count = accepting.length;
  const reachable = new Uint8Array(count);
  const predecessors: number[][] = Array.from({ length: count }, () => []);
  const order = [start];
  reachable[start] = 1;
  for (let at = 0; at < order.length; at++) {
    const state = order[at]!;
    const ranges = transitions[state]!;
    for (let index = 0; index < ranges.length; index += 3) {
      // a range of lone surrogates only cannot be written as a JSON string's content
      if (nonSurrogateCount(ranges[index]!, ranges[index + 1]!) === 0) continue;
      const target = ranges[index + 2]!;
      predecessors[target]!.push(state);
      if (reachable[target] === 0) {
        reachable[target] = 1;
        order.push(target);
      }
    }
  }
  const live = new Uint8Array(count);
  const backward = order.filter((state) => accepting[state] === 1);
  for (const state of backward) live[state] = 1;
  for (let at = 0; at < backward.length; at++) {
    for (const before of predecessors[backward[at]!]!) {
      if (live[before] === 0) {
        live[before] = 1;
        backward.push(before);
      }
    }
  }
  return backward.every(hasLiveSuccessor);

  function hasLiveSuccessor(state: number): boolean {
    const ranges = transitions[state]!;
    for (let index = 0; index < ranges.length; index += 3) {
      // a range of lone surrogates only cannot be written as a JSON string's content
      if (nonSurrogateCount(ranges[index]!, ranges[index + 1]!) === 0) continue;
      if (live[ranges[index + 2]!] === 1) return true;
    }
    return false;
  }
}
