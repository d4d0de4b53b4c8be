/**
 * A number alternative under `multipleOf` (or its complement, `nonMultiples`), lowered by the plan `multiple-of-language.ts` makes: the values to list as
 * literals, or the automaton of its texts (null: no number). Refused (lenient: enforced without `multipleOf`) where Ajv's
 * float test is not exact, where the cut to the exact bound leaves no multiple, or past the product's state budget.
 * @module
 */
import type { LoweringContext } from './lower-context.js';
import type { Typed } from './lower-typed.js';
import { intersectTwoNumberAutomata, planMultipleOf, type NumberRange } from './multiple-of-language.js';
import type { NumberAutomaton, NumberConstraint } from './number-language.js';

export function lowerMultipleOf(typed: Typed, context: LoweringContext): { values: number[] } | { automaton: NumberAutomaton | null } {
  const plan = planMultipleOf(typed, typed.multiples, context.limits, typed.nonMultiples);
  if (plan.kind === 'values') return { values: plan.values.filter((value) => !typed.fractional || !Number.isInteger(value)) };
  // the range's own fields only: the cache keys by them
  const constraint = ({ integer, minimum, exclusiveMinimum, maximum, exclusiveMaximum }: NumberRange): NumberConstraint => ({
    integer,
    minimum,
    exclusiveMinimum,
    maximum,
    exclusiveMaximum,
  });
  const numbers = (range: NumberRange): NumberAutomaton | null => context.options.cache.numberAutomaton(constraint(range));
  let base: NumberAutomaton | null;
  let automaton: NumberAutomaton | null | undefined;
  if (plan.kind === 'refused') {
    context.refuse('multipleOf', typed.pointer, plan.reason);
    automaton = base = numbers(typed);
  } else {
    base = numbers(plan.range);
    automaton = base === null ? null : context.options.cache.multipleOfAutomaton(constraint(plan.range), plan.moduli, context.limits.multipleOfMaxStates);
    if (automaton === null && plan.narrowedTo !== undefined) {
      // the cut left nothing: offering no number where Ajv accepts some would be more than a narrowing
      context.refuse(
        'multipleOf',
        typed.pointer,
        `multipleOf: no ${describeDivisors(typed)} in the range lies within ±${plan.narrowedTo}, where Ajv's floating-point quotient matches exact divisibility; bound the value within it`,
      );
      automaton = base = numbers(typed);
    }
  }
  // the non-integers (`not: {type: integer}` beside it): only texts that parse to a non-integer
  if (automaton !== null && automaton !== undefined && typed.fractional)
    automaton = intersectTwoNumberAutomata(automaton, context.options.cache.fractionalNumbers());
  if (automaton === undefined) {
    context.refuse(
      'multipleOf',
      typed.pointer,
      `the multipleOf automaton needs more than ${context.limits.multipleOfMaxStates} states (limits.multipleOfMaxStates)`,
    );
    automaton = base;
  }
  return { automaton };
}

/** "multiple of 3 and 5", "number that is not a multiple of 2", as the refusal names them. */
function describeDivisors({ multiples, nonMultiples }: Typed): string {
  const multiple = multiples.length > 0 ? `multiple of ${multiples.join(' and ')}` : 'number';
  return nonMultiples.length > 0 ? `${multiple} that is not a multiple of ${nonMultiples.join(' or ')}` : multiple;
}
