/**
 * `uniqueItems: true` over number items with finitely many texts (a bounded integer range, or one under an integer
 * `multipleOf`, alone or beside `enum` values): the items are tracked as a finite set of literal values, each text in the
 * class of its value (`0` and `-0` are one, as for the registry). Exhaustively over arrays of up to 3 items drawn from
 * values inside and around each range, the mask accepts an array's layout text exactly when the registry accepts the
 * array, and refuses every array the registry rejects whatever text writes it (`-0` for `0`). Number languages with
 * infinitely many texts (a binary fraction's trailing zeros) or too many values stay refused.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError, type CompiledGrammar } from '../../src/decoding/index.js';
import { literalText } from '../../src/decoding/lower-json-schema.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { everyArray } from './generation.js';

const vocabulary = byteVocabulary().buildIndex();

function maskAccepts(grammar: CompiledGrammar, text: string): boolean {
  const matcher = grammar.matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
}

const CASES: { name: string; schema: Record<string, unknown>; pool: string[] }[] = [
  {
    name: 'integers in [-1, 2]',
    schema: { type: 'array', uniqueItems: true, items: { type: 'integer', minimum: -1, maximum: 2 } },
    pool: ['-1', '0', '-0', '1', '2', '3', '-2', '0.5'],
  },
  {
    name: 'numbers under an integer multipleOf, exclusive bound',
    schema: { type: 'array', uniqueItems: true, items: { type: 'number', multipleOf: 2, minimum: -2, exclusiveMaximum: 6 } },
    pool: ['-2', '0', '-0', '2', '4', '6', '3', '-4'],
  },
  {
    name: 'an integer range beside enum values (1 and 2 in both)',
    schema: { type: 'array', uniqueItems: true, items: { anyOf: [{ type: 'integer', minimum: 1, maximum: 3 }, { enum: [2, 'x', 7] }] } },
    pool: ['1', '2', '3', '7', '"x"', '4', '"y"'],
  },
  {
    name: 'beside contains with minContains',
    schema: { type: 'array', uniqueItems: true, items: { type: 'integer', minimum: 0, maximum: 5 }, contains: { minimum: 4 }, minContains: 2 },
    pool: ['0', '3', '4', '5', '6'],
  },
];

describe('uniqueItems over number items with finitely many texts', () => {
  it.each(CASES)('$name: the mask accepts exactly the arrays the registry accepts', ({ schema, pool }) => {
    const grammar = compileJsonSchema(schema, vocabulary);
    const validator = compileSchema(schema);
    const disagreements: string[] = [];
    let valid = 0;
    let invalid = 0;
    for (const items of everyArray(pool, 3)) {
      const text = `[${items.join(',')}]`;
      const value = JSON.parse(text) as unknown[];
      const registry = validator.validate(value).success;
      if (registry) valid++;
      else invalid++;
      // a valid array in the layout's text (plain decimals, "0" for -0); an invalid one in its own text and the layout's
      const texts = registry ? [literalText(value)] : [...new Set([text, literalText(value)])];
      for (const written of texts) {
        if (maskAccepts(grammar, written) !== registry) disagreements.push(`${written}: the registry ${registry ? 'accepts' : 'rejects'} ${text}`);
      }
    }
    expect(disagreements).toEqual([]);
    expect([valid > 10, invalid > 10]).toEqual([true, true]);
  });

  it('12 integers without maxItems: every distinct arrangement, no repeat', () => {
    const schema = { type: 'array', uniqueItems: true, items: { type: 'integer', minimum: 1, maximum: 12 } };
    const grammar = compileJsonSchema(schema, vocabulary);
    const all = Array.from({ length: 12 }, (_, index) => index + 1);
    expect(maskAccepts(grammar, JSON.stringify(all))).toBe(true);
    expect(maskAccepts(grammar, JSON.stringify(all.toReversed()))).toBe(true);
    expect(maskAccepts(grammar, JSON.stringify([...all, 1]))).toBe(false);
    expect(maskAccepts(grammar, '[12,1,12]')).toBe(false);
    expect(maskAccepts(grammar, '[13]')).toBe(false);
  });

  it("a schema used both as a unique array's items and elsewhere is enforced in both places", () => {
    const schema = {
      type: 'object',
      properties: { one: { $ref: '#/$defs/small' }, many: { type: 'array', uniqueItems: true, items: { $ref: '#/$defs/small' } } },
      $defs: { small: { type: 'integer', minimum: -1, maximum: 2 } },
    };
    const grammar = compileJsonSchema(schema, vocabulary);
    expect(maskAccepts(grammar, '{"one":-0,"many":[-0,1]}')).toBe(true);
    expect(maskAccepts(grammar, '{"one":1,"many":[1,-0,0]}')).toBe(false);
    expect(maskAccepts(grammar, '{"one":3,"many":[1]}')).toBe(false);
    expect(maskAccepts(grammar, '{"one":2,"many":[1,2,-1,0]}')).toBe(true);
  });

  it('stays refused where the numbers have infinitely many texts or too many values', () => {
    const refusal = (items: Record<string, unknown>): string => {
      try {
        compileJsonSchema({ type: 'array', uniqueItems: true, items }, vocabulary);
      } catch (error) {
        if (error instanceof UnsupportedSchemaError) return `${error.keyword}: ${error.message}`;
        throw error;
      }
      return 'compiled';
    };
    // 0.5, 0.50, 0.500…: the trailing zeros make the texts endless
    expect(refusal({ type: 'number', multipleOf: 0.5, minimum: 0, maximum: 2 })).toMatch(/^uniqueItems: .*endless texts/);
    expect(refusal({ type: 'integer', multipleOf: 3, minimum: 1, maximum: 1000 })).toMatch(/^uniqueItems: .*more than 61/);
    // 13 values make 8,192 sets without maxItems
    expect(refusal({ type: 'integer', minimum: 1, maximum: 13 })).toMatch(/^uniqueItems: .*13 distinct values/);
    expect(refusal({ type: 'integer', multipleOf: 2, maximum: 3 })).toMatch(/^uniqueItems: /);
  });
});
