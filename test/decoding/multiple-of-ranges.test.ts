/**
 * `multipleOf` on ranges that reach past the bound where Ajv's floating-point test equals exact divisibility (±2^53 for
 * an integer divisor, ±10^(15 − decimals) for a binary fraction): the mask keeps exactly the multiples the registry
 * accepts within that bound and nothing beyond it, where the registry also accepts values by double rounding (the
 * documented narrowing, asserted here). A complement of an integer `multipleOf` on integers is built as its own language
 * (the non-multiples), cut the same way, never as the complement of the cut multiples, which would widen past the
 * registry; beside a fractional divisor it stays refused.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError, type CompiledGrammar } from '../../src/decoding/index.js';
import { literalText } from '../../src/decoding/lower-json-schema.js';
import { ajvMultipleOf } from '../../src/decoding/multiple-of-language.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';

const vocabulary = byteVocabulary().buildIndex();

const DIVISORS = [2, 3, 5, 7, 10, 1000, 0.5, 0.25, 2.5];
/** Ranges that reach past the exact bound on one side or both, with exclusive bounds and negatives. */
const RANGES: Record<string, unknown>[] = [
  {},
  { minimum: 0 },
  { exclusiveMaximum: 0 },
  { minimum: -1e20, maximum: 1e20 },
  { exclusiveMinimum: -7, maximum: 2 ** 60 },
];
const TYPES: Record<string, unknown>[] = [{ type: 'integer' }, { type: 'number' }, {}];

/** The exact bound of a divisor, written out here rather than read from the code under test. */
function exactBound(divisor: number): number {
  const decimals = (String(divisor).split('.')[1] ?? '').length;
  return decimals === 0 ? 2 ** 53 : 10 ** (15 - decimals);
}

/** Multiples and near-misses around 0, around ±bound (k · m for k at bound / m ± 2) and far past it. */
function probes(divisor: number, bound: number): number[] {
  const values = new Set<number>([0, 1, -1, 2 ** 53, 2 ** 53 + 2, 2 ** 53 - 1, 2 ** 53 - 2, 2 ** 60, 1e21, 2 ** 63, 1e300, Number.MAX_VALUE]);
  const edge = Math.floor(bound / divisor);
  for (const k of [0, 1, 2, 3, 7, 12, 100, 1001, edge - 2, edge - 1, edge, edge + 1, edge + 2, edge * 4]) {
    for (const offset of [0, 1, 0.5, divisor / 2, divisor / 4, -1]) values.add(k * divisor + offset);
  }
  for (const offset of [-divisor, -1, 0, 1, divisor]) values.add(bound + offset);
  return [...values].flatMap((value) => [value, -value]);
}

function maskAccepts(grammar: CompiledGrammar, text: string): boolean {
  const matcher = grammar.matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
}

/** Within ±bound the mask and the registry agree on every probe's layout text; past it the mask rejects all and the registry's acceptances are returned. */
function compare(
  schema: Record<string, unknown>,
  divisors: readonly number[],
  bound: number,
): { agreed: number; valid: number; narrowed: number[]; disagreements: string[] } {
  const grammar = compileJsonSchema(schema, vocabulary);
  const validator = compileSchema(schema);
  const disagreements: string[] = [];
  const narrowed: number[] = [];
  let agreed = 0;
  let valid = 0;
  for (const value of new Set(divisors.flatMap((divisor) => probes(divisor, bound)))) {
    const text = literalText(value);
    const registry = validator.validate(value).success;
    const mask = maskAccepts(grammar, text);
    if (Math.abs(value) < bound) {
      if (mask !== registry)
        disagreements.push(`${JSON.stringify(schema)} ${text}: the registry ${registry ? 'accepts' : 'rejects'}, the mask ${mask ? 'accepts' : 'rejects'}`);
      else agreed++;
      if (registry) valid++;
    } else {
      if (mask) disagreements.push(`${JSON.stringify(schema)} ${text}: past ±${bound}, the mask accepts`);
      if (registry) narrowed.push(value);
    }
    // the layout writes multiples in plain decimal: an exponent text is refused, whatever its value
    if (value !== 0 && Number.isInteger(value) && Math.abs(value) < 1e21 && maskAccepts(grammar, `${value}e0`)) disagreements.push(`${text}e0 accepted`);
  }
  return { agreed, valid, narrowed, disagreements };
}

describe('multipleOf on ranges past the bound where Ajv is exact', () => {
  it.each(DIVISORS)('multipleOf %s: exactly the registry within the bound, nothing past it, on every type and range', (divisor) => {
    const bound = exactBound(divisor);
    for (const type of TYPES) {
      for (const range of RANGES) {
        const schema = { ...type, ...range, multipleOf: divisor };
        const { agreed, valid, narrowed, disagreements } = compare(schema, [divisor], bound);
        expect(disagreements).toEqual([]);
        expect(valid).toBeGreaterThan(3);
        expect(agreed - valid).toBeGreaterThan(3);
        // the narrowing is real: past the bound the registry accepts values the mask does not offer
        if (range.maximum === undefined || (range.maximum as number) >= bound) expect(narrowed.length).toBeGreaterThan(0);
      }
    }
  });

  it('the documented narrowing: the registry accepts these past the bound, the mask does not', () => {
    // 2^53 + 2 is a multiple of 2; 2^53 + 1 parses to 2^53, so its text passes too; 1e21 / 2 reads back as an integer
    const schema = { type: 'integer', multipleOf: 2 };
    const grammar = compileJsonSchema(schema, vocabulary);
    const validator = compileSchema(schema);
    for (const text of ['9007199254740994', '9007199254740993', '-9007199254740994', '1000000000000000000000']) {
      expect([text, validator.validate(JSON.parse(text)).success, maskAccepts(grammar, text)]).toEqual([text, true, false]);
    }
    // Ajv's verdict there follows rounding, not divisibility: 2^60 passes for 3 although 3 does not divide it
    expect(ajvMultipleOf(2 ** 60, 3)).toBe(true);
    expect(2n ** 60n % 3n).not.toBe(0n);
    const byThree = { type: 'integer', multipleOf: 3 };
    expect([compileSchema(byThree).validate(2 ** 60).success, maskAccepts(compileJsonSchema(byThree, vocabulary), '1152921504606846976')]).toEqual([
      true,
      false,
    ]);
    expect(maskAccepts(grammar, '9007199254740990')).toBe(true);
    expect(maskAccepts(grammar, '9007199254740991')).toBe(false);
  });

  it('several divisors (allOf, with m = 1) take the smallest bound; a oneOf of disjoint branches is cut branch by branch', () => {
    const cases: [Record<string, unknown>, number[], number][] = [
      [{ allOf: [{ multipleOf: 4 }, { multipleOf: 6 }] }, [4, 6, 12], 2 ** 53],
      [{ type: 'number', allOf: [{ multipleOf: 2.5 }, { multipleOf: 0.25 }] }, [2.5, 0.25], 1e13],
      [{ multipleOf: 1, allOf: [{ multipleOf: 3 }] }, [1, 3], 2 ** 53],
      [{ type: 'integer', multipleOf: 0.5, minimum: -5 }, [0.5, 1], 1e14],
      [
        {
          oneOf: [
            { type: 'integer', multipleOf: 2, minimum: 0 },
            { type: 'integer', multipleOf: 3, maximum: -1 },
          ],
        },
        [2, 3],
        2 ** 53,
      ],
      // JSON-Schema-Test-Suite if-then-else.json#4: the else branch is "not negative ∧ multiple of 2"
      [{ if: { exclusiveMaximum: 0 }, then: { minimum: -10 }, else: { multipleOf: 2 } }, [2, 5], 2 ** 53],
    ];
    for (const [schema, divisors, bound] of cases) {
      const { valid, narrowed, disagreements } = compare(schema, divisors, bound);
      expect(disagreements).toEqual([]);
      expect([JSON.stringify(schema), valid > 3, narrowed.length > 0]).toEqual([JSON.stringify(schema), true, true]);
    }
  });

  it('is not reported as relaxed: the keyword is enforced (narrowed), not dropped', () => {
    for (const schema of [{ type: 'integer', multipleOf: 5 }, { multipleOf: 2 }, { type: 'number', multipleOf: 0.5 }]) {
      expect(compileJsonSchema(schema, vocabulary, { lenient: true }).relaxed).toEqual([]);
    }
  });

  it('cuts the integers of the complement of an integer multipleOf to the bound too (not, if, an overlapping oneOf), and refuses it beside a fractional one', () => {
    const cases: [Record<string, unknown>, number[]][] = [
      [{ type: 'integer', not: { multipleOf: 2 } }, [2]],
      [{ type: 'integer', not: { multipleOf: 3 }, minimum: 0 }, [3]],
      [{ type: 'integer', if: { multipleOf: 2 }, then: { minimum: 0 } }, [2]],
      [{ type: 'integer', oneOf: [{ multipleOf: 3 }, { multipleOf: 5 }] }, [3, 5]],
      [{ not: { multipleOf: 2 } }, [2]],
      [{ if: { multipleOf: 2 }, then: { minimum: 0 } }, [2]],
      [{ oneOf: [{ multipleOf: 3 }, { multipleOf: 5 }] }, [3, 5]],
    ];
    for (const [schema, divisors] of cases) {
      const { valid, narrowed, disagreements } = compare(schema, divisors, 2 ** 53);
      expect(disagreements).toEqual([]);
      expect([JSON.stringify(schema), valid > 3, narrowed.length > 0]).toEqual([JSON.stringify(schema), true, true]);
    }
    const refusedAt = (schema: Record<string, unknown>): string | undefined => {
      try {
        compileJsonSchema(schema, vocabulary);
      } catch (error) {
        if (error instanceof UnsupportedSchemaError) return error.keyword;
        throw error;
      }
      return undefined;
    };
    expect(refusedAt({ multipleOf: 0.5, not: { multipleOf: 2 } })).toBe('multipleOf');
    expect(refusedAt({ not: { multipleOf: 0.5 } })).toBe('multipleOf');
    expect(refusedAt({ type: 'array', contains: { multipleOf: 2 }, maxContains: 1 })).toBeUndefined();
  });

  it('refuses a range with no multiple within the bound rather than offer no number', () => {
    expect(() => compileJsonSchema({ type: 'integer', minimum: 2 ** 60, multipleOf: 3 }, vocabulary)).toThrow(
      /no multiple of 3 in the range lies within ±9007199254740992/,
    );
    // a decimal divisor that is neither a binary fraction nor 1 / n (checked as written: decimal-multiples.test.ts) stays refused on an unbounded range
    expect(() => compileJsonSchema({ type: 'number', multipleOf: 0.3 }, vocabulary)).toThrow(UnsupportedSchemaError);
    // on integers 1.1 means a multiple of 11, but its double is too far from 11 / 10: Ajv rejects 33
    expect(() => compileJsonSchema({ type: 'integer', multipleOf: 1.1 }, vocabulary)).toThrow(UnsupportedSchemaError);
  });
});
