/**
 * Difference of typed alternatives (`p ∧ ¬n`), the one construction behind `not`,
 * `if`/`then`/`else` and `oneOf` with overlapping branches. "Some constraint of `n`
 * fails" is a union of alternatives, each built from `p` and one failed constraint:
 * a string outside the DFA (DFA complement) or outside the length bounds, a number
 * below or above an interval (or between excluded literals), a non-integer for `integer`, a non-multiple for
 * `multipleOf` (a multiple where the negated alternative is a non-multiple), an array too short, too
 * long, with a `contains` count out of its bounds or with one item in the complement of its
 * schema (array literals: another length or one item outside `{const: vᵢ}`), an object missing
 * a required property, with a property count out of its bounds, or holding one whose value is in
 * the complement (object literals: a key missing, a value outside `{const: …}`, or a key the
 * literal lacks). On an open object "some undeclared key fails `additionalProperties` or its
 * `patternProperties`" is a {@link KeyWitness}: the last undeclared key of the text is the one that
 * fails, since JSON.parse keeps the last of repeated keys; its complement is "every such key passes". Nested complements are
 * schema locations of their own (`complement`), denoted lazily, so recursion and
 * double negation need nothing special. What cannot be expressed exactly is refused.
 * @module
 */
import { CodePointDfa } from '../shared/regex/code-point-dfa.js';
import { discriminatingKey, forbidsKey, keyApart, requiresKey } from './complement-discriminators.js';
import { implies, isDefault, isFalse, prunedUnion, type Fields } from './alternative-pruning.js';
import type { DifferenceContext, DifferenceTyped, KeyWitness, LocationSet } from './difference-types.js';

export type { ContainsRule, DifferenceContext, DifferenceTyped, KeyWitness, LocationSet, StringPiece } from './difference-types.js';

const TRUE_SET: LocationSet = [];
const FALSE_SET: LocationSet = [0];

const isTrue = (set: LocationSet): boolean => set.length === 0;

/** True when every undeclared key is a witness of `witness`, whatever its value (the complement of a closed object or an object literal). */
export function anyKeyWitnesses(witness: KeyWitness): boolean {
  return isFalse(witness.additional) && witness.patternGroups.length === 0;
}

/** Fields {@link subtractTyped} understands; any other field that differs from a blank alternative makes it refuse. */
const UNDERSTOOD = new Set([
  'type',
  'integer',
  'fractional',
  'literals',
  'minLength',
  'maxLength',
  'patterns',
  'formats',
  'languages',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multiples',
  'nonMultiples',
  'prefix',
  'items',
  'minItems',
  'maxItems',
  'contains',
  'order',
  'properties',
  'required',
  'dependencies',
  'additional',
  'patternGroups',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'pointer',
]);

/** Thrown inside a difference when it cannot be built exactly; the caller refuses its keyword. */
export class ComplementRefused extends Error {}

/**
 * `left ∧ ¬right` as a union of alternatives, or undefined when it is not expressible
 * exactly or would exceed `limits.maxAlternatives` (then `keyword` at `pointer` is refused).
 */
export function differenceOf<T extends DifferenceTyped>(
  left: readonly T[],
  right: readonly T[],
  context: DifferenceContext<T>,
  keyword: string,
  pointer: string,
): T[] | undefined {
  try {
    return subtractUnion([...left], right, context, keyword, MAX_DISCRIMINATING_SPLITS);
  } catch (error) {
    if (!(error instanceof ComplementRefused)) throw error;
    context.refuse(keyword, pointer, error.message);
    return undefined;
  }
}

/** Nested splits by a discriminating key one difference may take: each halves at most, so a difference visits at most 2⁸ sub-differences. */
const MAX_DISCRIMINATING_SPLITS = 8;

/**
 * `left ∧ ¬(∪ right)`, negated alternative by negated alternative; where a key tells the negated objects apart
 * (`complement-discriminators.ts`), the objects of `left` are split first by its presence, and each part subtracts only
 * the negated alternatives it may meet. Throws {@link ComplementRefused} past `limits.maxAlternatives`.
 */
function subtractUnion<T extends DifferenceTyped>(left: T[], right: readonly T[], context: DifferenceContext<T>, keyword: string, splitsLeft: number): T[] {
  if (left.length === 0) return left;
  const maxAlternatives = context.limits.maxAlternatives;
  const forbidden = (typed: T, key: string): boolean => isFalse(context.valueSet(typed, key));
  // literals are subtracted value by value, so they are left whole
  const splits = (typed: T): boolean => typed.type === 'object' && typed.literals === undefined;
  const objects = right.filter((negated) => negated.type === 'object');
  const key = splitsLeft > 0 && objects.length > 1 && left.some(splits) ? discriminatingKey(objects, forbidden) : undefined;
  if (key !== undefined) {
    const withKey = (present: boolean): T[] => {
      const part = context.blank('object', objects[0]!.pointer);
      part.order.push(key);
      part.properties.set(key, present ? TRUE_SET : FALSE_SET);
      if (present) part.required.add(key);
      return left.flatMap((typed) => (splits(typed) ? intersectOrNone(typed, part, context) : []));
    };
    // the parts hold other values (the key present, absent, another type or a literal): no piece of one includes a piece of another
    const [present, absent] = [right.filter((negated) => !forbidsKey(negated, key, forbidden)), right.filter((negated) => !requiresKey(negated, key))];
    const union = [
      ...subtractUnion(
        left.filter((typed) => !splits(typed)),
        right,
        context,
        keyword,
        0,
      ),
      ...subtractUnion(withKey(true), present, context, keyword, splitsLeft - 1),
      ...subtractUnion(withKey(false), absent, context, keyword, splitsLeft - 1),
    ];
    if (union.length > maxAlternatives) throw overBudget(maxAlternatives);
    return union;
  }
  let result = left;
  for (const negated of right) {
    // a negated object that forbids a key every piece holds (or holds a key they all forbid) leaves them as they are
    const apart = result.map((typed) => keyApart(typed, negated, forbidden));
    if (!apart.includes(false)) continue;
    // each negated alternative multiplies the pieces: a piece another one includes (or repeats) is dropped
    result = prunedUnion(
      result.flatMap((typed, index) => (apart[index] ? [typed] : subtractTyped(typed, negated, context, keyword))),
      context,
    );
    if (result.length > maxAlternatives) throw overBudget(maxAlternatives);
  }
  return result;
}

const overBudget = (maxAlternatives: number): ComplementRefused =>
  new ComplementRefused(`the complement expands to more than ${maxAlternatives} alternatives (limits.maxAlternatives)`);

/** `typed ∧ ¬negated` for one pair of alternatives. Throws {@link ComplementRefused} where it is not expressible. */
export function subtractTyped<T extends DifferenceTyped>(typed: T, negated: T, context: DifferenceContext<T>, keyword = 'not'): T[] {
  if (typed.type !== negated.type) return [typed];
  // null and booleans are finite: subtract value by value
  if (typed.literals === undefined && typed.type === 'null') typed = { ...typed, literals: [null] };
  if (typed.literals === undefined && typed.type === 'boolean') typed = { ...typed, literals: [true, false] };
  if (typed.literals !== undefined) {
    const kept = typed.literals.filter((value) => !context.satisfies(value, negated));
    return kept.length === 0 ? [] : [{ ...typed, literals: kept }];
  }
  // ¬(base ∧ W₁ ∧ … ∧ Wₙ) is ¬base ∪ ¬W₁ ∪ … ∪ ¬Wₙ, and ¬Wᵢ ("some key outside its names fails its rules") is "every such key passes them"
  if (negated.witnesses.length > 0)
    return [
      ...subtractTyped(typed, { ...negated, witnesses: [] }, context, keyword),
      ...negated.witnesses.flatMap((witness) => intersectOrNone(typed, everyKeyPasses(witness, context), context)),
    ];
  const unknownField = notUnderstood(negated, context);
  if (unknownField !== undefined) throw new ComplementRefused(`the complement of "${unknownField}" is not enforced`);
  const pieces: T[] = [];
  const piece = (): T => context.blank(typed.type, typed.pointer);
  switch (negated.type) {
    case 'null':
    case 'boolean':
      // unreachable: `typed` has literals by now
      return [];
    case 'number': {
      if (negated.literals !== undefined) {
        const values = [...new Set(negated.literals.filter((value) => context.satisfies(value, negated)) as number[])].sort((a, b) => a - b);
        let low = -Infinity;
        for (const value of [...values, Infinity]) {
          const interval = piece();
          if (low !== -Infinity) [interval.minimum, interval.exclusiveMinimum] = [low, true];
          if (value !== Infinity) [interval.maximum, interval.exclusiveMaximum] = [value, true];
          pieces.push(interval);
          low = value;
        }
        break;
      }
      // ¬integer is the non-integers (fractional-number-language.ts), and ¬non-integer the integers
      if (negated.integer && !typed.integer) {
        const fraction = piece();
        fraction.fractional = true;
        pieces.push(fraction);
      }
      if (negated.fractional && !typed.fractional) {
        const whole = piece();
        whole.integer = true;
        pieces.push(whole);
      }
      // ¬(multiple of m₁ ∧ m₂) is "not a multiple of m₁" ∪ "not of m₂", and ¬(not a multiple of m) is "a multiple of m";
      // where each is exact is the lowering's business (lower-multiple-of.ts)
      for (const divisor of new Set(negated.multiples)) {
        const outside = piece();
        outside.nonMultiples = [divisor];
        pieces.push(outside);
      }
      for (const divisor of new Set(negated.nonMultiples)) {
        const multiple = piece();
        multiple.multiples = [divisor];
        pieces.push(multiple);
      }
      if (negated.minimum !== -Infinity) {
        const below = piece();
        [below.maximum, below.exclusiveMaximum] = [negated.minimum, !negated.exclusiveMinimum];
        pieces.push(below);
      }
      if (negated.maximum !== Infinity) {
        const above = piece();
        [above.minimum, above.exclusiveMinimum] = [negated.maximum, !negated.exclusiveMaximum];
        pieces.push(above);
      }
      break;
    }
    case 'string': {
      if (negated.literals !== undefined) {
        const values = negated.literals.filter((value) => context.satisfies(value, negated)) as string[];
        const outside = piece();
        outside.languages = [context.complementDfa(CodePointDfa.literals(values))];
        pieces.push(outside);
        break;
      }
      // ¬(rest ∧ format) = ¬rest ∪ ¬format, where the format's complement comes in parts (the time family): the
      // complements of its alternatives, intersected, would pass the state budget
      for (const format of negated.formats) {
        const parts = context.formatComplement(format.source);
        if (parts === undefined) continue;
        const rest = { ...negated, formats: negated.formats.filter((other) => other !== format) };
        // a string the format already constrains is not outside it: only the leap-second texts that round to 61, which
        // the format lets through (docs/decoding.md, Known limits), are, and the registry rejects them for that format too
        const within = typed.formats.some((other) => other.source === format.source);
        const outside = within
          ? []
          : parts.flatMap((dfa) => {
              const part = piece();
              part.languages = [dfa];
              return intersectOrNone(typed, part, context);
            });
        return [...subtractTyped(typed, rest, context, keyword), ...outside];
      }
      const union = context.stringPieces(negated);
      if (union === undefined) throw new ComplementRefused('the complement of a refused pattern is not enforced');
      // ¬(∪ pieces) = ∩ ¬piece, and ¬(D ∩ len∈[a,b]) = ¬D ∪ len<a ∪ len>b
      let result: T[] = [typed];
      for (const { dfa, minLength, maxLength } of union) {
        const failures: T[] = [];
        if (dfa !== undefined) {
          const outside = piece();
          outside.languages = [context.complementDfa(dfa)];
          failures.push(outside);
        }
        if (minLength > 0) {
          const shorter = piece();
          shorter.maxLength = minLength - 1;
          failures.push(shorter);
        }
        if (maxLength !== Infinity) {
          const longer = piece();
          longer.minLength = maxLength + 1;
          failures.push(longer);
        }
        result = result.flatMap((kept) => failures.flatMap((failure) => intersectOrNone(kept, failure, context)));
      }
      return result;
    }
    case 'array': {
      if (negated.literals !== undefined) {
        // an array differs from [v0, …, vn-1] by its length or by one item: ∩ over the values of those unions
        const values = negated.literals.filter((value) => context.satisfies(value, negated)) as unknown[][];
        let result: T[] = [typed];
        for (const value of values) {
          const failures: T[] = [];
          if (value.length > 0) {
            const shorter = piece();
            shorter.maxItems = value.length - 1;
            failures.push(shorter);
          }
          const longer = piece();
          longer.minItems = value.length + 1;
          failures.push(longer);
          value.forEach((item, index) => {
            const differing = piece();
            differing.minItems = index + 1;
            differing.prefix = [...Array<LocationSet>(index).fill(TRUE_SET), context.complement(context.literal(item, `${negated.pointer}/${index}`))];
            failures.push(differing);
          });
          result = result.flatMap((kept) => failures.flatMap((failure) => intersectOrNone(kept, failure, context)));
          // each excluded literal multiplies the alternatives: stop before the product grows past any budget
          if (result.length > context.limits.maxLiteralComplementAlternatives)
            throw new ComplementRefused(
              `the complement of these literals expands to more than ${context.limits.maxLiteralComplementAlternatives} alternatives (limits.maxLiteralComplementAlternatives)`,
            );
        }
        return result;
      }
      if (negated.minItems > 0) {
        const shorter = piece();
        shorter.maxItems = negated.minItems - 1;
        pieces.push(shorter);
      }
      if (negated.maxItems !== Infinity) {
        const longer = piece();
        longer.minItems = negated.maxItems + 1;
        pieces.push(longer);
      }
      // ¬(min ≤ count ≤ max) is a count below min or above max: the same counter with other bounds
      for (const rule of negated.contains) {
        if (rule.min > 0) {
          const fewer = piece();
          fewer.contains = [{ ...rule, min: 0, max: rule.min - 1 }];
          pieces.push(fewer);
        }
        if (rule.max !== Infinity) {
          const more = piece();
          more.contains = [{ ...rule, min: rule.max + 1, max: Infinity }];
          pieces.push(more);
        }
      }
      const itemFails = (index: number, set: LocationSet): void => {
        if (implies(typed.prefix[index] ?? typed.items, set)) return;
        const failing = piece();
        failing.minItems = index + 1;
        failing.prefix = [...Array<LocationSet>(index).fill(TRUE_SET), context.complement(set)];
        pieces.push(failing);
      };
      negated.prefix.forEach((set, index) => itemFails(index, set));
      const laterItemsHold = typed.prefix.slice(negated.prefix.length).every((set) => implies(set, negated.items)) && implies(typed.items, negated.items);
      if (!laterItemsHold) {
        const from = negated.prefix.length;
        const limit = isFalse(typed.items) ? Math.min(typed.prefix.length, typed.maxItems) : typed.maxItems;
        if (isFalse(negated.items) && limit > from) {
          const longer = piece();
          longer.minItems = from + 1;
          pieces.push(longer);
        } else if (limit - from > context.limits.maxUnrolledItems && from === 0) {
          // every position falls under `items`: "some item fails it" is a contains of its complement
          const failing = piece();
          failing.contains = [{ set: context.complement(negated.items), min: 1, max: Infinity, pointer: negated.pointer }];
          pieces.push(failing);
        } else if (limit - from > context.limits.maxUnrolledItems) {
          throw new ComplementRefused(
            `an item failing "items" at any position past "prefixItems" is not enforced unless the array holds at most ${context.limits.maxUnrolledItems} items past the prefix (maxItems; limits.maxUnrolledItems)`,
          );
        } else {
          for (let index = from; index < limit; index++) itemFails(index, negated.items);
        }
      }
      break;
    }
    case 'object': {
      // closed: every key the object allows is declared, so "some other key" is a declared one; open: a witness
      const closed = isFalse(typed.additional) && typed.patternGroups.length === 0;
      const declared = new Set([...typed.properties.keys(), ...typed.required]);
      if (negated.literals !== undefined) {
        // an object differs from a literal by a key it lacks, a key's value, or a key the literal lacks
        const values = negated.literals.filter((value) => context.satisfies(value, negated)) as Record<string, unknown>[];
        let result: T[] = [typed];
        for (const value of values) {
          const names = Object.keys(value);
          const failures: T[] = [];
          const inOrder = (): T => {
            const failing = piece();
            for (const name of names) {
              failing.order.push(name);
              failing.properties.set(name, TRUE_SET);
            }
            return failing;
          };
          for (const name of names) {
            const missing = inOrder();
            missing.properties.set(name, FALSE_SET);
            failures.push(missing);
            const differing = inOrder();
            differing.properties.set(name, context.complement(context.literal(value[name], `${negated.pointer}/${name}`)));
            differing.required.add(name);
            failures.push(differing);
          }
          for (const name of declared) {
            if (names.includes(name) || isFalse(typed.properties.get(name) ?? typed.additional)) continue;
            const extra = inOrder();
            extra.order.push(name);
            extra.required.add(name);
            failures.push(extra);
          }
          if (!closed) {
            // a key neither the literal nor the object declares, whatever its value
            const extra = inOrder();
            extra.witnesses.push({ patternGroups: [], additional: FALSE_SET, names: new Set([...names, ...declared]), keyword, pointer: negated.pointer });
            failures.push(extra);
          }
          result = result.flatMap((kept) => failures.flatMap((failure) => intersectOrNone(kept, failure, context)));
          // each excluded literal multiplies the alternatives: stop before the product grows past any budget
          if (result.length > context.limits.maxLiteralComplementAlternatives)
            throw new ComplementRefused(
              `the complement of these literals expands to more than ${context.limits.maxLiteralComplementAlternatives} alternatives (limits.maxLiteralComplementAlternatives)`,
            );
        }
        return result;
      }
      // ¬(min ≤ count ≤ max) is a count below min or above max (counted as the object frame counts keys)
      if (negated.minProperties > 0) {
        const fewer = piece();
        fewer.maxProperties = negated.minProperties - 1;
        pieces.push(fewer);
      }
      if (negated.maxProperties !== Infinity) {
        const more = piece();
        more.minProperties = negated.maxProperties + 1;
        pieces.push(more);
      }
      for (const name of negated.required) {
        if (typed.required.has(name)) continue;
        const missing = piece();
        missing.order.push(name);
        missing.properties.set(name, FALSE_SET);
        pieces.push(missing);
      }
      // ¬(source present ⇒ dependent present) is "the source present and the dependent absent"
      for (const [source, dependents] of negated.dependencies) {
        for (const dependent of dependents) {
          const unmet = piece();
          unmet.order.push(source, dependent);
          unmet.properties.set(source, TRUE_SET);
          unmet.required.add(source);
          unmet.properties.set(dependent, FALSE_SET);
          pieces.push(unmet);
        }
      }
      const names = new Set([...negated.properties.keys(), ...negated.required]);
      const keyRules = !isTrue(negated.additional) || negated.patternGroups.length > 0;
      // "some other key fails additionalProperties (or a matching patternProperties)": a declared key of `typed`, or an undeclared one
      if (keyRules) for (const name of declared) names.add(name);
      for (const name of names) {
        const set = context.valueSet(negated, name);
        if (implies(typed.properties.get(name) ?? typed.additional, set)) continue;
        const failing = piece();
        failing.order.push(name);
        failing.properties.set(name, context.complement(set));
        failing.required.add(name);
        pieces.push(failing);
      }
      if (!isTrue(negated.propertyNames)) {
        // "some key's name fails propertyNames": a declared one is required where the object is lowered (`expandWitnesses`)
        const failing = piece();
        failing.witnesses.push({
          patternGroups: [],
          additional: TRUE_SET,
          names: new Set(),
          failingNames: negated.propertyNames,
          keyword,
          pointer: negated.pointer,
        });
        pieces.push(failing);
      }
      if (keyRules && !closed) {
        const failing = piece();
        failing.witnesses.push({
          patternGroups: negated.patternGroups,
          additional: negated.additional,
          names: new Set([...names, ...negated.order]),
          keyword,
          pointer: negated.pointer,
        });
        pieces.push(failing);
      }
      if (pieces.length === 0) return [];
      // each piece lists the negated schema's names (true, so constraining nothing) to keep its property order in the
      // layout: `typed` with those names is built once, and each piece adds only its own failure to it
      const listing = piece();
      for (const name of negated.order) {
        listing.order.push(name);
        listing.properties.set(name, TRUE_SET);
      }
      const ordered = context.intersect(typed, listing);
      return ordered === undefined ? [] : pieces.flatMap((failure) => intersectOrNone(ordered, failure, context));
    }
  }
  return pieces.flatMap((failure) => intersectOrNone(typed, failure, context));
}

/** An object whose keys outside the witness's names all satisfy its rules (its `patternProperties` and `additionalProperties`): the witness's complement. */
function everyKeyPasses<T extends DifferenceTyped>(witness: KeyWitness, context: DifferenceContext<T>): T {
  const passing = context.blank('object', witness.pointer);
  for (const name of witness.names) {
    passing.order.push(name);
    passing.properties.set(name, TRUE_SET);
  }
  passing.additional = witness.additional;
  passing.patternGroups = witness.patternGroups;
  if (witness.failingNames !== undefined) passing.propertyNames = witness.failingNames;
  return passing;
}

/** Per negated alternative, the first field {@link subtractTyped} does not understand that it holds at other than its default ('' for none). */
const notUnderstoodFields = new WeakMap<object, string>();

/** Found once per alternative: a difference subtracts each negated alternative from every piece so far. */
function notUnderstood<T extends DifferenceTyped>(negated: T, context: DifferenceContext<T>): string | undefined {
  let found = notUnderstoodFields.get(negated);
  if (found === undefined) {
    found = '';
    const reference = context.blank(negated.type, negated.pointer) as unknown as Fields;
    for (const field of Object.keys(negated)) {
      if (UNDERSTOOD.has(field) || isDefault((negated as unknown as Fields)[field], reference[field])) continue;
      found = field;
      break;
    }
    notUnderstoodFields.set(negated, found);
  }
  return found === '' ? undefined : found;
}

function intersectOrNone<T extends DifferenceTyped>(left: T, right: T, context: DifferenceContext<T>): T[] {
  const merged = context.intersect(left, right);
  return merged === undefined || provablyEmpty(merged, context) ? [] : [merged];
}

/**
 * Whether no value satisfies the alternative, by its bounds alone: crossed length, item, property or number bounds,
 * a required property (or a prefix position the array must reach) whose schema is `false`, more required names than
 * `maxProperties`. The pieces of a difference meet often in such contradictions ("type is missing" with "type fails
 * its enum"): dropping them keeps a complement of several alternatives within the budget.
 */
function provablyEmpty<T extends DifferenceTyped>(typed: T, context: DifferenceContext<T>): boolean {
  switch (typed.type) {
    case 'string':
      return typed.minLength > typed.maxLength;
    case 'number':
      return (
        typed.minimum > typed.maximum ||
        (typed.minimum === typed.maximum && (typed.exclusiveMinimum || typed.exclusiveMaximum)) ||
        typed.nonMultiples.some((divisor) => typed.multiples.includes(divisor))
      );
    case 'array': {
      if (typed.minItems > typed.maxItems) return true;
      for (let index = 0; index < typed.minItems; index++) {
        const set = typed.prefix[index] ?? typed.items;
        if (isFalse(set)) return true;
        if (index >= typed.prefix.length) break;
      }
      return false;
    }
    case 'object':
      if (typed.minProperties > typed.maxProperties || typed.required.size > typed.maxProperties) return true;
      for (const name of typed.required) if (isFalse(context.valueSet(typed, name))) return true;
      return false;
    default:
      return false;
  }
}
