/**
 * A number alternative under `multipleOf` (or its complement, `nonMultiples`), lowered by the plan `multiple-of-language.ts` makes: the values to list as
 * literals, or the automata of its texts (none: no number). Refused (lenient: enforced without `multipleOf`) where Ajv's
 * float test is not exact, where the cut to the exact bound leaves no number, or past the product's state budget.
 * @module
 */
import type { LoweringContext } from './lower-context.js';
import type { Typed } from './lower-typed.js';
import { intersectTwoNumberAutomata, planMultipleOf, type NumberRange } from './multiple-of-language.js';
import type { NumberAutomaton, NumberConstraint } from './number-language.js';
import { planDecimalMultiple, type DecimalMultipleCheck } from './decimal-multiples.js';

/** What a number alternative under `multipleOf` lowers to: literals, or automata (with the run-time check of a decimal divisor). */
export type LoweredMultiples = { values: number[] } | { automata: NumberAutomaton[]; check?: DecimalMultipleCheck };

export function lowerMultipleOf(typed: Typed, context: LoweringContext): LoweredMultiples {
  const fractions = nonIntegerNonMultiples(typed, context);
  if (fractions === undefined) return lowerPlan(typed, context, false);
  if (typed.fractional) return { automata: fractions };
  const integers = lowerPlan({ ...typed, integer: true }, context, fractions.length > 0);
  return { automata: [...('automata' in integers ? integers.automata : []), ...fractions] };
}

/**
 * The non-integers of `typed` that are not multiples of its (integer) excluded divisors, as Ajv decides it, or undefined
 * where that is not this case (a positive divisor beside them, or a fractional one). For an integer `m` a non-integer `d`
 * passes Ajv's test only where `d / m` rounds to 0, at `|d| ≤ ⌊m/2⌋ · 2^−1074`: elsewhere `d / m` rounds to an integer
 * `k ≠ 0` only if `|d − k · m| ≤ m · ulp(k) / 2`, less than the spacing of doubles around `d` (for `m` a power of 2 the
 * quotient is exact), while a non-integer `d` is at least that spacing from every integer (`multiple-of-language.test.ts`
 * checks the rule against Ajv's test).
 */
function nonIntegerNonMultiples(typed: Typed, context: LoweringContext): NumberAutomaton[] | undefined {
  if (typed.integer || typed.multiples.length > 0 || !typed.nonMultiples.every((divisor) => Number.isSafeInteger(divisor))) return undefined;
  const roundsToZero = Math.max(...typed.nonMultiples.map((divisor) => Math.floor(divisor / 2) * Number.MIN_VALUE));
  const cache = context.options.cache;
  const { minimum, exclusiveMinimum, maximum, exclusiveMaximum } = typed;
  const above =
    minimum > roundsToZero
      ? cache.fractionalNumberAutomaton({ integer: false, minimum, exclusiveMinimum, maximum, exclusiveMaximum })
      : cache.fractionalNumberAutomaton({ integer: false, minimum: roundsToZero, exclusiveMinimum: true, maximum, exclusiveMaximum });
  const below =
    maximum < -roundsToZero
      ? cache.fractionalNumberAutomaton({ integer: false, minimum, exclusiveMinimum, maximum, exclusiveMaximum })
      : cache.fractionalNumberAutomaton({ integer: false, minimum, exclusiveMinimum, maximum: -roundsToZero, exclusiveMaximum: true });
  // a range wholly above (or below) the values rounding to 0 is one piece, found twice
  return [...new Set([above, below])].filter((automaton): automaton is NumberAutomaton => automaton !== null);
}

/** The plan's automaton (or values) for `typed`; `othersOffered`: other texts are offered beside these, so an empty cut is not refused. */
function lowerPlan(typed: Typed, context: LoweringContext, othersOffered: boolean): LoweredMultiples {
  const plan = planMultipleOf(typed, typed.multiples, context.limits, typed.nonMultiples);
  if (plan.kind === 'refused') {
    const checked = checkedDecimal(typed, context);
    if (checked !== undefined) return checked;
  }
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
    if (automaton === null && plan.narrowedTo !== undefined && !othersOffered) {
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
  return { automata: automaton === null ? [] : [automaton] };
}

/**
 * One decimal divisor on a range too wide to list (`0.01` on amounts): the exact multiples of the range (cut as
 * `decimal-multiples.ts` says), with Ajv's test checked by the matcher as each number is written; undefined where that
 * plan does not apply.
 */
function checkedDecimal(typed: Typed, context: LoweringContext): { automata: NumberAutomaton[]; check: DecimalMultipleCheck } | undefined {
  const divisors = [...new Set(typed.multiples)];
  if (divisors.length !== 1 || typed.nonMultiples.length > 0 || typed.fractional) return undefined;
  const plan = planDecimalMultiple(typed, divisors[0]!, typed.pointer, context.limits.multipleOfMaxModulus);
  if (plan.kind !== 'checked') return undefined;
  const { integer, minimum, exclusiveMinimum, maximum, exclusiveMaximum } = plan.range;
  const { modulus, scale } = plan.check;
  const cache = context.options.cache;
  const automaton = cache.multipleOfAutomaton(
    { integer, minimum, exclusiveMinimum, maximum, exclusiveMaximum },
    [{ modulus, scale }],
    context.limits.multipleOfMaxStates,
  );
  if (automaton === undefined) return undefined;
  return { automata: automaton === null ? [] : [automaton], check: plan.check };
}

/** "multiple of 3 and 5", "number that is not a multiple of 2", as the refusal names them. */
function describeDivisors({ multiples, nonMultiples }: Typed): string {
  const multiple = multiples.length > 0 ? `multiple of ${multiples.join(' and ')}` : 'number';
  return nonMultiples.length > 0 ? `${multiple} that is not a multiple of ${nonMultiples.join(' or ')}` : multiple;
}
