/**
 * `uniqueItems: true` over number items under a range (`minimum`, `maximum`, exclusive or not, one side or both) and
 * beside number literals the numbers offer, enforced by the matcher's memory of the values written (`held-ranges.ts`):
 * a number ends at the byte after it, where its value is compared with the held ones as the registry compares (`1` is
 * `1.0`), and a prefix whose every completion in the range is held is refused (`10` under a maximum of 109 once 10 and
 * 100 … 109 are held; a lone `-` once every negative value of the range is); an array holds at most as many items as
 * the range offers values. Numbers are offered as without a range (integers within ±2^53, others as plain decimals of at
 * most 15 digits), and zero without a minus sign: the documented narrowing.
 *
 * Exhaustively over small arrays of items written in different spellings, at and past each bound, under both layouts, on
 * a byte vocabulary and the Qwen3, Llama 3 and Gemma 3 vocabularies, whole and token by token, the mask accepts a text
 * exactly when the registry accepts it and every number is written as the engine offers it; byte walks over ranges small
 * enough to hold every value find no dead end; every mask bit agrees with `accept` where a repeat is one token away;
 * random generations end valid; what is still refused is refused.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import {
  byteWalkProblems,
  clearingProblems,
  everyArray,
  prefixWalkProblems,
  randomGenerationProblems,
  registryVerdict,
  repeatTokenProblems,
  type EncodingVocabulary,
  universeDisagreements,
  arrayLayouts,
} from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const unique = (items: Record<string, unknown>, more: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'array',
  items,
  uniqueItems: true,
  ...more,
});
const INTEGERS_TO_1000 = unique({ type: 'integer', minimum: 0, maximum: 1000 });
const INTEGERS_FROM_1 = unique({ type: 'integer', minimum: 1 });
const INTEGERS_EXCLUSIVE = unique({ type: 'integer', exclusiveMinimum: -100, exclusiveMaximum: 100 });
const UNIT_NUMBERS = unique({ type: 'number', minimum: 0, maximum: 1 });
const POSITIVE_TO_ONE = unique({ type: 'number', exclusiveMinimum: 0, maximum: 1 });
const NEGATIVE_NUMBERS = unique({ type: 'number', maximum: -0.5 });
const BESIDE_CONST = unique({ anyOf: [{ type: 'number' }, { const: 5 }] });
/** ESLint's `no-magic-numbers` `ignore` option: numbers, and bigint literals as strings (`"1n"`), which run out (`"12n"` is its only completion). */
const MAGIC_NUMBERS = unique({ anyOf: [{ type: 'number' }, { type: 'string', pattern: '^[+-]?(?:0|[1-9][0-9]*)n$' }] });
const BESIDE_SHORT_STRINGS = unique({ anyOf: [{ type: 'number' }, { type: 'string', maxLength: 3 }] });
const RANGE_BESIDE_STRINGS = unique({
  anyOf: [
    { type: 'integer', minimum: 0, maximum: 1000 },
    { type: 'string', maxLength: 1, pattern: '^[ab]*$' },
  ],
});
const RANGE_BESIDE_CONST = unique({ anyOf: [{ type: 'integer', minimum: 0, maximum: 100 }, { const: 5 }, { const: null }] });

/** An item the engine offers as an integer: no fraction nor exponent, within ±2^53, zero without a sign. */
function integerOffered(item: string): boolean {
  if (!/^-?\d/.test(item)) return true;
  return /^-?(0|[1-9]\d*)$/.test(item) && item !== '-0' && Math.abs(Number(item)) < 2 ** 53;
}

/** An item the engine offers as a decimal with no range: no exponent, at most 15 digits (a lone leading 0 not counted). */
function unrangedOffered(item: string): boolean {
  if (!/^-?\d/.test(item)) return true;
  return /^-?(0|[1-9]\d*)(\.\d+)?$/.test(item) && item.replace(/^-?0?\.?/, '').replace('.', '').length <= 15;
}

/** An item the engine offers as a decimal under a range: as with none, and zero without a sign. */
function decimalOffered(item: string): boolean {
  return !/^-0(\.0+)?$/.test(item) && unrangedOffered(item);
}

const SCHEMAS: Record<string, { schema: Record<string, unknown>; items: readonly string[]; offered: (item: string) => boolean }> = {
  'integers in [0, 1000]': { schema: INTEGERS_TO_1000, items: ['0', '-0', '1', '1.0', '1000', '1001', '-1', '999'], offered: integerOffered },
  'integers from 1': { schema: INTEGERS_FROM_1, items: ['1', '0', '2', '1e0', '9007199254740991', '9007199254740992'], offered: integerOffered },
  'integers in (-100, 100)': { schema: INTEGERS_EXCLUSIVE, items: ['-100', '-99', '99', '100', '0', '-0', '-1'], offered: integerOffered },
  'numbers in [0, 1]': { schema: UNIT_NUMBERS, items: ['0', '-0', '0.0', '1', '1.0', '0.5', '0.50', '1e0', '1.5', '-0.5'], offered: decimalOffered },
  'numbers in (0, 1]': { schema: POSITIVE_TO_ONE, items: ['0', '0.0', '0.000000000000001', '1', '0.5', '5e-1', '1.01'], offered: decimalOffered },
  'numbers up to -0.5': { schema: NEGATIVE_NUMBERS, items: ['-0.5', '-0.50', '-0.4', '-1', '-1.0', '0', '-0'], offered: decimalOffered },
  'numbers beside the const 5': { schema: BESIDE_CONST, items: ['5', '5.0', '5e0', '4', '0', '-0'], offered: unrangedOffered },
  "numbers beside strings that run out (ESLint's no-magic-numbers)": {
    schema: MAGIC_NUMBERS,
    items: ['1', '1.0', '"1n"', '"-0n"', '"12n"', '"1"', '-0'],
    offered: unrangedOffered,
  },
  'numbers beside strings of at most 3 characters': {
    schema: BESIDE_SHORT_STRINGS,
    items: ['1', '"1"', '"ab"', '"abcd"', '1.0', '""'],
    offered: unrangedOffered,
  },
  'integers in [0, 1000] beside strings of a or b, at most 1': {
    schema: RANGE_BESIDE_STRINGS,
    items: ['0', '"a"', '""', '"c"', '1000', '1001', '"b"'],
    offered: integerOffered,
  },
  'integers in [0, 100] beside the consts 5 and null': { schema: RANGE_BESIDE_CONST, items: ['5', '5.0', '100', '101', 'null', '-0'], offered: integerOffered },
};

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

/** Whether `text` compiles under `schema` on the byte vocabulary and the mask takes it whole. */
function accepts(schema: Record<string, unknown>, text: string, options?: Parameters<typeof compileJsonSchema>[2]): boolean {
  const matcher = compileJsonSchema(schema, byteVocabulary(), options).matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
}

/** Every range's number items through the memory, not as an enum of their texts (which small ranges become by default). */
const THROUGH_MEMORY = { limits: { uniqueItemsMaxValues: 1 } };

// the exhaustive comparisons take 10–40 s each on the shared 2-core machine
describe('uniqueItems over numbers under a range, beside number literals and beside strings that run out', { timeout: 300_000 }, () => {
  const tokenizers = new Map<string, EncodingVocabulary>(VOCABULARIES.map((name) => [name, loadTestTokenizer(name)]));
  const bytes = byteVocabulary();
  tokenizers.set('bytes', { vocabulary: bytes, encode: (text) => [...new TextEncoder().encode(text)] });

  it.each(Object.keys(SCHEMAS))(
    '%s: the mask accepts exactly what the registry accepts, of the numbers offered (both layouts, bytes and three vocabularies)',
    (name) => {
      const { schema, items, offered } = SCHEMAS[name]!;
      const universe = everyArray(items, 3);
      const validate = registryVerdict(schema);
      const verdict = (value: unknown): boolean => (value as string[]).every(offered) && validate(JSON.parse(`[${(value as string[]).join(',')}]`));
      const failures = universeDisagreements(schema, undefined, tokenizers, universe, (value, flexible) => arrayLayouts(value as string[], flexible), verdict);
      expect(failures).toEqual([]);
      // the universe holds repeats in other spellings, and values past a bound, that the registry refuses and the mask must too
      expect(universe.some((value) => value.every(offered) && !validate(JSON.parse(`[${value.join(',')}]`)))).toBe(true);
    },
  );

  it('offers zero without a sign, integers without a fraction and decimals of at most 15 digits (the documented narrowing)', () => {
    for (const [schema, text] of [
      [INTEGERS_TO_1000, '[-0]'],
      [INTEGERS_TO_1000, '[1.0]'],
      [INTEGERS_EXCLUSIVE, '[-0]'],
      [UNIT_NUMBERS, '[-0.0]'],
      [UNIT_NUMBERS, '[1e0]'],
      [UNIT_NUMBERS, '[0.1234567890123456]'],
      [unique({ type: 'number', minimum: -1, maximum: 1 }), '[-0]'],
    ] as const) {
      expect([text, accepts(schema, text), registryVerdict(schema)(JSON.parse(text))]).toEqual([text, false, true]);
    }
    for (const [schema, text] of [
      [INTEGERS_TO_1000, '[0,1000,999]'],
      [UNIT_NUMBERS, '[0,0.123456789012345,1]'],
      [unique({ type: 'number', minimum: -1, maximum: 1 }), '[0,-0.5,-1,1]'],
    ] as const) {
      expect([text, accepts(schema, text)]).toEqual([text, true]);
    }
  });

  it('holds no more items than the range offers values, and leaves no dead end where every value can get held (byte walks)', () => {
    const problems: string[] = [];
    for (const [schema, depth] of [
      [unique({ type: 'integer', minimum: 0, maximum: 3 }), 10],
      [unique({ type: 'integer', minimum: -3, maximum: 0 }), 11],
      [unique({ type: 'integer', exclusiveMinimum: -3, exclusiveMaximum: 2 }), 10],
      [unique({ type: 'integer', minimum: 9, maximum: 12 }), 12],
    ] as const) {
      problems.push(...byteWalkProblems(schema, THROUGH_MEMORY, depth));
    }
    // the texts of 0 … 3·10^−15: 0, 0.0, 0.000000000000001, …, held in turn
    const tiny = unique({ type: 'number', minimum: 0, maximum: 3e-15 });
    const grammar = compileJsonSchema(tiny, bytes);
    problems.push(...prefixWalkProblems(grammar, '[0.000000000000001,0.000000000000002,', '0.123,]', 20));
    problems.push(...prefixWalkProblems(grammar, '[0,0.000000000000003,0.00000000000000', '0123,]', 4));
    const tinyNegative = compileJsonSchema(unique({ type: 'number', minimum: -2e-15, maximum: 0 }), bytes);
    problems.push(...prefixWalkProblems(tinyNegative, '[-0.000000000000002,', '-0.12,]', 22));
    const twoValues = compileJsonSchema(unique({ type: 'number', minimum: 1.5, maximum: 1.50000000000001 }), bytes);
    problems.push(...prefixWalkProblems(twoValues, '[1.50000000000001,', '0.15,]', 18));
    // strings beside numbers run out on their own: "", "a", "b" held, only numbers are left, and then neither
    const besideStrings = unique({
      anyOf: [
        { type: 'integer', minimum: 0, maximum: 3 },
        { type: 'string', maxLength: 1, pattern: '^[ab]*$' },
      ],
    });
    problems.push(...byteWalkProblems(besideStrings, THROUGH_MEMORY, 14, '["a",2,'));
    problems.push(...byteWalkProblems(besideStrings, THROUGH_MEMORY, 22, '["a",2,"",1,"b",'));
    problems.push(...prefixWalkProblems(compileJsonSchema(MAGIC_NUMBERS, bytes), '["1n","12n",1,', '12n"-,]', 6));
    expect(problems).toEqual([]);
    // 0 … 3 held: no fifth item, the array closes
    expect(accepts(unique({ type: 'integer', minimum: 0, maximum: 3 }), '[3,1,0,2]', THROUGH_MEMORY)).toBe(true);
    const matcher = compileJsonSchema(unique({ type: 'integer', minimum: 0, maximum: 3 }), bytes, THROUGH_MEMORY).matcher();
    expect(matcher.acceptString('[3,1,0,2')).toBe(true);
    expect(matcher.acceptString(',')).toBe(false);
    // the strings held, numbers go on; everything held, the array closes
    const strings = compileJsonSchema(besideStrings, bytes, THROUGH_MEMORY).matcher();
    expect(strings.acceptString('["a","b",0,""')).toBe(true);
    expect(strings.acceptString(',"')).toBe(false);
    expect(strings.acceptString(',3,1,2')).toBe(true);
    expect(strings.acceptString(',')).toBe(false);
    expect(strings.acceptString(']')).toBe(true);
    // -1 … -3 held: a lone minus sign has no completion left, 0 still has
    const negative = compileJsonSchema(unique({ type: 'integer', minimum: -3, maximum: 0 }), bytes, THROUGH_MEMORY).matcher();
    expect(negative.acceptString('[-1,-3,-2,')).toBe(true);
    expect(negative.acceptString('-')).toBe(false);
    expect(negative.acceptString('0]')).toBe(true);
  });

  it('refuses the last byte of a prefix whose every completion in the range is held, and no other', () => {
    const schema = unique({ type: 'integer', minimum: 0, maximum: 109 });
    const grammar = compileJsonSchema(schema, bytes);
    // 10 completes to 10 and 100 … 109 under the maximum: eleven values
    const held = `[10,${Array.from({ length: 10 }, (_, digit) => `10${digit}`).join(',')},`;
    const matcher = grammar.matcher();
    expect(matcher.acceptString(`${held}1`)).toBe(true);
    expect(matcher.acceptString('0')).toBe(false);
    expect(matcher.acceptString('1]')).toBe(true);
    expect(prefixWalkProblems(grammar, held, '0123456789,]', 3)).toEqual([]);
    // the decimals: 0.12345678901234 under a maximum of 0.123456789012341 completes to itself and the maximum (15 digits)
    const decimals = compileJsonSchema(unique({ type: 'number', minimum: 0.1, maximum: 0.123456789012341 }), bytes);
    const dec = decimals.matcher();
    expect(dec.acceptString('[0.123456789012341,0.12345678901234,0.1234567890123')).toBe(true);
    expect(dec.acceptString('4')).toBe(false);
    expect(dec.acceptString('3]')).toBe(true);
    expect(prefixWalkProblems(decimals, '[0.123456789012341,0.12345678901234,0.123456789012', '0134,]', 4)).toEqual([]);
    // an exclusive bound leaves it out: the same prefix under an exclusive maximum completes to itself alone
    const exclusive = compileJsonSchema(unique({ type: 'number', minimum: 0.1, exclusiveMaximum: 0.123456789012341 }), bytes).matcher();
    expect(exclusive.acceptString('[0.12345678901234,0.123456789012341')).toBe(false);
    expect(exclusive.acceptString('[0.12345678901234,0.1234567890123')).toBe(true);
    expect(exclusive.acceptString('4')).toBe(false);
    // the mask walks a token of digits, a point and a minus sign that reach held values only
    expect(
      repeatTokenProblems(
        schema,
        ['10', '0', '00', '1'],
        [
          { prefix: held, refused: ['10'], allowed: ['1', '0'], completedBy: '2]' },
          { prefix: `${held}1`, refused: ['0', '00'], allowed: ['1'], completedBy: '1]' },
        ],
      ),
    ).toEqual([]);
    expect(
      repeatTokenProblems(
        unique({ type: 'number', minimum: -2, maximum: 0.5 }, { minItems: 1 }),
        ['-', '.', '-1', '-1.'],
        [{ prefix: '[-1,-1.5,-2,-0.5,', refused: [], allowed: ['-', '-1', '-1.'], completedBy: '0]' }],
      ),
    ).toEqual([]);
    expect(
      repeatTokenProblems(
        unique({ type: 'integer', minimum: -2, maximum: 70 }),
        ['-', ',-', '-1', '-2'],
        [
          { prefix: '[-1,-2,', refused: ['-', '-1', '-2'], allowed: [], completedBy: '0]' },
          { prefix: '[-1,-2', refused: [',-'], allowed: [], completedBy: ',0]' },
        ],
      ),
    ).toEqual([]);
  });

  it.each([...VOCABULARIES, 'bytes'])('%s: every mask bit agrees with accept() where a repeat is one token away', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const integers = compileJsonSchema(INTEGERS_TO_1000, vocabulary, { layout: 'flexible' });
    const numbers = compileJsonSchema(UNIT_NUMBERS, vocabulary, { layout: 'flexible' });
    const besideConst = compileJsonSchema(BESIDE_CONST, vocabulary);
    const magic = compileJsonSchema(MAGIC_NUMBERS, vocabulary);
    const rangeStrings = compileJsonSchema(RANGE_BESIDE_STRINGS, vocabulary);
    const { disagreements, notCleared } = clearingProblems(
      [
        [integers, '[1,2,1', true],
        [integers, '[1000, 2, 100', false],
        [integers, '[10,100,101,102,103,104,105,106,107,108,109,1000,', false],
        [numbers, '[0.5, 1, 0.50', true],
        [numbers, '[1.0, 0', false],
        [numbers, '[0, 1, 0.0', true],
        [besideConst, '[5,5.0', true],
        [besideConst, '[5.0,4,', false],
        [magic, '["1n",1,"1', true],
        [magic, '["12n","1', false],
        [magic, '["1n","12n","1', true],
        // every string held: a token that ends the number and opens a string (`,"`: none among the bytes)
        [rangeStrings, '["a","b","",5', vocabularyName !== 'bytes'],
        [rangeStrings, '["a","",5', false],
      ],
      vocabulary,
    );
    expect(disagreements).toEqual([]);
    expect(notCleared).toEqual([]);
  });

  it.each(VOCABULARIES)('%s: random generations end valid, with no dead end and every probed mask bit agreeing with accept()', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const schemas = {
      'integers in [0, 1000], minItems 6': { ...INTEGERS_TO_1000, minItems: 6 },
      'numbers in [0, 1], minItems 5': { ...UNIT_NUMBERS, minItems: 5 },
      'integers in [-3, 3], all seven': unique({ type: 'integer', minimum: -3, maximum: 3 }, { minItems: 7 }),
      'numbers beside the const 5, minItems 4': { ...BESIDE_CONST, minItems: 4 },
      'no-magic-numbers, minItems 5': { ...MAGIC_NUMBERS, minItems: 5 },
      'integers in [0, 1000] beside strings of a or b, minItems 5': { ...RANGE_BESIDE_STRINGS, minItems: 5 },
    };
    expect(randomGenerationProblems(vocabulary, schemas, { seed: 29, runs: 6, randomSteps: 40, validatorOf: registryVerdict })).toEqual([]);
  });

  it.each([
    ['numbers under a multipleOf', unique({ type: 'number', multipleOf: 0.5 })],
    ['integers under a multipleOf', unique({ type: 'integer', multipleOf: 3 })],
    [
      'numbers under a range beside other numbers',
      unique({
        anyOf: [
          { type: 'number', minimum: 0 },
          { type: 'integer', maximum: -5 },
        ],
      }),
    ],
    ['numbers beside a number literal they do not offer', unique({ anyOf: [{ type: 'integer', minimum: 0, maximum: 100 }, { const: 500 }] })],
    ['numbers beside a literal written otherwise', unique({ anyOf: [{ type: 'number', maximum: 10 }, { const: 1e300 }] })],
    ['strings that run out beside numbers and literals', unique({ anyOf: [{ type: 'number' }, { type: 'string', maxLength: 2 }, { const: null }] })],
    ['strings that run out beside numbers and objects', unique({ anyOf: [{ type: 'number' }, { type: 'string', maxLength: 2 }, { type: 'object' }] })],
    // ranged numbers can run out: beside prefixItems they are not remembered per position (unique-prefix-items.test.ts)
    [
      'beside prefixItems',
      { prefixItems: [{ type: 'integer', minimum: 0, maximum: 100 }], items: { type: 'integer', minimum: 0, maximum: 100 }, uniqueItems: true },
    ],
  ])('still refuses %s', (_name, schema) => {
    let error: unknown;
    try {
      compileJsonSchema(schema, bytes);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
    expect((error as UnsupportedSchemaError).keyword).toBe('uniqueItems');
  });
});
