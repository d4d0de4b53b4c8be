/**
 * The complement of `multipleOf` (under `not`, `if`, an overlapping `oneOf`, `contains` beside `maxContains`) by an
 * integer divisor: on integer texts the remainder automaton with its acceptance flipped, cut to ±2^53 like the multiples
 * themselves; on non-integers every one but the subnormals Ajv's quotient rounds to 0 (`|d| ≤ ⌊m/2⌋ · 2^−1074`).
 * Exhaustively over the integers around 0 and around ±2^53 and over non-integers near multiples and among the
 * subnormals, on the byte vocabulary and the Qwen3, Llama 3 and Gemma 3 vocabularies, both layouts, whole and token by
 * token, the mask accepts a text exactly when the registry accepts its value; past ±2^53 it offers no integer (the
 * documented narrowing, shown to be real). Listed values are filtered by the registry's own predicate.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError, type CompiledGrammar } from '../../src/decoding/index.js';
import { literalText } from '../../src/decoding/lower-json-schema.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { everyArray, registryVerdict, type EncodingVocabulary, universeDisagreements } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const BOUND = 2 ** 53;

const TOKENIZERS = new Map<string, EncodingVocabulary>([
  ['bytes', { vocabulary: byteVocabulary().buildIndex(), encode: (text) => [...new TextEncoder().encode(text)] }],
  ...(['qwen3', 'llama3', 'gemma3'] as const).map((name): [string, EncodingVocabulary] => [name, loadTestTokenizer(name)]),
]);

/** Integers from −130 to 130, those next to ±2^53 on the inside, and non-integers a complement might let through. */
const NUMBERS: number[] = [
  ...Array.from({ length: 261 }, (_, index) => index - 130),
  ...[1, 2, 3, 4, 5, 6, 7, 8].flatMap((offset) => [BOUND - offset, offset - BOUND]),
  0.5,
  -1.5,
  2.25,
  3.0000000000000004,
];

/** Non-integers next to multiples (one ulp off 3, 6 and −3), plain and small ones, and the smallest subnormals. */
const NON_INTEGERS: number[] = [
  ...[0.5, 1.5, 2.5, -7.5, 4.4, 123.456, 1e-7, -2.5e-8, 3.0000000000000004, 5.999999999999999, -2.9999999999999996, 4503599627370495.5],
  ...[1, 2, 3, 4, 7].flatMap((count) => [count * Number.MIN_VALUE, -count * Number.MIN_VALUE]),
];

const INTEGER_CASES: Record<string, Record<string, unknown>> = {
  'not a multiple of 2': { type: 'integer', not: { multipleOf: 2 } },
  'not a multiple of 3, from 0': { type: 'integer', not: { multipleOf: 3 }, minimum: 0 },
  'not a multiple of 10 (a factor 2 · 5), below 50': { type: 'integer', not: { multipleOf: 10 }, exclusiveMaximum: 50 },
  'not a multiple of 7 nor of 4': { type: 'integer', not: { anyOf: [{ multipleOf: 7 }, { multipleOf: 4 }] } },
  'not a multiple of both 2 and 3 (6)': { type: 'integer', not: { allOf: [{ multipleOf: 2 }, { multipleOf: 3 }] } },
  'a multiple of 3 but not of 2': { type: 'integer', multipleOf: 3, not: { multipleOf: 2 } },
  'a double negation': { type: 'integer', not: { not: { multipleOf: 4 } } },
  'if even then positive, else below 20': { type: 'integer', if: { multipleOf: 2 }, then: { minimum: 0 }, else: { maximum: 20 } },
  'oneOf of 3 and 5, overlapping at 15': { type: 'integer', oneOf: [{ multipleOf: 3 }, { multipleOf: 5 }] },
  'oneOf beside a range': { type: 'integer', minimum: -40, maximum: 100, oneOf: [{ multipleOf: 4 }, { multipleOf: 6 }] },
};

/** Complements on any number: integers and non-integers alike. */
const NUMBER_CASES: Record<string, Record<string, unknown>> = {
  'not a multiple of 2, any number': { not: { multipleOf: 2 } },
  'not a multiple of 7 (three subnormals round to 0)': { not: { multipleOf: 7 } },
  'not a multiple of 3 in [-3, 4.5)': { type: 'number', minimum: -3, exclusiveMaximum: 4.5, not: { multipleOf: 3 } },
  'non-integers that are not multiples of 3': { not: { type: 'integer' }, allOf: [{ not: { multipleOf: 3 } }] },
  'neither a multiple of 2 nor of 5': { not: { anyOf: [{ multipleOf: 2 }, { multipleOf: 5 }] } },
};

const layoutText = (value: unknown): string[] => [literalText(value)];

function maskAccepts(grammar: CompiledGrammar, text: string): boolean {
  const matcher = grammar.matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
}

function refusal(schema: unknown): UnsupportedSchemaError | undefined {
  try {
    compileJsonSchema(schema, TOKENIZERS.get('bytes')!.vocabulary);
  } catch (error) {
    if (error instanceof UnsupportedSchemaError) return error;
    throw error;
  }
  return undefined;
}

describe('the complement of multipleOf on integers', () => {
  it.each(Object.keys(INTEGER_CASES))('%s: the mask accepts exactly what the registry accepts (four vocabularies, both layouts)', (name) => {
    const schema = INTEGER_CASES[name]!;
    const validate = registryVerdict(schema);
    expect(universeDisagreements(schema, undefined, TOKENIZERS, NUMBERS, layoutText, validate)).toEqual([]);
    // the universe holds values of both verdicts, so agreement is not by a mask that takes all or nothing
    expect(NUMBERS.some(validate) && !NUMBERS.every(validate)).toBe(true);
  });

  it.each(Object.keys(NUMBER_CASES))('%s: the mask accepts exactly what the registry accepts, non-integers and subnormals included', (name) => {
    const schema = NUMBER_CASES[name]!;
    const validate = registryVerdict(schema);
    const universe = [...NUMBERS, ...NON_INTEGERS];
    expect(universeDisagreements(schema, undefined, TOKENIZERS, universe, layoutText, validate)).toEqual([]);
    expect(NON_INTEGERS.some(validate) && !NON_INTEGERS.every(validate)).toBe(true);
  });

  it('writes the non-integers in plain decimals, as on any bounded range (the exponent text is refused)', () => {
    const grammar = compileJsonSchema({ not: { multipleOf: 2 } }, TOKENIZERS.get('bytes')!.vocabulary);
    expect(['0.0000001', '1e-7', '1.5', '15e-1'].map((text) => maskAccepts(grammar, text))).toEqual([true, false, true, false]);
  });

  it('beside a positive integer multipleOf on numbers, the subnormals Ajv takes as multiples are not offered (the narrowing of multipleOf)', () => {
    // Ajv takes a non-integer d as a multiple of an integer m where d / m rounds to 0: |d| ≤ ⌊m/2⌋ · 2^−1074
    const cases: [Record<string, unknown>, number][] = [
      [{ if: { multipleOf: 2 }, then: { minimum: 0 } }, 1],
      [{ oneOf: [{ multipleOf: 3 }, { multipleOf: 5 }] }, 2],
    ];
    for (const [schema, band] of cases) {
      const validate = registryVerdict(schema);
      const roundsToZero = (value: unknown): boolean => typeof value === 'number' && !Number.isInteger(value) && Math.abs(value) <= band * Number.MIN_VALUE;
      const universe = [...NUMBERS, ...NON_INTEGERS];
      const disagreements = universeDisagreements(
        schema,
        undefined,
        TOKENIZERS,
        universe.filter((value) => !roundsToZero(value)),
        layoutText,
        validate,
      );
      expect([JSON.stringify(schema), disagreements]).toEqual([JSON.stringify(schema), []]);
      // the narrowing is real: the registry accepts such a subnormal, the mask does not
      const narrowed = universe.filter((value) => roundsToZero(value) && validate(value));
      expect(narrowed.length).toBeGreaterThan(0);
      const grammar = compileJsonSchema(schema, TOKENIZERS.get('bytes')!.vocabulary);
      expect(narrowed.filter((value) => maskAccepts(grammar, literalText(value)))).toEqual([]);
    }
  });

  it('contains beside maxContains: the items outside contains are the non-multiples', () => {
    const schema = { type: 'array', items: { type: 'integer' }, contains: { multipleOf: 2 }, minContains: 1, maxContains: 2 };
    const arrays = everyArray([1, 2, 3, 4, -6], 3);
    expect(universeDisagreements(schema, undefined, TOKENIZERS, arrays, layoutText, registryVerdict(schema))).toEqual([]);
  });

  it('uniqueItems over bounded non-multiples: their texts are finitely many, tracked as literals', () => {
    const schema = { type: 'array', uniqueItems: true, items: { type: 'integer', minimum: -3, maximum: 7, not: { multipleOf: 3 } } };
    const arrays = everyArray([-3, -2, 0, 1, 2, 3, 7, 8], 3);
    expect(universeDisagreements(schema, undefined, TOKENIZERS, arrays, layoutText, registryVerdict(schema))).toEqual([]);
  });

  it('offers nothing past ±2^53, where the registry accepts non-multiples by rounding (the documented narrowing)', () => {
    const schema = { type: 'integer', not: { multipleOf: 3 } };
    const grammar = compileJsonSchema(schema, TOKENIZERS.get('bytes')!.vocabulary);
    const validate = registryVerdict(schema);
    // 2^53 + 1 parses to 2^53, which 3 does not divide; 3e21 / 3 is 1e21, which Ajv's parseInt reads as 1
    for (const text of ['9007199254740993', '-9007199254740993', '3000000000000000000000']) {
      expect([text, validate(JSON.parse(text)), maskAccepts(grammar, text)]).toEqual([text, true, false]);
    }
    // and it never widens: 2^60 passes Ajv's test for 3 by rounding, so the registry refuses it here, and so does the mask
    expect([validate(2 ** 60), maskAccepts(grammar, literalText(2 ** 60))]).toEqual([false, false]);
    expect(maskAccepts(grammar, literalText(BOUND - 1))).toBe(true);
  });

  it('listed values (a bounded decimal multipleOf) are filtered by the registry predicate, non-integers included', () => {
    const schema = { type: 'number', minimum: 0, maximum: 1, multipleOf: 0.01, not: { multipleOf: 0.02 } };
    const values = Array.from({ length: 121 }, (_, index) => Number((index / 100 - 0.1).toFixed(2)));
    values.push(0.07, 0.06999999999999999, 0.030000000000000002);
    const validate = registryVerdict(schema);
    expect(universeDisagreements(schema, undefined, TOKENIZERS, values, layoutText, validate)).toEqual([]);
    expect(values.filter(validate).length).toBeGreaterThan(10);
  });

  it('stays refused, naming multipleOf, beside a fractional multipleOf, for a fractional or a large divisor, and where the cut leaves nothing', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ multipleOf: 0.5, not: { multipleOf: 2 } }, /beside a fractional multipleOf/],
      [{ type: 'number', multipleOf: 0.25, not: { multipleOf: 3 } }, /beside a fractional multipleOf/],
      [{ type: 'integer', not: { multipleOf: 0.5 } }, /an integer divisor only/],
      [{ not: { multipleOf: 0.1 } }, /an integer divisor only/],
      [{ type: 'integer', not: { multipleOf: 20_000 } }, /limits\.multipleOfMaxModulus/],
      [{ type: 'integer', minimum: 2 ** 60, not: { multipleOf: 3 } }, /no number that is not a multiple of 3 in the range lies within ±9007199254740992/],
    ];
    for (const [schema, message] of cases) {
      const error = refusal(schema);
      expect([JSON.stringify(schema), error?.keyword]).toEqual([JSON.stringify(schema), 'multipleOf']);
      expect(error!.message).toMatch(message);
    }
    // lenient drops the complement and says so
    const lenient = compileJsonSchema({ not: { multipleOf: 0.5 } }, TOKENIZERS.get('bytes')!.vocabulary, { lenient: true });
    expect(lenient.relaxed.map((entry) => entry.keyword)).toContain('multipleOf');
  });
});
