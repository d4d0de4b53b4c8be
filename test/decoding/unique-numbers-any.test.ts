/**
 * `uniqueItems: true` over number items with no range (`{"type": "number"}`) and over items of any value (`{}`, `true`,
 * no `items`, a type list), enforced by the matcher's memory of the values written (`held-numbers.ts`): a number ends at
 * the byte after it, where its value is compared with the held ones as the registry compares (`1`, `1.0`, `10e-1` are
 * one; `-0` is `0`; `[1]` is `[1.0]`, `{"a":1}` is `{"a":1.0}`); a prefix whose every completion is held is refused
 * (`1234567890123.4` once its ten completions are held). Numbers are offered there as plain decimals of at most 15
 * digits, the documented narrowing: no exponent, no 16th digit.
 *
 * Exhaustively over small arrays of items written in different spellings, under both layouts, on a byte vocabulary
 * and the Qwen3, Llama 3 and Gemma 3 vocabularies, the mask accepts a text exactly when the registry accepts its value
 * and every number item is written as the engine offers it; every mask bit agrees with `accept` where a repeat is one
 * token away; no prefix the mask allows is a dead end; random generations end valid; what is still refused is refused.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError } from '../../src/decoding/index.js';
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
  arrayLayouts,
  acceptsWhole,
} from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const NUMBERS = { type: 'array', items: { type: 'number' }, uniqueItems: true };
const INTEGERS = { type: 'array', items: { type: 'integer' }, uniqueItems: true };
const ANY = { uniqueItems: true };
const BESIDE_STRINGS = { type: 'array', items: { type: ['number', 'string'] }, uniqueItems: true };

/** A number item the engine offers as a decimal: no exponent, at most 15 digits (a lone leading 0 not counted). */
function decimalOffered(item: string): boolean {
  if (!/^-?\d/.test(item)) return true;
  return /^-?(0|[1-9]\d*)(\.\d+)?$/.test(item) && item.replace(/^-?0?\.?/, '').replace('.', '').length <= 15;
}

/** An integer item the engine offers beside no number item: within ±2^53. */
function integerOffered(item: string): boolean {
  if (!/^-?\d/.test(item)) return true;
  return /^-?\d+$/.test(item) && Math.abs(Number(item)) < 2 ** 53;
}

const SCHEMAS: Record<string, { schema: Record<string, unknown>; items: readonly string[]; offered?: (items: readonly string[]) => boolean }> = {
  numbers: { schema: NUMBERS, items: ['0', '-0', '1', '1.0', '1e0', '10e-1', '0.1', '0.10'] },
  'numbers past the decimals offered': {
    schema: NUMBERS,
    items: ['1.5', '15e-1', '1e-7', '0.0000001', '9007199254740993', '1e308', '0.000000000000001', '123456789012345.0'],
  },
  'items of any value (no items keyword)': { schema: ANY, items: ['1', '1.0', '"1"', 'null', 'true', '[1]', '[1.0]', '{"a":1}', '{"a":1.0}'] },
  'items: true, and {} under type array': { schema: { type: 'array', items: true, uniqueItems: true }, items: ['0', '-0.0', '"0"', '[]', '{}', 'false'] },
  'numbers beside strings (a type list)': { schema: BESIDE_STRINGS, items: ['1', '1.0', '"1"', '0.5', '"0.5"', '5e-1'] },
  'an anyOf whose other branch allows repeats (up to 2 items)': {
    schema: { anyOf: [NUMBERS, { type: 'array', items: { type: 'number' }, maxItems: 2 }] },
    items: ['1', '1.0', '0.5', '-0'],
  },
  'an anyOf of unique integers and unique numbers (the memory reads either)': {
    schema: { anyOf: [INTEGERS, NUMBERS] },
    items: ['1', '1.0', '-0', '0', '1.5', '9007199254740991'],
    offered: (items) => items.every(decimalOffered) || items.every(integerOffered),
  },
};

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

/** Ten decimals `${stem}0` … `${stem}9`, comma-separated. */
function tenAfter(stem: string): string {
  return Array.from({ length: 10 }, (_, digit) => `${stem}${digit}`).join(',');
}

// the exhaustive comparisons take 10–40 s each on the shared 2-core machine
describe('uniqueItems over numbers and items of any value', { timeout: 240_000 }, () => {
  const tokenizers = new Map<string, EncodingVocabulary>(VOCABULARIES.map((name) => [name, loadTestTokenizer(name)]));
  const bytes = byteVocabulary();
  tokenizers.set('bytes', { vocabulary: bytes, encode: (text) => [...new TextEncoder().encode(text)] });

  it.each(Object.keys(SCHEMAS))(
    '%s: the mask accepts exactly what the registry accepts, of the numbers offered (both layouts, bytes and three vocabularies)',
    (name) => {
      const { schema, items, offered = (written: readonly string[]) => written.every(decimalOffered) } = SCHEMAS[name]!;
      const universe = everyArray(items, 3);
      const validate = registryVerdict(schema);
      const verdict = (value: unknown): boolean => offered(value as string[]) && validate(JSON.parse(`[${(value as string[]).join(',')}]`));
      const failures = universeDisagreements(schema, undefined, tokenizers, universe, (value, flexible) => arrayLayouts(value as string[], flexible), verdict);
      expect(failures).toEqual([]);
      // the universe holds repeats in other spellings that the registry refuses and the mask must too
      expect(universe.some((value) => offered(value) && !validate(JSON.parse(`[${value.join(',')}]`)))).toBe(true);
    },
  );

  it('offers plain decimals of at most 15 digits only, where the registry takes more (the documented narrowing)', () => {
    const validate = registryVerdict(NUMBERS);
    for (const text of ['[123456789012345]', '[-0.000000000000001]', '[12345.6789012345]', '[0.5,1,-2.25]'])
      expect([text, acceptsWhole(NUMBERS, text), validate(JSON.parse(text))]).toEqual([text, true, true]);
    for (const text of ['[1e0]', '[1E5]', '[1.5e-7]', '[1234567890123456]', '[0.0000000000000001]', '[1.234567890123456]', '[9007199254740993]'])
      expect([text, acceptsWhole(NUMBERS, text), validate(JSON.parse(text))]).toEqual([text, false, true]);
    // the same beside other kinds of items
    expect([acceptsWhole(ANY, '["a",1e0]'), acceptsWhole(ANY, '["a",1]')]).toEqual([false, true]);
    // numbers inside an item container, and outside uniqueItems, are offered as before
    expect(acceptsWhole(ANY, '[[1e0],{"a":1.5e-7}]')).toBe(true);
    expect(acceptsWhole({ type: 'array', items: { type: 'number' } }, '[1e0,9007199254740993]')).toBe(true);
    // beside a number item, integer items are written as the number's decimals
    expect(acceptsWhole({ type: 'array', items: { type: ['integer', 'number'] }, uniqueItems: true }, '[9007199254740991]')).toBe(false);
    expect(acceptsWhole(INTEGERS, '[9007199254740991]')).toBe(true);
  });

  it.each([...VOCABULARIES, 'bytes'])('%s: every mask bit agrees with accept() where a repeat is one token away', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const numbers = compileJsonSchema(NUMBERS, vocabulary, { layout: 'flexible' });
    const any = compileJsonSchema(ANY, vocabulary);
    const { disagreements, notCleared } = clearingProblems(
      [
        // the item's close (`,`, `]`, whitespace, or a token holding one) repeats 1
        [numbers, '[1,2,1.0', true],
        [numbers, '[1.0, 2, 1', true],
        [numbers, '[0.5, 0.50', true],
        [numbers, '[10, 1', false],
        [numbers, '[-0, 0.0', true],
        [any, '[{},[1],true,1.0,null,1', true],
        [any, '["1",1,"1', true],
        [any, '[[1],[1.0', true],
      ],
      vocabulary,
    );
    expect(disagreements).toEqual([]);
    expect(notCleared).toEqual([]);
  });

  it('refuses a token that ends a repeated number in one go, writes two equal ones, or leads into held values only', () => {
    const extra = ['1.0,', '1.0]', '1,', '1]', '.0,', '.00]', '0]', '1,1.0]', '1,1.0', '1.5,1.50,', '1.5,1.51,', ' 1.0,', '10,', '.5', '0,-0.0]'];
    const problems = repeatTokenProblems(NUMBERS, extra, [
      { prefix: '[1,', refused: ['1.0,', '1.0]', '1,', '1]', ' 1.0,'], allowed: ['10,', '0]'], completedBy: '2]' },
      { prefix: '[1,1', refused: ['.0,', '.00]', ']'], allowed: ['0]', '.5', '10,'], completedBy: '.5]' },
      // two equal numbers repeat where the second ends, not before (`1,1.0` may go on to 1.01)
      { prefix: '[', refused: ['1,1.0]', '1.5,1.50,', '0,-0.0]'], allowed: ['1,1.0', '1.5,1.51,', '1.0,', '1,'], completedBy: '1,10]' },
    ]);
    expect(problems).toEqual([]);
  });

  it('leaves no dead end: every byte text the mask allows after held numbers (up to 5 more bytes) can go on, and agrees with accept()', () => {
    const problems: string[] = [];
    for (const [schema, prefix, walked] of [
      [NUMBERS, '[0,', '0-1.,]'],
      [NUMBERS, '[0,1,-1,0.1,', '0-1.,]'],
      [NUMBERS, '[1,1.1,1.01,10,', '01.,]'],
      [BESIDE_STRINGS, '["0",0,0.5,', '0-5."1,]'],
      [ANY, '[0,true,[],{},', '0-1.,]t['],
    ] as const) {
      problems.push(...prefixWalkProblems(compileJsonSchema(schema, bytes), prefix, walked, 5));
    }
    expect(problems).toEqual([]);
  });

  it('refuses the last byte of a prefix whose every completion (up to 15 digits) is held, and no other', () => {
    const grammar = compileJsonSchema(NUMBERS, bytes);
    // 1234567890123.4 completes to 1234567890123.4 and .41 … .49 only: ten values, all held (.40 is .4)
    const held = `[${tenAfter('1234567890123.4')},`;
    expect(prefixWalkProblems(grammar, `${held}1234567890123.`, '', 0)).toEqual([]);
    const matcher = grammar.matcher();
    expect(matcher.acceptString(`${held}1234567890123.`)).toBe(true);
    expect(matcher.acceptString('4')).toBe(false);
    expect(matcher.acceptString('5]')).toBe(true);
    // with one of them not held the prefix goes on
    const open = grammar.matcher();
    expect(open.acceptString(`[${tenAfter('1234567890123.4').replace(',1234567890123.47', '')},1234567890123.4`)).toBe(true);
    expect(open.acceptString('7]')).toBe(true);
    // a point alone: 12345678901234. completes to ten values; held, the point is refused but the integers go on
    const point = grammar.matcher();
    expect(point.acceptString(`[${tenAfter('12345678901234.')},12345678901234`)).toBe(true);
    expect(prefixWalkProblems(grammar, `[${tenAfter('12345678901234.')},12345678901234`, '.0', 1)).toEqual([]);
    expect(point.acceptString('.')).toBe(false);
    expect(point.acceptString('0,1]')).toBe(true);
    // and with the ten integers held too, its last digit
    const integer = grammar.matcher();
    expect(integer.acceptString(`[${tenAfter('12345678901234.')},${tenAfter('12345678901234')},1234567890123`)).toBe(true);
    expect(integer.acceptString('4')).toBe(false);
    expect(integer.acceptString('5]')).toBe(true);
    // the negative side the same, and 0 held refuses a zero with 15 fraction digits
    const negative = grammar.matcher();
    expect(negative.acceptString(`[${tenAfter('-1234567890123.4')},-1234567890123.`)).toBe(true);
    expect(negative.acceptString('4')).toBe(false);
    const zero = grammar.matcher();
    expect(zero.acceptString('[-0,0.00000000000000')).toBe(true);
    expect(zero.acceptString('0')).toBe(false);
    expect(zero.acceptString('1]')).toBe(true);
    // the mask walks a point token and a token of digits that reach held values only
    expect(
      repeatTokenProblems(
        NUMBERS,
        ['.4', '34', '3.4'],
        [
          { prefix: `${held}123456789012`, refused: ['3.4'], allowed: ['34', '.4'], completedBy: '3.5]' },
          { prefix: `[${tenAfter('12345678901234.')},12345678901234`, refused: ['.', '.4'], allowed: ['0'], completedBy: '0]' },
        ],
      ),
    ).toEqual([]);
  });

  it.each(VOCABULARIES)('%s: random generations end valid, with no dead end and every probed mask bit agreeing with accept()', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const schemas = {
      'numbers, minItems 6': { ...NUMBERS, minItems: 6 },
      'any value, minItems 5': { ...ANY, type: 'array', minItems: 5 },
      'beside strings, minItems 4': { ...BESIDE_STRINGS, minItems: 4 },
    };
    expect(randomGenerationProblems(vocabulary, schemas, { seed: 17, runs: 6, randomSteps: 40, validatorOf: registryVerdict })).toEqual([]);
  });

  it('keeps each inner array its own set, and restores the memory on rollback and reset', () => {
    const grammar = compileJsonSchema({ type: 'array', items: NUMBERS }, bytes);
    const matcher = grammar.matcher();
    // the second array starts empty: 1 and -0 are its own
    expect(matcher.acceptString('[[1.5,0],[1.50,-0.0]')).toBe(true);
    matcher.reset();
    expect(matcher.acceptString('[[1,0],[0.5,')).toBe(true);
    expect(matcher.acceptString('0.50')).toBe(true);
    expect(matcher.acceptString(']')).toBe(false);
    expect(matcher.acceptString('1,')).toBe(true);
    expect(matcher.acceptString('2.5')).toBe(true);
    // undoing `2.5` forgets nothing held; undoing `1,` forgets 0.501
    matcher.rollback(1);
    expect(matcher.acceptString('6]')).toBe(true);
    matcher.rollback(2);
    expect(matcher.acceptString('1]]')).toBe(true);
    expect(matcher.canTerminate()).toBe(true);
    matcher.reset();
    expect(matcher.acceptString('[[0.5],[0.5]]') && matcher.canTerminate()).toBe(true);
  });

  it.each([
    ['numbers under a multipleOf', { type: 'array', items: { type: 'number', multipleOf: 0.5 }, uniqueItems: true }],
    ['numbers beside number literals they do not offer', { type: 'array', items: { anyOf: [{ type: 'number' }, { const: 1e300 }] }, uniqueItems: true }],
    ['numbers beside contains', { type: 'array', items: { type: 'number' }, uniqueItems: true, contains: { const: 1 } }],
    ['items of any value beside contains', { type: 'array', uniqueItems: true, contains: { const: 1 } }],
    // booleans beside prefixItems are enforced now (unique-prefix-items.test.ts); integers at one position and numbers at another are not
    ['integers beside prefixItems of numbers', { prefixItems: [{ type: 'integer' }], items: { type: 'number' }, uniqueItems: true }],
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
