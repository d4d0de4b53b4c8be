/**
 * Where item strings or keys can run out, the matcher's memory walks only the tokens that could fail on it
 * (`exhaustion-bound.ts`: a quote that may close a held item, or a prefix whose completions may all be held). Every mask
 * bit stays what walking every candidate token gives (`boundedWalks` off): compared token by token over bench:mask's
 * texts of keys that can run out and over random generations, on the byte vocabulary and Qwen3, both layouts; also
 * where the held items go on in ASCII and tokens begin past it (`é…`, one of Qwen3's Thai or CJK tokens), and where a
 * token's escape (`\u0061`) writes a held item's next unit.
 */
import { describe, expect, it } from 'vitest';
import { writtenStringsCases } from '../../bench/mask/written-strings.js';
import { compileJsonSchema, type CompiledGrammar, type Vocabulary } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { createRandom } from './generation.js';
import { maskDifferences } from './mask-differences.js';
import { loadTestTokenizer } from './test-tokenizer.js';

// small languages, so random generations hold most of their strings; and texts that stop where a token would repeat one
const SCHEMAS: Record<string, { schema: Record<string, unknown>; texts: string[] }> = {
  'propertyNames enum sharing prefixes, minProperties 2': {
    schema: { type: 'object', propertyNames: { enum: ['a', 'ab', 'abc', 'b', 'ba', 'name', 'names', 'named-1', 'named-2'] }, minProperties: 2 },
    texts: ['{"name":1,"names":2,"named-1":3,"named-2":4,"a":5,"ab":6,"abc":7,"ba":8,"b":9}'],
  },
  'propertyNames enum of 3, minProperties 2': { schema: { type: 'object', propertyNames: { enum: ['a', 'ab', 'b'] }, minProperties: 2 }, texts: [] },
  'propertyNames maxLength 1, minProperties 2': {
    schema: { type: 'object', propertyNames: { maxLength: 1, pattern: '^[ab"é]*$' }, minProperties: 2 },
    texts: [],
  },
  'propertyNames maxLength 4 over a and b, minProperties 2': {
    schema: { type: 'object', propertyNames: { maxLength: 4, pattern: '^[ab]*$' }, minProperties: 2 },
    texts: ['{"a":1,"a":2}', '{"ab":1,"abab":2,"ab":3}'],
  },
  // a held key's next unit ASCII, tokens beginning past ASCII (`é…`): they go along none
  'propertyNames maxLength 4 over a, b and é, minProperties 2': {
    schema: { type: 'object', propertyNames: { maxLength: 4, pattern: '^[abé]*$' }, minProperties: 2 },
    texts: ['{"ab":1,"aé":2,"abé":3,"éa":4,"ab":5}', '{"éé":1,"éa":2,"éé":3}'],
  },
  'unique strings of at most 2 characters': {
    schema: { type: 'array', items: { type: 'string', maxLength: 2, pattern: '^[ab"]*$' }, uniqueItems: true },
    texts: ['["a","b","ab","a"]'],
  },
  // an escape writes a held item's next unit too: `\u0061` after `"` where a, aa and ab are held
  'unique strings of at most 2 characters over a and b': {
    schema: { type: 'array', items: { type: 'string', maxLength: 2, pattern: '^[ab]*$' }, uniqueItems: true },
    texts: ['["a","aa","ab","b"]', '["b","ba","bb","a"]'],
  },
  'unique strings of at most 8 characters': {
    schema: { type: 'array', items: { type: 'string', maxLength: 8, pattern: '^[ab]*$' }, uniqueItems: true },
    texts: ['["a","b","a"]', '["ab","a","ab"]', '["abab", "ab","abab"]', '["a","b","ab","a"]'],
  },
  'unique strings of one pattern': { schema: { type: 'array', items: { type: 'string', pattern: '^abcd$' }, uniqueItems: true }, texts: ['["abcd","abcd"]'] },
  'unique strings of an enum, nested': {
    schema: { type: 'array', items: { type: 'array', items: { enum: ['x', 'xy', 'y'] }, uniqueItems: true } },
    texts: ['[["x","xy"],["xy","x","y"]]'],
  },
};

/** Byte-vocabulary tokens that close a string and open the next, or write a few units and close one (as real vocabularies' do). */
const EXTRA = [
  '","',
  '","a"',
  '","a',
  '","ab',
  '", "b',
  'a"',
  'ab"',
  'b","',
  'a","b',
  '"a',
  '"ab',
  '"a"',
  '"a","',
  'é"',
  'éé',
  'éa',
  'éab',
  'b"',
  '\\"',
  '\\""',
  'x"',
  '"x',
  'xy"',
  '"],["x',
  '"]',
  '":1,"a',
  '\\u0061',
  '\\u0062',
  '\\u006',
];

/** The steps where the masks differ from those of a matcher that walks every candidate token. */
function boundDifferences(grammar: CompiledGrammar, ids: readonly number[], random: () => number, randomSteps: number): string[] {
  return maskDifferences(grammar, (matcher) => (matcher.boundedWalks = false), 'bounded', ids, random, randomSteps);
}

function differencesOn(vocabulary: Vocabulary, encode: (text: string) => number[], runs: number): string[] {
  const differences: string[] = [];
  // the bench's texts are in the flexible layout
  for (const entry of writtenStringsCases()) {
    if (!/keys of|enum/.test(entry.name)) continue;
    const grammar = compileJsonSchema(entry.tracked, vocabulary, { layout: 'flexible' });
    differences.push(...boundDifferences(grammar, encode(entry.repeated), createRandom(1), 0).map((line) => `${entry.name}: ${line}`));
  }
  for (const layout of ['compact', 'flexible'] as const) {
    for (const [name, { schema, texts }] of Object.entries(SCHEMAS)) {
      const grammar = compileJsonSchema(schema, vocabulary, { layout });
      for (const text of texts)
        differences.push(...boundDifferences(grammar, encode(text), createRandom(1), 0).map((line) => `${name} (${layout}), ${text}: ${line}`));
      const random = createRandom(7);
      for (let run = 0; run < runs; run++) differences.push(...boundDifferences(grammar, [], random, 60).map((line) => `${name} (${layout}): ${line}`));
    }
  }
  return differences;
}

describe('the bounded walks where items can run out', () => {
  it('leave every mask bit as walking every candidate token does, on the byte vocabulary', () => {
    const vocabulary = byteVocabulary(EXTRA);
    expect(differencesOn(vocabulary, (text) => [...new TextEncoder().encode(text)], 40)).toEqual([]);
  });

  it('leave every mask bit as walking every candidate token does, on Qwen3', () => {
    const { vocabulary, encode } = loadTestTokenizer('qwen3');
    expect(differencesOn(vocabulary, encode, 8)).toEqual([]);
  }, 900_000);
});
