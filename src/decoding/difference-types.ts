/**
 * The shapes the difference of typed alternatives works on (`schema-complement.ts`) and its pruning
 * (`alternative-pruning.ts`) read: kept apart so that both import them without importing each other.
 * @module
 */
import type { CodePointDfa } from '../shared/regex/code-point-dfa.js';
import type { DecodingLimits } from './decoding-limits.js';

/** Sorted ids of schema locations that must all hold; `[]` is `true`, `[0]` is `false` (as in `lower-json-schema.ts`). */
export type LocationSet = readonly number[];

/**
 * `contains` with its bounds: the array holds between `min` and `max` items (`Infinity`: unbounded) that satisfy `set`.
 * `min > max` (Ajv: "always invalid") is kept as it is, so no array satisfies it and its complement is every array.
 */
export interface ContainsRule {
  readonly set: LocationSet;
  readonly min: number;
  readonly max: number;
  /** JSON pointer of the schema holding `contains`, for messages. */
  readonly pointer: string;
}

/**
 * "Some key outside `names` has a value that fails a negated object's rules for undeclared keys": its
 * `patternProperties` groups and `additionalProperties` (`additional` false: any such key, whatever its value).
 * The automaton cannot compare unbounded keys, and JSON.parse keeps the last of repeated keys
 * (`{"x": <fails>, "x": <passes>}` parses to a passing object), so the object is enforced to end with a
 * witness: its last key is undeclared and its value fails these rules; no later key can then overwrite it.
 * `grammar.format` writes a failing key last. A name the object declares beyond `names` (from an intersection
 * after the difference) is a way to fail of its own, expanded when the object is lowered (`lower-emit.ts`).
 */
export interface KeyWitness<G = unknown> {
  readonly patternGroups: readonly G[];
  readonly additional: LocationSet;
  /** Names whose failures the difference listed as pieces of their own. */
  readonly names: ReadonlySet<string>;
  /**
   * The complement of `propertyNames`: a key outside `names` is a witness when its name fails this set, whatever its
   * value (`patternGroups` empty, `additional` true). A name cannot be overwritten, so such a key may come anywhere.
   */
  readonly failingNames?: LocationSet;
  /** The keyword and pointer a refusal of this witness names. */
  readonly keyword: string;
  readonly pointer: string;
}

/** The fields of a typed alternative that the difference reads and writes (the lowering's `Typed`). */
export interface DifferenceTyped {
  type: 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
  integer: boolean;
  /** Only non-integers. */
  fractional: boolean;
  literals: unknown[] | undefined;
  minLength: number;
  maxLength: number;
  /** Extra string languages (complements built here) that must all match. */
  languages: CodePointDfa[];
  /** `format`s that must all hold, by name (`source`). */
  formats: { readonly source: string; readonly pointer: string }[];
  minimum: number;
  exclusiveMinimum: boolean;
  maximum: number;
  exclusiveMaximum: boolean;
  /** `multipleOf` divisors that all hold (Ajv's floating-point test). */
  multiples: number[];
  /** `multipleOf` divisors none of which holds. */
  nonMultiples: number[];
  prefix: LocationSet[];
  items: LocationSet;
  minItems: number;
  maxItems: number;
  /** `contains` rules that all hold (each counted on its own). */
  contains: ContainsRule[];
  order: string[];
  properties: Map<string, LocationSet>;
  required: Set<string>;
  /** `dependentRequired` (and array-valued draft-7 `dependencies`): name → names it makes required. */
  dependencies: Map<string, Set<string>>;
  additional: LocationSet;
  /** `patternProperties` groups; the difference reads them only through {@link DifferenceContext.valueSet}. */
  patternGroups: readonly unknown[];
  /** Complements of undeclared keys' rules that must all hold (see {@link KeyWitness}). */
  witnesses: KeyWitness[];
  propertyNames: LocationSet;
  minProperties: number;
  maxProperties: number;
  pointer: string;
}

/** One way a string can satisfy a typed alternative: its content DFA (undefined: any string) and length bounds. */
export interface StringPiece {
  readonly dfa: CodePointDfa | undefined;
  readonly minLength: number;
  readonly maxLength: number;
}

/** What the difference needs from the lowering. */
export interface DifferenceContext<T extends DifferenceTyped> {
  /** The budgets of the compile: the alternatives a difference, and a literal complement, may reach; the items a complement unrolls. */
  readonly limits: Pick<DecodingLimits, 'maxAlternatives' | 'maxLiteralComplementAlternatives' | 'maxUnrolledItems'>;
  blank(type: T['type'], pointer: string): T;
  intersect(left: T, right: T): T | undefined;
  /** A location set denoting the complement of `set` (every JSON value `set` rejects). */
  complement(set: LocationSet): LocationSet;
  /** The schemas a property `name` of an object alternative must satisfy: declared, else its matching patterns' or `additionalProperties`. */
  valueSet(typed: T, name: string): LocationSet;
  /** A location set denoting exactly one JSON value (`{ "const": value }`), placed at `pointer`. */
  literal(value: unknown, pointer: string): LocationSet;
  /** Whether a JSON value satisfies the typed alternative exactly as the engine enforces it. */
  satisfies(value: unknown, typed: T): boolean;
  /** The string language of a typed alternative as a union of pieces; undefined when a pattern is refused. */
  stringPieces(typed: T): StringPiece[] | undefined;
  /** The complement of a DFA (kept, so the same complement is one automaton). */
  complementDfa(dfa: CodePointDfa): CodePointDfa;
  /** The strings outside a format as automata whose union they are, for a format built so (the `time` family); else undefined. */
  formatComplement(name: string): readonly CodePointDfa[] | undefined;
  /** Refuses (or, lenient, records) `keyword` at `pointer`. */
  refuse(keyword: string, pointer: string, details: string): void;
  /** Pairs of alternatives the inclusion check may compare over the context's life (default `MAX_INCLUSION_PAIRS` in `alternative-pruning.ts`). */
  readonly maxInclusionPairs?: number;
}
