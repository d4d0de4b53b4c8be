/**
 * Every budget the token-mask compiler works within, in one table: each bounds how much one schema may make the
 * engine build (alternatives, automaton states, counters), so a hostile or merely large schema is refused by count,
 * alike on every machine, instead of stalling or exhausting memory. `compileJsonSchema` takes overrides per compile
 * (`limits`); docs/decoding.md lists each with its default and what a schema past it gets.
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import { InvalidDecodingLimitsError } from './decoding-errors.js';

export interface DecodingLimits {
  /**
   * Steps one compile may spend building the regex, format and intersection automata it has not cached yet. Past it:
   * `DecodingLimitError` (`maxAutomatonWork`), naming the pattern. Also the `maxAutomatonWork` option.
   */
  readonly maxAutomatonWork: number;
  /** Grammar automaton states (≈1 KiB each). Past it, while matching: `DecodingLimitError` (`maxStates`). Also the `maxStates` option. */
  readonly maxStates: number;
  /** Nested frames (each object, array, string or number is one); deeper values are not offered. Also the `maxDepth` option. */
  readonly maxDepth: number;
  /** Typed alternatives one schema may denote (its `anyOf`, `oneOf`, `dependentSchemas` and complements multiplied out). */
  readonly maxAlternatives: number;
  /** Alternatives the complement of array or object literals (`not` of an `enum` of arrays or objects) may reach. */
  readonly maxLiteralComplementAlternatives: number;
  /** Items past the prefix that "some item fails `items`" (under `not` or an overlapping `oneOf`) is unrolled over. */
  readonly maxUnrolledItems: number;
  /** Copies of the schemas holding a dynamic reference, one per `$ref` target they are reached through. */
  readonly maxDynamicSpecializations: number;
  /** Declared properties an object may have when it tracks which were written (`propertyOrder: 'any'`, `dependentRequired`); at most 30. */
  readonly maxTrackedProperties: number;
  /**
   * Sets of `patternProperties` patterns that the keys of one object match, counted as the key automaton (the product
   * of the patterns, built only where a key can reach) meets them, "none" included: each is a key class with its own
   * value schema. Counts the work, not the patterns, so 60 patterns that exclude each other cost 61.
   */
  readonly maxKeyClasses: number;
  /** Sets of items a `uniqueItems` array may reach (the sum of C(n, k) for k up to `maxItems`). */
  readonly uniqueItemsMaxSets: number;
  /**
   * Distinct values the items of a `uniqueItems` array may take (the set written is a bit set); at most 30. Twice it plus
   * one bounds the texts of one number alternative among them.
   */
  readonly uniqueItemsMaxValues: number;
  /**
   * Bytes (as written, escapes included) of the item strings one matcher remembers for its `uniqueItems` arrays of
   * strings, of the undeclared keys it remembers for objects with `minProperties` above 1 beside them (kept
   * distinct), and of the canonical JSON of the object and array items it remembers, all arrays and objects of the
   * generation together. Past it, while matching: `DecodingLimitError` (`uniqueItemsMaxStringBytes`).
   */
  readonly uniqueItemsMaxStringBytes: number;
  /** Cells one array position is split into by different `contains` schemas (2^k for k schemas). */
  readonly containsMaxCells: number;
  /** Count states of an array with several `contains` schemas (the product of maxContains + 1, or minContains + 1). */
  readonly containsMaxCountStates: number;
  /** Multiples listed one by one where `multipleOf` has no exact remainder automaton (Ajv's floating-point test). */
  readonly multipleOfMaxValues: number;
  /** Largest scaled divisor the `multipleOf` remainder automaton is built for (0.25 scales to 25). */
  readonly multipleOfMaxModulus: number;
  /** States of the product of a number's automaton with its `multipleOf` remainder automata. */
  readonly multipleOfMaxStates: number;
}

/**
 * The defaults. `maxAutomatonWork` is 2.7 times what the costliest schema the coverage bench compiles needs
 * (1,874,393 steps), a few hundred milliseconds of one core; `^(.{0,100}){100}$`, which took 228 s to determinize,
 * is refused after it. The rest are set where the realistic schemas of docs/decoding.md's coverage table fit with room.
 */
export const DEFAULT_DECODING_LIMITS: Readonly<DecodingLimits> = Object.freeze({
  maxAutomatonWork: 5_000_000,
  maxStates: 200_000,
  maxDepth: 32,
  maxAlternatives: 256,
  maxLiteralComplementAlternatives: 256,
  maxUnrolledItems: 16,
  maxDynamicSpecializations: 1024,
  maxTrackedProperties: 30,
  maxKeyClasses: 256,
  uniqueItemsMaxSets: 4096,
  uniqueItemsMaxValues: 30,
  uniqueItemsMaxStringBytes: 1_048_576,
  containsMaxCells: 16,
  containsMaxCountStates: 4096,
  multipleOfMaxValues: 4096,
  multipleOfMaxModulus: 10_000,
  multipleOfMaxStates: 200_000,
});

/** Limits whose value is a bit position in a 32-bit integer (a set of properties or item values written): no higher. */
const CEILINGS: Partial<Record<keyof DecodingLimits, number>> = { maxTrackedProperties: 30, uniqueItemsMaxValues: 30 };

/** Limits that no longer exist, and what to set instead (the message a caller upgrading from an older version reads). */
const RENAMED_LIMITS: Readonly<Record<string, string>> = {
  maxKeyPatterns:
    'the key automaton is now bounded by the sets of patterns keys reach, not by the pattern count; set `limits.maxKeyClasses` (default 256) instead',
};

/**
 * The defaults with `overrides` laid over them, then `options` (the limits `compileJsonSchema` also takes as options of
 * their own). A field that is not a limit, or a value that is not a whole number of 1 or more (at most 30 for the two
 * bit-set limits), throws {@link InvalidDecodingLimitsError}.
 */
export function decodingLimits(overrides: unknown = {}, options: Partial<DecodingLimits> = {}): DecodingLimits {
  if (!isPlainObject(overrides)) throw new InvalidDecodingLimitsError('`limits` must be an object such as { maxAlternatives: 512 }');
  const limits: Record<string, number> = { ...DEFAULT_DECODING_LIMITS };
  for (const [name, value] of [...Object.entries(overrides), ...Object.entries(options)]) {
    if (!Object.prototype.hasOwnProperty.call(DEFAULT_DECODING_LIMITS, name)) {
      const replacement = RENAMED_LIMITS[name];
      if (replacement !== undefined) throw new InvalidDecodingLimitsError(`\`limits.${name}\` was replaced: ${replacement}`);
      throw new InvalidDecodingLimitsError(`\`limits\` has the unknown field "${name}"; the limits are ${Object.keys(DEFAULT_DECODING_LIMITS).join(', ')}`);
    }
    if (value === undefined) continue;
    const ceiling = CEILINGS[name as keyof DecodingLimits] ?? Number.MAX_SAFE_INTEGER;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > ceiling) {
      const range = ceiling === Number.MAX_SAFE_INTEGER ? 'a whole number of 1 or more' : `a whole number from 1 to ${ceiling}`;
      throw new InvalidDecodingLimitsError(`\`limits.${name}\` must be ${range} (got ${JSON.stringify(value) ?? String(value)})`);
    }
    limits[name] = value;
  }
  return limits as unknown as DecodingLimits;
}
