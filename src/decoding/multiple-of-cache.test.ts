import { describe, expect, it, vi } from 'vitest';
import { byteVocabulary } from '../../test/decoding/byte-vocabulary.js';
import { compileJsonSchema } from './compile-json-schema.js';
import { GrammarCache } from './grammar-cache.js';
import * as multipleOfLanguage from './multiple-of-language.js';

// counts the products built, wherever they are built from
vi.mock('./multiple-of-language.js', async (importOriginal) => {
  const original = await importOriginal<typeof multipleOfLanguage>();
  return { ...original, intersectNumberAutomata: vi.fn(original.intersectNumberAutomata) };
});

const encoder = new TextEncoder();

describe('multipleOf automata shared across compiles', () => {
  it('builds the product of {type: integer, multipleOf: 100} once for many tools over one vocabulary, with the same verdicts', () => {
    const products = vi.mocked(multipleOfLanguage.intersectNumberAutomata);
    products.mockClear();
    const vocabulary = byteVocabulary();
    const verdicts: boolean[][] = [];
    for (let tool = 0; tool < 3; tool++) {
      const grammar = compileJsonSchema({ type: 'integer', multipleOf: 100 }, vocabulary, { precomputeWork: 0 });
      verdicts.push(
        ['1200', '-300', '1250', '9007199254740900', '9007199254741000'].map((text) => {
          const matcher = grammar.matcher();
          return [...encoder.encode(text)].every((byte) => matcher.accept(byte)) && matcher.canTerminate();
        }),
      );
    }
    expect(products).toHaveBeenCalledTimes(1);
    expect(verdicts).toEqual(Array.from({ length: 3 }, () => [true, true, false, true, false]));
    // another divisor, range or budget is another product
    compileJsonSchema({ type: 'integer', multipleOf: 1000 }, vocabulary, { precomputeWork: 0 });
    compileJsonSchema({ type: 'integer', multipleOf: 100, minimum: 0 }, vocabulary, { precomputeWork: 0 });
    compileJsonSchema({ type: 'integer', multipleOf: 100 }, vocabulary, { precomputeWork: 0, limits: { multipleOfMaxStates: 150_000 } });
    expect(products).toHaveBeenCalledTimes(4);
  });

  it('keeps a product past its state budget, so the same refusal costs nothing the second time', () => {
    const products = vi.mocked(multipleOfLanguage.intersectNumberAutomata);
    products.mockClear();
    const cache = new GrammarCache();
    const range = { integer: true, minimum: -(2 ** 53), exclusiveMinimum: true, maximum: 2 ** 53, exclusiveMaximum: true };
    expect(cache.multipleOfAutomaton(range, [{ modulus: 9999, scale: 0 }], 200_000)).toBeUndefined();
    expect(cache.multipleOfAutomaton(range, [{ modulus: 9999, scale: 0 }], 200_000)).toBeUndefined();
    expect(products).toHaveBeenCalledTimes(1);
  });

  it('keys each product by its exact range and moduli: -0 and 0, inclusive and exclusive, 0.5 and 5 apart', () => {
    const cache = new GrammarCache();
    const range = (minimum: number, exclusiveMinimum: boolean) => ({ integer: false, minimum, exclusiveMinimum, maximum: 10, exclusiveMaximum: false });
    const half = cache.multipleOfAutomaton(range(0, false), [{ modulus: 5, scale: 1 }], 200_000)!;
    const five = cache.multipleOfAutomaton(range(0, false), [{ modulus: 5, scale: 0 }], 200_000)!;
    const exclusive = cache.multipleOfAutomaton(range(0, true), [{ modulus: 5, scale: 1 }], 200_000)!;
    expect([half.matches('0.5'), five.matches('0.5'), five.matches('5')]).toEqual([true, false, true]);
    expect([half.matches('0'), exclusive.matches('0'), exclusive.matches('0.5')]).toEqual([true, false, true]);
    expect(cache.multipleOfAutomaton(range(-0, false), [{ modulus: 5, scale: 1 }], 200_000)).not.toBe(half);
  });

  it('keeps the non-multiples of a modulus apart from its multiples', () => {
    const cache = new GrammarCache();
    const integers = { integer: true, minimum: 0, exclusiveMinimum: false, maximum: 100, exclusiveMaximum: false };
    const multiples = cache.multipleOfAutomaton(integers, [{ modulus: 3, scale: 0 }], 200_000)!;
    const others = cache.multipleOfAutomaton(integers, [{ modulus: 3, scale: 0, excluded: true }], 200_000)!;
    expect(['0', '3', '4', '99', '100'].map((text) => [multiples.matches(text), others.matches(text)])).toEqual([
      [true, false],
      [true, false],
      [false, true],
      [true, false],
      [false, true],
    ]);
  });
});
