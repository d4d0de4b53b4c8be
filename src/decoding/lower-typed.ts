/**
 * What every stage of the lowering (`lower-json-schema.ts`) shares: a schema location and a set of them, the typed
 * alternative a schema denotes before it is lowered (`Typed`), and the pure operations on it (the blank alternative,
 * the intersection of two, a property's value set, the property layout) plus JSON equality and the engine's layout.
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import type { CodePointDfa } from '../shared/regex/code-point-dfa.js';
import type { SchemaPlace } from '../shared/json-schema/schema-registry.js';
import { toPlainDecimal } from './number-language.js';
import type { ContainsRule, KeyWitness } from './schema-complement.js';
import { formatLanguage } from './string-formats.js';

/** A keyword the compiler dropped because `lenient` was set. */
export interface RelaxedKeyword {
  /** The keyword, e.g. `uniqueItems`, or `format` / `pattern` for an unsupported value. */
  readonly keyword: string;
  /** JSON pointer of the schema object holding it. */
  readonly pointer: string;
  /** What the engine could not enforce, and so no longer enforces. */
  readonly details: string;
}

export type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
export const ALL_TYPES: readonly JsonType[] = ['null', 'boolean', 'object', 'array', 'string', 'number'];

/** Sorted ids of schema locations that must all hold; `[]` is `true`, `[FALSE_LOCATION]` is `false`. */
export type LocationSet = readonly number[];
export const FALSE_LOCATION = 0;
export const TRUE_SET: LocationSet = [];
export const FALSE_SET: LocationSet = [FALSE_LOCATION];

export interface Location {
  readonly id: number;
  readonly schema: unknown;
  readonly place: SchemaPlace;
  /** Set for a location that denotes the complement of this set (`not`, `if`/`else`, `oneOf`). */
  readonly complementOf?: LocationSet;
  /** With `complementOf`: the location denotes `within ∧ ¬complementOf` (the item values that miss `contains`). */
  readonly within?: LocationSet;
  /** With `complementOf`: the keyword a refused complement names (default `not`). */
  readonly keyword?: string;
  /** For a schema holding a dynamic reference: the schema where the registry's Ajv function holding it starts. */
  readonly frame?: Record<string, unknown>;
}

export interface PatternRule {
  readonly source: string;
  readonly pointer: string;
}

/** One typed alternative of a denotation, before lowering. */
export interface Typed {
  type: JsonType;
  integer: boolean;
  /** Only non-integers (the complement of `integer`, from `not`, `if` or an overlapping `oneOf`). */
  fractional: boolean;
  /** enum/const values of this type that remain possible; undefined when unrestricted. */
  literals: unknown[] | undefined;
  minLength: number;
  maxLength: number;
  patterns: PatternRule[];
  /** Complement DFAs (from `not`) the string must match too. */
  languages: CodePointDfa[];
  formats: PatternRule[];
  minimum: number;
  exclusiveMinimum: boolean;
  maximum: number;
  exclusiveMaximum: boolean;
  /** `multipleOf` divisors that all hold (Ajv's floating-point test). */
  multiples: number[];
  /** `multipleOf` divisors none of which holds (complements from `not`, `if` or an overlapping `oneOf`). */
  nonMultiples: number[];
  prefix: LocationSet[];
  items: LocationSet;
  minItems: number;
  maxItems: number;
  /** `uniqueItems: true` somewhere in the intersection. */
  uniqueItems: boolean;
  /** `contains` rules that all hold. */
  contains: ContainsRule[];
  order: string[];
  properties: Map<string, LocationSet>;
  required: Set<string>;
  /** Value of keys neither declared nor governed by a pattern group (with groups: conjoined with theirs). */
  additional: LocationSet;
  minProperties: number;
  maxProperties: number;
  propertyNames: LocationSet;
  /** One per schema with patternProperties: its patterns, and its additionalProperties for keys matching none. */
  patternGroups: PatternGroup[];
  /** dependentRequired (and array-valued draft-7 dependencies): name → names it makes required. */
  dependencies: Map<string, Set<string>>;
  /** Complements of other objects' key rules: each needs some key outside its names whose value fails its rules (`schema-complement.ts`). */
  witnesses: KeyWitness<PatternGroup>[];
  pointer: string;
}

export interface PatternGroup {
  readonly rules: readonly { readonly source: string; readonly set: LocationSet; readonly dfa: CodePointDfa }[];
  readonly additional: LocationSet;
}

/**
 * Keywords that only annotate (or hold subschemas handled elsewhere): nothing to enforce. The references are

/** One alternative of every string format on a string, combined: regexes that must all match, and length bounds. */
export interface FormatChoice {
  readonly patterns: readonly { readonly source: string; readonly ignoreCase: boolean }[];
  readonly minLength: number;
  readonly maxLength: number;
  readonly pointer: string | undefined;
}

/** The ways a string can satisfy all its formats (the product of their alternatives; one way when there is no format). */
export function formatChoices(formats: readonly PatternRule[]): FormatChoice[] {
  let choices: FormatChoice[] = [{ patterns: [], minLength: 0, maxLength: Infinity, pointer: undefined }];
  // a format met twice (`items` and `contains` both `date-time`) holds once: its alternatives are not multiplied by themselves
  const met = new Set<string>();
  for (const format of formats) {
    const language = formatLanguage(format.source);
    if (language?.kind !== 'string' || met.has(format.source)) continue;
    met.add(format.source);
    choices = choices.flatMap((choice) =>
      language.alternatives.map((alternative) => ({
        patterns: [...choice.patterns, ...alternative.patterns.map((source) => ({ source, ignoreCase: language.ignoreCase }))],
        minLength: Math.max(choice.minLength, alternative.minLength ?? 0),
        maxLength: Math.min(choice.maxLength, alternative.maxLength ?? Infinity),
        pointer: choice.pointer ?? format.pointer,
      })),
    );
  }
  return choices;
}

export function blank(type: JsonType, pointer: string): Typed {
  return {
    type,
    integer: false,
    fractional: false,
    literals: undefined,
    minLength: 0,
    maxLength: Infinity,
    patterns: [],
    languages: [],
    formats: [],
    minimum: -Infinity,
    exclusiveMinimum: false,
    maximum: Infinity,
    exclusiveMaximum: false,
    multiples: [],
    nonMultiples: [],
    prefix: [],
    items: TRUE_SET,
    minItems: 0,
    maxItems: Infinity,
    uniqueItems: false,
    contains: [],
    order: [],
    properties: new Map(),
    required: new Set(),
    additional: TRUE_SET,
    minProperties: 0,
    maxProperties: Infinity,
    propertyNames: TRUE_SET,
    patternGroups: [],
    dependencies: new Map(),
    witnesses: [],
    pointer,
  };
}

export function tightenLow(typed: Typed, value: number, exclusive: boolean): void {
  if (value > typed.minimum || (value === typed.minimum && exclusive)) {
    typed.minimum = value;
    typed.exclusiveMinimum = exclusive;
  }
}

export function tightenHigh(typed: Typed, value: number, exclusive: boolean): void {
  if (value < typed.maximum || (value === typed.maximum && exclusive)) {
    typed.maximum = value;
    typed.exclusiveMaximum = exclusive;
  }
}

function sameSet(left: LocationSet, right: LocationSet): boolean {
  return left.length === right.length && left.every((id, index) => id === right[index]);
}

/** The largest count of `rule` told apart: past its maxContains nothing is written, past its minContains alone counts are alike. */
export function countCap(rule: ContainsRule): number {
  return rule.max === Infinity ? rule.min : rule.max;
}

export function unionSets(left: LocationSet, right: LocationSet): LocationSet {
  if (left[0] === FALSE_LOCATION || right[0] === FALSE_LOCATION) return FALSE_SET;
  // pieces of a difference share most of their location sets with the alternative they were cut from
  if (left.length === 0 || left === right) return right;
  if (right.length === 0) return left;
  return [...new Set([...left, ...right])].sort((a, b) => a - b);
}

/** Both lists, one after the other; a list alone is shared, not copied (an alternative's lists are not changed once it is built). */
function joined<V>(left: V[], right: V[]): V[] {
  if (right.length === 0) return left;
  return left.length === 0 ? right : [...left, ...right];
}

/**
 * The alternative both `a` and `b` hold, or undefined when none can; built in one go, in {@link blank}'s field order (the
 * differences intersect thousands of pieces, most pruned right after), sharing the lists, Maps and Sets one side leaves
 * unchanged: an alternative is not changed once built (every step that changes one copies it first).
 */
export function intersectTyped(a: Typed, b: Typed): Typed | undefined {
  if (a.type !== b.type) return undefined;
  const integer = a.integer || b.integer;
  const fractional = a.fractional || b.fractional;
  if (integer && fractional) return undefined;
  const literals =
    a.literals !== undefined && b.literals !== undefined
      ? a.literals.filter((value) => b.literals!.some((other) => jsonEqual(value, other)))
      : (a.literals ?? b.literals);
  if (literals !== undefined && literals.length === 0) return undefined;
  const low = b.minimum > a.minimum || (b.minimum === a.minimum && b.exclusiveMinimum) ? b : a;
  const high = b.maximum < a.maximum || (b.maximum === a.maximum && b.exclusiveMaximum) ? b : a;
  return {
    type: a.type,
    integer,
    fractional,
    literals,
    minLength: Math.max(a.minLength, b.minLength),
    maxLength: Math.min(a.maxLength, b.maxLength),
    patterns: joined(a.patterns, b.patterns),
    languages: joined(a.languages, b.languages),
    formats: joined(a.formats, b.formats),
    minimum: low.minimum,
    exclusiveMinimum: low.exclusiveMinimum,
    maximum: high.maximum,
    exclusiveMaximum: high.exclusiveMaximum,
    multiples: joined(a.multiples, b.multiples),
    nonMultiples: joined(a.nonMultiples, b.nonMultiples),
    prefix: intersectPrefix(a, b),
    items: unionSets(a.items, b.items),
    minItems: Math.max(a.minItems, b.minItems),
    maxItems: Math.min(a.maxItems, b.maxItems),
    uniqueItems: a.uniqueItems || b.uniqueItems,
    contains: intersectContains(a.contains, b.contains),
    order: b.order.length === 0 ? a.order : [...a.order, ...b.order.filter((name) => !a.properties.has(name))],
    properties: intersectProperties(a, b),
    required: b.required.size === 0 ? a.required : a.required.size === 0 ? b.required : new Set([...a.required, ...b.required]),
    additional: unionSets(a.additional, b.additional),
    minProperties: Math.max(a.minProperties, b.minProperties),
    maxProperties: Math.min(a.maxProperties, b.maxProperties),
    propertyNames: unionSets(a.propertyNames, b.propertyNames),
    patternGroups: joined(a.patternGroups, b.patternGroups),
    dependencies: intersectDependencies(a.dependencies, b.dependencies),
    witnesses: joined(a.witnesses, b.witnesses),
    pointer: a.pointer,
  };
}

function intersectPrefix(a: Typed, b: Typed): LocationSet[] {
  const length = Math.max(a.prefix.length, b.prefix.length);
  if (length === 0) return a.prefix;
  const prefix: LocationSet[] = [];
  for (let index = 0; index < length; index++) prefix.push(unionSets(a.prefix[index] ?? a.items, b.prefix[index] ?? b.items));
  return prefix;
}

function intersectContains(left: ContainsRule[], right: ContainsRule[]): ContainsRule[] {
  if (right.length === 0) return left;
  const contains = [...left];
  for (const rule of right) {
    // the same schema counted twice is one counter with both bounds
    const same = contains.findIndex((other) => sameSet(other.set, rule.set));
    if (same < 0) contains.push(rule);
    else {
      const other = contains[same]!;
      contains[same] = { ...other, min: Math.max(other.min, rule.min), max: Math.min(other.max, rule.max) };
    }
  }
  return contains;
}

/** Every name either side lists, in order of first mention, with the value schemas of both. */
function intersectProperties(a: Typed, b: Typed): Map<string, LocationSet> {
  const properties = new Map<string, LocationSet>();
  for (const names of [a.order, b.order])
    for (const name of names) if (!properties.has(name)) properties.set(name, unionSets(valueSetFor(a, name), valueSetFor(b, name)));
  return properties;
}

function intersectDependencies(left: Map<string, Set<string>>, right: Map<string, Set<string>>): Map<string, Set<string>> {
  if (right.size === 0) return left;
  if (left.size === 0) return right;
  const dependencies = new Map<string, Set<string>>();
  for (const source of [left, right]) {
    for (const [name, dependents] of source) dependencies.set(name, new Set([...(dependencies.get(name) ?? []), ...dependents]));
  }
  return dependencies;
}

/** The value schema of property `name`: declared, else the patterns it matches, else additionalProperties. */
export function valueSetFor(typed: Typed, name: string): LocationSet {
  return typed.properties.get(name) ?? undeclaredValueSet(typed.additional, typed.patternGroups, name);
}

/** The value schema of an undeclared key `name`: the patterns it matches in each group, else the group's and the object's additionalProperties. */
function undeclaredValueSet(additional: LocationSet, patternGroups: readonly PatternGroup[], name: string): LocationSet {
  let set = additional;
  for (const group of patternGroups) {
    const matching = group.rules.filter((rule) => rule.dfa.matches(name));
    set = matching.length === 0 ? unionSets(set, group.additional) : matching.reduce((result, rule) => unionSets(result, rule.set), set);
  }
  return set;
}

/** The value schema a key `name` outside a witness's names must fail to be its witness (the negated object's rules for it). */
export function witnessValueSet(witness: KeyWitness<PatternGroup>, name: string): LocationSet {
  return undeclaredValueSet(witness.additional, witness.patternGroups, name);
}

/** The value schema of keys matching the rules `matched` (ascending; rule `offset + i` is the i-th rule of the groups). */
export function signatureValueSet(groups: readonly PatternGroup[], additional: LocationSet, matched: readonly number[], offset: number): LocationSet {
  let set = additional;
  let next = 0;
  while (next < matched.length && matched[next]! < offset) next++;
  for (const group of groups) {
    let groupMatched = false;
    const end = offset + group.rules.length;
    for (; next < matched.length && matched[next]! < end; next++) {
      groupMatched = true;
      set = unionSets(set, group.rules[matched[next]! - offset]!.set);
    }
    if (!groupMatched) set = unionSets(set, group.additional);
    offset = end;
  }
  return set;
}

/** What property `name: value` must fail to be a witness of `witness`: its name `failingNames`, else its value the negated object's rules. */
export function witnessTest(witness: KeyWitness<PatternGroup>, name: string, value: unknown): [unknown, LocationSet] {
  return witness.failingNames !== undefined ? [name, witness.failingNames] : [value, witnessValueSet(witness, name)];
}

/** Property layout order: `properties`, then names only `required` or `dependentRequired` mention. */
export function layoutNames(typed: Typed): string[] {
  const names = [...typed.order];
  const seen = new Set(names);
  const add = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    names.push(name);
  };
  for (const name of typed.required) add(name);
  for (const [name, dependents] of typed.dependencies) {
    add(name);
    for (const dependent of dependents) add(dependent);
  }
  return names;
}

export function jsonTypeOf(value: unknown): JsonType | undefined {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : undefined;
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  if (isPlainObject(value)) return 'object';
  return undefined;
}

/** JSON equality: numbers by value (1 equals 1.0), objects regardless of key order. */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left === 'number' && typeof right === 'number') return left === right;
  if (Array.isArray(left) && Array.isArray(right)) return left.length === right.length && left.every((item, index) => jsonEqual(item, right[index]));
  if (isPlainObject(left) && isPlainObject(right)) {
    const leftKeys = Object.keys(left);
    if (leftKeys.length !== Object.keys(right).length) return false;
    return leftKeys.every((key) => Object.prototype.hasOwnProperty.call(right, key) && jsonEqual(left[key], right[key]));
  }
  return false;
}

/** Compact JSON with numbers in plain decimal: the engine's layout for literal values. */
export function literalText(value: unknown): string {
  if (typeof value === 'number') return toPlainDecimal(value);
  if (Array.isArray(value)) return `[${value.map(literalText).join(',')}]`;
  if (isPlainObject(value))
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${literalText(item)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
