/**
 * Stage 3 of the lowering, an array's `contains` rules: the distinct schemas it counts, within the budgets of cells and
 * count states (`lower-emit.ts` then splits each position's items into cells by them).
 * @module
 */
import type { LoweringContext } from './lower-context.js';
import { countCap, type LocationSet, type Typed } from './lower-typed.js';
import type { ContainsRule } from './schema-complement.js';

/**
 * The distinct `contains` schemas on the array, one counter each: `contains` repeated with the same schema (allOf parts
 * written apart) is one counter with both bounds. Past `containsMaxCells` cells per item, or (counted by counters,
 * not by the set written under `uniqueItems`) past `containsMaxCountStates` count states, the schema is refused.
 */
export function containsRules(
  typed: Typed,
  setBased: boolean,
  context: LoweringContext,
  sameSchemas: (left: LocationSet, right: LocationSet) => boolean,
): ContainsRule[] {
  const distinct: ContainsRule[] = [];
  for (const rule of typed.contains) {
    const same = distinct.findIndex((other) => sameSchemas(other.set, rule.set));
    if (same < 0) distinct.push(rule);
    else distinct[same] = { ...distinct[same]!, min: Math.max(distinct[same]!.min, rule.min), max: Math.min(distinct[same]!.max, rule.max) };
  }
  const kept: ContainsRule[] = [];
  let states = 1;
  for (const rule of distinct) {
    const where = [...kept, rule].map((other) => other.pointer).join(', ');
    if (2 ** (kept.length + 1) > context.limits.containsMaxCells) {
      context.refuse(
        'contains',
        rule.pointer,
        `${kept.length + 1} different contains schemas apply to the same array (${where}; "some item fails items" under not or an overlapping oneOf counts as one): each item would be split into ${2 ** (kept.length + 1)} cells, one per combination of matches, more than limits.containsMaxCells (${context.limits.containsMaxCells}); merge some of them into one "contains"`,
      );
      continue;
    }
    const nextStates = states * (countCap(rule) + 1);
    if (!setBased && kept.length > 0 && nextStates > context.limits.containsMaxCountStates) {
      context.refuse(
        'contains',
        rule.pointer,
        `the counts of the ${kept.length + 1} different contains schemas on one array (${where}) make ${nextStates} states (each count runs to its maxContains, or its minContains without one), more than limits.containsMaxCountStates (${context.limits.containsMaxCountStates}); lower "maxContains" or "minContains", or merge them into one "contains"`,
      );
      continue;
    }
    states = nextStates;
    kept.push(rule);
  }
  return kept;
}
