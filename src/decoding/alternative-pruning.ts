/**
 * The pruning of a union of typed alternatives, the step that keeps a difference (`schema-complement.ts`) within its
 * budget: exact duplicates dropped (each alternative's id from {@link StructureIds}), then the alternatives another one
 * includes, judged field by field.
 * @module
 */
import type { DifferenceContext, DifferenceTyped, LocationSet } from './difference-types.js';
import { StructureIds } from './structure-ids.js';

export type Fields = Record<string, unknown>;

/** True when no value satisfies the location set (`[0]` is `false`). */
export const isFalse = (set: LocationSet): boolean => set[0] === 0;
/** True when every value of `held` satisfies `needed` (a location set holds all of its locations): no value can fail it. */
export function implies(held: LocationSet, needed: LocationSet): boolean {
  if (isFalse(held)) return true;
  // a loop, not `every` with a closure: pruning asks this for most pairs of alternatives
  for (let index = 0; index < needed.length; index++) if (!held.includes(needed[index]!)) return false;
  return true;
}

/** A union of alternatives with the exact duplicates and the alternatives another one includes dropped (the same pruning as each step of a difference). */
export function prunedUnion<T extends DifferenceTyped>(alternatives: T[], context: DifferenceContext<T>): T[] {
  // the alternatives (and the containers they hold) are not changed while they are pruned
  idsOf(context as unknown as DifferenceContext<DifferenceTyped>).structures.beginPass();
  return withoutIncluded(distinctAlternatives(alternatives, context), context);
}

/** Per difference context (one compile's): the ids of the structures its alternatives hold, and each alternative's id. */
const contextIds = new WeakMap<object, { structures: StructureIds; alternatives: WeakMap<object, number> }>();

function idsOf(context: DifferenceContext<DifferenceTyped>): { structures: StructureIds; alternatives: WeakMap<object, number> } {
  let ids = contextIds.get(context);
  if (ids === undefined) contextIds.set(context, (ids = { structures: new StructureIds(), alternatives: new WeakMap() }));
  return ids;
}

/**
 * The alternatives with exact duplicates (every field equal, the pointer aside) removed, first occurrence kept. Each
 * alternative's id is found once: an alternative is not changed once built (every step builds new ones, as
 * `{ ...typed }` copies), and a difference passes each piece of another type than the negated alternative on unchanged.
 */
function distinctAlternatives<T extends DifferenceTyped>(alternatives: T[], context: DifferenceContext<T>): T[] {
  if (alternatives.length < 2) return alternatives;
  const { structures, alternatives: known } = idsOf(context as unknown as DifferenceContext<DifferenceTyped>);
  const seen = new Set<number>();
  let reference: T | undefined;
  return alternatives.filter((typed) => {
    let id = known.get(typed);
    if (id === undefined) known.set(typed, (id = alternativeId(typed, (reference ??= context.blank(typed.type, typed.pointer)), structures)));
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * An alternative's id for equality: its fields in order with their values' ids. The fields it holds as the blank
 * `reference` does are left out (most of them): a default here is a primitive, an empty array, Map or Set, so a field
 * left out is exactly one whose value equals the default's, and alternatives, all built from a blank in its field order,
 * compare as they would whole. The type is always in: the blank's own type is any one.
 */
function alternativeId(typed: DifferenceTyped, reference: DifferenceTyped, structures: StructureIds): number {
  const parts: number[] = [];
  // for-in, not Object.keys: its keyed reads take the engine's fast path (own keys in the same order: a plain object)
  for (const field in typed) {
    // the alternative's own pointer only words messages
    if (field === 'pointer') continue;
    const value = (typed as unknown as Fields)[field];
    if (value === undefined || (field !== 'type' && isDefault(value, (reference as unknown as Fields)[field]))) continue;
    parts.push(structures.idOf(field), structures.idOf(value));
  }
  return structures.recordId(parts);
}

/**
 * The alternatives less those another one includes (every value of the dropped one satisfies the kept one), so a
 * union keeps its values with fewer alternatives: "user is missing" keeps "user is missing and type fails its enum"
 * out. Above {@link MAX_INCLUSION_CHECKED} alternatives the check is skipped (the budget then decides), so its
 * pairwise cost stays bounded.
 */
function withoutIncluded<T extends DifferenceTyped>(alternatives: T[], context: DifferenceContext<T>): T[] {
  if (alternatives.length < 2 || alternatives.length > MAX_INCLUSION_CHECKED) return alternatives;
  // a count of pairs per compile, not a deadline: a schema gets the same alternatives on every machine
  const left = inclusionPairsLeft.get(context) ?? context.maxInclusionPairs ?? MAX_INCLUSION_PAIRS;
  if (left < alternatives.length * alternatives.length) return alternatives;
  inclusionPairsLeft.set(context, left - alternatives.length * alternatives.length);
  // the set-valued fields last: the numeric bounds tell most pairs apart first
  const costly = new Set(['properties', 'required', 'additional', 'patternGroups', 'prefix', 'items', 'contains', 'dependencies']);
  // the key rules' fields are judged together (fieldIncludes): once per pair, under the first of their names
  const named = new Set<string>();
  let lastKeys: string[] = [];
  for (const typed of alternatives) {
    // alternatives built alike have their fields in one order: those are read once
    const keys = Object.keys(typed);
    if (keys.length === lastKeys.length && keys.every((field, index) => field === lastKeys[index])) continue;
    for (const field of keys) named.add(KEY_RULE_FIELDS.has(field) ? 'properties' : field);
    lastKeys = keys;
  }
  const fields = [...named].sort((left, right) => Number(costly.has(left)) - Number(costly.has(right)));
  // every pair compares the same fields: each value is read once (per pass), then its id is looked up by identity
  const { structures } = idsOf(context as unknown as DifferenceContext<DifferenceTyped>);
  const fieldId = (typed: T, field: string): number => structures.idOf((typed as unknown as Fields)[field]);
  const dropped = new Uint8Array(alternatives.length);
  // whether an alternative is dropped depends on which alternatives are kept when its turn comes, not on the order they
  // are asked in: the few broad ones that included others are asked first (most recent first), as they include most
  const includers: number[] = [];
  const askedFor = new Int32Array(alternatives.length).fill(-1);
  const required = requiredNameBits(alternatives);
  const forbidden = forbiddenNameBits(alternatives, (typed, name) => context.valueSet(typed, name));
  const included = (outer: number, inner: number): boolean => {
    askedFor[outer] = inner;
    // most pairs fail here: a name the outer one requires and the inner one does not, or one the outer one forbids
    // and the inner one allows (a literal is judged by its values)
    const missed = (required[outer]! & ~required[inner]!) | (forbidden.declared[outer]! & ~forbidden.held[inner]!);
    if (missed !== 0 && alternatives[inner]!.literals === undefined) return false;
    return includes(alternatives[outer]!, alternatives[inner]!, fields, context, fieldId);
  };
  for (let inner = 0; inner < alternatives.length; inner++) {
    for (let at = 0; at < includers.length && dropped[inner] === 0; at++) {
      const outer = includers[at]!;
      if (outer === inner || dropped[outer] === 1 || !included(outer, inner)) continue;
      dropped[inner] = 1;
      includers[at] = includers[0]!;
      includers[0] = outer;
    }
    for (let outer = 0; outer < alternatives.length && dropped[inner] === 0; outer++) {
      if (outer === inner || dropped[outer] === 1 || askedFor[outer] === inner || !included(outer, inner)) continue;
      dropped[inner] = 1;
      includers.unshift(outer);
    }
  }
  return alternatives.filter((_, index) => dropped[index] === 0);
}

/**
 * Per alternative, its required names as bits (a name's bit is its index among the names of these alternatives,
 * modulo 32): when `outer` requires a name `inner` does not, `outer`'s bits hold one `inner`'s lack, unless two names share it.
 */
export function requiredNameBits(alternatives: readonly DifferenceTyped[]): Int32Array {
  const bits = new Int32Array(alternatives.length);
  const indexOf = new Map<string, number>();
  alternatives.forEach((typed, at) => {
    for (const name of typed.required) {
      let index = indexOf.get(name);
      if (index === undefined) indexOf.set(name, (index = indexOf.size));
      bits[at]! |= 1 << (index & 31);
    }
  });
  return bits;
}

/**
 * Per alternative, the names whose value schema is `false` (the key may not appear) as bits, as {@link requiredNameBits}
 * numbers them: `declared` among the names it declares or requires (the names {@link fieldIncludes} judges), `held` among
 * every name some alternative declares so. Only `false` implies `false`: when `outer` declares a name `false` that
 * `inner` allows, `outer`'s declared bits hold one of `inner`'s held bits lack, unless two names share it.
 */
export function forbiddenNameBits<T extends DifferenceTyped>(
  alternatives: readonly T[],
  valueSet: (typed: T, name: string) => LocationSet,
): { declared: Int32Array; held: Int32Array } {
  const declared = new Int32Array(alternatives.length);
  const indexOf = new Map<string, number>();
  alternatives.forEach((typed, at) => {
    for (const names of [typed.properties.keys(), typed.required])
      for (const name of names) {
        if (!isFalse(valueSet(typed, name))) continue;
        let index = indexOf.get(name);
        if (index === undefined) indexOf.set(name, (index = indexOf.size));
        declared[at]! |= 1 << (index & 31);
      }
  });
  const held = new Int32Array(alternatives.length);
  if (indexOf.size > 0)
    alternatives.forEach((typed, at) => {
      for (const [name, index] of indexOf) if (isFalse(valueSet(typed, name))) held[at]! |= 1 << (index & 31);
    });
  return { declared, held };
}

/** The fields of an object's key rules, which {@link fieldIncludes} judges together. */
const KEY_RULE_FIELDS = new Set(['properties', 'required', 'additional', 'patternGroups']);

/** Most alternatives {@link withoutIncluded} compares pairwise: four times the default alternatives budget. */
const MAX_INCLUSION_CHECKED = 1024;
/** Pairs {@link withoutIncluded} may compare over one compile (one difference context), about a second of one core at most. */
const MAX_INCLUSION_PAIRS = 4_000_000;
const inclusionPairsLeft = new WeakMap<object, number>();

/**
 * Whether every value of `inner` satisfies `outer`, judged field by field; false whenever a field is not understood or differs.
 * `fieldId` is a field's value's id for equality ({@link StructureIds}).
 */
function includes<T extends DifferenceTyped>(
  outer: T,
  inner: T,
  fields: string[],
  context: DifferenceContext<T>,
  fieldId: (typed: T, field: string) => number,
): boolean {
  if (outer.type !== inner.type) return false;
  // a finite alternative is included when each of its values is
  if (inner.literals !== undefined) return inner.literals.every((value) => !context.satisfies(value, inner) || context.satisfies(value, outer));
  if (outer.literals !== undefined) return false;
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index]!;
    if (fieldIncludes(field, outer, inner, context, fieldId)) continue;
    // the field that told this pair apart tells most of the next apart too (in a complement, usually the key rules):
    // it is judged first from now on, which changes no answer (every field must hold) but saves judging the others
    fields[index] = fields[0]!;
    fields[0] = field;
    return false;
  }
  return true;
}

const sources = (rules: unknown): Set<string> => new Set((rules as { source: string }[]).map((rule) => rule.source));
// alternatives cut from one another share most of their location sets: the same array implies itself
const implied = (held: LocationSet, needed: LocationSet): boolean => held === needed || implies(held, needed);

function fieldIncludes<T extends DifferenceTyped>(
  field: string,
  outer: T,
  inner: T,
  context: DifferenceContext<T>,
  fieldId: (typed: T, field: string) => number,
): boolean {
  // two declarations, not a destructured pair: that pair was an array per field of every pair judged
  const o = outer as unknown as Fields;
  const i = inner as unknown as Fields;
  switch (field) {
    case 'type':
    case 'literals':
    case 'pointer':
    case 'order':
      // the type and literals are compared above; the pointer words messages and the order lays values out
      return true;
    case 'integer':
    case 'fractional':
    case 'uniqueItems':
      return o[field] !== true || i[field] === true;
    case 'minLength':
    case 'minItems':
    case 'minProperties':
      return (i[field] as number) >= (o[field] as number);
    case 'maxLength':
    case 'maxItems':
    case 'maxProperties':
      return (i[field] as number) <= (o[field] as number);
    case 'minimum':
    case 'exclusiveMinimum':
      return inner.minimum > outer.minimum || (inner.minimum === outer.minimum && (inner.exclusiveMinimum || !outer.exclusiveMinimum));
    case 'maximum':
    case 'exclusiveMaximum':
      return inner.maximum < outer.maximum || (inner.maximum === outer.maximum && (inner.exclusiveMaximum || !outer.exclusiveMaximum));
    case 'patterns':
    case 'formats': {
      // most alternatives have none: no sets built for every pair then
      if ((o[field] as unknown[]).length === 0) return true;
      const held = sources(i[field]);
      return [...sources(o[field])].every((source) => held.has(source));
    }
    case 'languages':
    case 'multiples':
    case 'nonMultiples':
      return (o[field] as unknown[]).every((value) => (i[field] as unknown[]).includes(value));
    case 'prefix':
    case 'items': {
      const length = Math.max(outer.prefix.length, inner.prefix.length);
      for (let index = 0; index < length; index++) if (!implied(inner.prefix[index] ?? inner.items, outer.prefix[index] ?? outer.items)) return false;
      return implied(inner.items, outer.items);
    }
    case 'contains':
      return outer.contains.every((rule) =>
        inner.contains.some(
          (held) => held.set.length === rule.set.length && held.set.every((id, at) => id === rule.set[at]) && held.min >= rule.min && held.max <= rule.max,
        ),
      );
    case 'properties':
    case 'required':
    case 'additional':
    case 'patternGroups': {
      if (outer.patternGroups.length > 0 && fieldId(outer, 'patternGroups') !== fieldId(inner, 'patternGroups')) return false;
      for (const name of outer.required) if (!inner.required.has(name)) return false;
      // a name in two of these is judged twice, alike: cheaper than collecting them into a set for every pair (and three
      // loops, not one over a list of them: that list and its iterators were most of what judging a pair allocated)
      for (const name of outer.properties.keys()) if (!implied(context.valueSet(inner, name), context.valueSet(outer, name))) return false;
      for (const name of inner.properties.keys()) if (!implied(context.valueSet(inner, name), context.valueSet(outer, name))) return false;
      for (const name of outer.required) if (!implied(context.valueSet(inner, name), context.valueSet(outer, name))) return false;
      return implied(inner.additional, outer.additional);
    }
    case 'propertyNames':
      return implied(i.propertyNames as LocationSet, o.propertyNames as LocationSet);
    case 'dependencies': {
      const [od, id] = [o.dependencies as Map<string, Set<string>>, i.dependencies as Map<string, Set<string>>];
      return [...od].every(([name, dependents]) => [...dependents].every((dependent) => id.get(name)?.has(dependent) === true));
    }
    default:
      // a field this check does not know: included only when equal
      return fieldId(outer, field) === fieldId(inner, field);
  }
}

export function isDefault(value: unknown, reference: unknown): boolean {
  if (value === reference) return true;
  if (value instanceof Map || value instanceof Set) return value.size === 0 && (reference instanceof Map || reference instanceof Set) && reference.size === 0;
  if (Array.isArray(value) && Array.isArray(reference)) return value.length === reference.length && value.every((item, index) => item === reference[index]);
  return false;
}
