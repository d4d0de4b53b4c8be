/**
 * The matcher's memory (`written-strings.ts`) walks only the tokens that could fail on it, not every allowed token.
 * Where that choice skips walks, every mask bit stays what walking every allowed token gives (`walksEveryToken`),
 * compared token by token: inside integer items, the tokens with a digit and another byte are read by first byte, and
 * a group whose byte the state refuses is skipped (`first-byte-groups.ts`); after a lone `-`, only the lists of tokens
 * with a digit are walked (every token allowed there begins with one), as after any other integer prefix no held value
 * ends. Over bench:mask's text of 200 unique integers, texts that stop where a negative integer or a prefix of one
 * would repeat, numbers whose point or last digit would reach held values only, and random generations, on the byte
 * vocabulary (with tokens that write a digit and another byte, some beginning with `<` as Gemma 3's `<unused…>` do) and
 * the Qwen3, Llama 3 and Gemma 3 vocabularies, both layouts.
 */
import { describe, expect, it } from 'vitest';
import { writtenStringsCases } from '../../bench/mask/written-strings.js';
import { compileJsonSchema, type CompiledGrammar, type Vocabulary } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { createRandom } from './generation.js';
import { maskDifferences } from './mask-differences.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const INTEGERS = { type: 'array', items: { type: 'integer' }, uniqueItems: true };

const SCHEMAS: Record<string, { schema: Record<string, unknown>; texts: string[]; realVocabularies: boolean }> = {
  integers: {
    schema: INTEGERS,
    texts: ['[-1,-12,-1]', '[-5, -50, -500, -5]', '[0,-0]', '[-0,0]', '[7,-7,-70,7]', '[-9007199254740991,-900719925474099,-9007199254740990,-1]'],
    realVocabularies: true,
  },
  'integers in nested arrays': { schema: { type: 'array', items: INTEGERS }, texts: ['[[-1,-2],[-1,-2,-1]]', '[[-3],[-3,-3]]'], realVocabularies: true },
  // a point after 14 digits leaves one more digit (15 at most): with .1 to .9 and the integer held, the point is dead
  numbers: {
    schema: { type: 'array', items: { type: 'number' }, uniqueItems: true },
    texts: [
      `[${[1, 2, 3, 4, 5, 6, 7, 8, 9].map((digit) => `12345678901234.${digit}`).join(',')},12345678901234,-12345678901234.5,12345678901234.`,
      '[1.5,1.50,-0.25,-0.250]',
      '[1,123456789012345,-123456789012345,12345678901234.5]',
    ],
    realVocabularies: true,
  },
  'integers beside strings, objects and arrays': {
    schema: { type: 'array', items: { type: ['integer', 'string', 'object', 'array'] }, uniqueItems: true },
    texts: ['["-1",-1,[-1],{"a":-1},-1]', '[-2,"x",-2]'],
    realVocabularies: false,
  },
};

/** Byte-vocabulary tokens with a digit and another byte: ends of integers, signs, and `<…>` tokens as Gemma 3's. */
const EXTRA = [
  '-1',
  '-12',
  '1,',
  '0]',
  '-0,',
  '5, -',
  ',-1',
  '12]',
  '<unused1>',
  '<0x31>',
  'x1',
  '1"',
  '"1',
  '-7]',
  ' -5',
  '9,-',
  '1e',
  '.5',
  '4.',
  '.50]',
  '4.1,',
];

/** The steps where the masks differ from those of a matcher that walks every allowed token. */
function skipDifferences(grammar: CompiledGrammar, ids: readonly number[], random: () => number, randomSteps: number): string[] {
  return maskDifferences(grammar, (matcher) => (matcher.walksEveryToken = true), 'skipping', ids, random, randomSteps);
}

function differencesOn(vocabulary: Vocabulary, encode: (text: string) => number[], runs: number, real: boolean): string[] {
  const differences: string[] = [];
  // the bench's text is in the flexible layout
  const bench = writtenStringsCases().find((entry) => entry.name.includes('unique integers'))!;
  const benchGrammar = compileJsonSchema(bench.tracked, vocabulary, { layout: 'flexible' });
  differences.push(...skipDifferences(benchGrammar, encode(bench.repeated), createRandom(1), 0).map((line) => `${bench.name}: ${line}`));
  for (const layout of ['compact', 'flexible'] as const) {
    for (const [name, { schema, texts, realVocabularies }] of Object.entries(SCHEMAS)) {
      if (real && !realVocabularies) continue;
      const grammar = compileJsonSchema(schema, vocabulary, { layout });
      for (const text of texts)
        differences.push(...skipDifferences(grammar, encode(text), createRandom(1), 0).map((line) => `${name} (${layout}), ${text}: ${line}`));
      const random = createRandom(7);
      for (let run = 0; run < runs; run++) differences.push(...skipDifferences(grammar, [], random, 40).map((line) => `${name} (${layout}): ${line}`));
    }
  }
  return differences;
}

describe('the walks the memory skips inside integer items', () => {
  it('leave every mask bit as walking every allowed token does, on the byte vocabulary', () => {
    const vocabulary = byteVocabulary(EXTRA);
    const encode = (text: string): number[] => [...new TextEncoder().encode(text)];
    expect(differencesOn(vocabulary, encode, 30, false)).toEqual([]);
  }, 60_000);

  for (const name of ['qwen3', 'llama3', 'gemma3'] as const) {
    it(`leave every mask bit as walking every allowed token does, on ${name}`, () => {
      const { vocabulary, encode } = loadTestTokenizer(name);
      expect(differencesOn(vocabulary, encode, 6, true)).toEqual([]);
    }, 120_000);
  }
});
