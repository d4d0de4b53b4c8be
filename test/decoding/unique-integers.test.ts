/**
 * `uniqueItems: true` over integer items with no range (`{"type": "integer"}`), alone and beside strings, objects,
 * arrays, booleans and null, enforced by the matcher's memory of the values written (`held-integers.ts`): an integer
 * ends at the byte after it (`,`, `]`, whitespace, perhaps inside a token: `1,`, `0]`), where its value is compared with
 * the held ones as the registry compares (`-0` is `0`, `1` is not `"1"`); a prefix whose every completion is held (`0`
 * and `-0` once 0 is held, `900719925474099` once it and its two 16-digit completions are) is refused. Integers are
 * offered within ±2^53 (exclusive), the documented narrowing: past it distinct texts are one double.
 *
 * Exhaustively over small arrays of items written in different spellings, under both layouts, on a byte vocabulary
 * and the Qwen3, Llama 3 and Gemma 3 vocabularies, the mask accepts a text exactly when the registry accepts its value
 * and every integer is written as the engine offers it; every mask bit agrees with `accept` where a repeat is one token
 * away; no prefix the mask allows is a dead end; random generations end valid; what is still refused is refused.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, DecodingLimitError, UnsupportedSchemaError } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import {
  clearingProblems,
  everyArray,
  prefixWalkProblems,
  randomGenerationProblems,
  registryVerdict,
  repeatTokenProblems,
  type EncodingVocabulary,
  universeDisagreements,
} from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const INTEGERS = { type: 'array', items: { type: 'integer' }, uniqueItems: true };
const BESIDE_STRINGS = { type: 'array', items: { type: ['string', 'integer'] }, uniqueItems: true };
const ALL_BUT_FRACTIONS = { type: 'array', items: { type: ['integer', 'string', 'object', 'array', 'boolean', 'null'] }, uniqueItems: true };

/** 2^53 − 1, the largest integer offered, and the first two past it (one double). */
const LARGEST = '9007199254740991';

const SCHEMAS: Record<string, { schema: Record<string, unknown>; items: readonly string[] }> = {
  integers: { schema: INTEGERS, items: ['1', '-0', '0', '10', '9007199254740993', '1e0'] },
  'integers beside strings': { schema: BESIDE_STRINGS, items: ['1', '"1"', '-0', '0', '"\\u0031"'] },
  'integers beside strings, objects, arrays, booleans and null': {
    schema: ALL_BUT_FRACTIONS,
    items: ['1', '-0', '"1"', 'null', '[1]', '[1.0]'],
  },
  'an anyOf whose other branch allows repeats (up to 2 items)': {
    schema: { anyOf: [INTEGERS, { type: 'array', items: { type: 'integer' }, maxItems: 2 }] },
    items: ['1', '0', '-0', '12'],
  },
};

/** An item spelling the engine offers: not an integer-looking text outside ±2^53 nor one with a fraction or exponent. */
function offered(item: string): boolean {
  if (!/^-?\d/.test(item)) return true;
  return /^-?\d+$/.test(item) && Math.abs(Number(item)) < 2 ** 53;
}

/** The array of `items` (spellings) written compactly, and in the flexible layout also one item a line and spaced. */
function texts(items: readonly string[], flexible: boolean): string[] {
  const compact = `[${items.join(',')}]`;
  if (!flexible) return /\\u/.test(compact) ? [] : [compact];
  return [compact, `[\n  ${items.join(',\n  ')}\n]`, `[ ${items.join(' , ')} ]`];
}

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

// the exhaustive comparisons take 10–20 s each on the shared 2-core machine
describe('uniqueItems over integers', { timeout: 120_000 }, () => {
  const tokenizers = new Map<string, EncodingVocabulary>(VOCABULARIES.map((name) => [name, loadTestTokenizer(name)]));
  const bytes = byteVocabulary();
  tokenizers.set('bytes', { vocabulary: bytes, encode: (text) => [...new TextEncoder().encode(text)] });

  it.each(Object.keys(SCHEMAS))(
    '%s: the mask accepts exactly what the registry accepts, of the integers offered (both layouts, bytes and three vocabularies)',
    (name) => {
      const { schema, items } = SCHEMAS[name]!;
      const universe = everyArray(items, 3);
      const validate = registryVerdict(schema);
      const verdict = (value: unknown): boolean => (value as string[]).every(offered) && validate(JSON.parse(`[${(value as string[]).join(',')}]`));
      const failures = universeDisagreements(schema, undefined, tokenizers, universe, (value, flexible) => texts(value as string[], flexible), verdict);
      expect(failures).toEqual([]);
      // the universe holds repeats in other spellings that the registry refuses and the mask must too
      expect(universe.some((value) => value.every(offered) && !validate(JSON.parse(`[${value.join(',')}]`)))).toBe(true);
    },
  );

  it('offers integers within ±2^53 only, where the registry takes more (the documented narrowing)', () => {
    const grammar = compileJsonSchema(INTEGERS, bytes);
    const accepts = (text: string): boolean => {
      const matcher = grammar.matcher();
      return matcher.acceptString(text) && matcher.canTerminate();
    };
    const validate = registryVerdict(INTEGERS);
    for (const text of [`[${LARGEST}]`, `[-${LARGEST}]`]) expect([accepts(text), validate(JSON.parse(text))]).toEqual([true, true]);
    for (const text of ['[9007199254740992]', '[-9007199254740992]', '[10000000000000000]'])
      expect([accepts(text), validate(JSON.parse(text))]).toEqual([false, true]);
    // without uniqueItems the integer is offered as before
    expect(
      compileJsonSchema({ type: 'array', items: { type: 'integer' } }, bytes)
        .matcher()
        .acceptString('[9007199254740993]'),
    ).toBe(true);
  });

  it.each([...VOCABULARIES, 'bytes'])('%s: every mask bit agrees with accept() where a repeat is one token away', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const integers = compileJsonSchema(INTEGERS, vocabulary, { layout: 'flexible' });
    const beside = compileJsonSchema(BESIDE_STRINGS, vocabulary);
    const all = compileJsonSchema(ALL_BUT_FRACTIONS, vocabulary, { layout: 'flexible' });
    const { disagreements, notCleared } = clearingProblems(
      [
        // the item's close (`,`, `]`, whitespace, or a token holding one) repeats 1
        [integers, '[1,2,1', true],
        [integers, '[1, 2, 1', true],
        [integers, '[12,1', false],
        // 0 held: `0` and `-0` have no other completion
        [integers, '[0,', true],
        [integers, '[0,-', true],
        [integers, '[-0,1,', true],
        [beside, '["1",1,"1', true],
        [beside, '["1",1,', false],
        [all, '[{},[1],true,1,null,1', true],
        [all, '[[1],[1', false],
      ],
      vocabulary,
    );
    expect(disagreements).toEqual([]);
    expect(notCleared).toEqual([]);
  });

  it('refuses a token that ends a repeated integer in one go, writes two equal ones, or leads into held values only', () => {
    const extra = ['1,', '1]', '0]', '-0,', '1,1', '1,2,1', ' 1,', '10,', '0,-0'];
    const problems = repeatTokenProblems(INTEGERS, extra, [
      { prefix: '[1,', refused: ['1,', '1]'], allowed: ['10,', '0]', '-0,', '2'], completedBy: '2]' },
      { prefix: '[1,2', allowed: ['1,', '1]', '0]'] },
      // a token that ends one integer and starts an equal one only repeats it where the second cannot go on (`-0`)
      { prefix: '[', refused: ['0,-0'], allowed: ['1,1', '1,2,1', '1,', '1]', '0]', '-0,', '10,'], completedBy: '1,10]' },
      { prefix: '[0,', refused: ['0]', '-0,', '0'], allowed: ['1,', '-'], completedBy: '-1]' },
      { prefix: '[-0,1,', refused: ['1]', '0]', '-0,', '1,', ' 1,'], allowed: ['10,'], completedBy: '2]' },
    ]);
    expect(problems).toEqual([]);
  });

  it('leaves no dead end: every byte text the mask allows after held integers (up to 5 more bytes) can go on, and agrees with accept()', () => {
    const problems: string[] = [];
    for (const [schema, prefix, walked] of [
      [INTEGERS, '[0,', '0-1,]'],
      [INTEGERS, '[0,1,-1,', '0-1,]'],
      [INTEGERS, '[1,10,100,', '01,]'],
      [BESIDE_STRINGS, '["0",0,', '0-"1,]'],
      [ALL_BUT_FRACTIONS, '[0,true,false,null,', '0-1,]tfn'],
    ] as const) {
      problems.push(...prefixWalkProblems(compileJsonSchema(schema, bytes), prefix, walked, 5));
    }
    expect(problems).toEqual([]);
  });

  it('refuses the last digit of a prefix whose every completion (up to 2^53 − 1) is held, and no other', () => {
    const grammar = compileJsonSchema(INTEGERS, bytes);
    const held = '[9007199254740991,9007199254740990,900719925474099,';
    // 900719925474099 completes to itself, 9007199254740990 and 9007199254740991 only: all held
    expect(prefixWalkProblems(grammar, `${held}90071992547409`, '', 0)).toEqual([]);
    const matcher = grammar.matcher();
    expect(matcher.acceptString(`${held}90071992547409`)).toBe(true);
    expect(matcher.acceptString('9')).toBe(false);
    expect(matcher.acceptString('8,1]')).toBe(true);
    // with one of them not held the prefix goes on
    const open = grammar.matcher();
    expect(open.acceptString('[9007199254740991,900719925474099,900719925474099')).toBe(true);
    expect(open.acceptString('0]')).toBe(true);
    // a token of digits only that reaches it is refused too (the mask walks such tokens only near 15 digits, or where 0 is held)
    expect(
      repeatTokenProblems(INTEGERS, ['099', '09', '0'], [{ prefix: `${held}900719925474`, refused: ['099'], allowed: ['09'], completedBy: '098]' }]),
    ).toEqual([]);
    // the negative side the same
    const negative = grammar.matcher();
    expect(negative.acceptString('[-9007199254740991,-9007199254740990,-900719925474099,-90071992547409')).toBe(true);
    expect(negative.acceptString('9')).toBe(false);
  });

  it.each(VOCABULARIES)('%s: random generations end valid, with no dead end and every probed mask bit agreeing with accept()', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const schemas = {
      'integers, minItems 6': { ...INTEGERS, minItems: 6 },
      'beside strings, minItems 4': { ...BESIDE_STRINGS, minItems: 4 },
      'beside all but fractions, minItems 4': { ...ALL_BUT_FRACTIONS, minItems: 4 },
    };
    expect(randomGenerationProblems(vocabulary, schemas, { seed: 13, runs: 6, randomSteps: 40, validatorOf: registryVerdict })).toEqual([]);
  });

  it('keeps each inner array its own set, and restores the memory on rollback and reset', () => {
    const grammar = compileJsonSchema({ type: 'array', items: INTEGERS }, bytes);
    const matcher = grammar.matcher();
    // the second array starts empty: 1 and -0 are its own
    expect(matcher.acceptString('[[1,0],[1,-0]')).toBe(true);
    matcher.reset();
    expect(matcher.acceptString('[[1,0],[0,')).toBe(true);
    expect(matcher.acceptString('-0')).toBe(false);
    expect(matcher.acceptString('2,')).toBe(true);
    expect(matcher.acceptString('2')).toBe(true);
    expect(matcher.acceptString(']')).toBe(false);
    // undoing the last `2` forgets nothing held; undoing `2,` forgets 2
    matcher.rollback(1);
    expect(matcher.acceptString('3]')).toBe(true);
    matcher.rollback(2);
    expect(matcher.acceptString('2]]')).toBe(true);
    expect(matcher.canTerminate()).toBe(true);
    matcher.reset();
    expect(matcher.acceptString('[[0],[0]]') && matcher.canTerminate()).toBe(true);
  });

  it('counts the digits of the integers remembered toward uniqueItemsMaxStringBytes', () => {
    const grammar = compileJsonSchema(INTEGERS, bytes, { limits: { uniqueItemsMaxStringBytes: 5 } });
    const matcher = grammar.matcher();
    // `-12` is 3 bytes, and `345` passes the limit where it ends
    expect(matcher.acceptString('[-12,345')).toBe(true);
    expect(() => matcher.acceptString(',')).toThrow(DecodingLimitError);
  });

  it.each([
    [
      'integers in a range beside other integers',
      {
        type: 'array',
        items: {
          anyOf: [
            { type: 'integer', minimum: 0 },
            { type: 'integer', maximum: -5 },
          ],
        },
        uniqueItems: true,
      },
    ],
    ['integers under an unbounded multipleOf', { type: 'array', items: { type: 'integer', multipleOf: 3 }, uniqueItems: true }],
    ['integers beside number literals', { type: 'array', items: { anyOf: [{ type: 'integer' }, { const: 1.5 }] }, uniqueItems: true }],
    ['numbers under a multipleOf', { type: 'array', items: { type: 'number', multipleOf: 0.5 }, uniqueItems: true }],
    ['integers beside contains', { type: 'array', items: { type: 'integer' }, uniqueItems: true, contains: { const: 1 } }],
    ['arrays of unique integers as unique items', { type: 'array', items: INTEGERS, uniqueItems: true }],
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
