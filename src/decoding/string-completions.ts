/**
 * How many strings of a string alternative's language complete a prefix, per content-DFA state and code points
 * written: what `uniqueItems` over strings whose completions can run out needs. A prefix whose completions are all
 * items written before is a dead end (every way on repeats an item), and the matcher's memory (`written-strings.ts`)
 * holds, per prefix, how many of its items extend it; the prefix is dead exactly when that number reaches the count.
 * @module
 */
import { CodePointDfa, MAX_DFA_STATES } from '../shared/regex/code-point-dfa.js';
import { ANY_CHAR, nonSurrogateCount } from '../shared/regex/code-point-set.js';
import { RegexUnsupportedError } from '../shared/regex/parse-regex.js';
import { endlessKeys, endlessStrings } from './endless-strings.js';
import type { ItemCompletions, KeyClass, StringAlternative } from './grammar-ir.js';
import { FREE, isCounted, nextCount } from './string-length-analysis.js';

/**
 * Counts are kept up to here (exact below 2^53). A matcher never holds that many items: the bytes it remembers are
 * bounded (`uniqueItemsMaxStringBytes`), so a capped count is never reached.
 */
const COUNT_CAP = 2 ** 53;
/** Cells (DFA states × counted lengths) of the completion counts of one `uniqueItems` array's strings (8 bytes each). */
const COMPLETION_TABLE_MAX_CELLS = 1 << 18;

/**
 * How `uniqueItems: true` over string items is enforced: by the memory alone where every prefix has endless
 * completions; with the counts where some prefix has finitely many, for a single string alternative (the items written
 * are then all in its language, so the items that extend a prefix are completions of it); several alternatives become
 * one first (`union`: their union's automaton, lengths folded in, which the items then take); else refused.
 */
export type UniqueStringsPlan =
  | { readonly kind: 'endless' }
  | { readonly kind: 'counted'; readonly completions: StringCompletions }
  | { readonly kind: 'union'; readonly dfa: CodePointDfa }
  | { readonly kind: 'refused'; readonly reason: string };

/** The lowering's cached, metered automaton constructions, which the union of several alternatives is built with. */
export interface AutomatonConstructions {
  complement(dfa: CodePointDfa): CodePointDfa;
  intersection(automata: readonly CodePointDfa[]): CodePointDfa;
}

export function planUniqueStrings(items: readonly StringAlternative[], constructions: AutomatonConstructions): UniqueStringsPlan {
  if (items.every(endlessStrings)) return { kind: 'endless' };
  if (items.length > 1) {
    if (items.some((item) => item.exclude !== null)) {
      return {
        kind: 'refused',
        reason: 'the items are strings of several alternatives, some kept from equalling names (not counted); make the items one string schema',
      };
    }
    const dfa = unionLanguage(items, constructions);
    if (dfa !== null) return { kind: 'union', dfa };
    return {
      kind: 'refused',
      reason: `the items are strings of several alternatives (an anyOf of strings, or a format that lowers to several: time, date-time, iso-date-time, hostname) and some can end where no other string continues them; their completions are counted once on one automaton of their union (each alternative's maxLength/minLength folded in), which is built only where their states times their counted lengths add up to at most ${MAX_DFA_STATES}, and must stay within ${MAX_DFA_STATES} states; lower "maxLength", simplify the patterns, or list the allowed values in an "enum"`,
    };
  }
  const completions = StringCompletions.of(items[0]!, COMPLETION_TABLE_MAX_CELLS);
  if (completions !== null) return { kind: 'counted', completions };
  return {
    kind: 'refused',
    reason: `counting the completions of the items' strings needs more than ${COMPLETION_TABLE_MAX_CELLS} cells (the states of their pattern or format times their maxLength); lower "maxLength", or simplify the pattern`,
  };
}

/**
 * How an object with `minProperties` above 1 keeps its undeclared keys distinct (a repeated key would count twice): by
 * the memory alone where every key language has endless completions; with the counts of its one key language where
 * that can run out (`keys`: the language, one alternative, that the key class then takes), the property count then
 * capped at its strings (`total`), so the object never asks for a key once every key is held; else refused. Counted only
 * with no declared property beside and one key class: the count is then the number of keys held, and the completions
 * of a key prefix are those of the one language.
 */
export type DistinctKeysPlan =
  | { readonly kind: 'endless' }
  | { readonly kind: 'counted'; readonly keys: StringAlternative; readonly completions: StringCompletions }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * The plan for `keyClasses` beside `declared` declared properties that can appear; `languageOf` makes the one string
 * alternative of a union's automaton (several alternatives are counted on their union, as `uniqueItems` counts them).
 */
export function planDistinctKeys(
  keyClasses: readonly KeyClass[],
  declared: number,
  constructions: AutomatonConstructions,
  languageOf: (dfa: CodePointDfa) => StringAlternative,
): DistinctKeysPlan {
  if (keyClasses.every((keyClass) => keyClass.keys.every(endlessKeys))) return { kind: 'endless' };
  const finite = 'the undeclared keys can end where no other key continues them (a maxLength, an enum, or a pattern or format with a last character)';
  if (declared > 0 || keyClasses.length > 1) {
    return {
      kind: 'refused',
      reason: `minProperties above 1 is not enforced where ${finite} and ${declared > 0 ? 'declared properties can appear beside them' : 'they fall into several key classes (patternProperties with different schemas, or the keys that fail a negated schema apart from the others)'}: the distinct keys are counted only where the undeclared keys are the only keys and share one schema; drop the maxLength, or declare the keys in "properties"`,
    };
  }
  const plan = planUniqueStrings(keyClasses[0]!.keys, constructions);
  if (plan.kind === 'counted') return { kind: 'counted', keys: plan.completions.alternative, completions: plan.completions };
  if (plan.kind === 'union') {
    const keys = languageOf(plan.dfa);
    const completions = StringCompletions.of(keys, COMPLETION_TABLE_MAX_CELLS);
    if (completions !== null) return { kind: 'counted', keys, completions };
  }
  const reason =
    plan.kind === 'refused' ? plan.reason.replace(/\bitems\b/g, 'keys') : `counting their completions needs more than ${COMPLETION_TABLE_MAX_CELLS} cells`;
  return { kind: 'refused', reason: `minProperties above 1 is not enforced where ${finite}, counted as uniqueItems counts strings: ${reason}` };
}

/**
 * The strings of several alternatives as one automaton, each alternative's length bounds folded into its states: the
 * completions of a prefix in the union are then counted once, however many alternatives hold them (counts per
 * alternative would add up the strings they share). Null past `MAX_DFA_STATES`, in the alternatives' states times their
 * counted lengths or in a construction.
 */
export function unionLanguage(
  items: readonly Pick<StringAlternative, 'dfa' | 'minLength' | 'maxLength'>[],
  constructions: AutomatonConstructions,
): CodePointDfa | null {
  // checked first, so that unions far past the budget (date-time's four alternatives, 33,000 states) cost nothing to refuse
  let size = 0;
  for (const { dfa, minLength, maxLength } of items) size += dfa.stateCount * ((maxLength === Infinity ? minLength : maxLength) + 1);
  if (size > MAX_DFA_STATES) return null;
  try {
    const complements = items.map((item) => constructions.complement(constructions.intersection([item.dfa, lengthLanguage(item.minLength, item.maxLength)])));
    return constructions.complement(constructions.intersection(complements));
  } catch (error) {
    if (error instanceof RegexUnsupportedError) return null;
    throw error;
  }
}

/** Every string of `minLength..maxLength` code points: a chain of states, one per length counted (a loop at the last without a maxLength). */
function lengthLanguage(minLength: number, maxLength: number): CodePointDfa {
  const last = maxLength === Infinity ? minLength : maxLength;
  const transitions: Int32Array[] = [];
  const accepting = new Uint8Array(last + 1);
  for (let count = 0; count <= last; count++) {
    accepting[count] = count >= minLength ? 1 : 0;
    const next = count < last ? count + 1 : maxLength === Infinity ? last : -1;
    const ranges: number[] = [];
    if (next >= 0) for (let index = 0; index < ANY_CHAR.length; index += 2) ranges.push(ANY_CHAR[index]!, ANY_CHAR[index + 1]!, next);
    transitions.push(Int32Array.from(ranges));
  }
  return new CodePointDfa(transitions, accepting, 0);
}

export class StringCompletions implements ItemCompletions {
  /** The strings of the whole language (the completions of the empty prefix). */
  readonly total: number;
  private readonly states: number;
  /** `table[count * states + state]`: the completions of a prefix with `count` counted code points standing at `state`. */
  private readonly table: Float64Array;
  /** The language counted. */
  readonly alternative: StringAlternative;
  readonly fewestUpTo: Float64Array;

  private constructor(alternative: StringAlternative, table: Float64Array) {
    this.alternative = alternative;
    this.states = alternative.dfa.stateCount;
    this.table = table;
    this.total = this.at(alternative.dfa.start, 0);
    this.fewestUpTo = this.fewestByLength();
  }

  /**
   * Breadth-first from the empty prefix over (DFA state, counted length) cells with completions: per code points
   * written, the fewest completions of a cell reached by then. A prefix with none is never kept (no dead ends), nor
   * is any prefix through it.
   */
  private fewestByLength(): Float64Array {
    const { dfa } = this.alternative;
    const counted = isCounted(this.alternative);
    const rows = this.table.length / this.states;
    const seen = new Uint8Array(this.table.length);
    let frontier = [dfa.start];
    seen[dfa.start] = 1;
    const fewest: number[] = [];
    let least = Infinity;
    while (frontier.length > 0) {
      const next: number[] = [];
      for (const cell of frontier) {
        least = Math.min(least, this.table[cell]!);
        const row = Math.floor(cell / this.states);
        const nextRow = counted ? nextCount(this.alternative, row) : 0;
        if (nextRow >= rows) continue;
        const ranges = dfa.transitions[cell % this.states]!;
        for (let index = 0; index < ranges.length; index += 3) {
          const target = nextRow * this.states + ranges[index + 2]!;
          if (seen[target] === 1 || this.table[target] === 0 || nonSurrogateCount(ranges[index]!, ranges[index + 1]!) === 0) continue;
          seen[target] = 1;
          next.push(target);
        }
      }
      fewest.push(least);
      frontier = next;
    }
    return Float64Array.from(fewest);
  }

  /**
   * The counter of `alternative`'s completions, or null when its table would pass `maxCells` (DFA states × counted
   * lengths). Infinity stands for endlessly many (a cycle on the way to acceptance, with no `maxLength`).
   */
  static of(alternative: StringAlternative, maxCells: number): StringCompletions | null {
    const { dfa, minLength, maxLength } = alternative;
    // the frame's count: code points written up to maxLength, or up to minLength without one (larger counts are alike)
    const lengths = maxLength === Infinity ? minLength + 1 : maxLength + 1;
    const states = dfa.stateCount;
    if (lengths * states > maxCells) return null;
    const table = new Float64Array(lengths * states);
    const last = lengths - 1;
    if (maxLength === Infinity) table.set(saturatedCounts(alternative), last * states);
    else for (let state = 0; state < states; state++) table[last * states + state] = dfa.accepting[state]! === 1 && last >= minLength ? 1 : 0;
    for (let count = last - 1; count >= 0; count--) {
      for (let state = 0; state < states; state++) {
        let sum = dfa.accepting[state] === 1 && count >= minLength ? 1 : 0;
        const ranges = dfa.transitions[state]!;
        for (let index = 0; index < ranges.length; index += 3) {
          const size = nonSurrogateCount(ranges[index]!, ranges[index + 1]!);
          if (size > 0) sum += size * table[(count + 1) * states + ranges[index + 2]!]!;
        }
        table[count * states + state] = Math.min(sum, COUNT_CAP);
      }
    }
    return new StringCompletions(alternative, table);
  }

  /** The completions of a prefix standing at DFA `state` with the frame's `count` (Infinity for `FREE`: not counted here). */
  at(state: number, count: number): number {
    if (count === FREE) return Infinity;
    const row = isCounted(this.alternative) ? count : 0;
    return this.table[row * this.states + state]!;
  }
}

/**
 * Per state, the completions once the length no longer matters (no `maxLength`, `minLength` met): Infinity where a
 * cycle lies on some way to acceptance, else the finite sum over the acyclic rest, found from the states whose every
 * successor is already known (the states left unknown reach a cycle).
 */
function saturatedCounts(alternative: StringAlternative): Float64Array {
  const { dfa } = alternative;
  const states = dfa.stateCount;
  const counts = new Float64Array(states).fill(Infinity);
  const unknownSuccessors = new Int32Array(states);
  const predecessors: number[][] = Array.from({ length: states }, () => []);
  for (let state = 0; state < states; state++) {
    const ranges = dfa.transitions[state]!;
    for (let index = 0; index < ranges.length; index += 3) {
      if (nonSurrogateCount(ranges[index]!, ranges[index + 1]!) === 0) continue;
      unknownSuccessors[state] = unknownSuccessors[state]! + 1;
      predecessors[ranges[index + 2]!]!.push(state);
    }
  }
  const ready: number[] = [];
  for (let state = 0; state < states; state++) if (unknownSuccessors[state] === 0) ready.push(state);
  for (let at = 0; at < ready.length; at++) {
    const state = ready[at]!;
    let sum = dfa.accepting[state] === 1 ? 1 : 0;
    const ranges = dfa.transitions[state]!;
    for (let index = 0; index < ranges.length; index += 3) {
      const size = nonSurrogateCount(ranges[index]!, ranges[index + 1]!);
      if (size > 0) sum += size * counts[ranges[index + 2]!]!;
    }
    counts[state] = Math.min(sum, COUNT_CAP);
    for (const before of predecessors[state]!) if ((unknownSuccessors[before] = unknownSuccessors[before]! - 1) === 0) ready.push(before);
  }
  return counts;
}
